import CaddieWire
import NIOCore

/// Frames in the channel pipeline, as on the sync wire (``FrameDecoder``: a u32 length, then at most 1 MiB of
/// body): the pipeline hands whole frame bodies up and takes frame bodies down, so an `NIOAsyncChannel` of
/// `[UInt8]` reads and writes frames. Pairing and the control socket use it.
struct FrameCodec: ByteToMessageDecoder, MessageToByteEncoder {
    typealias InboundOut = [UInt8]
    typealias OutboundIn = [UInt8]

    /// The connection closed with part of a frame unread.
    struct ClosedInsideFrame: Error, CustomStringConvertible {
        var description: String { "the connection closed inside a frame" }
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length >= 1, length <= FrameDecoder.maxFrame else { throw WireError.frameSize(Int(length)) }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let body = buffer.readBytes(length: Int(length)) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(body))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0 { throw ClosedInsideFrame() }
        return .needMoreData
    }

    func encode(data: [UInt8], out: inout ByteBuffer) throws {
        guard !data.isEmpty, data.count <= FrameDecoder.maxFrame else { throw WireError.frameSize(data.count) }
        out.writeInteger(UInt32(data.count))
        out.writeBytes(data)
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// Adds the frame codec and wraps the channel so that it reads and writes whole frames.
    func framedChannel(_ channel: any Channel) throws -> NIOAsyncChannel<[UInt8], [UInt8]> {
        try addHandlers(ByteToMessageHandler(FrameCodec()), MessageToByteHandler(FrameCodec()))
        return try NIOAsyncChannel<[UInt8], [UInt8]>(wrappingChannelSynchronously: channel)
    }
}
