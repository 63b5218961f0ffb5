import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation
import Testing

@testable import CaddieSync

/// The peer table (`caddie peers`) of a live session: written at most once every `SyncSession.peerRowSeconds` while
/// ops keep moving, and yet exact at the first digest tick after they stop. Two nodes on loopback TCP, each with its
/// own SQLite home.
@Suite("A live session's row in the peer table", .enabled(if: SessionsAlone.enabled, SessionsAlone.why))
struct PeerTableTests {
    @Test(
        "a burst of 40 pushes over a live session: the receiving node's peer row counts every op within two digest ticks of the last, while the session stays up"
    )
    func rowExactAfterBurst() async throws {
        let live = try SessionSpace("peers")
        defer { live.remove() }
        let space = live.space
        let (anaUser, anaDevice) = (SigningKey.generate(), SigningKey.generate())
        let (benUser, benDevice) = (SigningKey.generate(), SigningKey.generate())
        let ana = try live.home("ana", joining: (anaUser, anaDevice))
        let ben = try live.home("ben", joining: (benUser, benDevice))
        let game = GameID(SecureRandom.entityID())
        let (anaNode, benNode) = (
            try live.node(ana, user: anaUser, device: anaDevice), try live.node(ben, user: benUser, device: benDevice)
        )
        func row() throws -> PeerRecord? { try ana.peers().first { $0.device == benDevice.publicKey } }
        let within = SessionSpace.within
        try await live.serving(anaNode, dialledBy: benNode) { _ in
            #expect(try await within(10) { anaNode.sessions.contains { $0.device == benDevice.publicKey } } != nil)
            #expect(try await within(10) { try row()?.received == 1 } != nil, "Ben's join counted at the first exchange")
            // 40 scores, one push each, as fast as Ben's node sends them.
            for hole in 1...40 {
                try ben.append(
                    space: space, signer: benDevice,
                    changes: [
                        .score(game: game, player: PlayerID(game.entity), hole: hole % 18 + 1, entry: try ScoreEntry(strokes: 4))
                    ],
                    now: UInt64(Date().timeIntervalSince1970 * 1000))
            }
            #expect(try await within(10) { try ana.heads(space).first { $0.device == benDevice.publicKey }?.seq == 41 } != nil)
            let held = Date()
            // The row catches up with the last op within two digest ticks of it (2 s each while ops move: the first
            // may still see the burst moving; the next finds the link quiet), with room for a slow machine.
            let exact = try await within(Double(SyncNode.antiEntropySeconds) * 4) { try row()?.received == 41 }
            print(
                "PeerTableTests: the peer row counted all 41 ops \(String(format: "%.2f", exact ?? -1)) s after they were held "
                    + "(received \(try row()?.received ?? -1))")
            let counted = try row()?.received ?? -1
            #expect(exact != nil, "the peer row stayed at \(counted) received of 41")
            #expect(try row()?.lastSync != nil)
            #expect(Date().timeIntervalSince(held) < Double(SyncNode.antiEntropySeconds) * 4 + 1)
            #expect(anaNode.sessions.contains { $0.device == benDevice.publicKey }, "the session is still live")
        }
    }
}
