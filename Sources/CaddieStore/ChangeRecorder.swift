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

    /// Notes what an op changed in `space`, and the op itself when it joined its device's log (`logOp`).
    func record(_ space: SpaceID, logOp: SignedOp? = nil, _ update: (inout StoreChange.Space) -> Void) {
        pending.withLock { pending in
            update(&pending.change.spaces[space, default: StoreChange.Space()])
            if let logOp { pending.ops.add(space, logOp) }
        }
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
