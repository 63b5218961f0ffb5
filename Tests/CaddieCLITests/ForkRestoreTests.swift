import CaddieCore
import CaddieNode
import CaddieStore
import Foundation
import Testing

/// A device that signs two different histories (a fork): the usual cause is a phone restored from an old backup.
/// Security review, finding "erasing one's own history": a fork used to cut the device back on every node, taking
/// out the scores it had signed since; now every branch stays, on every node.
@Suite("A phone restored from an old backup", .serialized)
struct ForkRestoreTests {
    /// Ana's strokes per hole of `game`, every standing value, as `home` holds them.
    static func anaCard(_ cli: CLI, game: String, ana: String) throws -> [Int: [Int]] {
        let home = try Home(path: cli.home.path)
        let space = try home.spaces.resolveSpace(nil)
        let cells = try home.store.cells(space, game: try #require(GameID(hex: game)))
        return Dictionary(
            cells.filter { $0.player.hex == ana }.map { ($0.hole, $0.values.map(\.entry.strokes).sorted()) },
            uniquingKeysWith: { a, _ in a })
    }

    @Test("a phone restored from a backup scores on; after a sync both histories are on every card, and it goes on")
    func restoredPhone() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let (ana, ben) = (homes[0], homes[1])
        let backup = ana.home.deletingLastPathComponent().appendingPathComponent("ana-backup-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ana.home, to: backup)
        defer { try? FileManager.default.removeItem(at: backup) }
        // After the backup Ana scores holes 1-3, and her phone syncs them to Ben's.
        for hole in 1...3 { try ana.ok(["score", game, "Ana", "\(hole)", "4"]) }
        let node = try NodeProcess(ben)
        defer { node.stop() }
        try ana.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        #expect(try Self.anaCard(ben, game: game, ana: players[0]) == [1: [4], 2: [4], 3: [4]])
        // Her phone is restored from the backup and she scores hole 4: her device signs the same seq a second time.
        try FileManager.default.removeItem(at: ana.home)
        try FileManager.default.copyItem(at: backup, to: ana.home)
        try ana.ok(["score", game, "Ana", "4", "5"])
        try ana.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        let expected = [1: [4], 2: [4], 3: [4], 4: [5]]
        #expect(try HostilePeerTests.forks(ana) == 1)
        #expect(try HostilePeerTests.forks(ben) == 1)
        #expect(try Self.anaCard(ben, game: game, ana: players[0]) == expected)
        #expect(try Self.anaCard(ana, game: game, ana: players[0]) == expected)
        #expect(try ana.stateHash() == ben.stateHash())
        // The log says what happened, and still verifies.
        let log = try ana.ok(["log"]).stdout
        #expect(log.contains("FORK BRANCH"))
        try ana.ok(["verify"])
        try ben.ok(["verify"])
        // She goes on scoring: her next op follows her branch, and reaches Ben with no further fork.
        try ana.ok(["score", game, "Ana", "5", "3"])
        try ana.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        #expect(try Self.anaCard(ben, game: game, ana: players[0])[5] == [3])
        #expect(try HostilePeerTests.forks(ben) == 1)
        #expect(try ana.stateHash() == ben.stateHash())
    }

    @Test("live: a restored phone running its node meets the group's node; both histories reach both, and its next score follows")
    func restoredPhoneLive() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let (ana, ben) = (homes[0], homes[1])
        let backup = ana.home.deletingLastPathComponent().appendingPathComponent("ana-backup-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ana.home, to: backup)
        defer { try? FileManager.default.removeItem(at: backup) }
        let hub = try NodeProcess(ben)
        defer { hub.stop() }
        var phone = try NodeProcess(ana, peers: [hub.port])
        for hole in 1...3 { try ana.ok(["score", game, "Ana", "\(hole)", "4"]) }
        let synced = [1: [4], 2: [4], 3: [4]]
        #expect(try eventually(within: 60) { try Self.anaCard(ben, game: game, ana: players[0]) == synced })
        phone.stop()
        // Restored from the backup, the phone scores hole 4 and starts its node again: a fork, met live.
        try FileManager.default.removeItem(at: ana.home)
        try FileManager.default.copyItem(at: backup, to: ana.home)
        try ana.ok(["score", game, "Ana", "4", "5"])
        phone = try NodeProcess(ana, peers: [hub.port])
        defer { phone.stop() }
        let expected = [1: [4], 2: [4], 3: [4], 4: [5]]
        #expect(try eventually(within: 60) { try Self.anaCard(ben, game: game, ana: players[0]) == expected })
        #expect(try eventually(within: 60) { try Self.anaCard(ana, game: game, ana: players[0]) == expected })
        #expect(try HostilePeerTests.forks(ana) == 1)
        #expect(try HostilePeerTests.forks(ben) == 1)
        // Its next score, made while both nodes run, reaches the group's node with no further fork.
        try ana.ok(["score", game, "Ana", "5", "3"])
        #expect(try eventually(within: 60) { try Self.anaCard(ben, game: game, ana: players[0])[5] == [3] })
        #expect(try HostilePeerTests.forks(ben) == 1)
        #expect(try eventually(within: 60) { try ana.stateHash() == ben.stateHash() })
    }
}
