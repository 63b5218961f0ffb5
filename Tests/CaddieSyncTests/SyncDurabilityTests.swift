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
        let durable = try SessionSpace("durable")
        defer { durable.remove() }
        let (space, key) = (durable.space, durable.key)
        let (anaUser, anaDevice) = (SigningKey.generate(), SigningKey.generate())
        let (benUser, benDevice) = (SigningKey.generate(), SigningKey.generate())
        let ana = try durable.home("ana", joining: (anaUser, anaDevice))
        let ben = try durable.home("ben", joining: (benUser, benDevice))
        // Ana's older copy of her home: her join and Ben's, not the two scores she entered after it.
        let older = try durable.home("ana-older")
        _ = try older.receive(
            space: space, spaceKey: key, ops: try ana.ops(space: space) + ben.ops(space: space), mode: .strict, now: 2)
        let game = GameID(SecureRandom.entityID())
        for hole in 1...2 {
            try ana.append(
                space: space, signer: anaDevice,
                changes: [.score(game: game, player: PlayerID(game.entity), hole: hole, entry: try ScoreEntry(strokes: 4))],
                now: UInt64(Date().timeIntervalSince1970 * 1000))
        }
        let benNode = try durable.node(ben, user: benUser, device: benDevice)
        try await durable.serving(benNode) { port in
            // Ana's home takes Ben's join from him: a peer's op, unsynced.
            _ = try await durable.node(ana, user: anaUser, device: anaDevice).syncOnce(
                host: "127.0.0.1", port: port, space: space)
            #expect(try ben.heads(space).first { $0.device == anaDevice.publicKey }?.seq == 3)
            #expect(ana.unsyncedCommits.load(ordering: .relaxed) >= 1, "Ben's join reached Ana's home unsynced")
            // The older copy gets Ana's own scores back from Ben: synced, every batch of them.
            _ = try await durable.node(older, user: anaUser, device: anaDevice).syncOnce(
                host: "127.0.0.1", port: port, space: space)
            #expect(try older.heads(space).first { $0.device == anaDevice.publicKey }?.seq == 3)
            #expect(older.unsyncedCommits.load(ordering: .relaxed) == 0, "Ana's own ops came back unsynced")
        }
    }
}
