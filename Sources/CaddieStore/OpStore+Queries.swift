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

    /// SQL for the name of the user behind `alias.device` in `alias.space`, as people see it: the name, and
    /// ` (fingerprint)` (the first 4 bytes of the user key in hex) when another user of the space shares it, or
    /// always when `alwaysFingerprint`.
    static func authorName(_ alias: String, alwaysFingerprint: Bool = false) -> String {
        let fingerprint = "' (' || lower(hex(substr(m.user, 1, 4))) || ')'"
        let suffix =
            alwaysFingerprint
            ? fingerprint
            : """
            CASE WHEN EXISTS (SELECT 1 FROM member o WHERE o.space = m.space AND o.user != m.user
                              AND lower(o.user_name) = lower(m.user_name)) THEN \(fingerprint) ELSE '' END
            """
        // An op of a fork branch is in the state under its own slot: its device's user, marked forked.
        let branch =
            "(SELECT b.user_name || ' (' || lower(hex(substr(b.user, 1, 4))) || ', forked)' FROM branch_op b "
            + "WHERE b.space = \(alias).space AND b.hash = \(alias).device)"
        return "coalesce((SELECT m.user_name || \(suffix) FROM member m WHERE m.space = \(alias).space "
            + "AND m.device = \(alias).device), \(branch), '?')"
    }
}

/// One score op of a cell's history, superseded or not.
public struct ScoreHistoryEntry: Hashable, Sendable {
    /// The value.
    public let value: ScoreValue
    /// The ops it supersedes.
    public let supersedes: [OpID]
    /// The ops that supersede it (empty while it stands).
    public let supersededBy: [OpID]
}

/// An attestation of a player's card.
public struct AttestationRecord: Hashable, Sendable {
    /// The op that carries it.
    public let op: OpID
    /// The marker's name.
    public let marker: String
    /// The player attested.
    public let player: EntityID
    /// The card hash signed.
    public let cardHash: Digest32
    /// When the marker signed it: the op's clock.
    public var hlc: HLC = HLC(rawValue: 0)
    /// The marker's user key.
    public var user: PublicKey? = nil
}

extension OpStore {
    /// Every record of one kind, with its fields.
    public func records(_ space: SpaceID, kind: EntityKind) throws(StoreError) -> [EntityID: [String: FieldValue]] {
        try read { db in
            var out: [EntityID: [String: FieldValue]] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, field, value FROM lww WHERE space = ? AND kind = ?",
                arguments: [Data(space.bytes), Int64(kind.rawValue)])
            while let row = try rows.next() {
                guard let id = EntityID(bytes: [UInt8](row["id"] as Data)) else { continue }
                out[id, default: [:]][row["field"] as String] = try FieldValue(encoded: [UInt8](row["value"] as Data))
            }
            return out
        }
    }

    /// The fields of one record, or nil if it has none.
    public func record(_ space: SpaceID, kind: EntityKind, id: EntityID) throws(StoreError) -> [String: FieldValue]? {
        try read { db in
            var fields: [String: FieldValue] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT field, value FROM lww WHERE space = ? AND kind = ? AND id = ?",
                arguments: [Data(space.bytes), Int64(kind.rawValue), Data(id.bytes)])
            {
                fields[row["field"] as String] = try FieldValue(encoded: [UInt8](row["value"] as Data))
            }
            return fields.isEmpty ? nil : fields
        }
    }

    /// The players on a game's roster: those with an add (or a score) no remove has cancelled.
    public func roster(_ space: SpaceID, game: EntityID) throws(StoreError) -> [EntityID] {
        try read { db in
            try Data.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT a.player FROM roster_tag a WHERE a.space = ? AND a.game = ? AND NOT EXISTS (
                        SELECT 1 FROM roster_cancel c WHERE c.space = a.space AND c.game = a.game AND c.player = a.player
                        AND \(Self.names("c", "a")))
                    ORDER BY a.player
                    """, arguments: [Data(space.bytes), Data(game.bytes)]
            ).compactMap { EntityID(bytes: [UInt8]($0)) }
        }
    }

    /// The add tags of a player on a roster that are still standing: what a remove must cancel.
    public func rosterTags(_ space: SpaceID, game: EntityID, player: EntityID) throws(StoreError) -> [OpID] {
        try read { db in
            try OpRow.fetchAll(
                db,
                sql: """
                    SELECT a.device, a.seq FROM roster_tag a WHERE a.space = ? AND a.game = ? AND a.player = ? AND NOT EXISTS (
                        SELECT 1 FROM roster_cancel c WHERE c.space = a.space AND c.game = a.game AND c.player = a.player
                        AND \(Self.names("c", "a")))
                    """, arguments: [space, game, player]
            ).map(\.id)
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

    private static let scoreColumns = """
        s.device, s.seq, s.hlc, s.player, s.hole, s.strokes, s.putts, s.penalties, s.fairway, s.gir,
        \(OpStore.authorName("s")) AS author
        """

    private static func scoreValue(_ row: Row) throws -> ScoreValue {
        let entry = try ScoreEntry(
            strokes: row["strokes"], putts: row["putts"], penalties: row["penalties"],
            fairway: (row["fairway"] as Int?).flatMap { ScoreEntry.Fairway(rawValue: UInt8(clamping: $0)) },
            greenInRegulation: (row["gir"] as Int?).map { $0 == 1 })
        return ScoreValue(
            op: OpID(device: PublicKey(unchecked: [UInt8](row["device"] as Data)), seq: UInt64(row["seq"] as Int64)),
            hlc: HLC(rawValue: UInt64(bitPattern: row["hlc"])), entry: entry, author: row["author"])
    }

    /// The standing values of every score cell of a game.
    public func cells(_ space: SpaceID, game: EntityID) throws(StoreError) -> [ScoreCell] {
        try read { db in
            var grouped: [[UInt8]: (player: EntityID, hole: Int, values: [ScoreValue])] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.scoreColumns) FROM score s WHERE s.space = ? AND s.game = ? AND NOT EXISTS (
                        SELECT 1 FROM superseded x WHERE x.space = s.space AND \(Self.names("x", "s"))
                        AND x.game = s.game AND x.player = s.player AND x.hole = s.hole)
                    """, arguments: [Data(space.bytes), Data(game.bytes)])
            {
                let player = EntityID(unchecked: [UInt8](row["player"] as Data))
                let hole: Int = row["hole"]
                let key = player.bytes + [UInt8(hole)]
                grouped[key, default: (player, hole, [])].values.append(try Self.scoreValue(row))
            }
            return grouped.values.map { ScoreCell(player: $0.player, hole: $0.hole, values: $0.values) }
                .sorted { ($0.player, $0.hole) < ($1.player, $1.hole) }
        }
    }

    /// Every value a cell has had, oldest first, with what each superseded and what superseded it.
    public func history(
        _ space: SpaceID, game: EntityID, player: EntityID, hole: Int
    ) throws(StoreError)
        -> [ScoreHistoryEntry]
    {
        try read { db in
            let args: StatementArguments = [Data(space.bytes), Data(game.bytes), Data(player.bytes), hole]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.scoreColumns),
                        (SELECT b.device FROM branch_op b WHERE b.space = s.space AND b.hash = s.device) AS forked
                    FROM score s WHERE s.space = ? AND s.game = ? AND s.player = ? AND s.hole = ?
                    ORDER BY s.hlc, s.device, s.seq
                    """, arguments: args)
            var supersedes: [OpID: [OpID]] = [:]
            var supersededBy: [OpID: [OpID]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT device, seq, by_device, by_seq FROM superseded WHERE space = ? AND game = ? AND player = ? AND hole = ?
                    """, arguments: args)
            {
                let target = OpID(device: PublicKey(unchecked: [UInt8](row["device"] as Data)), seq: UInt64(row["seq"] as Int64))
                let by = OpID(
                    device: PublicKey(unchecked: [UInt8](row["by_device"] as Data)), seq: UInt64(row["by_seq"] as Int64))
                supersedes[by, default: []].append(target)
                supersededBy[target, default: []].append(by)
            }
            return try rows.map { row in
                let value = try Self.scoreValue(row)
                // A value of a fork branch is also named by its device's id at its seq.
                let alias = (row["forked"] as Data?).map { OpID(device: PublicKey(unchecked: [UInt8]($0)), seq: value.op.seq) }
                return ScoreHistoryEntry(
                    value: value, supersedes: (supersedes[value.op] ?? []).sorted(),
                    supersededBy: ((supersededBy[value.op] ?? []) + (alias.flatMap { supersededBy[$0] } ?? [])).sorted())
            }
        }
    }

    /// The attestations of a game.
    public func attestations(_ space: SpaceID, game: EntityID) throws(StoreError) -> [AttestationRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.device, a.seq, a.player, a.card_hash, a.user,
                        coalesce(
                            (SELECT o.hlc FROM op o WHERE o.space = a.space AND o.device = a.device AND o.seq = a.seq),
                            (SELECT b.hlc FROM branch_op b WHERE b.space = a.space AND b.hash = a.device)) AS hlc,
                        \(OpStore.authorName("a", alwaysFingerprint: true)) AS marker
                    FROM attestation a WHERE a.space = ? AND a.game = ? ORDER BY a.player, a.device, a.seq
                    """, arguments: [Data(space.bytes), Data(game.bytes)]
            ).map { row in
                AttestationRecord(
                    op: OpID(device: PublicKey(unchecked: [UInt8](row["device"] as Data)), seq: UInt64(row["seq"] as Int64)),
                    marker: row["marker"], player: EntityID(unchecked: [UInt8](row["player"] as Data)),
                    cardHash: Digest32(unchecked: [UInt8](row["card_hash"] as Data)),
                    hlc: HLC(rawValue: UInt64(bitPattern: (row["hlc"] as Int64?) ?? 0)),
                    user: PublicKey(unchecked: [UInt8](row["user"] as Data)))
            }
        }
    }

    /// Raw stored ops of a space with their hashes, oldest clock first (for the audit log and verify).
    public func storedOps(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], hash: Digest32, id: OpID, hlc: UInt64)] {
        try read { db in
            try OpRow.fetchAll(
                db, sql: "SELECT bytes, hash, device, seq, hlc FROM op WHERE space = ? ORDER BY hlc, device, seq",
                arguments: [space]
            ).map { ([UInt8]($0.bytes ?? Data()), $0.hash ?? .zero, $0.id, UInt64(bitPattern: $0.hlc ?? 0)) }
        }
    }

    /// The ops of a space's fork branches, oldest clock first (for the audit log).
    public func storedBranchOps(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], id: OpID, hlc: UInt64)] {
        try read { db in
            try OpRow.fetchAll(
                db, sql: "SELECT bytes, device, seq, hlc FROM branch_op WHERE space = ? ORDER BY hlc, device, seq, hash",
                arguments: [space]
            ).map { ([UInt8]($0.bytes ?? Data()), $0.id, UInt64(bitPattern: $0.hlc ?? 0)) }
        }
    }

    /// Forks detected in a space.
    public func forks(_ space: SpaceID) throws(StoreError) -> [OpID] {
        try read { db in
            try OpRow.fetchAll(
                db, sql: "SELECT device, seq FROM fork WHERE space = ? ORDER BY device, seq", arguments: [space]
            ).map(\.id)
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
                    OpID(device: PublicKey(unchecked: [UInt8]($0["device"] as Data)), seq: UInt64($0["seq"] as Int64)),
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
    /// The members with their display names: a name two users share gets each user's key fingerprint.
    func withDisplayNames() -> [MemberRecord] {
        map { member in
            var named = member
            let shared = contains { $0.user != member.user && $0.userName.lowercased() == member.userName.lowercased() }
            named.displayName =
                shared
                ? "\(member.userName) (\(String(member.user.hex.prefix(8))))"
                : member.userName
            return named
        }
    }
}
