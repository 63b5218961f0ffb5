import CaddieCore
import Foundation
import GRDB
import Synchronization

/// Collects what a write transaction changed while the materializer applies it, and publishes it to the store's
/// observers when the transaction commits (dropped when it rolls back). A GRDB transaction observer on the one
/// writer connection, so every write of this process is seen, whichever feature made it.
final class ChangeRecorder: TransactionObserver, Sendable {
    /// What the open transaction noted: the change, and its log ops for ``recent``.
    struct Pending {
        var change = StoreChange()
        var ops = RecentOps.Noted()
    }

    private let pending = Mutex(Pending())
    private let observers = Mutex<(next: Int, all: [Int: @Sendable (StoreChange) -> Void])>((0, [:]))
    /// The newest ops of each log, taken from each commit before its change is published.
    let recent = RecentOps()

    /// Notes a change in `space` beside its ops' notes (a game settled again, a rebuild).
    func record(_ space: SpaceID, _ update: (inout StoreChange.Space) -> Void) {
        pending.withLock { update(&$0.change.spaces[space, default: StoreChange.Space()]) }
    }

    /// Takes in what ops noted (``ChangeNotes``: a receive's runs, or one op applied alone), under one lock.
    func take(_ notes: ChangeNotes) {
        notes.settleHead()
        guard !notes.change.ops.isEmpty else { return }
        pending.withLock { pending in
            pending.change.spaces[notes.space, default: StoreChange.Space()].merge(notes.change)
            pending.ops.add(notes.space, run: notes.logOps)
        }
        notes.change = StoreChange.Space()
        notes.logOps = []
    }

    /// What the open transaction has noted so far (taken before a savepoint, given back if it rolls back).
    var noted: Pending { pending.withLock { $0 } }

    /// Forgets what was noted since `noted` was taken: the savepoint that noted it rolled back.
    func restore(_ noted: Pending) { pending.withLock { $0 = noted } }

    func add(_ observer: @escaping @Sendable (StoreChange) -> Void) -> (id: Int, first: Bool) {
        observers.withLock { state in
            state.next += 1
            state.all[state.next] = observer
            return (state.next, state.next == 1)
        }
    }

    func remove(_ id: Int) { _ = observers.withLock { $0.all.removeValue(forKey: id) } }

    /// Hands a change to every observer (on the calling thread: each must return quickly).
    func publish(_ change: StoreChange) {
        guard !change.isEmpty else { return }
        for observer in observers.withLock({ Array($0.all.values) }) { observer(change) }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseDidCommit(_ db: Database) {
        let committed = pending.withLock { state in
            defer { state = Pending() }
            return state
        }
        // Kept before anyone hears of the change: a session woken by it finds its ops kept.
        recent.commit(committed.ops, whole: Set(committed.change.spaces.filter { $0.value.whole }.keys))
        publish(committed.change)
    }

    func databaseDidRollback(_ db: Database) {
        pending.withLock { $0 = Pending() }
        recent.rolledBack()
    }
}

extension OpStore {
    /// Calls `observer` after every commit of this process that changed the merged state, with what changed. A
    /// commit of another process is not seen: while one process writes the file it claims it (``claimWrites()``:
    /// the running node), and every other process hands it its writes. `observer` runs on the writing thread and
    /// must return quickly. Returns a number for ``stopObserving(_:)``.
    public func observe(_ observer: @escaping @Sendable (StoreChange) -> Void) -> Int {
        recorder.add(observer).id
    }

    /// Ends one observation.
    public func stopObserving(_ id: Int) { recorder.remove(id) }

    /// Makes this process the database file's one writer for the store's lifetime: an exclusive lock on
    /// `PATH.lock`, which every process that writes takes first (the running node for its life, a command that
    /// writes itself for its own). Only then is what this process keeps in memory of its commits (``RecentOps``)
    /// the whole truth, and used. Throws ``StoreError/otherWriter(_:)`` when another process holds it; a second claim
    /// by this store does nothing. A store in memory needs none.
    public func claimWrites() throws(StoreError) {
        guard let path else { return }
        try writerLock.withLock { held throws(StoreError) in
            guard held == nil else { return }
            let lockPath = path + ".lock"
            let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .database("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                close(fd)
                throw .otherWriter(
                    "another caddie process is writing this home (a `caddie serve`, or a command that is still running); "
                        + "nothing was changed")
            }
            held = fd
        }
    }

    /// Whether this process is the file's one writer (a store in memory always is): what ``RecentOps`` keeps is
    /// then used.
    var keepsRecent: Bool { path == nil || writerLock.withLock { $0 != nil } }
}

extension StoreChange.Space {
    /// Notes what one op's changes touch: its cells, games and competitions, or the whole space when it changes who
    /// counts.
    mutating func note(_ op: SignedOp, changes: [Change]) {
        for change in changes {
            switch change {
            case .join, .revoke, .remove, .rotate: whole = true
            case .set(.game, let id, _): games.insert(GameID(id))
            case .set(.competition, let id, _): competitions.insert(CompetitionID(id))
            case .set: records = true
            case .rosterAdd(let game, _), .rosterRemove(let game, _, _), .attest(let game, _, _): games.insert(game)
            case .score(let game, let player, let hole, _):
                let cell = StoreChange.Cell(game: game, player: player, hole: hole)
                cells.insert(cell)
                if op.pred.count > 1 { resolving.insert(cell) }
            }
        }
    }
}

/// What a run of one space's received ops changed, gathered by the materializer without the recorder's lock and
/// handed to it once at the run's end (``ChangeRecorder/take(_:)``): a bundle's 40,000 ops took the lock, looked
/// up their space and device and hashed their device key for the head several times each, a fifth of the import's
/// time (docs/performance.md). Local to one receive transaction.
final class ChangeNotes {
    let space: SpaceID
    var change = StoreChange.Space()
    /// The ops that joined their device's log, in order.
    var logOps: [SignedOp] = []
    /// The newest log op of the device noted last, put in ``change``'s heads when another device's op comes or the
    /// run ends (a run is one device's ops: one head lookup, not one an op).
    private var head: (device: PublicKey, head: StoreChange.Head)?

    init(space: SpaceID) { self.space = space }

    func note(_ op: SignedOp, changes: [Change], hash: Digest32?) {
        change.ops.append(op.id)
        if let hash {
            logOps.append(op)
            if let current = head, current.device == op.device {
                if op.seq > current.head.seq { head = (op.device, StoreChange.Head(seq: op.seq, hash: hash)) }
            } else {
                settleHead()
                if op.seq > change.heads[op.device]?.seq ?? 0 { head = (op.device, StoreChange.Head(seq: op.seq, hash: hash)) }
            }
        }
        change.note(op, changes: changes)
    }

    /// Puts the head held aside into the change.
    func settleHead() {
        guard let (device, newest) = head else { return }
        head = nil
        if newest.seq > change.heads[device]?.seq ?? 0 { change.heads[device] = newest }
    }
}
