import CaddieCore
import CaddieCrypto

/// An op bundle file: the ops of one space, for merging two homes with no network.
///
/// Layout: "CADDIEB1", version u8 (1), space id (16), op count u32, then each op as u32 length and
/// its exact bytes, and last a BLAKE2b-256 checksum of everything before it, so that a truncated or
/// damaged file is refused as a whole before anything is applied.
public struct OpBundle: Sendable {
    static let magic = Array("CADDIEB1".utf8)
    /// Largest op a bundle may carry.
    public static let maxOpBytes = 128 * 1024
    /// Most ops a bundle may carry.
    public static let maxOps = 10_000_000

    /// The space the ops belong to.
    public let space: SpaceID
    /// The ops, each exactly as signed.
    public let ops: [[UInt8]]

    /// Creates a bundle.
    public init(space: SpaceID, ops: [[UInt8]]) {
        self.space = space
        self.ops = ops
    }

    /// The file bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: ops.reduce(64) { $0 + $1.count + 4 })
        writer.raw(Self.magic)
        writer.u8(1)
        writer.raw(space)
        writer.u32(UInt32(clamping: ops.count))
        for op in ops {
            writer.u32(UInt32(clamping: op.count))
            writer.raw(op)
        }
        let checksum = Blake2b.hash(writer.bytes)
        writer.raw(checksum)
        return writer.bytes
    }

    /// Reads a bundle file, refusing anything truncated, damaged or not a bundle.
    public init(decoding bytes: [UInt8]) throws(CoreError) {
        guard bytes.count >= Self.magic.count + 1 + 16 + 4 + 32, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw .malformed("not a Caddie op bundle (it should start with CADDIEB1); make one with `caddie export`")
        }
        let body = bytes[0..<(bytes.count - 32)]
        guard Blake2b.hash(body).bytes == Array(bytes.suffix(32)) else {
            throw .malformed("the bundle is truncated or damaged (its checksum does not match); export it again")
        }
        var reader = ByteReader(Array(body))
        do {
            _ = try reader.raw(Self.magic.count, "magic")
            let version = try reader.u8("bundle version")
            guard version == 1 else {
                throw CoreError.malformed("bundle version \(version) is newer than this caddie understands; upgrade caddie")
            }
            space = try reader.fixed(SpaceID.self, "bundle space")
            let count = Int(try reader.u32("bundle op count"))
            guard count <= Self.maxOps else {
                throw CoreError.malformed("the bundle claims \(count) ops; at most \(Self.maxOps)")
            }
            var ops: [[UInt8]] = []
            ops.reserveCapacity(min(count, 1 << 20))
            for index in 0..<count {
                let length = Int(try reader.u32("bundle op length"))
                guard length <= Self.maxOpBytes else {
                    throw CoreError.malformed("op #\(index + 1) of the bundle is \(length) bytes; at most \(Self.maxOpBytes)")
                }
                ops.append(try reader.raw(length, "bundle op"))
            }
            try reader.expectEnd("bundle")
            self.ops = ops
        } catch let error as CoreError {
            throw error
        } catch {
            throw .malformed("the bundle is malformed: \(error)")
        }
    }
}
