import CaddieCore
import CaddieStore

/// Where a space stood at one look: each device's log head, and its fork mark (branch ops never move a head,
/// so a change there is seen by the mark).
public struct SpaceMark: Sendable, Equatable {
    struct Head: Sendable, Equatable {
        let seq: UInt64
        let hash: Digest32
    }

    let heads: [PublicKey: Head]
    let forkMark: Int
}

extension Home {
    /// The most new ops one look decodes to narrow a change to the games they touch; beyond it (a peer's whole
    /// round arriving at once) reading every card of the space is the cheaper way.
    public static let narrowingLimit = 2_000

    /// Where `space` stands now, and the games touched by the ops added since `before`. The games are nil when the
    /// change cannot be narrowed and the space is to be read whole: no earlier look, a device's log cut back or
    /// replaced (a revocation, a fork), a fork mark that moved, more than ``narrowingLimit`` new ops, an op that
    /// does not decode, or a change of membership.
    public func changes(_ space: SpaceID, since before: SpaceMark?) throws(NodeError) -> (mark: SpaceMark, games: Set<GameID>?) {
        let heads = Dictionary(
            try run { try store.heads(space) }.map { ($0.device, SpaceMark.Head(seq: $0.seq, hash: $0.hash)) },
            uniquingKeysWith: { a, _ in a })
        let mark = SpaceMark(heads: heads, forkMark: try run { try store.forkMark(space) })
        guard let before, before.forkMark == mark.forkMark else { return (mark, nil) }
        return (mark, touchedGames(space, before: before.heads, now: heads))
    }

    private func touchedGames(
        _ space: SpaceID, before: [PublicKey: SpaceMark.Head], now: [PublicKey: SpaceMark.Head]
    )
        -> Set<GameID>?
    {
        var seen = VersionVector()
        for (device, head) in before {
            // A log that went back, or holds another op at the seq last seen, was cut and rebuilt.
            guard let current = now[device], current.seq >= head.seq, current.seq > head.seq || current.hash == head.hash
            else { return nil }
            seen.entries[device] = head.seq
        }
        guard let added = try? store.ops(space: space, after: seen, limit: Self.narrowingLimit + 1),
            added.count <= Self.narrowingLimit
        else { return nil }
        var games = Set<GameID>()
        for (id, bytes) in added {
            guard let op = try? SignedOp(bytes: bytes), let changes = try? Payload.decode(op.payload) else { return nil }
            // The first new op of a device must follow the one the last look saw, or the log was replaced.
            if let head = before[id.device], id.seq == head.seq + 1, op.prev != head.hash { return nil }
            for change in changes {
                if let game = change.game {
                    games.insert(game)
                } else if case .set = change {
                    continue
                } else {
                    return nil  // a join, revocation, removal or rotation changes who counts: read the space whole
                }
            }
        }
        return games
    }

    /// Every score cell of a game with its standing values, as the store holds them (a card without the roster's
    /// filter: what live events compare).
    public func cells(_ space: SpaceID, game: GameID) throws(NodeError) -> [ScoreCell] {
        try run { try store.cells(space, game: game) }
    }

    /// Watches the home's database for commits by any process; nil when it cannot be opened.
    public func changeMonitor() -> ChangeMonitor? { try? store.changeMonitor() }

    /// The hash of a space's merged state: equal on every home that holds the same ops.
    public func stateHash(_ space: SpaceID) throws(NodeError) -> Digest32 { try run { try store.stateHash(space) } }

    /// The version vector of a space: the highest contiguous seq held per device.
    public func vector(_ space: SpaceID) throws(NodeError) -> VersionVector { try run { try store.vector(space) } }

    /// How many ops of the space's log this home holds.
    public func opCount(_ space: SpaceID) throws(NodeError) -> Int { try run { try store.opCount(space) } }
}
