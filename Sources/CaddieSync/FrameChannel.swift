import CaddieWire
import NIOCore

/// Reads whole frames from a connection's byte stream, with the size limit of ``FrameDecoder``.
struct FrameReader {
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var decoder = FrameDecoder()

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) {
        iterator = inbound.makeAsyncIterator()
    }

    /// The next frame, or nil when the peer closed the connection.
    mutating func next() async throws -> [UInt8]? {
        while true {
            if let frame = try decoder.next() { return frame }
            guard let buffer = try await iterator.next() else {
                if decoder.buffered > 0 { throw WireError.malformedMessage("the connection closed inside a frame") }
                return nil
            }
            decoder.append(Array(buffer.readableBytesView))
        }
    }
}

extension NIOAsyncChannelOutboundWriter<ByteBuffer> {
    /// Writes one frame: length prefix and body.
    func writeFrame(_ body: [UInt8]) async throws {
        try await write(ByteBuffer(bytes: FrameDecoder.frame(body)))
    }
}
