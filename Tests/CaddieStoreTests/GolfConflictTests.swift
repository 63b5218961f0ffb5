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
        let five = try carla.score(game: game, player: alice, hole: 7, strokes: 5)
        let six = try dev.score(game: game, player: alice, hole: 7, strokes: 6)
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        let cellA = try #require(try carla.store.cells(carla.space.id, game: game).first { $0.hole == 7 })
        let cellB = try #require(try dev.store.cells(dev.space.id, game: game).first { $0.hole == 7 })
        #expect(cellA.isConflict)
        #expect(Set(cellA.values.map(\.entry.strokes)) == [5, 6])
        // The later write shows, on both: Carla's, whose wall clock is a tick ahead of Dev's (she made one more op),
        // while Dev's clock only moved past the ops of hers he had seen.
        #expect(five.hlc > six.hlc, "Carla's \(five.hlc) is not after Dev's \(six.hlc)")
        for cell in [cellA, cellB] {
            #expect(cell.winner?.op == five.id && cell.winner?.entry.strokes == 5 && cell.winner?.author == "Carla")
        }
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
        let alicia = try carla.edit([.set(alice, fields: ["name": .text("Alicia")])])
        let ali = try dev.edit([.set(alice, fields: ["name": .text("Ali")])])
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        let a = try #require(try carla.store.record(space.id, alice))
        let b = try #require(try dev.store.record(space.id, alice))
        #expect(a == b)
        // The rename with the later clock wins on both replicas (docs/data-model.md, "Last-writer-wins fields"):
        // Carla's wall clock is ahead of Dev's, whose clock only moved past the ops of hers he had seen.
        #expect(alicia.hlc > ali.hlc, "Carla's \(alicia.hlc) is not after Dev's \(ali.hlc)")
        #expect(a["name"] == .text("Alicia") && b["name"] == .text("Alicia"))
        // The other field of the record, which neither rename touched, stays.
        #expect(a["index"] == .number(12.4))

        // Two renames with the same clock: the greater device key wins, on both replicas. Both hold the same ops and
        // read the same wall clock, so both stamp the same hybrid logical clock.
        dev.clock = carla.clock
        let byCarla = try carla.edit([.set(alice, fields: ["name": .text("Alice C.")])])
        let byDev = try dev.edit([.set(alice, fields: ["name": .text("Alice D.")])])
        #expect(byCarla.hlc == byDev.hlc)
        try carla.pull(from: dev)
        try dev.pull(from: carla)
        let tie: FieldValue = byCarla.device > byDev.device ? .text("Alice C.") : .text("Alice D.")
        #expect(try carla.store.record(space.id, alice)?["name"] == tie)
        #expect(try dev.store.record(space.id, alice)?["name"] == tie)
        #expect(try carla.hash() == dev.hash())
    }
}
