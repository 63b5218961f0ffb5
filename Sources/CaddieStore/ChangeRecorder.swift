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
    /// Calls `observer` after every commit that changed the merged state, with what changed; and, for a store on
    /// disk, after another process's commit (``StoreChange/external``: the kernel reports writes to the file, and
    /// the writer connection's data_version tells them from this process's own). Nothing polls where the kernel can
    /// watch the file, so an idle store wakes no one. `observer` runs on the writing thread (or the file watch's)
    /// and must return quickly. Returns a number for ``stopObserving(_:)``.
    public func observe(_ observer: @escaping @Sendable (StoreChange) -> Void) -> Int {
        let (id, first) = recorder.add(observer)
        if first { startWatch() }
        return id
    }

    /// Ends one observation.
    public func stopObserving(_ id: Int) { recorder.remove(id) }

    /// Whether another process's commit reaches this store's observers: a store on disk once something observes it
    /// (the file watch runs), or a store in memory (no other process can write it). What is kept in memory from the
    /// commits (``RecentOps``) is used only then.
    var watchesOtherProcesses: Bool { path == nil || fileWatch.withLock { $0 != nil } }

    /// Starts watching the file for other processes' commits (once, for the store's lifetime).
    private func startWatch() {
        guard let path else { return }
        let version: @Sendable () -> Int64? = { [db] in
            try? db.writeWithoutTransaction { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
        }
        let watch = FileWatch(path: path, version: version) { [recorder] in
            recorder.recent.forgetAll()
            recorder.publish(StoreChange(external: true))
        }
        fileWatch.withLock { $0 = watch }
    }
}
