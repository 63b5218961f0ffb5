import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// The locked card's rule (``CardLock``, in CaddieCore), worked out over a game's ops.
extension CardLock {
    /// The hash a marker signs of a player's card: the shown value of each of the player's holes in order
    /// ("caddie-card-v1", the game, the player, then hole, strokes, putts and penalties, 0xFF where not recorded).
    /// A phone makes the same bytes (Web/card.js). `holes`: only holes up to this one count (the course's).
    public static func cardHash(game: GameID, player: PlayerID, cells: [ScoreCell], holes: Int = 255) -> Digest32 {
        var writer = ByteWriter()
        writer.raw(Array("caddie-card-v1".utf8))
        writer.raw(game)
        writer.raw(player)
        for cell in cells.filter({ $0.player == player && (1...holes).contains($0.hole) }).sorted(by: { $0.hole < $1.hole }) {
            guard let entry = cell.winner?.entry else { continue }
            writer.u8(UInt8(cell.hole))
            writer.u8(UInt8(entry.strokes))
            writer.u8(entry.putts.map(UInt8.init) ?? 0xFF)
            writer.u8(entry.penalties.map(UInt8.init) ?? 0xFF)
        }
        return Blake2b.hash(writer.bytes)
    }

    /// One score op of a cell, as the lock reads it.
    struct Entry {
        let value: ScoreValue
        let player: PlayerID
        let hole: Int
        /// The device slot its row is kept under (a fork branch's hash for a branch op).
        let slot: PublicKey
        /// The device the op names, where its row is under a fork branch's slot.
        let forked: PublicKey?
        let committee: Bool
    }

    /// The cells that `entries` make when only `included` count: each value that no included op supersedes.
    static func cells(
        of entries: [Entry], included: (Entry) -> Bool, superseded: [(op: OpID, by: OpID)]
    ) -> [ScoreCell] {
        let counted = entries.filter(included)
        let slots = Set(counted.map { OpID(device: $0.slot, seq: $0.value.op.seq) })
        var hidden: Set<OpID> = []
        for pair in superseded where slots.contains(pair.by) { hidden.insert(pair.op) }
        var grouped: [[UInt8]: (player: PlayerID, hole: Int, values: [ScoreValue])] = [:]
        for entry in counted {
            let own = OpID(device: entry.slot, seq: entry.value.op.seq)
            if hidden.contains(own) || entry.forked.map({ hidden.contains(OpID(device: $0, seq: entry.value.op.seq)) }) == true {
                continue
            }
            grouped[entry.player.bytes + [UInt8(clamping: entry.hole)], default: (entry.player, entry.hole, [])].values
                .append(entry.value)
        }
        return grouped.values.map { ScoreCell(player: $0.player, hole: $0.hole, values: $0.values) }
            .sorted { ($0.player, $0.hole) < ($1.player, $1.hole) }
    }

    /// The lock of one player's card, if its signatures lock it: the earliest pair of two users' attestations of
    /// one hash that the entries up to the later of them make.
    /// `signers`: the users who must be among the two, the player's and the marker's where each is linked to one.
    static func lock(
        game: GameID, player: PlayerID, attestations: [AttestationRecord], entries: [Entry],
        superseded: [(op: OpID, by: OpID)], signers: Set<PublicKey> = []
    ) -> (lock: CardLock, cells: [ScoreCell])? {
        var candidates: [(at: HLC, pair: [AttestationRecord])] = []
        for (index, first) in attestations.enumerated() {
            for second in attestations[(index + 1)...]
            where first.user != nil && second.user != nil && first.user != second.user && first.cardHash == second.cardHash
                && signers.isSubset(of: [first.user, second.user].compactMap { $0 })
            {
                candidates.append((max(first.hlc, second.hlc), [first, second]))
            }
        }
        for candidate in candidates.sorted(by: { $0.at < $1.at }) {
            let before = cells(of: entries, included: { $0.value.hlc <= candidate.at }, superseded: superseded)
            guard cardHash(game: game, player: player, cells: before) == candidate.pair[0].cardHash else { continue }
            let refused = entries.filter { $0.value.hlc > candidate.at && !$0.committee }
            let refusedOps = Set(refused.map(\.value.op))
            let shown = cells(of: entries, included: { !refusedOps.contains($0.value.op) }, superseded: superseded)
            let lock = CardLock(
                player: player, at: candidate.at, signatures: candidate.pair.map(\.op), cardHash: candidate.pair[0].cardHash,
                refused: refused.map { Refused(hole: $0.hole, value: $0.value) }
                    .sorted {
                        ($0.value.hlc, $0.value.op.device, $0.value.op.seq) < ($1.value.hlc, $1.value.op.device, $1.value.op.seq)
                    })
            return (lock, shown)
        }
        return nil
    }
}

extension OpStore {
    /// The locks of a game's cards, with the cells each locked player's card shows: none for a game that is not a
    /// group of a competition, or whose cards no two users have signed alike.
    func locks(_ db: Database, space: SpaceID, game: GameID) throws -> [(lock: CardLock, cells: [ScoreCell])] {
        let competition = try Data.fetchOne(
            db,
            sql: "SELECT value FROM lww WHERE space = ? AND kind = ? AND id = ? AND field = 'competition'",
            arguments: [space, Int64(EntityKind.game.rawValue), game])
        guard let competition, case .bytes(let bytes) = try FieldValue(encoded: [UInt8](competition)),
            let competitionID = EntityID(bytes: bytes)
        else { return [] }
        // A scan of the space's attestations (its key leads with the space): two a card, a few hundred on a club's
        // day, read only for a competition's group.
        let signed = try PlayerID.fetchAll(
            db,
            sql: """
                SELECT player FROM attestation WHERE space = ? AND game = ? GROUP BY player HAVING count(DISTINCT user) > 1
                """, arguments: [space, game])
        guard !signed.isEmpty else { return [] }
        let attestations = Dictionary(grouping: try attestationRows(db, space: space, game: game), by: \.player)
        // The committee: every device of the user who created the competition, and of each member they named to it,
        // with the clock from which their entries are the committee's (a member's from their naming on).
        // The creator is the user the competition's id names (its `owner`), or for one an earlier version made, the
        // writer of its `created` field.
        var committeeSince: [PublicKey: HLC] = [:]
        let creatorDevices: [PublicKey]
        if let owner = try Materializer(db: db, space: space, recorder: nil).competitionCreator(competitionID) {
            creatorDevices = try PublicKey.fetchAll(
                db, sql: "SELECT device FROM member WHERE space = ? AND user = ?", arguments: [space, Data(owner.bytes)])
        } else {
            creatorDevices = try PublicKey.fetchAll(
                db,
                sql: """
                    SELECT c.device FROM lww l JOIN member m ON m.space = l.space AND m.device = l.device
                    JOIN member c ON c.space = m.space AND c.user = m.user
                    WHERE l.space = ? AND l.kind = ? AND l.id = ? AND l.field = 'created'
                    """, arguments: [space, Int64(EntityKind.competition.rawValue), Data(competitionID.bytes)])
        }
        for device in creatorDevices {
            committeeSince[device] = HLC(rawValue: 0)
        }
        for row in try Row.fetchAll(
            db,
            sql: "SELECT field, value, hlc FROM lww WHERE space = ? AND kind = ? AND id = ? AND field LIKE 'committee.%'",
            arguments: [space, Int64(EntityKind.competition.rawValue), Data(competitionID.bytes)])
        {
            let field: String = row["field"]
            guard case .bytes(let bytes) = try FieldValue(encoded: [UInt8](row["value"] as Data)),
                let user = PublicKey(bytes: bytes), CompetitionRecord.committeeField(user) == field
            else { continue }
            let named = HLC(rawValue: UInt64(bitPattern: row["hlc"] as Int64))
            for device in try PublicKey.fetchAll(
                db, sql: "SELECT device FROM member WHERE space = ? AND user = ?", arguments: [space, Data(user.bytes)])
            {
                committeeSince[device] = min(committeeSince[device] ?? named, named)
            }
        }
        var locks: [(lock: CardLock, cells: [ScoreCell])] = []
        for player in signed {
            let arguments: StatementArguments = [space, game, player]
            // Who must sign: the player and their marker, each where linked to a user (a phone checked in for them).
            var signers: Set<PublicKey> = []
            if let user = try linkedUser(db, space: space, player: player) { signers.insert(user) }
            if let field = try Data.fetchOne(
                db, sql: "SELECT value FROM lww WHERE space = ? AND kind = ? AND id = ? AND field = ?",
                arguments: [space, Int64(EntityKind.game.rawValue), game, GameRecord.markerField(player)]),
                case .bytes(let marker) = try FieldValue(encoded: [UInt8](field)), let markerID = PlayerID(bytes: marker),
                let user = try linkedUser(db, space: space, player: markerID)
            {
                signers.insert(user)
            }
            let entries = try ScoreRow.fetchAll(
                db,
                sql: """
                    \(Self.authorNames)
                    SELECT \(Self.scoreColumns),
                        (SELECT b.device FROM branch_op b WHERE b.space = s.space AND b.hash = s.device) AS forked
                    FROM score s WHERE s.space = ?1 AND s.game = ? AND s.player = ?
                    """, arguments: arguments
            ).map { row in
                CardLock.Entry(
                    value: try row.value(), player: row.player, hole: row.hole, slot: row.device, forked: row.forked,
                    committee: committeeSince[row.forked ?? row.device].map { HLC(rawValue: UInt64(bitPattern: row.hlc)) > $0 }
                        ?? false)
            }
            let superseded = try SupersededRow.fetchAll(
                db,
                sql: "SELECT device, seq, by_device, by_seq FROM superseded WHERE space = ? AND game = ? AND player = ?",
                arguments: arguments
            ).map { (op: $0.op, by: $0.by) }
            if let locked = CardLock.lock(
                game: game, player: player, attestations: attestations[player] ?? [], entries: entries,
                superseded: superseded, signers: signers)
            {
                locks.append(locked)
            }
        }
        return locks
    }

    /// The user a player is linked to, if any (the player record's `user`).
    func linkedUser(_ db: Database, space: SpaceID, player: PlayerID) throws -> PublicKey? {
        guard
            let field = try Data.fetchOne(
                db, sql: "SELECT value FROM lww WHERE space = ? AND kind = ? AND id = ? AND field = 'user'",
                arguments: [space, Int64(EntityKind.player.rawValue), player]),
            case .bytes(let bytes) = try FieldValue(encoded: [UInt8](field))
        else { return nil }
        return PublicKey(bytes: bytes)
    }

    /// The locked cards of a game (``CardLock``).
    public func cardLocks(_ space: SpaceID, game: GameID) throws(StoreError) -> [CardLock] {
        try read { db in try locks(db, space: space, game: game).map(\.lock) }
    }
}
