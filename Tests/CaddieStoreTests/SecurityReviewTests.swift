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

    @Test("finding 'acceptance that depends on batching': a badly signed op is refused alone and in a run alike")
    func badSignatureRefusedInAnyBatch() throws {
        let space = TestSpace()
        let author = try Author("mallory", space: space)
        let join = try #require(try author.store.ops(space: space.id).first)
        let joinHash = Blake2b.hash(join)
        // Op 2 carries a signature that does not verify; the device then signs op 3 linked to it.
        let bad = op(
            author, seq: 2, prev: joinHash, hlc: HLC(milliseconds: 1_700_000_000_100, counter: 0),
            changes: nameChange("pinned"), goodSignature: false)
        let next = op(
            author, seq: 3, prev: Blake2b.hash(bad), hlc: HLC(milliseconds: 1_700_000_000_200, counter: 0),
            changes: nameChange("later"))
        let alone = try replica(space)
        let aloneReport = try alone.receive(
            space: space.id, spaceKey: space.key, ops: [join, bad], mode: .tolerant,
            now: receiverNow)
        #expect(aloneReport.applied.count == 1, "only the join applies when op 2 comes alone")
        let inRun = try replica(space)
        let runReport = try inRun.receive(
            space: space.id, spaceKey: space.key, ops: [join, bad, next], mode: .tolerant,
            now: receiverNow)
        #expect(runReport.applied.count == 1, "op 2 must be refused in a run too, and op 3 with it")
        #expect(runReport.rejected.contains { $0.contains("signature does not verify") })
        #expect(try alone.stateHash(space.id) == (try inRun.stateHash(space.id)), "both replicas hold the same log")
        #expect(throws: StoreError.self) {
            try replica(space).receive(
                space: space.id, spaceKey: space.key, ops: [join, bad, next], mode: .strict,
                now: receiverNow)
        }
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

    @Test("finding 'disk fill': ops beyond a gap are checked, bounded per device and expire")
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
        // An op beyond a gap whose signature does not verify is not stored at all.
        var forged = strangerOps[299]
        forged[forged.count - 1] ^= 0xFF
        let other = try replica(space)
        let refused = try other.receive(space: space.id, spaceKey: space.key, ops: [forged], mode: .tolerant, now: receiverNow)
        let waiting = try other.pendingCount(space.id)
        #expect(refused.pending == 0 && waiting == 0)
        // Waiting ops expire after a day.
        _ = try store.receive(space: space.id, spaceKey: space.key, ops: [], mode: .tolerant, now: receiverNow + 2 * 86_400_000)
        #expect(try store.pendingCount(space.id) == 0)
        // The member's missing op still brings the rest in when they are offered again.
        let healed = try store.receive(space: space.id, spaceKey: space.key, ops: memberOps, mode: .tolerant, now: receiverNow)
        #expect(healed.applied.count == memberOps.count - 1)
    }
}
