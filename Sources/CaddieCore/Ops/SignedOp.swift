/// One signed entry of a device's log in a space, decoded from the exact bytes that were signed.
///
/// Layout (Protocol/op-format.md): version, space, device, seq, prev, hlc, pred, payload, signature.
/// The bytes are kept as received: an op is never re-encoded, so a signature checked once stays
/// checkable by anyone who holds the same bytes.
public struct SignedOp: Hashable, Sendable {
    /// The only op format this build reads and writes.
    public static let formatVersion: UInt8 = 1
    /// Largest accepted payload; a score is about 30 bytes, a whole course a few kilobytes.
    public static let maxPayloadBytes = 64 * 1024
    /// Most ops one op may supersede.
    public static let maxPred = 64
    /// Highest sequence number: what SQLite's signed 64-bit integers hold.
    public static let maxSeq = UInt64(Int64.max)
    /// Signature length (Ed25519).
    public static let signatureLength = 64
    /// The domain-separation prefix signed in front of the op bytes.
    public static let signingContext: [UInt8] = Array("caddie-op-v1".utf8)

    /// The decoded fields, held once: a copy of an op (into a batch, a run, a change note) costs one reference
    /// count, not one for each of the seven arrays it holds (the receive path copies each op several times; the
    /// copies of a struct of seven arrays were a quarter of a bundle import's time, docs/performance.md).
    @usableFromInline final class Fields: Sendable {
        @usableFromInline let space: SpaceID
        @usableFromInline let device: PublicKey
        @usableFromInline let seq: UInt64
        @usableFromInline let prev: Digest32
        @usableFromInline let hlc: HLC
        @usableFromInline let pred: [OpID]
        /// Where the payload lies in ``bytes``: it is read there, not copied out.
        @usableFromInline let payload: Range<Int>
        @usableFromInline let bytes: [UInt8]

        /// Decodes an op, checking its structure (not its signature, chain or payload meaning).
        init(bytes: [UInt8]) throws(DecodeError) {
            var reader = ByteReader(bytes)
            let version = try reader.u8("op version")
            guard version == SignedOp.formatVersion else {
                throw DecodeError(
                    what: "op version", reason: "is \(version); this build reads version \(SignedOp.formatVersion)")
            }
            space = try reader.fixed(SpaceID.self, "op space")
            device = try reader.fixed(PublicKey.self, "op device")
            seq = try reader.u64("op seq")
            guard seq >= 1, seq <= SignedOp.maxSeq else {
                throw DecodeError(what: "op seq", reason: "is \(seq); sequence numbers run from 1 to \(SignedOp.maxSeq)")
            }
            prev = try reader.fixed(Digest32.self, "op prev")
            hlc = HLC(rawValue: try reader.u64("op hlc"))
            guard hlc.rawValue <= UInt64(Int64.max) else {
                throw DecodeError(what: "op hlc", reason: "is beyond the year 10000")
            }
            pred = try reader.opIDs("op pred", limit: SignedOp.maxPred)
            let payloadLength = Int(try reader.u32("op payload length"))
            guard payloadLength <= SignedOp.maxPayloadBytes else {
                throw DecodeError(
                    what: "op payload", reason: "is \(payloadLength) bytes; at most \(SignedOp.maxPayloadBytes)")
            }
            payload = reader.offset..<(reader.offset + payloadLength)
            try reader.skip(payloadLength, "op payload")
            try reader.skip(SignedOp.signatureLength, "op signature")
            try reader.expectEnd("op")
            self.bytes = bytes
        }
    }

    @usableFromInline let fields: Fields

    /// The space the op belongs to.
    @inlinable public var space: SpaceID { fields.space }
    /// The device key that signed the op.
    @inlinable public var device: PublicKey { fields.device }
    /// Position in the device's log, from 1.
    @inlinable public var seq: UInt64 { fields.seq }
    /// BLAKE2b-256 of the device's previous op (all zeros for seq 1).
    @inlinable public var prev: Digest32 { fields.prev }
    /// When it was made.
    @inlinable public var hlc: HLC { fields.hlc }
    /// The ops it supersedes (for score cells).
    @inlinable public var pred: [OpID] { fields.pred }
    /// The encoded changes, read in place in the op's bytes.
    @inlinable public var payloadBytes: ArraySlice<UInt8> { fields.bytes[fields.payload] }
    /// The encoded changes, as an array of their own.
    @inlinable public var payload: [UInt8] { Array(payloadBytes) }
    /// The Ed25519 signature over ``signingContext`` followed by ``signedPortion``: the op's last bytes.
    @inlinable public var signature: [UInt8] { Array(fields.bytes.suffix(Self.signatureLength)) }
    /// The exact bytes of the whole op.
    @inlinable public var bytes: [UInt8] { fields.bytes }

    /// Two ops are the same when their bytes are: every field is read from them.
    public static func == (lhs: SignedOp, rhs: SignedOp) -> Bool { lhs.fields === rhs.fields || lhs.bytes == rhs.bytes }

    /// Hashes the bytes, which every field is read from.
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }

    /// The op's id.
    @inlinable public var id: OpID { OpID(device: device, seq: seq) }

    /// Everything but the trailing signature: what the signature covers (after the context prefix).
    public var signedPortion: ArraySlice<UInt8> { bytes[0..<(bytes.count - Self.signatureLength)] }

    /// Encodes the unsigned part of an op; append a signature over `signingContext + result` to finish it.
    public static func encodeUnsigned(
        space: SpaceID, device: PublicKey, seq: UInt64, prev: Digest32, hlc: HLC, pred: [OpID], payload: [UInt8]
    ) -> [UInt8] {
        var writer = ByteWriter(capacity: 128 + payload.count + pred.count * 40)
        writer.u8(formatVersion)
        writer.raw(space)
        writer.raw(device)
        writer.u64(seq)
        writer.raw(prev)
        writer.u64(hlc.rawValue)
        writer.opIDs(pred)
        writer.u32(UInt32(clamping: payload.count))
        writer.raw(payload)
        return writer.bytes
    }

    /// Decodes an op, checking its structure (not its signature, chain or payload meaning).
    public init(bytes: [UInt8]) throws(DecodeError) { fields = try Fields(bytes: bytes) }
}

extension ByteWriter {
    /// Writes a list of op ids: a 16-bit count, then each id's device key and seq. An op's `pred` and the adds a
    /// roster removal observed are written this way.
    public mutating func opIDs(_ ids: [OpID]) {
        u16(UInt16(clamping: ids.count))
        for id in ids {
            raw(id.device.bytes)
            u64(id.seq)
        }
    }
}

extension ByteReader {
    /// Reads a list ``ByteWriter/opIDs(_:)`` wrote: at most `limit` ids, each seq in 1...``SignedOp/maxSeq``.
    public mutating func opIDs(_ what: String, limit: Int) throws(DecodeError) -> [OpID] {
        // The labels name the list's part alone, and `what` is put before them only for an error: a list is read
        // once an op, most often empty.
        do {
            return try list("count", limit: limit) { reader throws(DecodeError) in
                let device = try reader.fixed(PublicKey.self, "device")
                let seq = try reader.u64("seq")
                guard seq >= 1, seq <= SignedOp.maxSeq else { throw DecodeError(what: "seq", reason: "is out of range") }
                return OpID(device: device, seq: seq)
            }
        } catch {
            throw DecodeError(what: "\(what) \(error.what)", reason: error.reason)
        }
    }
}
