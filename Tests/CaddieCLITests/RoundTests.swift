import Foundation
import Testing

@Suite("caddie CLI: a round across four homes", .serialized)
struct RoundTests {
    static let course = CLI.repository.appendingPathComponent("docs/examples/course.json").path

    /// Four players' homes in one space, each with the game; returns the homes, the game and player ids.
    static func foursome() throws -> (homes: [CLI], game: String, players: [String]) {
        let (template, game, players) = try foursomeTemplate.get()
        let homes = try zip(template, ["Ana", "Ben", "Cleo", "Dev"]).map { source, name in
            let copy = try CLI(name: name)
            try FileManager.default.copyItem(at: source.home, to: copy.home)
            return copy
        }
        return (homes, game, players)
    }

    /// The four homes of ``foursome()``, made once a test process (31 launches of `caddie`) and copied for each
    /// test that asks: the copies hold the same keys and space, which no test tells apart, as their nodes only
    /// meet the peers a test names.
    static let foursomeTemplate = Result { try makeFoursome() }

    static func makeFoursome() throws -> (homes: [CLI], game: String, players: [String]) {
        let names = ["Ana", "Ben", "Cleo", "Dev"]
        let homes = try names.map { try CLI(name: $0) }
        for (home, name) in zip(homes, names) { try home.ok(["login", "--name", name]) }
        let invite = try homes[0].createSpace("Saturday foursome").field("invite")
        for home in homes.dropFirst() { try home.ok(["space", "join", invite]) }
        let players = try names.map { try homes[0].ok(["player", "add", $0, "--index", "18.2", "--json"]).field("player") }
        let course = try homes[0].ok(["course", "import", Self.course, "--json"]).field("course")
        let game = try homes[0].ok([
            "game", "new", "--course", course, "--tee", "1", "--players",
            players.joined(separator: ","), "--json",
        ]).field("game")
        try merge(homes)
        return (homes, game, players)
    }

    /// Everyone exports to everyone by file.
    static func merge(_ homes: [CLI]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-bundles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, home) in homes.enumerated() {
            try home.ok(["export", "--out", directory.appendingPathComponent("\(index).bundle").path])
        }
        for (index, home) in homes.enumerated() {
            for other in homes.indices where other != index {
                try home.ok(["import", directory.appendingPathComponent("\(other).bundle").path])
            }
        }
    }

    @Test("four homes score offline with a conflicting cell, merge by file, and agree on one state hash")
    func offlineRoundConverges() throws {
        let (homes, game, players) = try Self.foursome()
        defer { homes.forEach { $0.remove() } }
        // Each player keeps their own score for nine holes; Ben and Cleo both mark Dev's 5th, differently.
        for (index, home) in homes.enumerated() {
            for hole in 1...9 { try home.ok(["score", game, players[index], "\(hole)", "\(3 + (hole + index) % 4)"]) }
        }
        try homes[1].ok(["score", game, "Dev", "5", "7", "--putts", "3"])
        try homes[2].ok(["score", game, "dev", "5", "8"])
        try Self.merge(homes)
        let hashes = try Set(homes.map { try $0.stateHash() })
        #expect(hashes.count == 1)
        let card = try #require(try homes[0].ok(["card", game, "--json"]).json() as? [String: Any])
        let conflicts = try #require(card["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1)
        let values = try #require(conflicts.first?["values"] as? [[String: Any]])
        // Dev's own 3, Ben's 7 and Cleo's 8 were all entered without seeing each other.
        #expect(values.compactMap { $0["strokes"] as? Int }.sorted() == [3, 7, 8])
        #expect(values.map { $0["author"] as? String }.compactMap { $0 }.sorted() == ["Ben", "Cleo", "Dev"])
        // Net and Stableford from Ana's entered index 18.2 on tee 1 (74.2/133, par 72): course handicap
        // 18.2 x 133 / 113 + (74.2 - 72) = 23.62, playing handicap 95% = 22.44 -> 22, one stroke a hole and a
        // second on stroke index 1 and 3 (holes 6 and 9). Her gross 4 5 6 3 4 5 6 3 4 nets 3 4 5 2 3 3 5 2 2.
        let rows = try #require(card["players"] as? [[String: Any]])
        let anaRow = try #require(rows.first { $0["name"] as? String == "Ana" })
        let ana = try #require(anaRow["handicap"] as? [String: Any])
        #expect(ana["playingHandicap"] as? Int == 22)
        #expect(ana["netTotal"] as? Int == 29)
        #expect(ana["pointsTotal"] as? Int == 25)
        let text = try homes[3].ok(["card", game]).stdout
        #expect(text.contains("PH") && text.contains("Pts"))
        #expect(text.contains("Conflicts"))
        #expect(text.contains("Out") && text.contains("Tot"))
        // Dev settles it; after the next merge nobody shows a conflict.
        try homes[3].ok(["score", game, "Dev", "5", "7"])
        try Self.merge(homes)
        #expect(try Set(homes.map { try $0.stateHash() }).count == 1)
        let settled = try #require(try homes[1].ok(["card", game, "--json"]).json() as? [String: Any])
        #expect((settled["conflicts"] as? [Any])?.isEmpty == true)
        let history = try #require(try homes[0].ok(["history", game, "Dev", "5", "--json"]).json() as? [[String: Any]])
        #expect(history.count >= 3)
        #expect(history.filter { $0["standing"] as? Bool == true }.count == 1)
        // The audit trail names who entered what and verifies it.
        let log = try #require(try homes[0].ok(["log", "--game", game, "--json"]).json() as? [[String: Any]])
        #expect(log.contains { ($0["user"] as? String) == "Cleo" && ($0["change"] as? String)?.contains("hole 5: 8") == true })
        #expect(log.allSatisfy { $0["verified"] as? Bool == true })
        try homes[0].ok(["verify"])
        try homes[2].ok(["attest", game, "Ana"])
        try homes[0].ok(["game", "finish", game])
        try homes[0].fails(["score", game, "Ana", "1", "4"], saying: "finished")
    }

    @Test("verify names the op whose byte was flipped inside the SQLite file, and exits non-zero")
    func verifyCatchesFlippedByte() throws {
        let home = try CLI(name: "flip")
        defer { home.remove() }
        try home.ok(["login", "--name", "Ana"])
        try home.ok(["space", "create", "Solo"])
        let player = try home.ok(["player", "add", "Ana", "--json"]).field("player")
        try home.ok(["player", "add", "Zed"])
        let path = home.home.appendingPathComponent("caddie.sqlite").path
        // The player's name is inside the op that added it: flip one byte of it in the file.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array("Zed".utf8)
        let offsets = (0...(bytes.count - needle.count)).filter { Array(bytes[$0..<($0 + needle.count)]) == needle }
        #expect(!offsets.isEmpty)
        for offset in offsets { bytes[offset] ^= 0x20 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try home.run(["verify", "--json"])
        #expect(result.status == 1)
        let report = try #require(try result.json() as? [String: Any])
        let failures = try #require(report["failures"] as? [[String: Any]])
        #expect(failures.contains { ($0["seq"] as? Int) == 4 && ($0["reason"] as? String)?.contains("signature") == true })
        #expect(!failures.contains { ($0["seq"] as? Int) == 3 })
        _ = player
    }

    @Test("--home works before and after the subcommand")
    func homeAnywhere() throws {
        let home = try CLI(name: "where")
        defer { home.remove() }
        try home.ok(["login", "--name", "Ana"])
        let after = try home.run(["whoami", "--json"])
        let before = try home.run(["whoami", "--json"], homeFirst: true)
        #expect(after.status == 0 && before.status == 0)
        #expect(after.stdout == before.stdout)
        #expect(try after.field("name") == "Ana")
    }
}
