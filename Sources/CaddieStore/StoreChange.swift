import CaddieCore
import Foundation
import GRDB
import Synchronization

/// What committed writes changed in the merged state, as the materializer applied it. The store publishes one
/// at each commit that changed the state (``OpStore/observe(_:)``), so that sync sessions, live events and the
/// web app learn what changed without reading the log again or decoding an op twice.
public struct StoreChange: Sendable, Equatable {
    /// One score cell: a player's hole in a game.
    public struct Cell: Hashable, Sendable {
        public let game: GameID
        public let player: PlayerID
        public let hole: Int

        public init(game: GameID, player: PlayerID, hole: Int) {
            self.game = game
            self.player = player
            self.hole = hole
        }
    }

    /// What changed in one space.
    public struct Space: Sendable, Equatable {
        /// The ops applied, in the order they were applied (a device's log or a fork branch).
        public var ops: [OpID] = []
        /// Score cells that gained a value (which may supersede others).
        public var cells: Set<Cell> = []
        /// Games whose record, roster or attestations changed (their cells are in ``cells``).
        public var games: Set<GameID> = []
        /// True when the change cannot be narrowed to cells and games: who counts changed (a join, a revocation,
        /// a removal, a new key) or the space's state was rebuilt (a log cut back or split by a fork).
        public var whole = false

        public init() {}

        mutating func merge(_ other: Space) {
            ops += other.ops
            cells.formUnion(other.cells)
            games.formUnion(other.games)
            whole = whole || other.whole
        }
    }

    /// Per space, what changed.
    public var spaces: [SpaceID: Space] = [:]
    /// True after a commit by another process (a `caddie` command that wrote the database itself): what it
    /// changed is not known here, so a consumer reads again what it keeps.
    public var external = false

    public init(spaces: [SpaceID: Space] = [:], external: Bool = false) {
        self.spaces = spaces
        self.external = external
    }

    public var isEmpty: Bool { spaces.isEmpty && !external }

    /// Both changes as one (a consumer that lags behind coalesces what it has not handled yet).
    public mutating func merge(_ other: StoreChange) {
        for (space, change) in other.spaces { spaces[space, default: Space()].merge(change) }
        external = external || other.external
    }
}

/// Collects what a write transaction changed while the materializer applies it, and publishes it to the store's
/// observers when the transaction commits (dropped when it rolls back). A GRDB transaction observer on the one
/// writer connection, so every write of this process is seen, whichever feature made it.
final class ChangeRecorder: TransactionObserver, Sendable {
    private let pending = Mutex(StoreChange())
    private let observers = Mutex<(next: Int, all: [Int: @Sendable (StoreChange) -> Void])>((0, [:]))

    func record(_ space: SpaceID, _ update: (inout StoreChange.Space) -> Void) {
        pending.withLock { update(&$0.spaces[space, default: StoreChange.Space()]) }
    }

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
