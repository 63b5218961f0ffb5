import CaddieCore
import CaddieCrypto
import Foundation
import Synchronization
import Testing

@testable import CaddieStore

/// What the store publishes at each commit (``OpStore/observe(_:)``): the one change feed that sync sessions and
/// live events read instead of watching the file and decoding the log again.
@Suite("What changed, published at commit")
struct StoreChangeTests {
    /// Every change an observer was handed, in order.
    final class Seen: Sendable {
        let changes = Mutex<[StoreChange]>([])
        func add(_ change: StoreChange) { changes.withLock { $0.append(change) } }
        var all: [StoreChange] { changes.withLock { $0 } }
        func clear() { changes.withLock { $0 = [] } }
    }

    static func observing(_ store: OpStore) -> Seen {
        let seen = Seen()
        _ = store.observe { seen.add($0) }
        return seen
    }

    @Test("a score's commit is published once, naming its op and its cell; a game's setup names the game")
    func scoreAndSetup() throws {
        let space = TestSpace()
        var ann = try Author("Ann", space: space)
        let seen = Self.observing(ann.store)
        let game: GameID = entity(1)
        let player: PlayerID = entity(2)

        let op = try ann.score(game: game, player: player, hole: 7, strokes: 5)
        #expect(seen.all.count == 1)
        let change = try #require(seen.all.first?.spaces[space.id])
        #expect(change.ops == [op.id])
        #expect(change.cells == [StoreChange.Cell(game: game, player: player, hole: 7)])
        #expect(change.games.isEmpty)
        #expect(!change.whole)

        seen.clear()
        try ann.edit([.set(game, fields: ["finished": .integer(1)]), .rosterAdd(game: game, player: player)])
        #expect(seen.all.count == 1)
        #expect(seen.all.first?.spaces[space.id]?.games == [game])
        #expect(seen.all.first?.spaces[space.id]?.cells.isEmpty == true)

        // A player's rename touches no game: the space is named, with no cell or game.
        seen.clear()
        try ann.edit([.set(player, fields: ["name": .text("Annie")])])
        #expect(seen.all.first?.spaces[space.id]?.games.isEmpty == true)
        #expect(seen.all.first?.spaces[space.id]?.whole == false)

        // A competition's record (the committee's marks, the board's access) is named as such.
        seen.clear()
        let competition: CompetitionID = entity(3)
        try ann.edit([.set(competition, fields: ["public": .integer(1)])])
        #expect(seen.all.first?.spaces[space.id]?.competitions == [competition])
        #expect(seen.all.first?.spaces[space.id]?.games.isEmpty == true)
    }

    @Test("ops pulled from a peer are published with their cells, and a new member's join makes the change whole")
    func pulledJoinIsWhole() throws {
        let space = TestSpace()
        let ann = try Author("Ann", space: space)
        var bob = try Author("Bob", space: space)
        let game: GameID = entity(3)
        let player: PlayerID = entity(4)
        let score = try bob.score(game: game, player: player, hole: 2, strokes: 4)
        let seen = Self.observing(ann.store)

        let report = try ann.pull(from: bob)
        #expect(report.applied.count == 2)
        #expect(seen.all.count == 1, "one receive transaction, one change")
        let change = try #require(seen.all.first?.spaces[space.id])
        #expect(change.whole, "a join changes who counts")
        #expect(Set(change.ops) == Set(report.applied))
        #expect(change.ops.contains(score.id))
        #expect(change.cells == [StoreChange.Cell(game: game, player: player, hole: 2)])
    }

    @Test("a refused bundle rolls back and publishes nothing; an empty receive publishes nothing")
    func refusedPublishesNothing() throws {
        let space = TestSpace()
        let ann = try Author("Ann", space: space)
        var outsider = try Author("Mal", space: space, joinWith: SecureRandom.bytes(32))
        try outsider.score(game: entity(5), player: entity(6), hole: 1, strokes: 3)
        let seen = Self.observing(ann.store)

        let ops = try outsider.store.ops(space: space.id, notIn: try ann.store.vector(space.id))
        #expect(throws: StoreError.self) {
            try ann.store.receive(space: space.id, spaceKey: space.key, ops: ops, mode: .strict, now: ann.clock)
        }
        _ = try ann.pull(from: ann)
        #expect(seen.all.isEmpty, "\(seen.all)")
    }
}
