/// The list of changes an op carries, and its byte encoding (Protocol/op-format.md, "Payload").
public enum Payload {
    /// The payload format this build reads and writes.
    public static let version: UInt8 = 1
    /// Longest field name.
    public static let maxFieldName = 64
    /// Longest text value or user name, in bytes.
    public static let maxText = 1024

    /// Encodes changes.
    /// Most changes one op may carry.
    public static let maxChanges = 255

    /// Encodes changes (at most ``maxChanges``; the store refuses to sign more).
    public static func encode(_ changes: [Change]) -> [UInt8] {
        var writer = ByteWriter(capacity: 64)
        writer.u8(version)
        writer.u8(UInt8(clamping: changes.count))
        for change in changes { encode(change, into: &writer) }
        return writer.bytes
    }

    private static func encode(_ change: Change, into writer: inout ByteWriter) {
        switch change {
        case .join(let join):
            writer.u8(0x01)
            writer.raw(join.user)
            writer.u64(join.certifiedAt)
            writer.raw(join.certificateSignature)
            writer.raw(join.membershipProof)
            writer.string16(join.userName)
        case .revoke(let revocation):
            writer.u8(0x02)
            writer.raw(revocation.device)
            writer.u64(revocation.lastValidSeq)
            writer.raw(revocation.userSignature)
        case .remove(let removal):
            writer.u8(0x03)
            writer.raw(removal.user)
            writer.raw(removal.ownerSalt)
            writer.u16(UInt16(clamping: removal.devices.count))
            for cutoff in removal.devices {
                writer.raw(cutoff.device)
                writer.u64(cutoff.lastValidSeq)
            }
        case .rotate(let rotation):
            writer.u8(0x04)
            writer.u32(rotation.epoch)
            writer.raw(rotation.ownerSalt)
            writer.raw(rotation.keyCheck)
            writer.u16(UInt16(clamping: rotation.sealed.count))
            for entry in rotation.sealed {
                writer.raw(entry.device)
                writer.raw(entry.box)
            }
        case .set(let kind, let id, let fields):
            writer.u8(0x10)
            writer.u8(kind.rawValue)
            writer.raw(id)
            writer.u16(UInt16(clamping: fields.count))
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                writer.string8(name)
                value.encode(into: &writer)
            }
        case .rosterAdd(let game, let player):
            writer.u8(0x11)
            writer.raw(game)
            writer.raw(player)
        case .rosterRemove(let game, let player, let observed):
            writer.u8(0x12)
            writer.raw(game)
            writer.raw(player)
            writer.opIDs(observed)
        case .score(let game, let player, let hole, let entry) where entry.pickedUp:
            writer.u8(0x23)
            writer.raw(game)
            writer.raw(player)
            writer.u8(UInt8(clamping: hole))
        case .score(let game, let player, let hole, let entry):
            // An entry with a fairway or green in regulation is 0x22 (two more bytes); one without stays 0x20,
            // byte for byte what older nodes write and read.
            writer.u8(entry.hasStatistics ? 0x22 : 0x20)
            writer.raw(game)
            writer.raw(player)
            writer.u8(UInt8(clamping: hole))
            writer.u8(UInt8(clamping: entry.strokes))
            writer.u8(entry.putts.map { UInt8(clamping: $0) } ?? 0xFF)
            writer.u8(entry.penalties.map { UInt8(clamping: $0) } ?? 0xFF)
            if entry.hasStatistics {
                writer.u8(entry.fairway?.rawValue ?? 0xFF)
                writer.u8(entry.greenInRegulation.map { $0 ? 1 : 0 } ?? 0xFF)
            }
        case .attest(let game, let player, let cardHash):
            writer.u8(0x21)
            writer.raw(game)
            writer.raw(player)
            writer.raw(cardHash)
        }
    }

    /// Decodes and validates changes: unknown tags, out-of-range numbers and trailing bytes are errors.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> [Change] { try decode(bytes[...]) }

    /// Decodes changes read in place, from a part of a larger buffer (an op's ``SignedOp/payloadBytes``).
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> [Change] {
        var reader = ByteReader(bytes)
        let found = try reader.u8("payload version")
        guard found == version else {
            throw DecodeError(what: "payload version", reason: "is \(found); this build reads version \(version)")
        }
        let count = Int(try reader.u8("change count"))
        guard count >= 1 else { throw DecodeError(what: "payload", reason: "has no changes") }
        var changes: [Change] = []
        for _ in 0..<count { changes.append(try decodeChange(&reader)) }
        try reader.expectEnd("payload")
        if changes.count > 1, changes.contains(where: { if case .score = $0 { true } else { false } }) {
            throw DecodeError(what: "payload", reason: "mixes a score with other changes; a score travels alone")
        }
        return changes
    }

    private static func entity<ID: FixedBytes>(_ reader: inout ByteReader, _ what: String) throws(DecodeError) -> ID {
        try reader.fixed(ID.self, what)
    }

    private static func key(_ reader: inout ByteReader, _ what: String) throws(DecodeError) -> PublicKey {
        try reader.fixed(PublicKey.self, what)
    }

    private static func decodeChange(_ reader: inout ByteReader) throws(DecodeError) -> Change {
        let tag = try reader.u8("change tag")
        switch tag {
        case 0x01:
            let user = try key(&reader, "join user")
            let certifiedAt = try reader.u64("join certified-at")
            let signature = try reader.raw(64, "join certificate signature")
            let proof = try reader.raw(32, "join membership proof")
            let name = try reader.string16("join user name")
            guard !name.isEmpty, name.utf8.count <= maxText else {
                throw DecodeError(what: "join user name", reason: "must be 1...\(maxText) bytes")
            }
            return .join(
                Change.Join(
                    user: user, userName: name, certifiedAt: certifiedAt,
                    certificateSignature: signature, membershipProof: proof))
        case 0x02:
            let device = try key(&reader, "revoked device")
            let lastValid = try reader.u64("revocation last valid seq")
            guard lastValid <= SignedOp.maxSeq else {
                throw DecodeError(what: "revocation last valid seq", reason: "is out of range")
            }
            let signature = try reader.raw(64, "revocation signature")
            return .revoke(Change.Revocation(device: device, lastValidSeq: lastValid, userSignature: signature))
        case 0x03:
            let user = try key(&reader, "removed user")
            let salt = try reader.raw(16, "owner salt")
            let devices = try reader.list("removed devices", limit: 1024) { reader throws(DecodeError) in
                let device = try key(&reader, "removed device")
                let lastValid = try reader.u64("removed device last valid seq")
                guard lastValid <= SignedOp.maxSeq else {
                    throw DecodeError(what: "removed device last valid seq", reason: "is out of range")
                }
                return Change.Removal.Cutoff(device: device, lastValidSeq: lastValid)
            }
            return .remove(Change.Removal(user: user, ownerSalt: salt, devices: devices))
        case 0x04:
            let epoch = try reader.u32("rotation epoch")
            guard epoch >= 1 else { throw DecodeError(what: "rotation epoch", reason: "must be at least 1") }
            let rotationSalt = try reader.raw(16, "rotation owner salt")
            let check = try reader.raw(8, "rotation key check")
            let sealed = try reader.list("rotation devices", limit: 4096) { reader throws(DecodeError) in
                Change.Rotation.Sealed(
                    device: try key(&reader, "rotation device"), box: try reader.raw(80, "rotation sealed key"))
            }
            return .rotate(Change.Rotation(epoch: epoch, ownerSalt: rotationSalt, keyCheck: check, sealed: sealed))
        case 0x10:
            let rawKind = try reader.u8("entity kind")
            guard let kind = EntityKind(rawValue: rawKind) else {
                throw DecodeError(what: "entity kind", reason: "\(rawKind) is unknown")
            }
            let id: EntityID = try entity(&reader, "entity id")
            let count = Int(try reader.u16("field count"))
            guard count >= 1 else { throw DecodeError(what: "set change", reason: "has no fields") }
            var fields: [String: FieldValue] = [:]
            for _ in 0..<count {
                let name = try reader.string8("field name")
                guard !name.isEmpty, name.utf8.count <= maxFieldName else {
                    throw DecodeError(what: "field name", reason: "must be 1...\(maxFieldName) bytes")
                }
                let value = try FieldValue.decode(from: &reader)
                if case .text(let text) = value, text.utf8.count > maxText {
                    throw DecodeError(what: "field \(name)", reason: "is longer than \(maxText) bytes")
                }
                guard fields.updateValue(value, forKey: name) == nil else {
                    throw DecodeError(what: "field \(name)", reason: "appears twice")
                }
            }
            return .set(kind: kind, id: id, fields: fields)
        case 0x11:
            return .rosterAdd(game: try entity(&reader, "game id"), player: try entity(&reader, "player id"))
        case 0x12:
            let game: GameID = try entity(&reader, "game id")
            let player: PlayerID = try entity(&reader, "player id")
            return .rosterRemove(game: game, player: player, observed: try reader.opIDs("observed", limit: 1024))
        case 0x20, 0x22, 0x23:
            let game: GameID = try entity(&reader, "game id")
            let player: PlayerID = try entity(&reader, "player id")
            let hole = Int(try reader.u8("hole"))
            guard (1...36).contains(hole) else { throw DecodeError(what: "hole", reason: "\(hole) is outside 1...36") }
            if tag == 0x23 { return .score(game: game, player: player, hole: hole, entry: .pickUp) }
            let strokes = Int(try reader.u8("strokes"))
            let putts = try reader.u8("putts")
            let penalties = try reader.u8("penalties")
            var fairway: ScoreEntry.Fairway?
            var green: Bool?
            if tag == 0x22 {
                let fairwayByte = try reader.u8("fairway")
                let greenByte = try reader.u8("green in regulation")
                if fairwayByte != 0xFF {
                    guard let value = ScoreEntry.Fairway(rawValue: fairwayByte) else {
                        throw DecodeError(what: "fairway", reason: "\(fairwayByte) is not 0, 1, 2 or 0xFF")
                    }
                    fairway = value
                }
                if greenByte != 0xFF {
                    guard greenByte <= 1 else {
                        throw DecodeError(what: "green in regulation", reason: "\(greenByte) is not 0, 1 or 0xFF")
                    }
                    green = greenByte == 1
                }
                guard fairway != nil || green != nil else {
                    throw DecodeError(what: "score 0x22", reason: "records neither fairway nor green: use 0x20")
                }
            }
            do {
                let entry = try ScoreEntry(
                    strokes: strokes, putts: putts == 0xFF ? nil : Int(putts),
                    penalties: penalties == 0xFF ? nil : Int(penalties), fairway: fairway,
                    greenInRegulation: green)
                return .score(game: game, player: player, hole: hole, entry: entry)
            } catch {
                throw DecodeError(what: "score", reason: error.description)
            }
        case 0x21:
            let game: GameID = try entity(&reader, "game id")
            let player: PlayerID = try entity(&reader, "player id")
            let hash = try reader.fixed(Digest32.self, "card hash")
            return .attest(game: game, player: player, cardHash: hash)
        default:
            throw DecodeError(what: "change tag", reason: "0x\(String(tag, radix: 16)) is unknown")
        }
    }
}
