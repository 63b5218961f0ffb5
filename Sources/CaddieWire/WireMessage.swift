import CaddieCore
import CaddieCrypto

/// The messages of an established session, each sent as one encrypted frame (Protocol/wire.md, "Messages").
public enum WireMessage: Equatable, Sendable {
    /// What the sender holds: per device, the highest contiguous seq and the hash of that op. `wantAll`
    /// asks for everything the sender lacks at once (a one-shot sync), not only the receiver's own log.
    case vector([VectorEntry], wantAll: Bool = false)
    /// A batch of ops the receiver lacks, in per-device seq order; `ack` asks the receiver to acknowledge it
    /// (a one-shot sync does, to know when it is done; live pushes do not, to keep each edit small).
    case ops(batch: UInt32, ack: Bool, [WireOp])
    /// The receiver applied batch `batch` (all of it or what was valid), and how many ops were new.
    case ack(batch: UInt32, applied: UInt32)
    /// The sender has sent everything the receiver lacked as of the receiver's last vector.
    case done
    /// The sender ends the session.
    case close(CloseReason, String)
    /// A digest of the sender's vector: a cheap "anything new?" that needs a full vector only on a mismatch.
    case digest(Digest32)
    /// The inviting device's answer to a redeemed invite: the space key and the space's name. Sent only on a
    /// session opened with an invite's key, as its one message; the session then ends.
    case welcome(spaceKey: [UInt8], name: String, earlierKeys: [[UInt8]] = [])
    /// One op of the sender's own device, pushed live on a session of protocol version 2 (never sent on an older
    /// one): its compact form less the device, which is the session's peer's (``WireOp/live(_:)``). It asks no ack.
    case live([UInt8])

    /// Most ops in one batch.
    public static let maxBatchOps = 1000
    /// Most vector entries (devices in a space).
    public static let maxVectorEntries = 10_000

    /// One device's entry in a vector.
    public struct VectorEntry: Equatable, Sendable {
        /// The device.
        public let device: PublicKey
        /// Highest contiguous seq held.
        public let seq: UInt64
        /// BLAKE2b-256 of the op at that seq, so replicas can notice a fork even with equal vectors.
        public let head: Digest32

        /// Creates an entry.
        public init(device: PublicKey, seq: UInt64, head: Digest32) {
            self.device = device
            self.seq = seq
            self.head = head
        }
    }

    /// Why a session ended.
    public enum CloseReason: UInt8, Sendable {
        /// A one-shot sync finished.
        case finished = 0
        /// The node is shutting down.
        case shutdown = 1
        /// The peer's device is revoked in this space.
        case revoked = 2
        /// The peer sent something invalid.
        case protocolError = 3
        /// The invite the peer presented is used up, expired or revoked.
        case inviteRefused = 4
    }

    /// Encodes the message.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 64)
        switch self {
        case .vector(let entries, let wantAll):
            writer.u8(0x01)
            writer.u8(wantAll ? 1 : 0)
            let sent = entries.prefix(Self.maxVectorEntries)
            writer.u16(UInt16(sent.count))
            for entry in sent {
                writer.raw(entry.device)
                writer.u64(entry.seq)
                writer.raw(entry.head)
            }
        case .ops(let batch, let ack, let ops):
            writer.u8(0x02)
            writer.u32(batch)
            writer.u8(ack ? 1 : 0)
            writer.u16(UInt16(clamping: ops.count))
            for op in ops { op.encode(into: &writer) }
        case .ack(let batch, let applied):
            writer.u8(0x03)
            writer.u32(batch)
            writer.u32(applied)
        case .done:
            writer.u8(0x04)
        case .close(let reason, let text):
            writer.u8(0x05)
            writer.u8(reason.rawValue)
            writer.string16(String(text.prefix(500)))
        case .digest(let digest):
            writer.u8(0x06)
            writer.raw(digest)
        case .welcome(let key, let name, let earlier):
            writer.u8(0x07)
            writer.raw(key)
            writer.string8(String(name.prefix(60)))
            let sent = earlier.prefix(255).filter { $0.count == 32 }
            writer.u8(UInt8(sent.count))
            for key in sent { writer.raw(key) }
        case .live(let bytes):
            writer.u8(0x08)
            writer.raw(bytes)
        }
        return writer.bytes
    }

    /// Decodes a message, refusing unknown types, bad lengths and trailing bytes.
    public init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes)
        do {
            switch try reader.u8("message type") {
            case 0x01:
                let flags = try reader.u8("vector flags")
                guard flags <= 1 else { throw WireError.malformedMessage("unknown vector flags \(flags)") }
                let count = Int(try reader.u16("vector count"))
                guard count <= Self.maxVectorEntries else { throw WireError.malformedMessage("vector of \(count) devices") }
                var entries: [VectorEntry] = []
                for _ in 0..<count {
                    let device = try reader.fixed(PublicKey.self, "vector device")
                    let seq = try reader.u64("vector seq")
                    guard seq <= SignedOp.maxSeq else { throw WireError.malformedMessage("vector seq out of range") }
                    entries.append(
                        VectorEntry(device: device, seq: seq, head: try reader.fixed(Digest32.self, "vector head")))
                }
                self = .vector(entries, wantAll: flags == 1)
            case 0x02:
                let batch = try reader.u32("batch")
                let flags = try reader.u8("batch flags")
                guard flags <= 1 else { throw WireError.malformedMessage("unknown batch flags \(flags)") }
                let count = Int(try reader.u16("op count"))
                guard count <= Self.maxBatchOps else { throw WireError.malformedMessage("batch of \(count) ops") }
                var ops: [WireOp] = []
                for _ in 0..<count { ops.append(try WireOp.decode(from: &reader)) }
                self = .ops(batch: batch, ack: flags == 1, ops)
            case 0x03:
                self = .ack(batch: try reader.u32("batch"), applied: try reader.u32("applied"))
            case 0x04:
                self = .done
            case 0x05:
                let code = try reader.u8("close reason")
                self = .close(CloseReason(rawValue: code) ?? .protocolError, try reader.string16("close text"))
            case 0x06:
                self = .digest(try reader.fixed(Digest32.self, "digest"))
            case 0x07:
                let key = try reader.raw(32, "space key")
                let name = try reader.string8("space name")
                var earlier: [[UInt8]] = []
                for _ in 0..<Int(try reader.u8("earlier key count")) { earlier.append(try reader.raw(32, "earlier key")) }
                self = .welcome(spaceKey: key, name: name, earlierKeys: earlier)
            case 0x08:
                // The rest of the message is the op: its form's version, seq and more (Protocol/wire.md, "live").
                let bytes = try reader.raw(bytes.count - 1, "live op")
                guard bytes.count >= WireOp.liveMinimum else {
                    throw WireError.malformedMessage("a live op of \(bytes.count) bytes")
                }
                self = .live(bytes)
            case let type:
                throw WireError.malformedMessage("unknown message type 0x\(String(type, radix: 16))")
            }
            try reader.expectEnd("message")
        } catch let error as WireError {
            throw error
        } catch {
            throw .malformedMessage("\(error)")
        }
    }
}

/// An op as carried in a batch: whole, or compact (without the space id and the chain link, which the
/// receiver restores from the session's space and the previous op of the device).
public enum WireOp: Equatable, Sendable {
    /// The op's exact bytes.
    case full([UInt8])
    /// The op's bytes less space id (offset 1, 16 bytes) and prev (offset 57, 32 bytes).
    case compact([UInt8])

    /// The compact form of an op's bytes.
    public static func compacting(_ bytes: [UInt8]) -> WireOp {
        guard bytes.count > 89, bytes.count - 48 <= Int(UInt16.max) else { return .full(bytes) }
        return .compact([bytes[0]] + bytes[17..<57] + bytes[89...])
    }

    /// The bytes of a live message's op: the compact form less the device (offset 1, 32 bytes), which the receiver
    /// restores from the session's peer; nil for an op too short to have a compact form.
    public static func live(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 89 else { return nil }
        return [bytes[0]] + bytes[49..<57] + bytes[89...]
    }

    /// The compact op a live message carries, its device the session's peer.
    public static func fromLive(_ bytes: [UInt8], device: PublicKey) -> WireOp {
        .compact([bytes[0]] + device.bytes + bytes[1...])
    }

    /// The fewest bytes a live message's op has: the form's version and the seq.
    public static let liveMinimum = 9

    /// The device and seq a compact op names (at its offsets 1 and 33).
    public var id: OpID? {
        switch self {
        case .full(let bytes): return try? SignedOp(bytes: bytes).id
        case .compact(let bytes):
            guard bytes.count >= 41 else { return nil }
            let seq = bytes[33..<41].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return OpID(device: PublicKey(unchecked: Array(bytes[1..<33])), seq: seq)
        }
    }

    /// The exact signed bytes, given the session's space and the hash of the device's previous op.
    public func restore(space: SpaceID, prev: Digest32) -> [UInt8] {
        switch self {
        case .full(let bytes): return bytes
        case .compact(let bytes):
            guard bytes.count >= 41 else { return bytes }
            return [bytes[0]] + space.bytes + bytes[1..<41] + prev.bytes + bytes[41...]
        }
    }

    func encode(into writer: inout ByteWriter) {
        switch self {
        case .full(let bytes):
            writer.u8(0)
            writer.u32(UInt32(clamping: bytes.count))
            writer.raw(bytes)
        case .compact(let bytes):
            writer.u8(1)
            writer.u16(UInt16(clamping: bytes.count))
            writer.raw(bytes)
        }
    }

    static func decode(from reader: inout ByteReader) throws -> WireOp {
        switch try reader.u8("op form") {
        case 0:
            let length = Int(try reader.u32("op length"))
            guard length <= SignedOp.maxPayloadBytes + 4096 else { throw WireError.malformedMessage("op of \(length) bytes") }
            return .full(try reader.raw(length, "op"))
        case 1:
            return .compact(try reader.raw(Int(try reader.u16("op length")), "op"))
        case let form:
            throw WireError.malformedMessage("unknown op form \(form)")
        }
    }
}

extension WireMessage {
    /// The digest of a vector, as `digest` messages carry it: BLAKE2b-256 over the entries in device order.
    public static func digest(of entries: [VectorEntry]) -> Digest32 {
        var bytes: [UInt8] = []
        for entry in entries.sorted(by: { $0.device < $1.device }) {
            var writer = ByteWriter(capacity: 72)
            writer.raw(entry.device)
            writer.u64(entry.seq)
            writer.raw(entry.head)
            bytes += writer.bytes
        }
        return Blake2b.hash(bytes)
    }
}
