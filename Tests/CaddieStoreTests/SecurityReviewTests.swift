import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieStore

/// Findings of the security review (issue "What a hostile member or a stranger on the Wi-Fi can do today"),
/// each shown by a test that failed on the code before its fix.
@Suite("Security review: a hostile member's ops")
struct SecurityReviewTests {
    /// An op of `author`'s device after its current head, signed (or not) as given.
    func op(
        _ author: Author, seq: UInt64, prev: Digest32, hlc: HLC, changes: [Change], goodSignature: Bool = true
    )
        -> [UInt8]
    {
        let unsigned = SignedOp.encodeUnsigned(
            space: author.space.id, device: author.device.publicKey, seq: seq, prev: prev,
            hlc: hlc, pred: [], payload: Payload.encode(changes))
        let signature =
            goodSignature
            ? author.device.sign(unsigned, context: SignedOp.signingContext)
            : [UInt8](repeating: 0x5A, count: 64)
        return unsigned + signature
    }

    func nameChange(_ name: String) -> [Change] {
        [.set(kind: .player, id: EntityID(unchecked: [7, 7, 7, 7, 7, 7, 7, 7]), fields: ["name": .text(name)])]
    }

    @Test(
        "finding 'acceptance that depends on batching': the same ops give the same state whatever their batches; an op a later signature covers is accepted"
    )
    func sameStateWhateverTheBatching() throws {
        let space = TestSpace()
        let author = try Author("mallory", space: space)
        let join = try #require(try author.store.ops(space: space.id).first)
        // Op 2 carries a signature that does not verify; the device then signs op 3 linked to it, whose signature
        // covers op 2's bytes (only the device's key could have made that chain).
        let bad = op(
            author, seq: 2, prev: Blake2b.hash(join), hlc: HLC(milliseconds: 1_700_000_000_100, counter: 0),
            changes: nameChange("pinned"), goodSignature: false)
        let next = op(
            author, seq: 3, prev: Blake2b.hash(bad), hlc: HLC(milliseconds: 1_700_000_000_200, counter: 0),
            changes: nameChange("later"))
        func deliver(_ batches: [[[UInt8]]]) throws -> OpStore {
            let store = try replica(space)
            for batch in batches {
                _ = try store.receive(space: space.id, spaceKey: space.key, ops: batch, mode: .tolerant, now: receiverNow)
            }
            return store
        }
        let together = try deliver([[join, bad, next]])
        #expect(try together.heads(space.id).first?.seq == 3, "the run applies whole: op 3's signature covers op 2")
        let expected = try together.stateHash(space.id)
        for batches in [[[join], [bad], [next]], [[next], [bad], [join]], [[join, bad], [next]], [[bad, next], [join]]] {
            let store = try deliver(batches)
            #expect(try store.stateHash(space.id) == expected, "\(batches.map(\.count)) gives another state")
            #expect(try store.pendingCount(space.id) == 0)
        }
        // Alone, op 2 waits for the op that covers it: nothing of it shows, and it is not refused.
        let alone = try replica(space)
        let waiting = try alone.receive(
            space: space.id, spaceKey: space.key, ops: [join, bad], mode: .tolerant, now: receiverNow)
        #expect(waiting.applied.count == 1 && waiting.pending == 1 && waiting.rejected.isEmpty)
        #expect(try alone.records(space.id, kind: .player).isEmpty)
        // A bundle (strict) must be whole: op 2 with nothing after it to cover it refuses the bundle; with op 3 it
        // imports.
        #expect(throws: StoreError.self) {
            try replica(space).receive(space: space.id, spaceKey: space.key, ops: [join, bad], mode: .strict, now: receiverNow)
        }
        let imported = try replica(space).receive(
            space: space.id, spaceKey: space.key, ops: [join, bad, next], mode: .strict, now: receiverNow)
        #expect(imported.applied.count == 3)
        // Re-verification applies the same rule: the covered op is no failure.
        #expect(try together.verify(space.id, spaceKeys: [space.key]).failures.isEmpty)
        // The newest op's bad signature covers nothing: op 3 re-signed badly, with no op after it, waits.
        let badNewest = op(
            author, seq: 3, prev: Blake2b.hash(bad), hlc: HLC(milliseconds: 1_700_000_000_200, counter: 0),
            changes: nameChange("later"), goodSignature: false)
        let uncovered = try replica(space).receive(
            space: space.id, spaceKey: space.key, ops: [join, bad, badNewest], mode: .tolerant, now: receiverNow)
        #expect(uncovered.applied.count == 1 && uncovered.pending == 2)
    }

    @Test("ops waiting for a signature to cover them have theirs checked once, not again at every later batch")
    func waitingOpsAreCheckedOnce() throws {
        let space = TestSpace()
        let mallory = try Author("mallory", space: space)
        let ana = try Author("ana", space: space)
        let join = try #require(try mallory.store.ops(space: space.id).first)
        // A hostile member parks 100 linked ops whose signatures do not verify at its next seqs.
        var parked: [[UInt8]] = []
        var previous = Blake2b.hash(join)
        for seq in UInt64(2)...101 {
            let bytes = op(
                mallory, seq: seq, prev: previous, hlc: HLC(milliseconds: 1_700_000_000_000 + seq, counter: 0),
                changes: nameChange("parked \(seq)"), goodSignature: false)
            parked.append(bytes)
            previous = Blake2b.hash(bytes)
        }
        let store = try replica(space)
        let first = try store.receive(
            space: space.id, spaceKey: space.key, ops: [join] + parked, mode: .tolerant, now: receiverNow)
        #expect(first.applied.count == 1 && first.pending == 100)
        #expect(first.signaturesChecked == 101, "each checked once, newest first, down to the join")
        // Every later batch drains the waiting ops again, and checks none of their signatures.
        let anaJoin = try #require(try ana.store.ops(space: space.id).first)
        let later = try store.receive(space: space.id, spaceKey: space.key, ops: [anaJoin], mode: .tolerant, now: receiverNow)
        #expect(later.applied.count == 1 && later.signaturesChecked == 1, "only Ana's join is checked")
        // The third review's M1: every batch read back, deleted and re-inserted every ready device's waiting ops
        // (100 here; 300 devices x 64 took a 200-byte batch 5 s). A batch now touches only its own devices' ops.
        #expect(later.pendingExamined == 0, "Ana's batch read back \(later.pendingExamined) of Mallory's waiting ops")
        #expect(try store.pendingCount(space.id) == 100)
        // A validly signed op 102 covers them all.
        let cover = op(
            mallory, seq: 102, prev: previous, hlc: HLC(milliseconds: 1_700_000_000_200, counter: 0),
            changes: nameChange("covered"))
        let covered = try store.receive(space: space.id, spaceKey: space.key, ops: [cover], mode: .tolerant, now: receiverNow)
        #expect(covered.applied.count == 101 && covered.signaturesChecked == 1)
        // Mallory's own op reads back Mallory's waiting ops: the 100, and op 102 itself, which waited beyond them.
        #expect(covered.pendingExamined == 101, "\(covered.pendingExamined)")
        #expect(try store.pendingCount(space.id) == 0)
    }

    @Test("finding 'clock pinning': an op stamped far in the future is refused and cannot pin a field")
    func farFutureClockRefused() throws {
        let space = TestSpace()
        let author = try Author("mallory", space: space)
        let join = try #require(try author.store.ops(space: space.id).first)
        let pinned = op(
            author, seq: 2, prev: Blake2b.hash(join), hlc: HLC(rawValue: UInt64(Int64.max)),
            changes: nameChange("pinned for ever"))
        let store = try replica(space)
        let report = try store.receive(
            space: space.id, spaceKey: space.key, ops: [join, pinned], mode: .tolerant,
            now: receiverNow)
        #expect(report.applied.count == 1)
        #expect(report.rejected.contains { $0.contains("more than a day ahead") })
        #expect(try store.records(space.id, kind: .player).isEmpty, "the pinned name never shows")
        do {
            _ = try replica(space).receive(
                space: space.id, spaceKey: space.key, ops: [join, pinned], mode: .strict,
                now: receiverNow)
            Issue.record("a far-future op was imported")
        } catch {
            #expect("\(error)".contains("check the clock of the device that made it"))
        }
        // An honest device a few hours fast is still accepted.
        let fast = op(
            author, seq: 2, prev: Blake2b.hash(join),
            hlc: HLC(milliseconds: receiverNow + 3 * 3_600_000, counter: 0), changes: nameChange("fast clock"))
        let accepted = try replica(space)
        #expect(
            try accepted.receive(
                space: space.id, spaceKey: space.key, ops: [join, fast], mode: .tolerant,
                now: receiverNow
            ).applied.count == 2)
    }

    @Test("finding 'disk fill': ops beyond a gap are bounded per device and expire; a forged one cannot squat a seq")
    func pendingOpsAreBounded() throws {
        let space = TestSpace()
        var member = try Author("ana", space: space)
        var stranger = try Author("mallory", space: space)
        let store = try replica(space)
        // The member's join arrives; then ops 3...102 without op 2: all wait, as sync delivers them.
        for hole in 1...101 {
            try member.score(
                game: GameID(unchecked: [1, 1, 1, 1, 1, 1, 1, 1]), player: PlayerID(unchecked: [2, 2, 2, 2, 2, 2, 2, 2]),
                hole: hole % 18 + 1, strokes: 4)
        }
        let memberOps = try member.store.ops(space: space.id)
        _ = try store.receive(
            space: space.id, spaceKey: space.key, ops: [memberOps[0]] + Array(memberOps[2...]), mode: .tolerant,
            now: receiverNow)
        let firstWait = try store.pendingCount(space.id)
        #expect(firstWait == 100, "\(firstWait) of \(memberOps.count - 2)")
        // A device that never joined sends 300 ops beyond its missing join: only a few are kept waiting.
        for hole in 1...300 {
            try stranger.score(
                game: GameID(unchecked: [1, 1, 1, 1, 1, 1, 1, 1]), player: PlayerID(unchecked: [3, 3, 3, 3, 3, 3, 3, 3]),
                hole: hole % 18 + 1, strokes: 5)
        }
        let strangerOps = try stranger.store.ops(space: space.id)
        let report = try store.receive(
            space: space.id, spaceKey: space.key, ops: Array(strangerOps.dropFirst()), mode: .tolerant,
            now: receiverNow)
        #expect(report.pending == 64, "a stranger's share is 64 ops, got \(report.pending)")
        #expect(try store.pendingCount(space.id) == 164)
        // An op beyond a gap whose signature does not verify waits like any other (a later op may cover it), and
        // cannot keep its device's own copy out: the validly signed copy of its seq takes its place.
        var forged = memberOps[5]
        forged[forged.count - 1] ^= 0xFF
        let other = try replica(space)
        _ = try other.receive(
            space: space.id, spaceKey: space.key, ops: [memberOps[0], forged], mode: .tolerant, now: receiverNow)
        #expect(try other.pendingCount(space.id) == 1)
        _ = try other.receive(
            space: space.id, spaceKey: space.key, ops: Array(memberOps[2...]), mode: .tolerant, now: receiverNow)
        let filled = try other.receive(
            space: space.id, spaceKey: space.key, ops: [memberOps[1]], mode: .tolerant, now: receiverNow)
        #expect(filled.applied.count == memberOps.count - 1, "the forged copy was replaced by the device's own")
        #expect(try other.pendingCount(space.id) == 0)
        // Waiting ops expire after a day.
        _ = try store.receive(space: space.id, spaceKey: space.key, ops: [], mode: .tolerant, now: receiverNow + 2 * 86_400_000)
        #expect(try store.pendingCount(space.id) == 0)
        // The member's missing op still brings the rest in when they are offered again.
        let healed = try store.receive(space: space.id, spaceKey: space.key, ops: memberOps, mode: .tolerant, now: receiverNow)
        #expect(healed.applied.count == memberOps.count - 1)
    }
}
