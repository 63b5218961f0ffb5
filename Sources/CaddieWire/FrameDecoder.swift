import CaddieCore

/// Splits a byte stream into frames: a u32 big-endian length, then that many bytes.
///
/// A zero or oversized length is an error that ends the connection; the decoder never buffers more than
/// one maximum frame plus its length prefix.
public struct FrameDecoder: Sendable {
    /// Largest frame body accepted: a batch of ops is capped well below it.
    public static let maxFrame = 1 << 20

    private var buffer: [UInt8] = []
    private var start = 0

    /// Creates an empty decoder.
    public init() {}

    /// Adds received bytes.
    public mutating func append(_ bytes: [UInt8]) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, nil if more bytes are needed.
    public mutating func next() throws(WireError) -> [UInt8]? {
        guard buffer.count - start >= 4 else { return nil }
        let length = buffer[start..<(start + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length >= 1, length <= Self.maxFrame else { throw .frameSize(length) }
        guard buffer.count - start >= 4 + length else { return nil }
        let frame = Array(buffer[(start + 4)..<(start + 4 + length)])
        start += 4 + length
        if start > 65536 {
            buffer.removeFirst(start)
            start = 0
        }
        return frame
    }

    /// Bytes received but not yet returned as a frame.
    public var buffered: Int { buffer.count - start }

    /// A frame's bytes on the wire: length prefix and body.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: body.count + 4)
        writer.u32(UInt32(body.count))
        writer.raw(body)
        return writer.bytes
    }
}
