import Foundation

/// What committed writes changed in the merged state, as the materializer applied it. The store publishes one
/// at each commit that changed the state (`OpStore.observe`), so that sync sessions, live events and the web app
/// learn what changed without reading the log again or decoding an op twice. A value of its own here, below every
/// layer, so that the layers above the node read it without importing the store.
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

    /// A device's newest op in the log: its seq and hash (a vector entry).
    public struct Head: Sendable, Equatable {
        public let seq: UInt64
        public let hash: Digest32

        public init(seq: UInt64, hash: Digest32) {
            self.seq = seq
            self.hash = hash
        }
    }

    /// What changed in one space.
    public struct Space: Sendable, Equatable {
        /// The ops applied, in the order they were applied (a device's log or a fork branch).
        public var ops: [OpID] = []
        /// Each device whose log grew: its newest op now (a fork branch's ops are not in it), a joining device's
        /// first op too. With ``rebuilt`` false, the space's heads are those before the change with these put in,
        /// so a sync node keeps its vector without reading it again.
        public var heads: [PublicKey: Head] = [:]
        /// Score cells that gained a value (which may supersede others).
        public var cells: Set<Cell> = []
        /// Cells where an op that supersedes two or more values landed (a dispute settled, or two agreeing values
        /// replaced): live events look there for a dispute that ended.
        public var resolving: Set<Cell> = []
        /// Games whose record, roster or attestations changed (their cells are in ``cells``).
        public var games: Set<GameID> = []
        /// Competitions whose record changed (the committee's settings, marks, entry list or board's access).
        public var competitions: Set<CompetitionID> = []
        /// True when a player's, a course's or the space's own record changed (a name, an index): what is computed
        /// from them (a competition's board) is read again.
        public var records = false
        /// True when the change cannot be narrowed to cells and games: who counts changed (a join, a revocation,
        /// a removal, a new key) or the space's state was rebuilt (a log cut back or split by a fork).
        public var whole = false
        /// True when the space's materialised state was worked out again from its log (a log cut back by a
        /// revocation or a removal, or split by a fork): any cell of any game may show another value now, and
        /// ``cells`` does not list them. Implies ``whole``.
        public var rebuilt = false

        public init() {}

        /// Takes in what `other` noted after this.
        public mutating func merge(_ other: Space) {
            // Into nothing noted yet (a receive's first run): taken as it is, its sets not hashed again.
            if self == Space() {
                self = other
                return
            }
            ops += other.ops
            heads.merge(other.heads) { $0.seq >= $1.seq ? $0 : $1 }
            cells.formUnion(other.cells)
            resolving.formUnion(other.resolving)
            games.formUnion(other.games)
            competitions.formUnion(other.competitions)
            records = records || other.records
            whole = whole || other.whole
            rebuilt = rebuilt || other.rebuilt
        }
    }

    /// Per space, what changed.
    public var spaces: [SpaceID: Space] = [:]
    public init(spaces: [SpaceID: Space] = [:]) {
        self.spaces = spaces
    }

    public var isEmpty: Bool { spaces.isEmpty }

    /// Both changes as one (a consumer that lags behind coalesces what it has not handled yet).
    public mutating func merge(_ other: StoreChange) {
        for (space, change) in other.spaces { spaces[space, default: Space()].merge(change) }
    }
}
