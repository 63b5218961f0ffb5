import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieStore

@Suite("Convergence of replicas")
struct ConvergenceTests {
    /// Random histories checked, each delivered to four replicas: 400 by default (about 90 s of CI's 2 cores, the
    /// longest test); CADDIE_CONVERGENCE_CASES=1000 or more for a long run. The seeds are fixed, 0 up.
    static var cases: Int { Int(ProcessInfo.processInfo.environment["CADDIE_CONVERGENCE_CASES"] ?? "") ?? 400 }

    /// Builds a random editing history among 2...4 devices that sometimes sync with each other (so
    /// edits both supersede and race each other), and returns every op made. Every edit must succeed: nobody here
    /// is revoked or removed, so a store that refused one would be a bug, not part of the history.
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
        var totalOps = 0
        var scoredCells = 0
        let game: GameID = entity(0xAA)
        for seed in 0..<UInt64(Self.cases) {
            let space = TestSpace()
            let (ops, reference) = try Self.history(seed: seed, space: space)
            var rng = SplitMix64(seed: seed ^ 0x5eed)
            // At least two joins, the game with its roster, and the four names: an empty history (or log) would
            // converge trivially, every replica on the empty state.
            #expect(ops.count >= 2 + 1 + 4, "seed \(seed): only \(ops.count) ops")
            totalOps += ops.count
            for copy in 0..<4 {
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
                // The state holds the edits, not only the ops: the tee is set once and never changed, and every
                // player has a name (renames replace it, nothing clears it).
                #expect(try store.record(space.id, game)?["tee"] == .text("White"), "seed \(seed)")
                for byte in UInt8(1)...4 {
                    let player: PlayerID = entity(byte)
                    #expect(try store.record(space.id, player)?["name"] != nil, "seed \(seed): player \(byte)")
                }
                if copy == 0 { scoredCells += try store.cells(space.id, game: game).count }
            }
        }
        #expect(failures == 0, "\(failures) replicas diverged")
        // Four in ten random steps enter a score: about five cells a seed hold one. One a seed on average is far
        // below that, and far above a run whose scores went nowhere.
        #expect(scoredCells >= Self.cases, "only \(scoredCells) scored cells in \(Self.cases) histories")
        // Each history adds 8...24 random steps, nine in ten an edit, to its 7...9 fixed ops: about 22 ops a seed.
        #expect(totalOps >= Self.cases * 15, "only \(totalOps) ops in \(Self.cases) histories")
    }

    /// A random history with removals: the owner (user 0) edits from two devices, members edit, and now and then one
    /// of the owner's devices removes a member (with a new key sealed to the devices it knows), while removed members
    /// go on signing ops. Returns every op any device held at any point, the merged reference state, how many ops it
    /// applied, how many of those are joins, and how many users it removed.
    static func removalHistory(
        seed: UInt64
    ) throws -> (space: TestSpace, ops: [[UInt8]], reference: Digest32, count: Int, joins: Int, removed: Int) {
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
                let name = "n\(rng.next() % 100)"
                // A removed member's own store refuses their edits once it has the removal (the removal revoked its
                // devices); before, they go through. Any other refusal, or this one for anyone else, is a bug.
                do {
                    try authors[index].edit([.set(player, fields: ["name": .text(name)])])
                } catch StoreError.cannotSign(let reason) {
                    let removed = try authors[index].store.removedUsers(space.id)
                    #expect(removed.contains(authors[index].user.publicKey), "seed \(seed): \(reason)")
                    #expect(reason.hasPrefix("it was revoked"), "seed \(seed): \(reason)")
                }
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
        return (
            space, Array(Set(seen)), try authors[0].hash(), try authors[0].store.opCount(space.id), authors.count,
            try authors[0].store.removedUsers(space.id).count
        )
    }

    @Test(
        "removals made offline on the owner's two devices, delivered in any order and batching, reach one membership, one key and one state",
        .timeLimit(.minutes(10)))
    func removalsConverge() throws {
        let cases = 100
        var failures = 0
        var edits = 0
        var withRemovals = 0
        for seed in 0..<UInt64(cases) {
            let (space, ops, reference, count, joins, removed) = try Self.removalHistory(seed: seed)
            edits += count - joins
            if removed > 0 { withRemovals += 1 }
            var rng = SplitMix64(seed: seed ^ 0xface)
            for _ in 0..<3 {
                let store = try replica(space)
                var delivery = ops.shuffled(using: &rng)
                while !delivery.isEmpty {
                    let size = min(delivery.count, Int.random(in: 1...8, using: &rng))
                    let report = try store.receive(
                        space: space.id, spaceKey: space.key, ops: Array(delivery.prefix(size)),
                        mode: .tolerant, now: receiverNow)
                    // The only ops refused are a removed member's past its cutoff, once the removal is held here
                    // (before it, they apply and the removal takes them out). Every op is validly signed and linked,
                    // and every device joined with the key, so any other refusal is a bug.
                    #expect(
                        report.rejected.allSatisfy { $0.contains("that its user revoked, or that the space's owner removed") },
                        "seed \(seed): \(report.rejected)")
                    #expect(report.forks.isEmpty, "seed \(seed): \(report.forks)")
                    delivery.removeFirst(size)
                }
                // Ops beyond a gap that a cut left unfillable may wait; what is applied must match.
                #expect(try store.opCount(space.id) == count, "seed \(seed)")
                if try store.stateHash(space.id) != reference { failures += 1 }
            }
        }
        #expect(failures == 0, "\(failures) replicas diverged")
        // Half of 10...30 random steps are edits and a fifth removals: a run whose edits all failed, or that never
        // removed anyone, would converge without testing removals. (A seed removes nobody with odds of about 1 in 10.)
        #expect(edits >= cases * 3, "only \(edits) ops beyond the joins in \(cases) histories")
        #expect(withRemovals >= cases / 2, "only \(withRemovals) of \(cases) histories removed anyone")
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
