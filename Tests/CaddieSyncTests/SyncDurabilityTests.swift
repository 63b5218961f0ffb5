import CaddieCore
import CaddieCrypto
import CaddieWire
import Foundation
import Logging
import Testing

@testable import CaddieStore
@testable import CaddieSync

/// What a sync session's batch syncs to disk (docs/architecture.md, "Storage and durability"), over loopback TCP
/// between homes on disk: a peer's ops commit unsynced (the peer holds them), this device's own ops coming back to a
/// home restored from an older copy commit synced (lost, its log would go back and its next edit would fork it).
@Suite("What a sync session's batches sync", .enabled(if: SessionsAlone.enabled, SessionsAlone.why))
struct SyncDurabilityTests {
    @Test("a peer's ops commit unsynced; this device's own ops sent back to an older copy of its home commit synced")
    func ownOpsComeBackSynced() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let space = SecureRandom.spaceID()
        let key = SecureRandom.bytes(32)
        let (anaUser, anaDevice) = (SigningKey.generate(), SigningKey.generate())
        let (benUser, benDevice) = (SigningKey.generate(), SigningKey.generate())
        func home(_ name: String) throws -> OpStore {
            let directory = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try OpStore(path: directory.appendingPathComponent("caddie.sqlite").path)
            try store.addSpace(space, name: "durable", now: 0)
            return store
        }
        func node(_ store: OpStore, user: SigningKey, device: SigningKey) throws -> SyncNode {
            try SyncNode(
                store: store,
                credentials: DeviceCredentials(
                    device: device, user: user.publicKey, certifiedAt: 1,
                    certificate: Membership.certify(device: device.publicKey, by: user, at: 1)),
                spaceKeys: [space: key], logger: Logger(label: "durable"))
        }
        let (ana, ben) = (try home("ana"), try home("ben"))
        try ana.append(
            space: space, signer: anaDevice, changes: [HeadsTests.join(space, key, user: anaUser, device: anaDevice)], now: 1)
        try ben.append(
            space: space, signer: benDevice, changes: [HeadsTests.join(space, key, user: benUser, device: benDevice)], now: 1)
        // Ana's older copy of her home: her join and Ben's, not the two scores she entered after it.
        let older = try home("ana-older")
        _ = try older.receive(
            space: space, spaceKey: key, ops: try ana.ops(space: space) + ben.ops(space: space), mode: .strict, now: 2)
        let game = GameID(SecureRandom.entityID())
        for hole in 1...2 {
            try ana.append(
                space: space, signer: anaDevice,
                changes: [.score(game: game, player: PlayerID(game.entity), hole: hole, entry: try ScoreEntry(strokes: 4))],
                now: UInt64(Date().timeIntervalSince1970 * 1000))
        }
        let benNode = try node(ben, user: benUser, device: benDevice)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let (ports, found) = AsyncStream<Int>.makeStream()
            group.addTask { try await benNode.serve(host: "127.0.0.1", port: 0, peers: []) { found.yield($0) } }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            defer { group.cancelAll() }
            // Ana's home takes Ben's join from him: a peer's op, unsynced.
            _ = try await node(ana, user: anaUser, device: anaDevice).syncOnce(host: "127.0.0.1", port: port, space: space)
            #expect(try ben.heads(space).first { $0.device == anaDevice.publicKey }?.seq == 3)
            #expect(ana.unsyncedCommits.load(ordering: .relaxed) >= 1, "Ben's join reached Ana's home unsynced")
            // The older copy gets Ana's own scores back from Ben: synced, every batch of them.
            _ = try await node(older, user: anaUser, device: anaDevice).syncOnce(host: "127.0.0.1", port: port, space: space)
            #expect(try older.heads(space).first { $0.device == anaDevice.publicKey }?.seq == 3)
            #expect(older.unsyncedCommits.load(ordering: .relaxed) == 0, "Ana's own ops came back unsynced")
        }
    }
}
