import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// Applies the changes of accepted ops to the materialised tables of one space.
///
/// Every write here is idempotent and commutes with every other: last-writer-wins upserts compare
/// (hlc, device, seq), set and tombstone rows are inserted once, and score cells are read as
/// "values not named by any pred". So the tables end the same whatever order ops arrive in.
struct Materializer {
    let db: Database
    let space: Data
    let spaceID: SpaceID
    /// Where what this changes is noted, for the store's observers (nil for the rebuild of a migration).
    let recorder: ChangeRecorder?
    /// Whether the committee's rule waits for the end (a rebuild): writes on competitions and games are taken as
    /// they come, and ``settle(competitions:games:)`` works them all out once every op is applied.
    let settleLater: Bool
    /// Where a run of received ops gathers its notes, handed to the recorder once at the run's end (nil: each op's
    /// notes go to the recorder as it is applied).
    let notes: ChangeNotes?
    /// Where a run of received ops gathers its score rows, written many to a statement (RowInsert.swift); the holder
    /// flushes it when the run ends. Nil: each op's score rows are written as it is applied.
    let scoreRows: ScoreRows?

    init(
        db: Database, space: SpaceID, recorder: ChangeRecorder?, settleLater: Bool = false, notes: ChangeNotes? = nil,
        scoreRows: ScoreRows? = nil
    ) {
        self.db = db
        self.notes = notes
        self.scoreRows = scoreRows
        self.space = Data(space.bytes)
        spaceID = space
        self.recorder = recorder
        self.settleLater = settleLater
    }

    /// Notes what one op's changes touch: its cells, games and competitions, or the whole space when it changes who
    /// counts; and, for an op of the log (`hash` given), its device's head. Into ``notes`` when the caller gathers a
    /// run's notes there, else straight to the recorder.
    func note(_ op: SignedOp, changes: [Change], hash: Digest32?) {
        if let notes {
            notes.note(op, changes: changes, hash: hash)
        } else if let recorder {
            let notes = ChangeNotes(space: spaceID)
            notes.note(op, changes: changes, hash: hash)
            recorder.take(notes)
        }
    }

    /// The space record's fields that name its owner: `space remove` and `space rotate` prove ownership with them.
    static let ownerFields: Set<String> = ["owner", "ownerSalt"]

    /// The fields of a `set` that count. On the space record, the owner fields count only as the owner wrote them
    /// when making the space: both together, `owner` the op's own author, and the salt binding that author to the
    /// space id. Any other write of them (a member's, a null, one without the other) is dropped, the op's other
    /// fields apply as usual, and every node decides alike from the op and its author alone, so a member cannot
    /// unset or garble the owner and with it switch off removal and rotation (docs/security.md).
    func counted(_ fields: [String: FieldValue], kind: EntityKind, id: EntityID, author: PublicKey?) -> [String: FieldValue] {
        guard kind == .space, id == .spaceRecord, fields.keys.contains(where: Self.ownerFields.contains) else { return fields }
        let rest = fields.filter { !Self.ownerFields.contains($0.key) }
        guard let author, case .bytes(let owner)? = fields["owner"], owner == author.bytes,
            case .bytes(let salt)? = fields["ownerSalt"], Membership.ownedSpaceID(owner: author, salt: salt) == spaceID
        else { return rest }
        return fields
    }

    /// `slot`: for an op of a fork branch, its hash, under which its changes are in the state instead of its
    /// device (OpStore+Branches.swift); its join then makes no member row (the device's join before the fork does).
    /// `hash`: the op's hash, for an op of the log (its device's new head, for the store's observers).
    func apply(
        _ op: SignedOp, changes: [Change], author user: PublicKey?, slot: Digest32? = nil, hash: Digest32? = nil
    )
        throws
    {
        note(op, changes: changes, hash: slot == nil ? hash : nil)
        // The key its rows are under: the device's, or a fork branch op's slot.
        let key = slot?.storage ?? op.device.storage
        let scoresOnly = changes.allSatisfy { if case .score = $0 { true } else { false } }
        // What else an op changes may read the score rows held back so far: they are written first.
        if !scoresOnly, let scoreRows { try scoreRows.flush(db, space: space) }
        lazy var device = withUnsafeBytes(of: key) { Data($0) }
        let seq = Int64(op.seq)
        let hlc = Int64(bitPattern: op.hlc.rawValue)
        // Games of competitions' groups, worked out again once the op is applied (Materializer+Groups.swift).
        var unsettled: Set<EntityID> = []
        for change in changes {
            switch change {
            case .join, .revoke, .remove, .rotate:
                try applyMembership(change, user: user, device: device, seq: seq, slot: slot)
            case .set(.competition, let id, let fields):
                try applyCompetition(id, fields: fields, author: user, hlc: hlc, device: device, seq: seq)
            case .set(.game, let id, let fields):
                if try applyGame(id, fields: fields, hlc: hlc, device: device, seq: seq) { unsettled.insert(id) }
            case .set(let kind, let id, let fields):
                try upsert(
                    kind: kind, id: id, fields: counted(fields, kind: kind, id: id, author: user), hlc: hlc, device: device,
                    seq: seq)
            case .rosterAdd(let game, let player):
                if try rosterUnsettled(game) {
                    unsettled.insert(game.entity)
                } else {
                    try addToRoster(game: game, player: player, device: device, seq: seq)
                }
            case .rosterRemove(let game, let player, let observed):
                if try rosterUnsettled(game) {
                    unsettled.insert(game.entity)
                } else {
                    try cancelInRoster(game: game, player: player, observed: observed)
                }
            case .score(let game, let player, let hole, let entry):
                try applyScore(
                    ScoreRows.Row(
                        device: key, seq: seq, game: game, player: player, hole: Int64(hole), hlc: hlc, entry: entry),
                    pred: op.pred)
            case .attest(let game, let player, let cardHash):
                guard let user else { continue }
                try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO attestation (space, device, seq, user, game, player, card_hash)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    space, device, seq, Data(user.bytes), Data(game.bytes),
                    Data(player.bytes), Data(cardHash.bytes),
                ])
            }
        }
        try rederiveGroups(unsettled)
    }

    /// Who counts: a join's member row (none for a fork branch's op, `slot`), a revocation, a removal and the devices
    /// it cuts, a new space key sealed to each member device.
    func applyMembership(_ change: Change, user: PublicKey?, device: Data, seq: Int64, slot: Digest32?) throws {
        switch change {
        case .join(let join):
            if slot != nil { return }
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO member (space, device, user, user_name, certified_at) VALUES (?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                space, device, Data(join.user.bytes), join.userName,
                Int64(bitPattern: join.certifiedAt),
            ])
        case .revoke(let revocation):
            guard let user else { return }
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO revocation (space, user, device, last_valid_seq, by_device, by_seq)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                space, Data(user.bytes), Data(revocation.device.bytes),
                Int64(bitPattern: revocation.lastValidSeq), device, seq,
            ])
        case .remove(let removal):
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO removal (space, user, by_device, by_seq) VALUES (?, ?, ?, ?)
                    """
            ).execute(arguments: [space, Data(removal.user.bytes), device, seq])
            // The listed devices are cut like revoked ones (their own user is the revocation's user).
            for cutoff in removal.devices {
                try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO revocation (space, user, device, last_valid_seq, by_device, by_seq)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    space, Data(removal.user.bytes), Data(cutoff.device.bytes),
                    Int64(bitPattern: cutoff.lastValidSeq), device, seq,
                ])
            }
        case .rotate(let rotation):
            for entry in rotation.sealed {
                try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO space_key (space, epoch, key_check, device, sealed, by_device, by_seq)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    space, Int64(rotation.epoch), Data(rotation.keyCheck), Data(entry.device.bytes),
                    Data(entry.box), device, seq,
                ])
            }
        default:
            return
        }
    }

    /// A score: its row, and a row for each value it supersedes (`pred`). Held in ``scoreRows`` when a run gathers
    /// them, else written at once.
    func applyScore(_ row: ScoreRows.Row, pred: [OpID]) throws {
        // The score row is also an add to the roster (view roster_tag): a player someone scored stays
        // on the card even if another device removed them without having seen that score.
        if let scoreRows {
            try scoreRows.add(row, pred: pred, db: db, space: space)
        } else {
            let rows = ScoreRows()
            try rows.add(row, pred: pred, db: db, space: space)
            try rows.flush(db, space: space)
        }
    }

    /// A roster add, tagged with its op (`device`: its slot).
    func addToRoster(game: GameID, player: PlayerID, device: Data, seq: Int64) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO roster_add (space, game, player, device, seq) VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: [space, Data(game.bytes), Data(player.bytes), device, seq])
    }

    /// A roster remove: the adds it observed cancelled.
    func cancelInRoster(game: GameID, player: PlayerID, observed: [OpID]) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO roster_cancel (space, game, player, device, seq) VALUES (?, ?, ?, ?, ?)
                """)
        for tag in observed {
            try statement.execute(arguments: [
                space, Data(game.bytes), Data(player.bytes), Data(tag.device.bytes), Int64(bitPattern: tag.seq),
            ])
        }
    }

    /// Empties the space's materialised tables and re-applies every op it holds, in (device, seq) order, then
    /// the fork branches' ops. Used only when a revocation removes ops that were already applied or a log splits.
    func rebuild() throws {
        recorder?.record(spaceID) {
            $0.whole = true
            $0.rebuilt = true
        }
        for table in Schema.materialisedTables {
            try db.execute(sql: "DELETE FROM \(table) WHERE space = ?", arguments: [space])
        }
        // Re-applied ops are not news: the space is noted whole once, above.
        let scoreRows = ScoreRows()
        let quiet = Materializer(db: db, space: spaceID, recorder: nil, settleLater: true, scoreRows: scoreRows)
        var users: [PublicKey: PublicKey] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT bytes FROM op WHERE space = ? ORDER BY device, seq",
            arguments: [space])
        while let row = try rows.next() {
            let op = try SignedOp(bytes: [UInt8](row["bytes"] as Data))
            let changes = try Payload.decode(op.payloadBytes)
            for case .join(let join) in changes { users[op.device] = join.user }
            try quiet.apply(op, changes: changes, author: users[op.device])
        }
        try scoreRows.flush(db, space: space)
        let branches = try Row.fetchCursor(
            db, sql: "SELECT bytes, hash, user FROM branch_op WHERE space = ? ORDER BY device, seq, hash",
            arguments: [space])
        while let row = try branches.next() {
            let op = try SignedOp(bytes: [UInt8](row["bytes"] as Data))
            try quiet.apply(
                op, changes: try Payload.decode(op.payloadBytes), author: try PublicKey(column: row["user"] as Data),
                slot: try Digest32(column: row["hash"] as Data))
        }
        try scoreRows.flush(db, space: space)
        // The committee's rule, once every op is here: every competition, then every game ever bound to one.
        let kinds = [EntityKind.competition, .game].map { Int64($0.rawValue) }
        let ids = try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT kind, id FROM lww WHERE space = ? AND (kind = ? OR (kind = ? AND field = 'competition'))
                """, arguments: [space, kinds[0], kinds[1]]
        ).compactMap { row in EntityID(bytes: [UInt8](row["id"] as Data)).map { (kind: row["kind"] as Int64, id: $0) } }
        try settle(
            competitions: Set(ids.filter { $0.kind == kinds[0] }.map(\.id)),
            games: Set(ids.filter { $0.kind == kinds[1] }.map(\.id)))
    }
}
