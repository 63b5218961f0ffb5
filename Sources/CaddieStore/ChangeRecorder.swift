import CaddieCore
import Foundation
import GRDB
import Synchronization

/// Collects what a write transaction changed while the materializer applies it, and publishes it to the store's
/// observers when the transaction commits (dropped when it rolls back). A GRDB transaction observer on the one
/// writer connection, so every write of this process is seen, whichever feature made it.
final class ChangeRecorder: TransactionObserver, Sendable {
    private let pending = Mutex(StoreChange())
    private let observers = Mutex<(next: Int, all: [Int: @Sendable (StoreChange) -> Void])>((0, [:]))

    func record(_ space: SpaceID, _ update: (inout StoreChange.Space) -> Void) {
        pending.withLock { update(&$0.spaces[space, default: StoreChange.Space()]) }
    }

    /// What the open transaction has noted so far (taken before a savepoint, given back if it rolls back).
    var pendingChange: StoreChange { pending.withLock { $0 } }

    /// Forgets what was noted since `noted` was taken: the savepoint that noted it rolled back.
    func restore(_ noted: StoreChange) { pending.withLock { $0 = noted } }

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
        publish(
            pending.withLock { state in
                defer { state = StoreChange() }
                return state
            })
    }

    func databaseDidRollback(_ db: Database) { pending.withLock { $0 = StoreChange() } }
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

    /// Starts watching the file for other processes' commits (once, for the store's lifetime).
    private func startWatch() {
        guard let path else { return }
        let version: @Sendable () -> Int64? = { [db] in
            try? db.writeWithoutTransaction { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
        }
        let watch = FileWatch(path: path, version: version) { [recorder] in
            recorder.publish(StoreChange(external: true))
        }
        fileWatch.withLock { $0 = watch }
    }
}
