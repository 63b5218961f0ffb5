import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieStore

/// Security review, finding "erasing one's own history": a device that signs a second op at a seq it already used
/// (a fork) used to be cut back before that seq on every node, taking out what others already held. Now every
/// branch stays in the state, and the state is the same whichever branch a node saw first.
@Suite("Forks keep every branch")
struct ForkTests {
    struct Forked {
        let space: TestSpace
        let device: SigningKey
        /// Ana's user key.
        let user: SigningKey
        /// Ana's log: her join and nine scores (holes 1-9 of game 1).
        let honest: [[UInt8]]
        /// A copy of her device made after the join: the join, and another seq 2 (hole 1: 9 strokes), 3 and 4
        /// (holes 12 and 13).
        let fork: [[UInt8]]
        /// That copy's store.
        let copy: OpStore
        /// Ben, another member, who replaced Ana's hole-1 score (his pred names her seq 2) and scored hole 10.
        let ben: [[UInt8]]
    }

    static let game: GameID = entity(1)
    static let player: PlayerID = entity(2)

    static func forked() throws -> Forked {
        let space = TestSpace()
        var ana = try Author("ana", space: space)
        for hole in 1...9 { try ana.score(game: game, player: player, hole: hole, strokes: 3 + hole % 3) }
        let honest = try ana.store.ops(space: space.id)
        var ben = try Author("ben", space: space)
        _ = try ben.store.receive(space: space.id, spaceKey: space.key, ops: honest, mode: .strict, now: receiverNow)
        try ben.score(game: game, player: player, hole: 1, strokes: 5)
        try ben.score(game: game, player: player, hole: 10, strokes: 4)
        let benOps = try ben.store.ops(space: space.id).filter { try SignedOp(bytes: $0).device == ben.device.publicKey }
        let copy = try OpStore()
        try copy.addSpace(space.id, name: "t", now: 0)
        _ = try copy.receive(space: space.id, spaceKey: space.key, ops: [honest[0]], mode: .strict, now: receiverNow)
        for (hole, strokes) in [(1, 9), (12, 7), (13, 6)] {
            try copy.append(
                space: space.id, signer: ana.device,
                changes: [.score(game: game, player: player, hole: hole, entry: try ScoreEntry(strokes: strokes))],
                now: 1_700_000_000_500)
        }
        return Forked(
            space: space, device: ana.device, user: ana.user, honest: honest, fork: try copy.ops(space: space.id), copy: copy,
            ben: benOps)
    }

    /// The log of Ana's other phone, which holds her device's nine scores and then revokes the device after them.
    static func revokedOnPhone(_ forked: Forked) throws -> [[UInt8]] {
        var phone = try Author("ana", space: forked.space, user: forked.user)
        _ = try phone.store.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: forked.honest, mode: .strict, now: receiverNow)
        let device = forked.device.publicKey
        let lastValid = try phone.store.vector(forked.space.id)[device]
        let signature = forked.user.sign(
            Membership.revocationMessage(space: forked.space.id, device: device, lastValidSeq: lastValid))
        try phone.edit([.revoke(.init(device: device, lastValidSeq: lastValid, userSignature: signature))])
        return try phone.store.ops(space: forked.space.id)
    }

    /// Strokes per hole of game 1, every standing value of each cell, sorted.
    static func card(_ store: OpStore, _ space: TestSpace) throws -> [Int: [Int]] {
        Dictionary(
            try store.cells(space.id, game: game).map { ($0.hole, $0.values.map(\.entry.strokes).sorted()) },
            uniquingKeysWith: { a, _ in a })
    }

    @Test("a fork at seq 2 after nine scores takes nothing out: the nine scores stay, beside the fork's own")
    func forkRemovesNothing() throws {
        let forked = try Self.forked()
        let store = try replica(forked.space)
        _ = try store.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: forked.honest, mode: .tolerant, now: receiverNow)
        let before = try Self.card(store, forked.space)
        #expect(before.count == 9)
        let report = try store.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: forked.fork, mode: .tolerant, now: receiverNow)
        #expect(report.forks == [OpID(device: forked.device.publicKey, seq: 2)])
        #expect(report.removed == 0)
        #expect(report.rejected.isEmpty)
        let after = try Self.card(store, forked.space)
        // Every hole keeps its score; hole 1 holds both of the device's values, side by side (a conflict to settle).
        for hole in 2...9 { #expect(after[hole] == before[hole]) }
        #expect(after[1] == ((before[1] ?? []) + [9]).sorted())
        #expect(after[12] == [7] && after[13] == [6])
        // The device's log ends before the fork point; the rest is on its branches, and the audit sees them.
        #expect(try store.vector(forked.space.id)[forked.device.publicKey] == 1)
        #expect(try store.storedBranchOps(forked.space.id).count == 12)
        #expect(try store.evidence(forked.space.id).isEmpty, "the fork's copy applied: nothing is outside the state")
        // Who entered each value stays readable, marked as from a forked device.
        let authors = Set(try store.cells(forked.space.id, game: Self.game).flatMap { $0.values.map(\.author) })
        #expect(authors.count == 1)
        #expect(authors.first?.hasPrefix("ana (") == true && authors.first?.hasSuffix(", forked)") == true)
        #expect(try store.verify(forked.space.id, spaceKeys: [forked.space.key]).failures.isEmpty)
    }

    @Test("every node ends with the same state whichever branch it saw first and however the ops were batched")
    func orderIndependent() throws {
        let forked = try Self.forked()
        let all = forked.honest + forked.fork.dropFirst() + forked.ben
        var rng = SplitMix64(seed: 19)
        let orders: [[[[UInt8]]]] = [
            [forked.honest, forked.ben, forked.fork],
            [forked.fork, forked.honest, forked.ben],
            [forked.fork, forked.ben, forked.honest],
            [all.shuffled(using: &rng)],
            all.map { [$0] },
            all.reversed().map { [$0] } + all.map { [$0] },
        ]
        var hashes: [Digest32] = []
        var cards: [[Int: [Int]]] = []
        for batches in orders {
            let store = try replica(forked.space)
            for batch in batches {
                _ = try store.receive(
                    space: forked.space.id, spaceKey: forked.space.key, ops: batch, mode: .tolerant, now: receiverNow)
            }
            hashes.append(try store.stateHash(forked.space.id))
            cards.append(try Self.card(store, forked.space))
            #expect(try store.forks(forked.space.id).count == 1)
        }
        #expect(Set(hashes).count == 1, "the states differ: \(cards)")
        // Ben's replacement names Ana's seq 2: it replaces that op on both of her branches; his hole 10 stands.
        #expect(cards[0][1] == [5])
        #expect(cards[0][10] == [4])
        #expect(cards[0].count == 12)
        // A bundle exported from one node imports whole (strict) into a new one, to the same state.
        let first = try replica(forked.space)
        _ = try first.receive(space: forked.space.id, spaceKey: forked.space.key, ops: all, mode: .tolerant, now: receiverNow)
        let imported = try replica(forked.space)
        _ = try imported.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: try first.ops(space: forked.space.id), mode: .strict,
            now: receiverNow)
        #expect(try imported.stateHash(forked.space.id) == hashes[0])
    }

    @Test("a device restored from an older copy goes on scoring on its branch, and every node accepts it")
    func restoredDeviceGoesOn() throws {
        let forked = try Self.forked()
        // The restored copy meets a node that holds the device's newer history: its own log forks.
        let report = try forked.copy.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: forked.honest, mode: .tolerant, now: receiverNow)
        #expect(report.forks.count == 1)
        #expect(try Self.card(forked.copy, forked.space).count == 11)
        let next = try forked.copy.append(
            space: forked.space.id, signer: forked.device,
            changes: [.score(game: Self.game, player: Self.player, hole: 11, entry: try ScoreEntry(strokes: 6))],
            now: 1_700_000_001_000)
        #expect(next.seq == 5, "it follows the newest op of its branches (its own seq 4), not the log's seq 1")
        let other = try replica(forked.space)
        _ = try other.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: forked.honest + forked.fork, mode: .tolerant,
            now: receiverNow)
        let applied = try other.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: [next.bytes], mode: .tolerant, now: receiverNow)
        #expect(applied.applied == [next.id])
        #expect(applied.forks.isEmpty, "its new op is no further fork")
        #expect(try Self.card(other, forked.space)[11] == [6])
        #expect(try other.stateHash(forked.space.id) == (try forked.copy.stateHash(forked.space.id)))
    }

    @Test("a revoked device's fork adds nothing: its branches leave the state, whether the revocation comes first or last")
    func revokedDeviceFork() throws {
        let forked = try Self.forked()
        // Ana's other phone revokes the device after its nine scores; then whoever holds the device forks it.
        let phoneOps = try Self.revokedOnPhone(forked)
        var hashes: [Digest32] = []
        for batches in [[phoneOps, forked.fork], [forked.fork, phoneOps], [phoneOps + forked.fork]] {
            let store = try replica(forked.space)
            for batch in batches {
                _ = try store.receive(
                    space: forked.space.id, spaceKey: forked.space.key, ops: batch, mode: .tolerant, now: receiverNow)
            }
            #expect(try store.forks(forked.space.id).count == 1)
            #expect(try store.storedBranchOps(forked.space.id).isEmpty, "a revoked device's branches are out of the state")
            #expect(!(try Self.card(store, forked.space).values.contains { $0.contains(9) }), "the fork's value does not count")
            hashes.append(try store.stateHash(forked.space.id))
        }
        #expect(Set(hashes).count == 1)
        // A node that holds the revocation but never saw the fork learns it from what a session sends (the fork's
        // copy, though it applied nowhere), and reaches the same state: no endless resend of the cut ops.
        let knowing = try replica(forked.space)
        _ = try knowing.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: phoneOps + forked.fork, mode: .tolerant, now: receiverNow)
        let unaware = try replica(forked.space)
        _ = try unaware.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: phoneOps, mode: .tolerant, now: receiverNow)
        #expect(try unaware.stateHash(forked.space.id) != hashes[0])
        _ = try unaware.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: try knowing.branchOps(forked.space.id).map(\.bytes),
            mode: .tolerant, now: receiverNow)
        #expect(try unaware.stateHash(forked.space.id) == hashes[0])
        #expect(try unaware.vector(forked.space.id) == (try knowing.vector(forked.space.id)))
    }

    @Test("a restored device that was revoked cannot sign on: the edit is refused and nothing is written")
    func revokedRestoredDeviceCannotSign() throws {
        let forked = try Self.forked()
        _ = try forked.copy.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: try Self.revokedOnPhone(forked), mode: .tolerant,
            now: receiverNow)
        #expect(try forked.copy.forks(forked.space.id).count == 1)
        let before = try forked.copy.ops(space: forked.space.id) + (try forked.copy.branchOps(forked.space.id).map(\.bytes))
        let hash = try forked.copy.stateHash(forked.space.id)
        do {
            _ = try forked.copy.append(
                space: forked.space.id, signer: forked.device,
                changes: [.score(game: Self.game, player: Self.player, hole: 11, entry: try ScoreEntry(strokes: 6))],
                now: 1_700_000_001_000)
            Issue.record("a revoked, forked device signed an op")
        } catch StoreError.cannotSign(let reason) {
            #expect(reason.contains("revoked"))
        }
        let after = try forked.copy.ops(space: forked.space.id) + (try forked.copy.branchOps(forked.space.id).map(\.bytes))
        #expect(after == before)
        #expect(try forked.copy.stateHash(forked.space.id) == hash)
    }

    @Test("a second op at a seq that does not link to the op before it, or is not validly signed, is no fork")
    func falseForks() throws {
        let forked = try Self.forked()
        let store = try replica(forked.space)
        _ = try store.receive(
            space: forked.space.id, spaceKey: forked.space.key, ops: forked.honest, mode: .tolerant, now: receiverNow)
        let before = try store.stateHash(forked.space.id)
        var unsigned = Array(forked.fork[1].dropLast(64))
        unsigned[1 + 16 + 32 + 8] ^= 1  // its prev no longer names seq 1
        let unlinked = unsigned + forked.device.sign(unsigned, context: SignedOp.signingContext)
        var badSignature = forked.fork[1]
        badSignature[badSignature.count - 1] ^= 1
        for op in [unlinked, badSignature] {
            let report = try store.receive(
                space: forked.space.id, spaceKey: forked.space.key, ops: [op], mode: .tolerant, now: receiverNow)
            #expect(report.forks.isEmpty)
            #expect(report.rejected.count == 1)
        }
        #expect(try store.forks(forked.space.id).isEmpty)
        #expect(try store.stateHash(forked.space.id) == before)
    }

    @Test("ops held already, sent again close together or far apart, count as duplicates; a fork among them is recorded")
    func heldAgain() throws {
        let space = TestSpace()
        var ana = try Author("ana", space: space)
        for number in 0..<40 {
            try ana.score(game: entity(UInt8(1 + number / 18)), player: Self.player, hole: number % 18 + 1, strokes: 4)
        }
        let log = try ana.store.ops(space: space.id)  // seq 1 (the join) to 41
        // Another copy of Ana's device, made after the join, signs a second seq 2.
        let copy = try replica(space)
        _ = try copy.receive(space: space.id, spaceKey: space.key, ops: [log[0]], mode: .strict, now: receiverNow)
        try copy.append(
            space: space.id, signer: ana.device,
            changes: [.score(game: Self.game, player: Self.player, hole: 1, entry: try ScoreEntry(strokes: 9))],
            now: 1_700_000_000_500)
        let other = try copy.ops(space: space.id)[1]

        var hashes: [Digest32] = []
        // Close together (the held hashes read as one range) and far apart (read one by one).
        for again in [Array(log[1...30]), [log[1], log[40]]] {
            let store = try replica(space)
            _ = try store.receive(space: space.id, spaceKey: space.key, ops: log, mode: .strict, now: receiverNow)
            let report = try store.receive(space: space.id, spaceKey: space.key, ops: again, mode: .tolerant, now: receiverNow)
            #expect(report.duplicates == again.count)
            #expect(report.applied.isEmpty && report.forks.isEmpty && report.rejected.isEmpty)
            let forking = try store.receive(
                space: space.id, spaceKey: space.key, ops: again + [other], mode: .tolerant, now: receiverNow)
            #expect(forking.forks == [OpID(device: ana.device.publicKey, seq: 2)])
            #expect(forking.duplicates == again.count)
            #expect(try store.forks(space.id) == [OpID(device: ana.device.publicKey, seq: 2)])
            hashes.append(try store.stateHash(space.id))
        }
        #expect(hashes[0] == hashes[1])
    }
}
