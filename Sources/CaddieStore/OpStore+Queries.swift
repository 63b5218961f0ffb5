import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// A member device of a space.
public struct MemberRecord: Hashable, Sendable {
    /// The device key.
    public let device: PublicKey
    /// The user it speaks for.
    public let user: PublicKey
    /// The user's name from the join.
    public let userName: String
    /// The last valid seq, if revoked.
    public let revokedAfter: UInt64?
    /// The name as shown: the user's name, with the fingerprint of their user key when another user of the
    /// space has the same name (names are self-asserted, keys are not).
    public var displayName: String = ""
}

extension OpStore {
    /// SQL: whether `target` (a pred or a roster tag, by device and seq) names the op behind `value`'s device and
    /// seq. A forked device's op past its fork point is in the state under its own slot (OpStore+Branches.swift),
    /// and a name of the device's op at that seq names it, on whichever branch.
    static func names(_ target: String, _ value: String) -> String {
        "\(target).seq = \(value).seq AND (\(target).device = \(value).device OR \(target).device = "
            + "(SELECT b.device FROM branch_op b WHERE b.space = \(value).space AND b.hash = \(value).device))"
    }

    /// SQL for the name of the user behind `alias.device` in `alias.space` with its fingerprint (the first 4 bytes
    /// of the user key in hex), as an attestation names its signer. Score authors are named by `authorNames`, with
    /// the fingerprint only where another user's name could be taken for theirs.
    static func signerName(_ alias: String) -> String {
        "coalesce((SELECT m.user_name || ' (' || lower(hex(substr(m.user, 1, 4))) || ')' FROM member m "
            + "WHERE m.space = \(alias).space AND m.device = \(alias).device), \(forkedAuthor(alias)), '?')"
    }

    /// SQL: an op of a fork branch is in the state under its own slot: its device's user, marked forked.
    static func forkedAuthor(_ alias: String) -> String {
        "(SELECT b.user_name || ' (' || lower(hex(substr(b.user, 1, 4))) || ', forked)' FROM branch_op b "
            + "WHERE b.space = \(alias).space AND b.hash = \(alias).device)"
    }
}

extension OpStore {
    /// Every record of one kind, with its fields.
    public func records(_ space: SpaceID, kind: EntityKind) throws(StoreError) -> [EntityID: [String: FieldValue]] {
        try read { db in
            var out: [EntityID: [String: FieldValue]] = [:]
            let rows = try FieldRow.fetchCursor(
                db, sql: "SELECT id, field, value FROM lww WHERE space = ? AND kind = ?",
                arguments: [space, Int64(kind.rawValue)])
            while let row = try rows.next() {
                guard let id = row.id else { continue }
                out[id, default: [:]][row.field] = row.value
            }
            return out
        }
    }

    /// The fields of one record, or nil if it has none.
    public func record(_ space: SpaceID, kind: EntityKind, id: EntityID) throws(StoreError) -> [String: FieldValue]? {
        try read { db in
            var fields: [String: FieldValue] = [:]
            for row in try FieldRow.fetchAll(
                db, sql: "SELECT field, value FROM lww WHERE space = ? AND kind = ? AND id = ?",
                arguments: [space, Int64(kind.rawValue), id])
            {
                fields[row.field] = row.value
            }
            return fields.isEmpty ? nil : fields
        }
    }

    /// The user whose device wrote a record's field as it stands; nil when the record has no such field.
    public func fieldWriter(_ space: SpaceID, kind: EntityKind, id: EntityID, field: String) throws(StoreError) -> PublicKey? {
        try read { db in
            try Data.fetchOne(
                db,
                sql: """
                    SELECT m.user FROM lww l JOIN member m ON m.space = l.space AND m.device = l.device
                    WHERE l.space = ? AND l.kind = ? AND l.id = ? AND l.field = ?
                    """, arguments: [space, Int64(kind.rawValue), id, field]
            ).flatMap { PublicKey(bytes: [UInt8]($0)) }
        }
    }

    /// The games, players or courses of a space by their typed ids, with their fields.
    public func records<Kind>(
        _ space: SpaceID, _ kind: Kind.Type
    ) throws(StoreError) -> [TypedEntityID<Kind>: [String: FieldValue]] {
        var out: [TypedEntityID<Kind>: [String: FieldValue]] = [:]
        for (id, fields) in try records(space, kind: Kind.kind) { out[TypedEntityID(id)] = fields }
        return out
    }

    /// The fields of the game, player or course `id` names, or nil when the space has none.
    public func record<Kind>(_ space: SpaceID, _ id: TypedEntityID<Kind>) throws(StoreError) -> [String: FieldValue]? {
        try record(space, kind: Kind.kind, id: id.entity)
    }

    /// The players on a game's roster: those with an add (or a score) no remove has cancelled.
    public func roster(_ space: SpaceID, game: GameID) throws(StoreError) -> [PlayerID] {
        try read { db in
            try Data.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT a.player FROM roster_tag a WHERE a.space = ? AND a.game = ? AND NOT EXISTS (
                        SELECT 1 FROM roster_cancel c WHERE c.space = a.space AND c.game = a.game AND c.player = a.player
                        AND \(Self.names("c", "a")))
                    ORDER BY a.player
                    """, arguments: [Data(space.bytes), Data(game.bytes)]
            ).compactMap { PlayerID(bytes: [UInt8]($0)) }
        }
    }

    /// The add tags of a player on a roster that are still standing: what a remove must cancel.
    public func rosterTags(_ space: SpaceID, game: GameID, player: PlayerID) throws(StoreError) -> [OpID] {
        try read { db in
            try OpRow.fetchAll(
                db,
                sql: """
                    SELECT a.device, a.seq FROM roster_tag a WHERE a.space = ? AND a.game = ? AND a.player = ? AND NOT EXISTS (
                        SELECT 1 FROM roster_cancel c WHERE c.space = a.space AND c.game = a.game AND c.player = a.player
                        AND \(Self.names("c", "a")))
                    """, arguments: [space, game, player]
            ).map(\.op)
        }
    }

    /// One member device's user and the name it joined under (nil: no such member), read without the space's other
    /// members: a sync session asks it of its peer at every admission check.
    public func member(_ space: SpaceID, device: PublicKey) throws(StoreError) -> (user: PublicKey, userName: String)? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT user, user_name FROM member WHERE space = ? AND device = ?",
                arguments: [Data(space.bytes), Data(device.bytes)]
            ).map { (try PublicKey(column: $0["user"] as Data), $0["user_name"] as String) }
        }
    }

    /// The members of a space, with their user names and revocations.
    public func members(_ space: SpaceID) throws(StoreError) -> [MemberRecord] {
        try read { db in
            try MemberRow.fetchAll(
                db,
                sql: """
                    SELECT m.device, m.user, m.user_name, (SELECT min(r.last_valid_seq) FROM revocation r
                        WHERE r.space = m.space AND r.device = m.device AND r.user = m.user) AS revoked
                    FROM member m WHERE m.space = ? ORDER BY m.user_name, m.device
                    """, arguments: [space]
            ).map(\.member).withDisplayNames()
        }
    }

    /// SQL: the `WITH` clause a query of `scoreColumns` starts with. It names each member device of the space `?1`
    /// as people see its user (`shown`): the name, with the fingerprint where another user's name shares its
    /// ``NameKey``. Each name's key is worked out once a query, not once for every member on every row.
    static let authorNames = """
        WITH keyed AS MATERIALIZED (
            SELECT device, user, user_name, caddie_name_key(user_name) AS k FROM member WHERE space = ?1),
        alike AS MATERIALIZED (SELECT k FROM keyed GROUP BY k HAVING count(DISTINCT user) > 1),
        shown AS MATERIALIZED (
            SELECT device, user_name || CASE WHEN k IN (SELECT k FROM alike)
                THEN ' (' || lower(hex(substr(user, 1, 4))) || ')' ELSE '' END AS name
            FROM keyed)
        """

    /// The score columns of `ScoreRow`, for a query of `score s` that begins with `authorNames` (its space `?1`).
    static let scoreColumns = """
        s.device, s.seq, s.hlc, s.player, s.hole, s.strokes, s.putts, s.penalties, s.fairway, s.gir,
        coalesce((SELECT name FROM shown WHERE shown.device = s.device), \(OpStore.forkedAuthor("s")), '?') AS author
        """

    /// SQL: true for a row `s` of `score` that no op supersedes (a value its cell still shows, or holds beside the
    /// shown one), whether that op is in the log or a fork's branch.
    static let standing = """
        NOT EXISTS (
            SELECT 1 FROM superseded x WHERE x.space = s.space AND \(names("x", "s"))
            AND x.game = s.game AND x.player = s.player AND x.hole = s.hole)
        """

    /// The standing values of every score cell of a game.
    public func cells(_ space: SpaceID, game: GameID) throws(StoreError) -> [ScoreCell] {
        try read { db in
            var grouped: [[UInt8]: (player: PlayerID, hole: Int, values: [ScoreValue])] = [:]
            for row in try ScoreRow.fetchAll(
                db,
                sql: """
                    \(Self.authorNames)
                    SELECT \(Self.scoreColumns) FROM score s WHERE s.space = ?1 AND s.game = ? AND \(Self.standing)
                    """, arguments: [space, game])
            {
                let key = row.player.bytes + [UInt8(clamping: row.hole)]
                grouped[key, default: (row.player, row.hole, [])].values.append(try row.value())
            }
            var cells = grouped.values.map { ScoreCell(player: $0.player, hole: $0.hole, values: $0.values) }
            // A locked card shows the entries up to its signatures and the committee's after them (CardLock).
            let locks = try locks(db, space: space, game: game)
            if !locks.isEmpty {
                let locked = Set(locks.map(\.lock.player))
                cells = cells.filter { !locked.contains($0.player) } + locks.flatMap(\.cells)
            }
            return cells.sorted { ($0.player, $0.hole) < ($1.player, $1.hole) }
        }
    }

    /// The standing values of some cells of a game, each read alone by its key (a cell's rows are together in the
    /// `score` table): what live events read of a commit's touched cells, instead of the whole game. A cell with no
    /// standing value is not listed. A locked card's cells are as ``cells(_:game:)`` shows them.
    public func cells(_ space: SpaceID, game: GameID, only: [StoreChange.Cell]) throws(StoreError) -> [ScoreCell] {
        try read { db in
            let wanted = only.filter { $0.game == game }
            guard !wanted.isEmpty else { return [] }
            let locks = try locks(db, space: space, game: game)
            let locked = Dictionary(locks.map { ($0.lock.player, $0.cells) }, uniquingKeysWith: { first, _ in first })
            let statement = try db.cachedStatement(
                sql: """
                    \(Self.authorNames)
                    SELECT \(Self.scoreColumns) FROM score s
                    WHERE s.space = ?1 AND s.game = ?2 AND s.player = ?3 AND s.hole = ?4 AND \(Self.standing)
                    """)
            var cells: [ScoreCell] = []
            for cell in Set(wanted) {
                if let lockCells = locked[cell.player] {
                    cells += lockCells.filter { $0.hole == cell.hole }
                    continue
                }
                let values = try ScoreRow.fetchAll(statement, arguments: [space, game, cell.player, cell.hole])
                    .map { try $0.value() }
                if !values.isEmpty { cells.append(ScoreCell(player: cell.player, hole: cell.hole, values: values)) }
            }
            return cells.sorted { ($0.player, $0.hole) < ($1.player, $1.hole) }
        }
    }

    /// Every value a cell has had, oldest first, with what each superseded and what superseded it.
    public func history(
        _ space: SpaceID, game: GameID, player: PlayerID, hole: Int
    ) throws(StoreError)
        -> [ScoreHistoryEntry]
    {
        try read { db in
            let args: StatementArguments = [space, game, player, hole]
            let rows = try ScoreRow.fetchAll(
                db,
                sql: """
                    \(Self.authorNames)
                    SELECT \(Self.scoreColumns),
                        (SELECT b.device FROM branch_op b WHERE b.space = s.space AND b.hash = s.device) AS forked
                    FROM score s WHERE s.space = ?1 AND s.game = ? AND s.player = ? AND s.hole = ?
                    ORDER BY s.hlc, s.device, s.seq
                    """, arguments: args)
            var supersedes: [OpID: [OpID]] = [:]
            var supersededBy: [OpID: [OpID]] = [:]
            for row in try SupersededRow.fetchAll(
                db,
                sql: """
                    SELECT device, seq, by_device, by_seq FROM superseded WHERE space = ? AND game = ? AND player = ? AND hole = ?
                    """, arguments: args)
            {
                supersedes[row.by, default: []].append(row.op)
                supersededBy[row.op, default: []].append(row.by)
            }
            return try rows.map { row in
                let value = try row.value()
                // A value of a fork branch is also named by its device's id at its seq.
                let alias = row.forked.map { OpID(device: $0, seq: value.op.seq) }
                return ScoreHistoryEntry(
                    value: value, supersedes: (supersedes[value.op] ?? []).sorted(),
                    supersededBy: ((supersededBy[value.op] ?? []) + (alias.flatMap { supersededBy[$0] } ?? [])).sorted())
            }
        }
    }

    /// The attestations of a game.
    public func attestations(_ space: SpaceID, game: GameID) throws(StoreError) -> [AttestationRecord] {
        try read { db in try attestationRows(db, space: space, game: game) }
    }

    /// The attestations of a game's cards, in a read or write already open.
    func attestationRows(_ db: Database, space: SpaceID, game: GameID) throws -> [AttestationRecord] {
        try AttestationRow.fetchAll(
            db,
            sql: """
                SELECT a.device, a.seq, a.player, a.card_hash, a.user,
                    coalesce(
                        (SELECT o.hlc FROM op o WHERE o.space = a.space AND o.device = a.device AND o.seq = a.seq),
                        (SELECT b.hlc FROM branch_op b WHERE b.space = a.space AND b.hash = a.device)) AS hlc,
                    \(OpStore.signerName("a")) AS marker
                FROM attestation a WHERE a.space = ? AND a.game = ? ORDER BY a.player, a.device, a.seq
                """, arguments: [space, game]
        ).map(\.attestation)
    }

    /// Raw stored ops of a space with their hashes, oldest clock first (for the audit log and verify).
    public func storedOps(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], hash: Digest32, id: OpID, hlc: UInt64)] {
        try read { db in
            try OpRow.fetchAll(
                db, sql: "SELECT bytes, hash, device, seq, hlc FROM op WHERE space = ? ORDER BY hlc, device, seq",
                arguments: [space]
            ).map { ([UInt8]($0.bytes ?? Data()), $0.hash ?? .zero, $0.op, UInt64(bitPattern: $0.hlc ?? 0)) }
        }
    }

    /// The ops of a space's fork branches, oldest clock first (for the audit log).
    public func storedBranchOps(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], id: OpID, hlc: UInt64)] {
        try read { db in
            try OpRow.fetchAll(
                db, sql: "SELECT bytes, device, seq, hlc FROM branch_op WHERE space = ? ORDER BY hlc, device, seq, hash",
                arguments: [space]
            ).map { ([UInt8]($0.bytes ?? Data()), $0.op, UInt64(bitPattern: $0.hlc ?? 0)) }
        }
    }

    /// Forks detected in a space.
    public func forks(_ space: SpaceID) throws(StoreError) -> [OpID] {
        try read { db in
            try OpRow.fetchAll(
                db, sql: "SELECT device, seq FROM fork WHERE space = ? ORDER BY device, seq", arguments: [space]
            ).map(\.op)
        }
    }

    /// What the audit keeps beside the log: ops removed from it by a revocation (with the reason), and the other copy
    /// of a fork (the second op its device signed at a seq) where it did not apply (a fork's copies that apply are on
    /// its branches, ``storedBranchOps(_:)``).
    public func evidence(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], id: OpID, removed: String, forkCopy: Bool)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT bytes, device, seq, 'removed: ' || reason AS why, 0 AS fork FROM rejected_op WHERE space = ?
                    UNION ALL
                    SELECT f.other_bytes, f.device, f.seq, 'fork: a second op its device signed at this seq, never applied', 1
                    FROM fork f WHERE f.space = ? AND NOT EXISTS (
                        SELECT 1 FROM branch_op b WHERE b.space = f.space AND b.device = f.device AND b.seq = f.seq
                        AND b.bytes = f.other_bytes)
                    """,
                arguments: [Data(space.bytes), Data(space.bytes)]
            ).map {
                (
                    [UInt8]($0["bytes"] as Data),
                    OpID(device: try PublicKey(column: $0["device"] as Data), seq: UInt64($0["seq"] as Int64)),
                    $0["why"] as String, $0["fork"] as Bool
                )
            }
        }
    }

    /// Ops waiting for a missing predecessor.
    public func pendingCount(_ space: SpaceID) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM pending_op WHERE space = ?", arguments: [Data(space.bytes)]) ?? 0
        }
    }
}

extension [MemberRecord] {
    /// The members with their display names: names two users share, or that could be taken for each other (the same
    /// ``NameKey``), get each user's key fingerprint.
    /// Each name's key is worked out once (it normalises Unicode): comparing every pair made a clubhouse hub with 64
    /// members spend most of its CPU here, as every session's admission check and progress record reads the members.
    func withDisplayNames() -> [MemberRecord] {
        let keys = map { NameKey.of($0.userName) }
        var users: [String: Set<PublicKey>] = [:]
        for (member, key) in zip(self, keys) { users[key, default: []].insert(member.user) }
        return zip(self, keys).map { member, key in
            var named = member
            let shared = users[key]?.contains { $0 != member.user } ?? false
            named.displayName =
                shared
                ? "\(member.userName) (\(String(member.user.hex.prefix(8))))"
                : member.userName
            return named
        }
    }
}
