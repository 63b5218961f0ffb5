import CaddieCore
import CaddieCrypto
import Testing

@testable import CaddieStore

@Suite("Conflicts of golf")
struct GolfConflictTests {
    let game: GameID = entity(0xAA)
    let alice: PlayerID = entity(1)
    let bob: PlayerID = entity(2)

    func setUp() throws -> (TestSpace, Author, Author) {
        let space = TestSpace()
        var marker1 = try Author("Carla", space: space)
        let marker2 = try Author("Dev", space: space)
        try marker1.edit([
            .set(game, fields: ["tee": .text("White")]),
            .rosterAdd(game: game, player: alice), .rosterAdd(game: game, player: bob),
        ])
        try marker2.pull(from: marker1)
        return (space, marker1, marker2)
    }

    @Test("two markers enter different strokes for one hole offline: both kept, one shown, conflict listed, then settled")
    func concurrentScores() throws {
        var (_, carla, dev) = try setUp()
        try carla.score(game: game, player: alice, hole: 7, strokes: 5)
        try dev.score(game: game, player: alice, hole: 7, strokes: 6)
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        let cellA = try #require(try carla.store.cells(carla.space.id, game: game).first { $0.hole == 7 })
        let cellB = try #require(try dev.store.cells(dev.space.id, game: game).first { $0.hole == 7 })
        #expect(cellA.isConflict)
        #expect(Set(cellA.values.map(\.entry.strokes)) == [5, 6])
        #expect(cellA.winner == cellB.winner)
        // The later write shows; its author is Dev because Dev's clock ticked after Carla's.
        #expect(cellA.winner?.author == (cellA.values.max { ($0.hlc, $0.op.device) < ($1.hlc, $1.op.device) })?.author)
        try carla.score(game: game, player: alice, hole: 7, strokes: 6)
        try dev.pull(from: carla)
        let settled = try #require(try dev.store.cells(dev.space.id, game: game).first { $0.hole == 7 })
        #expect(!settled.isConflict && settled.winner?.entry.strokes == 6)
        #expect(try carla.hash() == dev.hash())
        let history = try dev.store.history(dev.space.id, game: game, player: alice, hole: 7)
        #expect(history.count == 3)
        #expect(history.last?.supersedes.count == 2)
    }

    @Test("two markers who enter the same strokes offline keep both values but show no conflict")
    func concurrentAgreement() throws {
        var (_, carla, dev) = try setUp()
        try carla.score(game: game, player: bob, hole: 4, strokes: 5)
        try dev.score(game: game, player: bob, hole: 4, strokes: 5)
        try carla.pull(from: dev)
        let cell = try #require(try carla.store.cells(carla.space.id, game: game).first { $0.hole == 4 })
        #expect(cell.values.count == 2)
        #expect(!cell.isConflict)
    }

    @Test("a player removed on one device while scored on another stays on the card")
    func removedButScored() throws {
        var (space, carla, dev) = try setUp()
        let tags = try carla.store.rosterTags(space.id, game: game, player: bob)
        try carla.edit([.rosterRemove(game: game, player: bob, observed: tags)])
        #expect(try carla.store.roster(space.id, game: game) == [alice])
        try dev.score(game: game, player: bob, hole: 1, strokes: 4)
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        #expect(try carla.store.roster(space.id, game: game) == [alice, bob])
        #expect(try carla.hash() == dev.hash())
        // A remove that has seen the score does take Bob off.
        let all = try carla.store.rosterTags(space.id, game: game, player: bob)
        try carla.edit([.rosterRemove(game: game, player: bob, observed: all)])
        try dev.pull(from: carla)
        #expect(try dev.store.roster(space.id, game: game) == [alice])
    }

    @Test("finishing a game while someone corrects a score keeps both: finished, with the correction")
    func finishAndEdit() throws {
        var (space, carla, dev) = try setUp()
        try carla.score(game: game, player: alice, hole: 2, strokes: 4)
        try dev.pull(from: carla)
        try carla.edit([.set(game, fields: ["finished": .integer(1)])])
        try dev.score(game: game, player: alice, hole: 2, strokes: 3)
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        for author in [carla, dev] {
            let fields = try #require(try author.store.record(space.id, game))
            #expect(GameRecord(id: game, fields: fields).finished)
            #expect(try author.store.cells(space.id, game: game).first { $0.hole == 2 }?.winner?.entry.strokes == 3)
        }
        #expect(try carla.hash() == dev.hash())
    }

    @Test("last writer wins per field: concurrent renames agree on one name everywhere")
    func lastWriterWins() throws {
        var (space, carla, dev) = try setUp()
        try carla.edit([.set(alice, fields: ["name": .text("Alice"), "index": .number(12.4)])])
        try dev.pull(from: carla)
        try carla.edit([.set(alice, fields: ["name": .text("Alicia")])])
        try dev.edit([.set(alice, fields: ["name": .text("Ali")])])
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        let a = try #require(try carla.store.record(space.id, alice))
        let b = try #require(try dev.store.record(space.id, alice))
        #expect(a == b)
        #expect(a["index"] == .number(12.4))
    }
}
