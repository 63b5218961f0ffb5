import CaddieCore
import CaddieStore

extension Home {
    /// Calls `observer` after every commit that changed the home's merged state, with what changed (the cells,
    /// games and spaces the materializer touched; ``StoreChange``). Another process's commit is not seen: while a
    /// node runs it is the home's one writer (``takeWrites()``). It runs on the writing thread and must return
    /// quickly. Returns a number for ``stopObserving(_:)``.
    public func observe(_ observer: @escaping @Sendable (StoreChange) -> Void) -> Int { store.observe(observer) }

    /// Ends one observation.
    public func stopObserving(_ id: Int) { store.stopObserving(id) }

    /// Every score cell of a game with its standing values, as the store holds them (a card without the roster's
    /// filter: what live events compare).
    public func cells(_ space: SpaceID, game: GameID) throws(NodeError) -> [ScoreCell] {
        try run { try store.cells(space, game: game) }
    }

    /// The standing values of some cells of a game (those a change names), each read by its key: what live events
    /// read after a commit instead of the whole game. A cell with no standing value is not listed.
    public func cells(_ space: SpaceID, game: GameID, only: [StoreChange.Cell]) throws(NodeError) -> [ScoreCell] {
        try run { try store.cells(space, game: game, only: only) }
    }

    /// Whether `device` is a phone this node hosts in `space`: its signed ops came over HTTP, not from a peer.
    public func hosts(_ device: PublicKey, in space: SpaceID) -> Bool { hosted.devices(in: space).contains(device) }

    /// The hash of a space's merged state: equal on every home that holds the same ops.
    public func stateHash(_ space: SpaceID) throws(NodeError) -> Digest32 { try run { try store.stateHash(space) } }

    /// The version vector of a space: the highest contiguous seq held per device.
    public func vector(_ space: SpaceID) throws(NodeError) -> VersionVector { try run { try store.vector(space) } }

    /// How many ops of the space's log this home holds.
    public func opCount(_ space: SpaceID) throws(NodeError) -> Int { try run { try store.opCount(space) } }
}
