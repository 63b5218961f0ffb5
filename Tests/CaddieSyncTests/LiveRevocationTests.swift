import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import Synchronization
import Testing

@testable import CaddieSync

/// A live session whose peer is revoked while it runs: two nodes on loopback TCP, each with its own SQLite home.
/// A session re-reads its peer's admission only after a change of who may sync (`ChangeFeed.membershipGeneration`):
/// a revocation is such a change, and must end the session, not wait for the next one to be refused.
@Suite("A live session ended by its peer's revocation", .enabled(if: SessionsAlone.enabled, SessionsAlone.why))
struct LiveRevocationTests {
    @Test("Ben's device is revoked by his phone while it syncs with Ana's node: the session ends, and none is admitted again")
    func revocationEndsLiveSession() async throws {
        let live = try SessionSpace("live")
        defer { live.remove() }
        let (space, key) = (live.space, live.key)
        let (anaUser, anaDevice) = (SigningKey.generate(), SigningKey.generate())
        let (benUser, benDevice, benPhone) = (SigningKey.generate(), SigningKey.generate(), SigningKey.generate())
        let ana = try live.home("ana", joining: (anaUser, anaDevice))
        let ben = try live.home("ben", joining: (benUser, benDevice))
        let game = GameID(SecureRandom.entityID())
        func score(_ store: OpStore, _ device: SigningKey, hole: Int) throws {
            try store.append(
                space: space, signer: device,
                changes: [.score(game: game, player: PlayerID(game.entity), hole: hole, entry: try ScoreEntry(strokes: 4))],
                now: UInt64(Date().timeIntervalSince1970 * 1000))
        }
        try score(ben, benDevice, hole: 1)
        let (anaNode, benNode) = (
            try live.node(ana, user: anaUser, device: anaDevice), try live.node(ben, user: benUser, device: benDevice)
        )
        func held(_ store: OpStore, _ device: SigningKey) throws -> UInt64 {
            try store.heads(space).first { $0.device == device.publicKey }?.seq ?? 0
        }
        let within = SessionSpace.within
        // Why Ana's node ended its session with Ben's device: its own refusal, not Ben's node hanging up.
        let lost = Mutex<[String]>([])
        anaNode.observePeers { event in
            if case .lost(let session, let reason) = event, session.device == benDevice.publicKey {
                lost.withLock { $0.append(reason) }
            }
        }
        try await live.serving(anaNode, dialledBy: benNode) { _ in
            // The session is up and live: Ben's second score reaches Ana's home while it runs.
            #expect(try await within(10) { anaNode.sessions.contains { $0.device == benDevice.publicKey } } != nil)
            try score(ben, benDevice, hole: 2)
            #expect(try await within(10) { try held(ana, benDevice) == 3 } != nil, "a live push before the revocation")
            // A tick of the session has passed: its peer's admission was read once already, and is read again only
            // after a change of who may sync.
            try await Task.sleep(for: .seconds(Double(SyncNode.antiEntropySeconds) + 0.5))
            #expect(anaNode.sessions.contains { $0.device == benDevice.publicKey })

            // Ben's phone revokes his device after its op 3, and Ana's node learns it (the phone synced with it).
            let phone = try OpStore()
            try phone.addSpace(space, name: "live", now: 0)
            try phone.append(
                space: space, signer: benPhone, changes: [HeadsTests.join(space, key, user: benUser, device: benPhone)], now: 2)
            let statement = Membership.revocationMessage(space: space, device: benDevice.publicKey, lastValidSeq: 3)
            try phone.append(
                space: space, signer: benPhone,
                changes: [.revoke(.init(device: benDevice.publicKey, lastValidSeq: 3, userSignature: benUser.sign(statement)))],
                now: 3)
            _ = try ana.receive(
                space: space, spaceKey: key, ops: try phone.ops(space: space), mode: .tolerant,
                now: UInt64(Date().timeIntervalSince1970 * 1000))
            // The live session ends within a tick of the session (2 s), not at the next one.
            let ended = try await within(Double(SyncNode.antiEntropySeconds) * 3) {
                !anaNode.sessions.contains { $0.device == benDevice.publicKey }
            }
            #expect(ended != nil, "Ana's node still syncs with the revoked device")
            print(
                "LiveRevocationTests: the live session ended \(String(format: "%.2f", ended ?? -1)) s after the "
                    + "revocation: \(lost.withLock { $0 })")
            #expect(lost.withLock { $0.first?.contains("revoked") } == true, "\(lost.withLock { $0 })")
            // Ben's node keeps dialling: no new session is admitted, and Ana's home keeps his log cut at op 3.
            let readmitted = try await within(Double(SyncNode.antiEntropySeconds) + 2) {
                anaNode.sessions.contains { $0.device == benDevice.publicKey }
            }
            #expect(readmitted == nil, "a session with the revoked device was admitted again")
            #expect(try held(ana, benDevice) == 3)
        }
    }
}
