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
        let game: GameID = entity(0xAA)
        let players: [PlayerID] = (1...4).map { entity(UInt8($0)) }
        try authors[0].edit(
            [.set(game, fields: ["tee": .text("White"), "finished": .integer(0)])]
                + players.prefix(3).map { .rosterAdd(game: game, player: $0) })
        for player in players {
            try authors[0].edit([.set(player, fields: ["name": .text("p\(player.bytes[0])")])])
        }
        for index in authors.indices.dropFirst() { try authors[index].pull(from: authors[0]) }
        for _ in 0..<Int.random(in: 8...24, using: &rng) {
            let index = Int.random(in: authors.indices, using: &rng)
            let player = players.randomElement(using: &rng) ?? players[0]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3:
                try authors[index].score(
                    game: game, player: player, hole: Int.random(in: 1...3, using: &rng),
                    strokes: Int.random(in: 1...9, using: &rng))
            case 4:
                try authors[index].edit([.set(player, fields: ["name": .text("n\(rng.next() % 100)")])])
            case 5:
                let tags = try authors[index].store.rosterTags(space.id, game: game, player: player)
                try authors[index].edit([.rosterRemove(game: game, player: player, observed: tags)])
            case 6:
                try authors[index].edit([.rosterAdd(game: game, player: player)])
            case 7:
                try authors[index].edit([.set(game, fields: ["finished": .integer(Int64(rng.next() % 2))])])
            case 8:
                try authors[index].edit([
                    .attest(
                        game: game, player: player,
                        cardHash: Digest32(unchecked: [UInt8](repeating: UInt8(rng.next() % 4), count: 32)))
                ])
            default:
                let other = Int.random(in: authors.indices, using: &rng)
                if other != index { try authors[index].pull(from: authors[other]) }
            }
        }
        // Everything everyone made, and what a replica that synced with all of them shows.
        for index in authors.indices {
            for other in authors.indices where other != index { try authors[index].pull(from: authors[other]) }
        }
        let ops = try authors[0].store.ops(space: space.id)
        return (ops, try authors[0].hash())
    }

    @Test(
        "four replicas given the same ops in random orders, batches and duplicates reach one state hash",
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
                    let report = try store.receive(
                        space: space.id, spaceKey: space.key, ops: Array(delivery.prefix(size)),
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

    /// A random history with removals: the owner (user 0) edits from two devices, members edit, and now and then one
    /// of the owner's devices removes a member (with a new key sealed to the devices it knows), while removed members
    /// go on signing ops. Returns every op any device held at any point, and the merged reference state.
    static func removalHistory(seed: UInt64) throws -> (space: TestSpace, ops: [[UInt8]], reference: Digest32, count: Int) {
        var rng = SplitMix64(seed: seed)
        let owner = SigningKey.generate()
        let salt = SecureRandom.bytes(16)
        let space = TestSpace(id: Membership.ownedSpaceID(owner: owner.publicKey, salt: salt))
        var authors = [
            try Author("owner-phone", space: space, user: owner), try Author("owner-tablet", space: space, user: owner),
        ]
        for index in 0..<Int.random(in: 2...3, using: &rng) { authors.append(try Author("user\(index)", space: space)) }
        for index in authors.indices {
            for other in authors.indices where other != index { try authors[index].pull(from: authors[other]) }
        }
        let players: [PlayerID] = (1...3).map { entity(UInt8($0)) }
        var seen: [[UInt8]] = []
        for _ in 0..<Int.random(in: 10...30, using: &rng) {
            let index = Int.random(in: authors.indices, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...4:
                let player = players.randomElement(using: &rng) ?? players[0]
                // A removed member's own store refuses their edits once it has the removal; before, they go through.
                _ = try? authors[index].edit([.set(player, fields: ["name": .text("n\(rng.next() % 100)")])])
            case 5, 6:
                // One of the owner's devices removes a member it knows and is not yet removed (as it knows).
                let remover = Int.random(in: 0...1, using: &rng)
                let store = authors[remover].store
                let removed = try store.removedUsers(space.id)
                let members = try store.members(space.id)
                guard
                    let target = members.map(\.user).filter({ $0 != owner.publicKey && !removed.contains($0) })
                        .sorted().randomElement(using: &rng)
                else { continue }
                let vector = try store.vector(space.id)
                let key = SecureRandom.bytes(32)
                let remaining = Set(members.filter { $0.user != target && !removed.contains($0.user) }.map(\.device)).sorted()
                let epoch = (try store.sealedSpaceKeys(space.id).map(\.epoch).max() ?? 0) + 1
                try authors[remover].edit([
                    .remove(
                        Change.Removal(
                            user: target, ownerSalt: salt,
                            devices: members.filter { $0.user == target }
                                .map { .init(device: $0.device, lastValidSeq: vector[$0.device]) })),
                    .rotate(
                        Change.Rotation(
                            epoch: epoch, ownerSalt: salt, keyCheck: Membership.keyCheck(key),
                            sealed: remaining.compactMap { device in
                                DeviceBox.seal(key, to: device).map { .init(device: device, box: $0) }
                            })),
                ])
            default:
                let other = Int.random(in: authors.indices, using: &rng)
                if other != index { try authors[index].pull(from: authors[other]) }
            }
            for author in authors { seen += try author.store.ops(space: space.id) }
        }
        for _ in 0..<2 {
            for index in authors.indices {
                for other in authors.indices where other != index { try authors[index].pull(from: authors[other]) }
            }
        }
        for author in authors { seen += try author.store.ops(space: space.id) }
        return (space, Array(Set(seen)), try authors[0].hash(), try authors[0].store.opCount(space.id))
    }

    @Test(
        "removals made offline on the owner's two devices, delivered in any order and batching, reach one membership, one key and one state",
        .timeLimit(.minutes(10)))
    func removalsConverge() throws {
        var failures = 0
        for seed in 0..<UInt64(100) {
            let (space, ops, reference, count) = try Self.removalHistory(seed: seed)
            var rng = SplitMix64(seed: seed ^ 0xface)
            for _ in 0..<3 {
                let store = try replica(space)
                var delivery = ops.shuffled(using: &rng)
                while !delivery.isEmpty {
                    let size = min(delivery.count, Int.random(in: 1...8, using: &rng))
                    _ = try store.receive(
                        space: space.id, spaceKey: space.key, ops: Array(delivery.prefix(size)),
                        mode: .tolerant, now: receiverNow)
                    delivery.removeFirst(size)
                }
                // Ops beyond a gap that a cut left unfillable may wait; what is applied must match.
                #expect(try store.opCount(space.id) == count, "seed \(seed)")
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
        let late = try store.receive(
            space: space.id, spaceKey: space.key, ops: Array(ops.suffix(2)), mode: .tolerant, now: receiverNow)
        #expect(late.applied.isEmpty && late.pending == 2)
        #expect(try store.cells(space.id, game: entity(1)).isEmpty)
        let filled = try store.receive(
            space: space.id, spaceKey: space.key, ops: Array(ops.prefix(2)), mode: .tolerant, now: receiverNow)
        #expect(filled.applied.count == 4)
        #expect(try store.pendingCount(space.id) == 0)
        #expect(try store.stateHash(space.id) == author.hash())
    }
}
