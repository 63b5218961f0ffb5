import CaddieCore
import CaddieStore
import Foundation
import Synchronization

/// Wakes the sessions of a space when the store's merged state of that space changed, whoever changed it: a
/// command this node ran, a phone's ops, or a session that applied a peer's batch (the node is the home's one
/// writer: ``OpStore/claimWrites()``). The store publishes each commit's changes (``OpStore/observe(_:)``); nothing
/// polls, so an idle node does not wake for it.
final class ChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: (space: SpaceID, wake: AsyncStream<Void>.Continuation)]>([:])
    private let changes = Atomic<Int>(0)
    private let membership = Atomic<Int>(0)
    private let store: OpStore
    private let observation = Mutex<Int?>(nil)
    private let patch = Mutex<(@Sendable (StoreChange) -> Void)?>(nil)

    /// Runs on each change before any session wakes for it (the node keeps its heads up to date with it).
    var beforeWaking: (@Sendable (StoreChange) -> Void)? {
        get { patch.withLock { $0 } }
        set { patch.withLock { $0 = newValue } }
    }

    /// How many changes the feed has announced: unchanged between two reads means no write it saw in between.
    var generation: Int { changes.load(ordering: .acquiring) }

    /// How many of them could change who may sync (``StoreChange/Space/whole``: a join, a revocation, a removal, a
    /// new space key, a rebuild; in any space, since a revocation counts in every space): unchanged between two reads means a peer admitted at the first is still admitted, so a live session
    /// need not read its admission again after scores.
    var membershipGeneration: Int { membership.load(ordering: .acquiring) }

    init(store: OpStore) { self.store = store }

    /// Whether the feed takes the store's changes (a node that serves; a one-shot sync's does not).
    var isObserving: Bool { observation.withLock { $0 != nil } }

    /// Starts taking the store's changes (once).
    func start() {
        observation.withLock { id in
            guard id == nil else { return }
            id = store.observe { [weak self] change in self?.notify(change) }
        }
    }

    deinit { observation.withLock { $0 }.map(store.stopObserving) }

    /// A stream that yields after each change of `space` (coalesced: a burst of changes may yield once).
    func subscribe(_ space: SpaceID) -> (UUID, AsyncStream<Void>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        subscribers.withLock { $0[id] = (space, continuation) }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        let subscriber = subscribers.withLock { $0.removeValue(forKey: id) }
        subscriber?.wake.finish()
    }

    func notify(_ change: StoreChange) {
        patch.withLock { $0 }?(change)
        if change.spaces.values.contains(where: \.whole) { membership.add(1, ordering: .releasing) }
        changes.add(1, ordering: .releasing)
        let woken = subscribers.withLock { all in
            all.values.filter { change.spaces[$0.space] != nil }.map(\.wake)
        }
        for continuation in woken { continuation.yield() }
    }
}
