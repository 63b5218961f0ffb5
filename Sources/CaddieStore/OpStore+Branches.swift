import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// A forked device: one that validly signed two different ops on one predecessor (a phone restored from an old
/// backup, or a member trying to take back what it signed).
///
/// Its log in `op` ends before the fork point, and every op it signed from the fork point on, on every branch, is
/// kept in `branch_op` and stays in the state under an author slot of its own: the op's hash, used as the device
/// column of the state's tables. So a fork never removes an op others already hold, and the state is the same on
/// every node that holds the same ops, whichever branch each saw first. A revoked or removed device's branches are
/// not in the state (its log before the fork point, up to its last valid seq, is). A pred or roster tag that names the
/// device's op at a seq past the fork point names every branch's op at that seq (queries resolve it through
/// `branch_op`).
extension ReceiveSession {
    /// The seq at which `device`'s log forked (the lowest, if it forked more than once), if it did.
    func forkPoint(_ device: PublicKey) throws -> UInt64? {
        let statement = try db.cachedStatement(sql: "SELECT min(seq) FROM fork WHERE space = ? AND device = ?")
        return try Int64.fetchOne(statement, arguments: [spaceData, Data(device.bytes)]).map { UInt64(bitPattern: $0) }
    }

    /// Moves `device`'s ops from `point` on out of its log into `branch_op`; the state is rebuilt at the batch's end.
    mutating func split(_ device: PublicKey, at point: UInt64) throws {
        let arguments: StatementArguments = [spaceData, Data(device.bytes), Int64(bitPattern: point)]
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO branch_op (space, device, seq, hash, user, user_name, hlc, bytes, received_at)
                SELECT o.space, o.device, o.seq, o.hash, m.user, m.user_name, o.hlc, o.bytes, o.received_at
                FROM op o JOIN member m ON m.space = o.space AND m.device = o.device
                WHERE o.space = ? AND o.device = ? AND o.seq >= ?
                """, arguments: arguments)
        try db.execute(sql: "DELETE FROM op WHERE space = ? AND device = ? AND seq >= ?", arguments: arguments)
        needsRebuild = true
        cutoffsChanged = true  // a revoked device's ops just moved to branches, which do not count
    }

    /// Applies ops of a forked device from its fork point on. Each must link to the device's op before the fork
    /// point (the first of a branch) or to an op held on a branch at the seq before; then it passes the checks of
    /// any op and joins the state under its own slot.
    mutating func processBranches(device: PublicKey, ops: [SignedOp], forkedAt point: UInt64) throws {
        let rootPrevious = point == 1 ? Digest32.zero : try storedHash(OpID(device: device, seq: point - 1))
        let deviceUser = try user(of: device)
        let deviceName = try String.fetchOne(
            db.cachedStatement(sql: "SELECT user_name FROM member WHERE space = ? AND device = ?"),
            arguments: [spaceData, Data(device.bytes)])
        let held = try db.cachedStatement(
            sql: "SELECT user, user_name FROM branch_op WHERE space = ? AND device = ? AND seq = ? AND hash = ?")
        for op in ops {
            let hash = Blake2b.hash(op.bytes)
            if try Row.fetchOne(held, arguments: [spaceData, Data(device.bytes), Int64(bitPattern: op.seq), Data(hash.bytes)])
                != nil
            {
                report.duplicates += 1
                continue
            }
            // Whose branch: the device's user before the fork point, or the user of the op it follows.
            var author: PublicKey?
            var name: String?
            if op.seq == point {
                guard let rootPrevious, op.links(to: rootPrevious) else {
                    try refuseBranchOp(op, rootPrevious == nil)
                    continue
                }
                (author, name) = (deviceUser, deviceName)
            } else {
                let previous = try Row.fetchOne(
                    held, arguments: [spaceData, Data(device.bytes), Int64(bitPattern: op.seq - 1), Data(op.prev.bytes)])
                guard let previous else {
                    try refuseBranchOp(op, true)
                    continue
                }
                author = try PublicKey(column: previous["user"] as Data)
                name = previous["user_name"]
            }
            guard op.signatureVerifies else {
                try refuse(.invalidOp(op: op.id, reason: "its signature does not verify"))
                continue
            }
            // A revoked or removed device's branches never count: whoever holds its key now could otherwise fork it
            // below its last valid seq and write on.
            if try cutoff(of: device, user: author) < .max {
                try refuse(.revoked(op: op.id, lastValidSeq: point - 1))
                continue
            }
            var cutoff: UInt64?
            guard let admitted = try admit(op, author: author, cutoff: &cutoff), let user = admitted.author else { continue }
            if case .join(let join)? = admitted.changes.first { name = join.userName }
            try db.cachedStatement(
                sql: """
                    INSERT INTO branch_op (space, device, seq, hash, user, user_name, hlc, bytes, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                spaceData, Data(device.bytes), Int64(bitPattern: op.seq), Data(hash.bytes), Data(user.bytes), name ?? "?",
                Int64(bitPattern: op.hlc.rawValue), Data(op.bytes), Int64(bitPattern: now),
            ])
            newestClock = max(newestClock, op.hlc)
            try Materializer(db: db, space: space, recorder: recorder).apply(
                op, changes: admitted.changes, author: user, slot: hash)
            report.applied.append(op.id)
        }
    }

    /// A branch op that does not follow anything held: refused when it links to nothing it could follow, or
    /// left for a later offer when what it follows is missing here (branches travel whole, oldest first).
    private mutating func refuseBranchOp(_ op: SignedOp, _ missing: Bool) throws {
        if missing {
            if mode == .strict { throw StoreError.missingOps(device: op.device, from: op.seq - 1, to: op.seq - 1) }
            report.rejected.append(
                "op \(op.id) follows an op of its forked device not held here; it is accepted when offered again")
        } else {
            try refuse(.invalidOp(op: op.id, reason: "its chain link does not match the op before its device's fork"))
        }
    }
}

extension OpStore {
    /// The fork-branch ops `peer` acknowledged in `space` since `since` (milliseconds since 1970).
    public func branchAcks(_ space: SpaceID, peer: PublicKey, since: UInt64) throws(StoreError) -> Set<Digest32> {
        try read { db in
            Set(
                try Data.fetchAll(
                    db, sql: "SELECT hash FROM branch_ack WHERE space = ? AND peer = ? AND acked_at >= ?",
                    arguments: [Data(space.bytes), Data(peer.bytes), Int64(bitPattern: since)]
                ).map { try Digest32(column: $0) })
        }
    }

    /// Records that `peer` acknowledged these fork-branch ops at `now`, and forgets its acknowledgements older than
    /// `forgetBefore`.
    public func recordBranchAcks(
        _ space: SpaceID, peer: PublicKey, _ hashes: [Digest32], now: UInt64, forgetBefore: UInt64
    ) throws(StoreError) {
        try write("branch acks") { db in
            let (spaceData, peerData) = (Data(space.bytes), Data(peer.bytes))
            try db.execute(
                sql: "DELETE FROM branch_ack WHERE space = ? AND peer = ? AND acked_at < ?",
                arguments: [spaceData, peerData, Int64(bitPattern: forgetBefore)])
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO branch_ack (space, peer, hash, acked_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (space, peer, hash) DO UPDATE SET acked_at = excluded.acked_at
                    """)
            for hash in hashes {
                try insert.execute(arguments: [spaceData, peerData, Data(hash.bytes), Int64(bitPattern: now)])
            }
        }
    }

    /// What a session sends whole to each peer, once: every op of the space's fork branches, and the other copy of
    /// each fork (so a node whose fork copy did not apply, a revoked device's, still shows the fork to peers that
    /// hold only the device's log). By device and seq, so each op follows its predecessor.
    public func branchOps(_ space: SpaceID) throws(StoreError) -> [(hash: Digest32, id: OpID, bytes: [UInt8])] {
        try read { db in
            var seen = Set<Digest32>()
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT device, seq, hash, bytes FROM branch_op WHERE space = ?1
                    UNION ALL SELECT device, seq, NULL, other_bytes FROM fork WHERE space = ?1
                    ORDER BY device, seq
                    """, arguments: [Data(space.bytes)]
            ).compactMap { row in
                let bytes = [UInt8](row["bytes"] as Data)
                let hash = try (row["hash"] as Data?).map { try Digest32(column: $0) } ?? Blake2b.hash(bytes)
                let id = OpID(device: try PublicKey(column: row["device"] as Data), seq: UInt64(row["seq"] as Int64))
                return seen.insert(hash).inserted ? (hash, id, bytes) : nil
            }
        }
    }

    /// A number that moves when the space's fork branches or fork records change (ops that come, and ops a
    /// revocation moves to `rejected_op`): sessions and the live-event hub compare it instead of reading them.
    public func forkMark(_ space: SpaceID) throws(StoreError) -> Int {
        // Kept only in the file's one writer (no other process's commit can be missing), and never from inside a unit
        // of work (what it reads is not committed yet).
        let keeps = keepsRecent && OpenTransaction.current(of: self) == nil
        if keeps, let kept = recorder.recent.forkMark(space) { return kept }
        let generation = recorder.recent.generation
        let mark = try read { db in try Self.forkMark(db, space: Data(space.bytes)) }
        if keeps { recorder.recent.keep(forkMark: mark, of: space, readAt: generation) }
        return mark
    }

    static func forkMark(_ db: Database, space: Data) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT (SELECT count(*) FROM branch_op WHERE space = ?1) + (SELECT count(*) FROM fork WHERE space = ?1)
                        + (SELECT count(*) FROM rejected_op WHERE space = ?1)
                    """), arguments: [space]) ?? 0
    }
}
