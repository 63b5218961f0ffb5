import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import Testing

@testable import CaddieSync

/// The node's vector of a space, kept from the store's changes instead of read again after each commit: on a real
/// SQLite store, it must always equal what the store says.
@Suite("A sync node's heads, kept up to date from the store's changes")
struct HeadsTests {
    static func join(_ space: SpaceID, _ key: [UInt8], user: SigningKey, device: SigningKey) -> Change {
        .join(
            .init(
                user: user.publicKey, userName: "p", certifiedAt: 1,
                certificateSignature: Membership.certify(device: device.publicKey, by: user, at: 1),
                membershipProof: Membership.membershipProof(
                    space: space, spaceKey: key, device: device.publicKey, user: user.publicKey)))
    }

    /// A node over a home in `folder` holding one member device's join, its change feed started.
    static func node(
        in folder: URL, space: SpaceID, key: [UInt8]
    ) throws -> (store: OpStore, node: SyncNode, device: SigningKey) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try OpStore(path: folder.appendingPathComponent("caddie.sqlite").path)
        try store.addSpace(space, name: "heads", now: 0)
        let (user, device) = (SigningKey.generate(), SigningKey.generate())
        try store.append(space: space, signer: device, changes: [Self.join(space, key, user: user, device: device)], now: 1)
        let node = try SyncNode(
            store: store,
            credentials: DeviceCredentials(
                device: device, user: user.publicKey, certifiedAt: 1,
                certificate: Membership.certify(device: device.publicKey, by: user, at: 1)),
            spaceKeys: [space: key], logger: Logger(label: "heads"))
        node.feed.start()
        return (store, node, device)
    }

    @Test(
        "after appends, received ops and a new member, the kept heads are the store's, with no read between; only a change of who may sync moves the membership generation"
    )
    func keptHeadsFollowTheStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-heads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let space = SpaceID(unchecked: [UInt8](repeating: 7, count: 16))
        let key = [UInt8](repeating: 9, count: 32)
        let (store, node, device) = try Self.node(in: folder, space: space, key: key)
        func stored() throws -> [WireMessage.VectorEntry] {
            try store.heads(space).map { WireMessage.VectorEntry(device: $0.device, seq: $0.seq, head: $0.hash) }
        }
        #expect(try await node.heads(space) == (try stored()))
        // Scores leave a live session's admission as it was: nothing to read again.
        let admitted = node.feed.membershipGeneration
        let game = GameID(unchecked: [UInt8](repeating: 1, count: 8))
        for hole in 1...5 {
            try store.append(
                space: space, signer: device,
                changes: [.score(game: game, player: PlayerID(game.entity), hole: hole, entry: try ScoreEntry(strokes: 4))],
                now: 2)
            let kept = try await node.heads(space)
            #expect(kept == (try stored()), "after the append of hole \(hole)")
            #expect(kept.first?.seq == UInt64(hole + 1))
        }
        #expect(
            node.headsCache.withLock { $0.spaces[space] } != nil,
            "the heads were kept through the appends (patched), not dropped and read again")
        #expect(node.feed.membershipGeneration == admitted, "five scores changed nobody's admission")
        // Another device's log arriving as a peer's batch: a join, then its scores, each patched in.
        let (other, otherDevice) = (SigningKey.generate(), SigningKey.generate())
        let peer = try OpStore()
        try peer.addSpace(space, name: "heads", now: 0)
        try peer.append(
            space: space, signer: otherDevice, changes: [Self.join(space, key, user: other, device: otherDevice)], now: 1)
        for hole in 1...3 {
            try peer.append(
                space: space, signer: otherDevice,
                changes: [.score(game: game, player: PlayerID(game.entity), hole: hole, entry: try ScoreEntry(strokes: 5))],
                now: 2)
        }
        let ops = try peer.ops(space: space)
        _ = try store.receive(space: space, spaceKey: key, ops: Array(ops.prefix(1)), mode: .strict, now: 2)
        #expect(
            node.headsCache.withLock { $0.spaces[space]?.heads.count } == 2,
            "a join's head is patched in, not dropped and read again")
        let joined = node.feed.membershipGeneration
        #expect(joined > admitted, "a join may change who may sync")
        #expect(try await node.heads(space) == (try stored()), "after the peer's join")
        _ = try store.receive(space: space, spaceKey: key, ops: Array(ops.dropFirst()), mode: .strict, now: 2)
        let kept = try await node.heads(space)
        #expect(kept == (try stored()) && kept.count == 2, "after the peer's scores")
        #expect(node.feed.membershipGeneration == joined, "the peer's scores changed nobody's admission")
        // The peer's user revokes that device after its op 2 from a phone of theirs: its log is cut back here, its
        // head goes down, and the kept heads follow.
        let phone = SigningKey.generate()
        try peer.append(space: space, signer: phone, changes: [Self.join(space, key, user: other, device: phone)], now: 3)
        let statement = Membership.revocationMessage(space: space, device: otherDevice.publicKey, lastValidSeq: 2)
        try peer.append(
            space: space, signer: phone,
            changes: [.revoke(.init(device: otherDevice.publicKey, lastValidSeq: 2, userSignature: other.sign(statement)))],
            now: 3)
        _ = try store.receive(space: space, spaceKey: key, ops: try peer.ops(space: space), mode: .tolerant, now: 3)
        #expect(node.headsCache.withLock { $0.spaces[space] } == nil, "a rebuild drops the kept heads")
        let cut = try await node.heads(space)
        #expect(cut == (try stored()), "after the revocation")
        #expect(cut.first { $0.device == otherDevice.publicKey }?.seq == 2, "the revoked device's head went down to 2")
        #expect(node.feed.membershipGeneration > joined, "a revocation changes who may sync")
    }

    @Test(
        "a read of the heads that commits overtook is kept, brought up to the heads their changes named, a join's among them; one that a rebuild overtook is not kept, and the next call reads again"
    )
    func overtakenReadKeptUpToDate() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-heads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let space = SpaceID(unchecked: [UInt8](repeating: 7, count: 16))
        let key = [UInt8](repeating: 9, count: 32)
        let (store, node, device) = try Self.node(in: folder, space: space, key: key)
        func stored() throws -> [PublicKey: StoreChange.Head] {
            Dictionary(try store.heads(space).map { ($0.device, StoreChange.Head(seq: $0.seq, hash: $0.hash)) }) { $1 }
        }
        let game = GameID(unchecked: [UInt8](repeating: 1, count: 8))
        func score(_ hole: Int) throws {
            try store.append(
                space: space, signer: device,
                changes: [.score(game: game, player: PlayerID(game.entity), hole: hole, entry: try ScoreEntry(strokes: 4))],
                now: 2)
        }
        // A read begins (as `heads` begins one when none is kept), takes its snapshot, and three scores commit
        // before it ends: what it read is one op behind the store, three behind at the end.
        let rebuilds = node.headsCache.withLock { $0.beginRead(space) }
        let snapshot = try stored()
        for hole in 1...3 { try score(hole) }
        let ended = node.headsCache.withLock { $0.finishRead(space, rebuildsAtStart: rebuilds, heads: snapshot) }
        #expect(ended == (try stored()), "the read brought up to the scores that overtook it")
        #expect(ended[device.publicKey]?.seq == 4)
        #expect(node.headsCache.withLock { $0.spaces[space]?.heads } == (try stored()), "and kept")
        #expect(node.headsCache.withLock { $0.reads[space] } == nil, "no read left running")
        // A second device joins while a read runs: its head is brought in too.
        node.headsCache.withLock { $0.spaces[space] = nil }
        let beforeJoin = node.headsCache.withLock { $0.beginRead(space) }
        let oneDevice = try stored()
        let (other, otherDevice) = (SigningKey.generate(), SigningKey.generate())
        try store.append(
            space: space, signer: otherDevice, changes: [Self.join(space, key, user: other, device: otherDevice)], now: 3)
        let joined = node.headsCache.withLock { $0.finishRead(space, rebuildsAtStart: beforeJoin, heads: oneDevice) }
        #expect(joined == (try stored()) && joined.count == 2, "the join's head brought in")
        // A rebuild while a read runs (a log cut back: a head may go down): that read is not kept.
        node.headsCache.withLock { $0.spaces[space] = nil }
        let beforeRebuild = node.headsCache.withLock { $0.beginRead(space) }
        var rebuilt = StoreChange.Space()
        rebuilt.whole = true
        rebuilt.rebuilt = true
        node.patchHeads(with: StoreChange(spaces: [space: rebuilt]))
        _ = node.headsCache.withLock { $0.finishRead(space, rebuildsAtStart: beforeRebuild, heads: joined) }
        #expect(node.headsCache.withLock { $0.spaces[space] } == nil, "a read a rebuild overtook is not kept")
        // A head a change named before a rebuild is void after it: a read begun after the rebuild keeps what it read.
        let early = node.headsCache.withLock { $0.beginRead(space) }
        var ahead = StoreChange.Space()
        ahead.heads[device.publicKey] = StoreChange.Head(seq: 99, hash: Digest32(unchecked: [UInt8](repeating: 9, count: 32)))
        node.patchHeads(with: StoreChange(spaces: [space: ahead]))
        node.patchHeads(with: StoreChange(spaces: [space: rebuilt]))
        let late = node.headsCache.withLock { $0.beginRead(space) }
        let afterRebuild = node.headsCache.withLock { $0.finishRead(space, rebuildsAtStart: late, heads: joined) }
        #expect(afterRebuild == joined, "the head named before the rebuild (seq 99) is not brought in")
        #expect(node.headsCache.withLock { $0.spaces[space]?.heads } == joined)
        _ = node.headsCache.withLock { $0.finishRead(space, rebuildsAtStart: early, heads: oneDevice) }
        #expect(
            node.headsCache.withLock { $0.spaces[space]?.heads } == joined, "the read begun before the rebuild changed nothing")
        #expect(node.headsCache.withLock { $0.reads[space] } == nil)
        node.headsCache.withLock { $0.spaces[space] = nil }
        let read = try await node.heads(space)
        #expect(read.count == 2 && read.map(\.seq).sorted() == [1, 4], "the next call reads the store again")
        // Many sessions asking while scores commit: every answer is at least as new as the store before it was asked,
        // and the heads kept at the end are the store's.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<20 {
                        let floor = try store.heads(space).first { $0.device == device.publicKey }?.seq ?? 0
                        let got = try await node.heads(space).first { $0.device == device.publicKey }?.seq ?? 0
                        #expect(got >= floor)
                    }
                }
            }
            group.addTask {
                for hole in 4...18 {
                    try score(hole)
                    node.headsCache.withLock { $0.spaces[space] = nil }  // every call after a commit reads again
                }
            }
            try await group.waitForAll()
        }
        #expect(try await node.heads(space).count == 2)
        #expect(node.headsCache.withLock { $0.spaces[space]?.heads } == (try stored()))
    }
}
