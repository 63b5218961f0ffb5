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

    @Test(
        "after appends, received ops and a new member, the kept heads are the store's, with no read between; only a change of who may sync moves the membership generation"
    )
    func keptHeadsFollowTheStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-heads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try OpStore(path: folder.appendingPathComponent("caddie.sqlite").path)
        let space = SpaceID(unchecked: [UInt8](repeating: 7, count: 16))
        let key = [UInt8](repeating: 9, count: 32)
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
        // Another device's log arriving as a peer's batch: a join (the kept heads are dropped and read again), then
        // its scores (patched in).
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
        #expect(node.headsCache.withLock { $0.spaces[space] } == nil, "a join drops the kept heads")
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
        let cut = try await node.heads(space)
        #expect(cut == (try stored()), "after the revocation")
        #expect(cut.first { $0.device == otherDevice.publicKey }?.seq == 2, "the revoked device's head went down to 2")
        #expect(node.feed.membershipGeneration > joined, "a revocation changes who may sync")
    }
}
