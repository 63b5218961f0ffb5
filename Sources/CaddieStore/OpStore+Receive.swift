import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// How a batch of received ops is judged.
public enum ReceiveMode: Sendable {
    /// Any invalid op or gap rejects the whole batch and changes nothing (`caddie import`); a valid fork is kept,
    /// as in sync (OpStore+Branches.swift).
    case strict
    /// Valid ops apply; invalid ones are skipped and reported; ops beyond a gap wait in the
    /// pending table for their predecessors (sync, where ops arrive as peers send them).
    case tolerant
}

/// How surely a committed batch is on disk when ``OpStore/receive(space:spaceKey:laterKeys:ops:mode:now:durability:)``
/// returns (docs/architecture.md, "Storage and durability").
public enum Durability: Sendable {
    /// Synced at its commit (SQLite's `synchronous = FULL`): it survives the process killed and a power cut. What a
    /// person entered arrives so, on this device or from a phone it hosts (whose outbox forgets an entry once the
    /// node has answered), and so does an imported bundle (its file may be deleted next).
    case synced
    /// Written at its commit and synced with the next synced commit or checkpoint (`synchronous = NORMAL`): it
    /// survives the process killed, but a power cut may take the batches received since the last sync. Only for ops
    /// a peer sent over a sync session, none of them this device's own: that peer still holds them, and the next
    /// session fetches them again.
    case heldByPeer
}

/// What a batch did.
public struct ReceiveReport: Sendable, Equatable {
    /// Ops newly applied, in the order applied.
    public var applied: [OpID] = []
    /// Ops already held, skipped.
    public var duplicates = 0
    /// Ops stored to wait for a missing predecessor.
    public var pending = 0
    /// Ops refused, with the reason (tolerant mode only; strict mode throws instead).
    public var rejected: [String] = []
    /// Forks detected (same device and seq, different signed bytes).
    public var forks: [OpID] = []
    /// Ops held before that a revocation or removal in this batch took out of the state.
    public var removed = 0
    /// The space's ``OpStore/forkMark(_:)`` after the batch (a session sends its branches when this moves).
    public var forkMark = 0
    /// Ed25519 checks of ops' own signatures made to find which signature covers each run (waiting ops found
    /// unsigned before are not checked again).
    public var signaturesChecked = 0
    /// Waiting ops read back from the pending queue to be tried again: only those of the devices the batch carried.
    public var pendingExamined = 0
}

extension OpStore {
    /// Verifies and applies a batch of ops of one space in one transaction.
    ///
    /// Checks, per op: structure, space, the hash chain to the device's previous op, its own signature
    /// (every op's, so that whether an op is accepted never depends on which ops travelled with it), its
    /// clock (at most a day ahead of `now`), the payload, the device's join (certificate and proof of the
    /// space key), revocations and forks.
    public func receive(
        space: SpaceID, spaceKey: [UInt8], laterKeys: [[UInt8]] = [], ops raw: [[UInt8]], mode: ReceiveMode, now: UInt64
    ) throws(StoreError) -> ReceiveReport {
        try receive(
            space: space, spaceKey: spaceKey, laterKeys: laterKeys, ops: raw, mode: mode, now: now, durability: .synced)
    }

    /// Verifies and applies a batch as above, committed with `durability` (``Durability/heldByPeer`` for a batch a
    /// sync session received).
    public func receive(
        space: SpaceID, spaceKey: [UInt8], laterKeys: [[UInt8]] = [], ops raw: [[UInt8]], mode: ReceiveMode, now: UInt64,
        durability: Durability
    ) throws(StoreError) -> ReceiveReport {
        var report = ReceiveReport()
        var decoded: [SignedOp] = []
        decoded.reserveCapacity(raw.count)
        for (index, bytes) in raw.enumerated() {
            let op: SignedOp
            do {
                op = try SignedOp(bytes: bytes)
            } catch {
                if mode == .strict { throw StoreError.malformedOp(index: index, reason: error.description) }
                report.rejected.append("op #\(index + 1) is malformed: \(error)")
                continue
            }
            guard op.space == space else {
                if mode == .strict { throw StoreError.wrongSpace(op: op.id, expected: space, found: op.space) }
                report.rejected.append("op \(op.id) belongs to another space")
                continue
            }
            decoded.append(op)
        }
        let batch = decoded
        return try write("receive", durability: durability) { db in
            var session = ReceiveSession(
                db: db, space: space, spaceKeys: [spaceKey] + laterKeys, mode: mode, now: now, recorder: recorder)
            session.report = report
            try session.run(batch)
            return session.report
        }
    }
}

/// One receive transaction: the per-device pipeline of chain, signature and membership checks.
struct ReceiveSession {
    let db: Database
    let space: SpaceID
    let spaceData: Data
    /// Every key of the space this home knows (the first, and those of later epochs): a join proves any of them.
    let spaceKeys: [[UInt8]]
    let mode: ReceiveMode
    let now: UInt64
    var report = ReceiveReport()
    var cutoffsChanged = false
    /// A log split at a fork point in this batch: the state is rebuilt at its end.
    var needsRebuild = false
    /// Hashes of ops whose own signature was found not to verify: checked once, in this batch or when they began to
    /// wait (`pending_op.unsigned`).
    var knownUnsigned = Set<Digest32>()
    /// Where the materializer notes what the batch changed.
    let recorder: ChangeRecorder
    /// What the batch's runs changed, gathered as they apply and handed to ``recorder`` once, when the batch ends.
    let notes: ChangeNotes
    /// The newest clock of an op the batch added to a log or a branch.
    var newestClock = HLC(rawValue: 0)

    init(db: Database, space: SpaceID, spaceKeys: [[UInt8]], mode: ReceiveMode, now: UInt64, recorder: ChangeRecorder) {
        self.db = db
        self.recorder = recorder
        notes = ChangeNotes(space: space)
        self.space = space
        spaceData = Data(space.bytes)
        self.spaceKeys = spaceKeys
        self.mode = mode
        self.now = now
    }

    mutating func run(_ ops: [SignedOp]) throws {
        guard
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM space WHERE id = ?"), arguments: [spaceData]) == 1
        else {
            throw StoreError.unknownSpace(space.hex)
        }
        // Handed over also when a write fails, as if noted op by op (the transaction then rolls back).
        defer { recorder.take(notes) }
        try expirePending()
        // By device, a run of one device's ops at a time (a bundle and a peer's batch come device by device): one
        // lookup a run, not one an op, and a batch of one device's ops is passed on as it is, with no copy.
        var byDevice: [PublicKey: [SignedOp]] = [:]
        var start = 0
        while start < ops.count {
            let device = ops[start].device
            var end = start + 1
            while end < ops.count, ops[end].device == device { end += 1 }
            if start == 0, end == ops.count {
                byDevice[device] = ops
            } else {
                byDevice[device, default: []].append(contentsOf: ops[start..<end])
            }
            start = end
        }
        for device in byDevice.keys.sorted() {
            try process(device: device, ops: byDevice[device] ?? [])
        }
        if mode == .tolerant { try drainPending(devices: Set(byDevice.keys)) }
        if cutoffsChanged || needsRebuild { try enforceCutoffs() }
        report.forkMark = try OpStore.forkMark(db, space: spaceData)
        // The home's clock moves once a batch, to the newest op it took (an op is refused more than a day ahead).
        if newestClock.rawValue > 0 { try db.advanceClock(to: newestClock) }
    }

    /// Fails (strict) or records (tolerant) a problem. Returns normally only in tolerant mode.
    mutating func refuse(_ error: StoreError) throws {
        if mode == .strict { throw error }
        report.rejected.append(error.description)
    }

    mutating func process(device: PublicKey, ops unsorted: [SignedOp]) throws {
        // Sorted by seq, and copies of one seq by their bytes, so a batch is judged the same whatever its order. A
        // batch in rising seqs, as a device's log is sent, is in that order already and holds no two copies of a seq.
        let rising = unsorted.indices.dropFirst().allSatisfy { unsorted[$0 - 1].seq < unsorted[$0].seq }
        let sorted =
            rising
            ? unsorted
            : unsorted.sorted { $0.seq != $1.seq ? $0.seq < $1.seq : $0.bytes.lexicographicallyPrecedes($1.bytes) }
        // Past a device's fork point every op belongs to a branch (OpStore+Branches.swift).
        let forkedAt = try forkPoint(device)
        var chain = forkedAt.map { point in sorted.filter { $0.seq < point } } ?? sorted
        let branch = forkedAt.map { point in sorted.filter { $0.seq >= point } } ?? []
        // Two copies of one seq in the batch: identical ones are duplicates. Of different ones, the log takes the
        // copy that follows the copy it took at the seq before (so a batch holding two whole branches applies one
        // of them in line); the others are judged after, against what is then held (a fork when validly signed
        // and linked to the same op).
        var unique: [SignedOp] = []
        var others: [SignedOp] = []
        var index = rising ? chain.count : 0
        if rising { unique = chain }
        while index < chain.count {
            var copies: [SignedOp] = []
            let seq = chain[index].seq
            while index < chain.count, chain[index].seq == seq {
                if copies.contains(where: { $0.bytes == chain[index].bytes }) {
                    report.duplicates += 1
                } else {
                    copies.append(chain[index])
                }
                index += 1
            }
            // Only a choice between copies needs the hash of the op before (hashing every op here would hash the
            // whole batch once more than its checks do).
            var taken = 0
            if copies.count > 1, let last = unique.last, last.seq + 1 == seq {
                let previous = Blake2b.hash(last.bytes)
                taken = copies.firstIndex { $0.prev == previous } ?? 0
            }
            unique.append(copies.remove(at: taken))
            others += copies
        }
        chain = unique
        if let point = try processChain(device: device, ops: chain) {
            // A valid second op at `point`: the log splits there, and what is left of the batch joins a branch.
            try split(device, at: point)
            try process(device: device, ops: (chain + others + branch).filter { $0.seq >= point })
            let below = others.filter { $0.seq < point }
            if !below.isEmpty { try process(device: device, ops: below) }
            return
        }
        if !others.isEmpty { try process(device: device, ops: others) }
        if let forkedAt, !branch.isEmpty { try processBranches(device: device, ops: branch, forkedAt: forkedAt) }
    }

    /// Applies ops that extend a device's log. Returns the seq of a fork it found (a validly signed op that differs
    /// from the one held at its seq): the caller splits the log there; nothing after it in `ops` has been judged.
    private mutating func processChain(device: PublicKey, ops: [SignedOp]) throws -> UInt64? {
        var (headSeq, headHash) = try head(device)
        var run: [(op: SignedOp, hash: Digest32)] = []
        // Ops beyond a gap wait; they are held after the run before them applies (it may be the device's join).
        var beyondGap: [SignedOp] = []
        // The hashes held at the seqs the batch carries again (a relayed batch may be all duplicates): one read.
        let held = try storedHashes(device, seqs: ops.lazy.map(\.seq).filter { $0 <= headSeq })
        for (index, op) in ops.enumerated() {
            if op.seq <= headSeq {
                if let stored = held[op.seq], stored != Blake2b.hash(op.bytes) {
                    if try isFork(op) {
                        try recordFork(op, keptHash: stored)
                        return op.seq
                    }
                } else {
                    report.duplicates += 1
                }
                continue
            }
            let expected = headSeq + UInt64(run.count) + 1
            if op.seq != expected {
                if mode == .strict { throw StoreError.missingOps(device: device, from: expected, to: op.seq - 1) }
                beyondGap = Array(ops[index...])
                break
            }
            let previous = run.last?.hash ?? headHash
            guard op.links(to: previous) else {
                try refuse(.invalidOp(op: op.id, reason: "its chain link does not match the previous op of its device"))
                break
            }
            run.append((op, Blake2b.hash(op.bytes)))
        }
        guard !run.isEmpty else {
            try forgetPending(device, through: headSeq)
            if !beyondGap.isEmpty { try holdPending(beyondGap) }
            return nil
        }
        let covered = coveredPrefix(run)
        var author = try user(of: device)
        var cutoff: UInt64?
        var applied = 0
        // Score rows are written in statements of many rows (RowInsert.swift): the materializer holds them until a
        // statement is full or an op changes more than a score, and the rest are written when the run ends.
        let scoreRows = ScoreRows()
        let materializer = Materializer(db: db, space: space, recorder: recorder, notes: notes, scoreRows: scoreRows)
        // Log rows likewise: held until the statement is full or the run ends, and an op that changes more than a
        // score is written before it is materialized (which may read the log), as every op was before.
        var logRows: [(op: SignedOp, hash: Digest32)] = []
        logRows.reserveCapacity(min(covered, Database.logRowsPerInsert))
        for (op, hash) in run.prefix(covered) {
            guard let admitted = try admit(op, author: author, cutoff: &cutoff) else { break }
            author = admitted.author
            logRows.append((op, hash))
            if logRows.count == Database.logRowsPerInsert
                || !admitted.changes.allSatisfy({ if case .score = $0 { true } else { false } })
            {
                try db.insertLogOps(space: spaceData, logRows, now: now)
                logRows.removeAll(keepingCapacity: true)
            }
            newestClock = max(newestClock, op.hlc)
            try materializer.apply(op, changes: admitted.changes, author: admitted.author, hash: hash)
            report.applied.append(op.id)
            applied += 1
            headSeq = op.seq
            headHash = hash
        }
        try db.insertLogOps(space: spaceData, logRows, now: now)
        try scoreRows.flush(db, space: spaceData)
        try forgetPending(device, through: headSeq)
        // The ops after the newest valid signature: none covers them yet. They wait, as ops beyond a gap do, for a
        // later op of their device whose signature covers them, so the same ops give the same state whatever
        // their batches. (After a refused op nothing of its line is kept.)
        if applied == covered, covered < run.count {
            if mode == .strict {
                try refuse(
                    .invalidOp(
                        op: run[covered].op.id,
                        reason: "its signature does not verify and no later op of its device covers it"))
            }
            try holdPending(run[covered...].map(\.op) + beyondGap)
        } else if !beyondGap.isEmpty {
            try holdPending(beyondGap)
        }
        return nil
    }

    /// How many ops of a contiguous, hash-linked run a valid signature of their device covers: every op up to the
    /// newest whose own signature verifies. That signature covers its op's bytes, which hold the hash of the op
    /// before, and so back along the run: only the device's key could have made the chain (Protocol/op-format.md,
    /// "Which signature covers an op"). Checked newest first, so an honest run costs one check. An op whose
    /// signature was found not to verify before (it waited, `unsigned`) is not checked again; the ops found so
    /// now are remembered the same way, so ops that wait cost their signature check once, not at every batch.
    private mutating func coveredPrefix(_ run: [(op: SignedOp, hash: Digest32)]) -> Int {
        var index = run.count
        while index > 0 {
            let (op, hash) = run[index - 1]
            if !knownUnsigned.contains(hash) {
                report.signaturesChecked += 1
                if op.signatureVerifies { return index }
                knownUnsigned.insert(hash)
            }
            index -= 1
        }
        return 0
    }

    /// Whether `other`, held under another hash at its seq, is a fork: a second op its device validly signed
    /// on the same predecessor. Anything else is refused as invalid and changes nothing.
    private mutating func isFork(_ other: SignedOp) throws -> Bool {
        guard other.signatureVerifies else {
            try refuse(.invalidOp(op: other.id, reason: "its signature does not verify"))
            return false
        }
        let previous = other.seq == 1 ? Digest32.zero : try storedHash(OpID(device: other.device, seq: other.seq - 1))
        guard other.links(to: previous) else {
            try refuse(.invalidOp(op: other.id, reason: "its chain link does not match the previous op of its device"))
            return false
        }
        return true
    }

    /// Records the fork's evidence: the first other copy of each forked seq, beside the hash of the op held.
    private mutating func recordFork(_ other: SignedOp, keptHash: Digest32) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO fork (space, device, seq, kept_hash, other_bytes, detected_at) VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                spaceData, Data(other.device.bytes), Int64(bitPattern: other.seq), Data(keptHash.bytes),
                Data(other.bytes), Int64(bitPattern: now),
            ])
        report.forks.append(other.id)
    }

    /// After a revocation or a removal: ops beyond a device's cutoff, on its log or on its fork branches, leave the
    /// state (kept in rejected_op for the audit). The state is rebuilt when ops left it or a log split.
    private mutating func enforceCutoffs() throws {
        var removed = false
        if cutoffsChanged {
            let lines = try Row.fetchAll(
                db,
                sql: """
                    SELECT 'op' AS line, o.device, max(o.seq) AS top, m.user FROM op o
                    LEFT JOIN member m ON m.space = o.space AND m.device = o.device WHERE o.space = ? GROUP BY o.device
                    UNION ALL
                    SELECT 'branch_op', device, max(seq), user FROM branch_op WHERE space = ? GROUP BY device, user
                    """, arguments: [spaceData, spaceData])
            for row in lines {
                let device = try PublicKey(column: row["device"] as Data)
                let top = UInt64(row["top"] as Int64)
                let user = try (row["user"] as Data?).map { try PublicKey(column: $0) }
                // A revoked or removed device's fork branches leave the state whole (OpStore+Branches.swift).
                let table: String = row["line"]
                var cut = try cutoff(of: device, user: user)
                if table == "branch_op", cut < .max { cut = 0 }
                guard top > cut else { continue }
                // A bundle that carries ops past a cutoff is refused whole; ops this home already held are
                // simply removed, as the revocation that arrived now demands.
                if mode == .strict, let offending = report.applied.first(where: { $0.device == device && $0.seq > cut }) {
                    throw StoreError.revoked(op: offending, lastValidSeq: cut)
                }
                // Branch ops are cut by the user their branch was signed under.
                let userFilter = table == "op" ? "" : " AND user = ?"
                var arguments: StatementArguments = [spaceData, Data(device.bytes), Int64(bitPattern: cut)]
                if table == "branch_op", let user { _ = arguments.append(contentsOf: [Data(user.bytes)]) }
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO rejected_op (space, device, seq, bytes, reason)
                        SELECT space, device, seq, bytes, 'revoked' FROM \(table) WHERE space = ? AND device = ? AND seq > ?\(userFilter)
                        """, arguments: arguments)
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE space = ? AND device = ? AND seq > ?\(userFilter)", arguments: arguments)
                report.removed += db.changesCount
                removed = true
            }
        }
        if removed || needsRebuild { try Materializer(db: db, space: space, recorder: recorder).rebuild() }
    }
}
