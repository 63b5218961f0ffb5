import CaddieCore
import CaddieCrypto
import Testing
@testable import CaddieStore

@Suite("Convergence of replicas")
struct ConvergenceTests {
    static let cases = 1_000

    /// Builds a random editing history among 2...4 devices that sometimes sync with each other (so
    /// edits both supersede and race each other), and returns every op made.
    static func history(seed: UInt64, space: TestSpace) throws -> (ops: [[UInt8]], reference: Digest32) {
        var rng = SplitMix64(seed: seed)
        var authors = try (0..<Int.random(in: 2...4, using: &rng)).map { try Author("user\($0)", space: space) }
        let game = entity(0xAA)
        let players = (1...4).map { entity(UInt8($0)) }
        try authors[0].edit([.set(kind: .game, id: game, fields: ["tee": .text("White"), "finished": .integer(0)])]
                            + players.prefix(3).map { .rosterAdd(game: game, player: $0) })
        for player in players {
            try authors[0].edit([.set(kind: .player, id: player, fields: ["name": .text("p\(player.bytes[0])")])])
        }
        for index in authors.indices.dropFirst() { try authors[index].pull(from: authors[0]) }
        for _ in 0..<Int.random(in: 8...24, using: &rng) {
            let index = Int.random(in: authors.indices, using: &rng)
            let player = players.randomElement(using: &rng) ?? players[0]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3:
                try authors[index].score(game: game, player: player, hole: Int.random(in: 1...3, using: &rng),
                                         strokes: Int.random(in: 1...9, using: &rng))
            case 4:
                try authors[index].edit([.set(kind: .player, id: player, fields: ["name": .text("n\(rng.next() % 100)")])])
            case 5:
                let tags = try authors[index].store.rosterTags(space.id, game: game, player: player)
                try authors[index].edit([.rosterRemove(game: game, player: player, observed: tags)])
            case 6:
                try authors[index].edit([.rosterAdd(game: game, player: player)])
            case 7:
                try authors[index].edit([.set(kind: .game, id: game, fields: ["finished": .integer(Int64(rng.next() % 2))])])
            case 8:
                try authors[index].edit([.attest(game: game, player: player,
                                                 cardHash: Digest32(unchecked: [UInt8](repeating: UInt8(rng.next() % 4), count: 32)))])
            default:
                let other = Int.random(in: authors.indices, using: &rng)
                if other != index { try authors[index].pull(from: authors[other]) }
            }
        }
        // Everything everyone made, and what a replica that synced with all of them shows.
        for index in authors.indices { for other in authors.indices where other != index { try authors[index].pull(from: authors[other]) } }
        let ops = try authors[0].store.ops(space: space.id)
        return (ops, try authors[0].hash())
    }

    @Test("four replicas given the same ops in random orders, batches and duplicates reach one state hash",
          .timeLimit(.minutes(10)))
    func randomDelivery() throws {
        var failures = 0
        for seed in 0..<UInt64(Self.cases) {
            let space = TestSpace()
            let (ops, reference) = try Self.history(seed: seed, space: space)
            var rng = SplitMix64(seed: seed ^ 0x5eed)
            for _ in 0..<4 {
                let store = try replica(space)
                var delivery = ops + ops.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
                delivery.shuffle(using: &rng)
                while !delivery.isEmpty {
                    let size = min(delivery.count, Int.random(in: 1...8, using: &rng))
                    let report = try store.receive(space: space.id, spaceKey: space.key, ops: Array(delivery.prefix(size)),
                                                   mode: .tolerant, now: receiverNow)
                    #expect(report.rejected.isEmpty, "seed \(seed): \(report.rejected)")
                    delivery.removeFirst(size)
                }
                #expect(try store.pendingCount(space.id) == 0, "seed \(seed)")
                #expect(try store.opCount(space.id) == ops.count, "seed \(seed)")
                if try store.stateHash(space.id) != reference { failures += 1 }
            }
        }
        #expect(failures == 0, "\(failures) replicas diverged")
    }

    @Test("ops that arrive before their predecessors wait, then apply when the gap fills")
    func gapsWait() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        for hole in 1...3 { try author.score(game: entity(1), player: entity(2), hole: hole, strokes: 4) }
        let ops = try author.store.ops(space: space.id)
        let store = try replica(space)
        let late = try store.receive(space: space.id, spaceKey: space.key, ops: Array(ops.suffix(2)), mode: .tolerant, now: receiverNow)
        #expect(late.applied.isEmpty && late.pending == 2)
        #expect(try store.cells(space.id, game: entity(1)).isEmpty)
        let filled = try store.receive(space: space.id, spaceKey: space.key, ops: Array(ops.prefix(2)), mode: .tolerant, now: receiverNow)
        #expect(filled.applied.count == 4)
        #expect(try store.pendingCount(space.id) == 0)
        #expect(try store.stateHash(space.id) == author.hash())
    }
}
