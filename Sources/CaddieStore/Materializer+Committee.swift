import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// The committee's rule, applied by every node to every op it takes (docs/competitions.md, "The committee on every
/// node"): a competition made by this version names its creator in its id (`owner` and `ownerSalt`, as a space
/// names its owner), and then only the creator's writes and those of the members the creator named to its
/// committee count on its record; anyone else's write is kept in the log for the audit and shown nowhere. Who is
/// on the committee is read from the creator's own writes only, so the outcome depends on the ops a node holds,
/// never on the order they came in: when the committee changes (the creation arrives, a member is named or taken
/// off), the record is worked out again from every op that wrote it.
extension Materializer {
    /// A competition's record fields that name its creator: they count only as the creator wrote them, the salt
    /// binding the creator's user key to the competition's id.
    static let creatorFields: Set<String> = ["owner", "ownerSalt"]

    /// The creator a write of `fields` proves, if it proves one: both fields, `owner` the op's own author, and the
    /// salt hashing that author to the competition's id.
    static func provenCreator(_ fields: [String: FieldValue], id: EntityID, author: PublicKey?) -> PublicKey? {
        guard let author, case .bytes(let owner)? = fields["owner"], owner == author.bytes,
            case .bytes(let salt)? = fields["ownerSalt"], (16...64).contains(salt.count),
            Membership.ownedCompetitionID(owner: author, salt: salt) == id
        else { return nil }
        return author
    }

    /// The fields of a write on a competition that count, given its creator (nil for a competition an earlier
    /// version made, or whose creation has not arrived: every write counts) and whether the creator had named its
    /// author to the committee by the write's clock (`named(author, hlc)`).
    static func countedCompetition(
        _ fields: [String: FieldValue], id: EntityID, author: PublicKey?, hlc: Int64, creator: PublicKey?,
        named: (PublicKey, Int64) throws -> Bool
    ) rethrows -> [String: FieldValue] {
        let proven = provenCreator(fields, id: id, author: author)
        let rest = proven == nil ? fields.filter { !creatorFields.contains($0.key) } : fields
        guard let creator = proven ?? creator else { return rest }
        guard let author else { return [:] }
        if author == creator { return rest }
        guard try named(author, hlc) else { return [:] }
        return rest.filter { !$0.key.hasPrefix("committee.") }
    }

    /// The creator of a competition as this node's record holds it.
    func competitionCreator(_ id: EntityID) throws -> PublicKey? {
        guard
            let value = try Data.fetchOne(
                db, sql: "SELECT value FROM lww WHERE space = ? AND kind = ? AND id = ? AND field = 'owner'",
                arguments: [space, Int64(EntityKind.competition.rawValue), Data(id.bytes)]),
            case .bytes(let bytes) = try FieldValue(encoded: [UInt8](value))
        else { return nil }
        return PublicKey(bytes: bytes)
    }

    /// Whether the record holds `user` named to the competition's committee by the clock `hlc`: a member's writes
    /// count from their naming on, as their corrections on a locked card do.
    func namedToCommittee(_ user: PublicKey, competition id: EntityID, at hlc: Int64) throws -> Bool {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT value, hlc FROM lww WHERE space = ? AND kind = ? AND id = ? AND field = ?",
                arguments: [
                    space, Int64(EntityKind.competition.rawValue), Data(id.bytes), CompetitionRecord.committeeField(user),
                ]),
            case .bytes(let bytes) = try FieldValue(encoded: [UInt8](row["value"] as Data))
        else { return false }
        return bytes == user.bytes && (row["hlc"] as Int64) <= hlc
    }

    /// Applies one op's write on a competition: the fields that count, then, where the write changes who is on the
    /// committee (it proves the creator, or the creator names or takes off a member), the whole record again, and
    /// the groups whose binding the committee decides. A rebuild (`settleLater`) takes every write as it comes and
    /// works the records out once at its end.
    func applyCompetition(
        _ id: EntityID, fields: [String: FieldValue], author: PublicKey?, hlc: Int64, device: Data, seq: Int64
    ) throws {
        if settleLater { return try upsert(kind: .competition, id: id, fields: fields, hlc: hlc, device: device, seq: seq) }
        let creator = try competitionCreator(id)
        let counted = try Self.countedCompetition(fields, id: id, author: author, hlc: hlc, creator: creator) {
            try namedToCommittee($0, competition: id, at: $1)
        }
        try upsert(kind: .competition, id: id, fields: counted, hlc: hlc, device: device, seq: seq)
        // A proof counts only from the creator, so a counted `owner` with no creator held yet makes the author it.
        let provesCreator = creator == nil && counted.keys.contains("owner")
        let names =
            author != nil && author == (provesCreator ? author : creator) && counted.keys.contains { $0.hasPrefix("committee.") }
        if provesCreator || names { try settle(competitions: [id], games: []) }
    }

    /// One change this node holds that the committee's rule reads (a `set`, a roster change), where the record
    /// orders it.
    struct Write {
        let change: Change
        let author: PublicKey?
        let order: WriteOrder

        /// The fields of a `set` (none for a roster change).
        var fields: [String: FieldValue] {
            if case .set(_, _, let fields) = change { return fields }
            return [:]
        }

        /// The entity a `set` writes, or the game of a roster change.
        var entity: (kind: EntityKind, id: EntityID)? {
            switch change {
            case .set(let kind, let id, _): (kind, id)
            case .rosterAdd(let game, _), .rosterRemove(let game, _, _): (.game, game.entity)
            default: nil
            }
        }
    }

    /// The record's order of writes: by clock, then device (a fork branch's hash for a branch op), then seq, as
    /// SQLite compares the rows' values; then the change's place in its op.
    struct WriteOrder: Comparable {
        let hlc: Int64
        let device: Data
        let seq: Int64
        let index: Int

        static func < (a: WriteOrder, b: WriteOrder) -> Bool {
            if a.hlc != b.hlc { return a.hlc < b.hlc }
            if a.device != b.device { return a.device.lexicographicallyPrecedes(b.device) }
            if a.seq != b.seq { return a.seq < b.seq }
            return a.index < b.index
        }

        /// Whether both are changes of one op.
        func sameOp(as other: WriteOrder) -> Bool { hlc == other.hlc && device == other.device && seq == other.seq }
    }

    /// Every change this node holds in the space (the log's and the fork branches') that `take` picks, in the
    /// record's order.
    func writes(_ take: (Change) -> Bool) throws -> [Write] {
        var writes: [Write] = []
        func collect(_ bytes: Data, slot: Data, author: PublicKey?) throws {
            let op = try SignedOp(bytes: [UInt8](bytes))
            for (index, change) in try Payload.decode(op.payloadBytes).enumerated() where take(change) {
                writes.append(
                    Write(
                        change: change, author: author,
                        order: WriteOrder(
                            hlc: Int64(bitPattern: op.hlc.rawValue), device: slot, seq: Int64(bitPattern: op.seq), index: index)))
            }
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT o.bytes, o.device, m.user FROM op o LEFT JOIN member m ON m.space = o.space AND m.device = o.device
                WHERE o.space = ?
                """, arguments: [space])
        while let row = try rows.next() {
            try collect(
                row["bytes"], slot: row["device"], author: (row["user"] as Data?).flatMap { PublicKey(bytes: [UInt8]($0)) })
        }
        let branches = try Row.fetchCursor(
            db, sql: "SELECT bytes, hash, user FROM branch_op WHERE space = ?", arguments: [space])
        while let row = try branches.next() {
            try collect(row["bytes"], slot: row["hash"], author: PublicKey(bytes: [UInt8](row["user"] as Data)))
        }
        return writes.sorted { $0.order < $1.order }
    }

    /// Works competitions' records out again from every op this node holds that wrote them, then the groups: the
    /// games in `games` and every game a write ever bound to one of the competitions.
    func settle(competitions: Set<EntityID>, games: Set<EntityID>) throws {
        guard !competitions.isEmpty || !games.isEmpty else { return }
        var bound = games
        let held = try writes { change in
            switch change {
            case .set(.competition, let id, _): return competitions.contains(id)
            case .set(.game, _, let fields):
                guard case .bytes(let bytes)? = fields["competition"], let named = EntityID(bytes: bytes) else { return false }
                return competitions.contains(named)
            default: return false
            }
        }
        for id in competitions {
            try rederiveCompetition(id, writes: held.filter { $0.entity?.kind == .competition && $0.entity?.id == id })
        }
        bound.formUnion(held.lazy.compactMap { $0.entity?.kind == .game ? $0.entity?.id : nil })
        try rederiveGroups(bound)
    }

    /// Works a competition's record out again from its writes: the creator from the writes that prove it, the
    /// committee from the creator's writes, then every write's counted fields, last writer wins.
    func rederiveCompetition(_ id: EntityID, writes: [Write]) throws {
        recorder?.record(spaceID) { $0.competitions.insert(CompetitionID(id)) }
        let creator = writes.lazy.compactMap { Self.provenCreator($0.fields, id: id, author: $0.author) }.first
        // The creator's last word on each member (last writer wins, as the record keeps it; the writes are in order).
        // Two changes of one op that write one field: the first stands, as the record's upsert keeps it.
        var naming: [String: (value: FieldValue, order: WriteOrder)] = [:]
        for write in writes where creator != nil && write.author == creator {
            for (field, value) in write.fields where field.hasPrefix("committee.") {
                if let held = naming[field], held.order.sameOp(as: write.order) { continue }
                naming[field] = (value, write.order)
            }
        }
        let named = { (user: PublicKey, hlc: Int64) -> Bool in
            guard let held = naming[CompetitionRecord.committeeField(user)] else { return false }
            return held.value == .bytes(user.bytes) && held.order.hlc <= hlc
        }
        try db.execute(
            sql: "DELETE FROM lww WHERE space = ? AND kind = ? AND id = ?",
            arguments: [space, Int64(EntityKind.competition.rawValue), Data(id.bytes)])
        for write in writes {
            try upsert(
                kind: .competition, id: id,
                fields: Self.countedCompetition(
                    write.fields, id: id, author: write.author, hlc: write.order.hlc, creator: creator, named: named),
                hlc: write.order.hlc, device: write.order.device, seq: write.order.seq)
        }
    }

    /// Last-writer-wins upserts of one op's fields.
    func upsert(kind: EntityKind, id: EntityID, fields: [String: FieldValue], hlc: Int64, device: Data, seq: Int64) throws {
        guard !fields.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO lww (space, kind, id, field, value, hlc, device, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (space, kind, id, field) DO UPDATE SET
                    value = excluded.value, hlc = excluded.hlc, device = excluded.device, seq = excluded.seq
                WHERE (excluded.hlc, excluded.device, excluded.seq) > (lww.hlc, lww.device, lww.seq)
                """)
        let entity = Data(id.bytes)
        for (field, value) in fields {
            try statement.execute(arguments: [space, Int64(kind.rawValue), entity, field, Data(value.encoded), hlc, device, seq])
        }
    }
}
