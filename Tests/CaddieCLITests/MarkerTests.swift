import Foundation
import Testing

/// Who marks whom: set when a game is made or later, synced as fields of the game, refused when it makes no sense.
@Suite("who marks whom in a game", .serialized)
struct MarkerTests {
    static func markers(_ cli: CLI, _ game: String) throws -> [String: String] {
        let card = try #require(try cli.ok(["card", game, "--json"]).json() as? [String: Any])
        let pairs = try #require(card["markers"] as? [[String: String]])
        return Dictionary(
            uniqueKeysWithValues: pairs.compactMap { pair in pair["player"].flatMap { p in pair["marker"].map { (p, $0) } } })
    }

    @Test("game new --markers and game marker record markers that reach the other devices; bad pairs change nothing")
    func markers() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        #expect(try Self.markers(ana, game).isEmpty)
        try ana.ok(["game", "marker", game, "Ben", "Ana"])
        try homes[1].ok(["game", "marker", game, "Ana", "Ben"])
        try RoundTests.merge(Array(homes.prefix(2)))
        let merged = try Self.markers(homes[1], game)
        #expect(merged == [players[1]: players[0], players[0]: players[1]])
        #expect(try Self.markers(ana, game) == merged)

        let before = try ana.stateHash()
        try ana.fails(["game", "marker", game, "Ben", "Ben"], saying: "cannot mark their own card")
        try ana.ok(["player", "add", "Eve"])
        let withEve = try ana.stateHash()
        try ana.fails(["game", "marker", game, "Ben", "Eve"], saying: "Eve is not playing in this game")
        try ana.fails(
            ["game", "new", "--course", "Haagsche", "--tee", "1", "--players", "Ana,Ben", "--markers", "Ben"],
            saying: "PLAYER:MARKER")
        try ana.fails(
            ["game", "new", "--course", "Haagsche", "--tee", "1", "--players", "Ana,Ben", "--markers", "Ben:Ana,Ben:Ana"],
            saying: "two markers")
        #expect(try ana.stateHash() == withEve)
        #expect(withEve != before)
        let second = try ana.ok([
            "game", "new", "--course", "Haagsche", "--tee", "1", "--players", "Ana,Ben,Cleo",
            "--markers", "Ana:Cleo,Cleo:Ben", "--json",
        ]).field("game")
        #expect(try Self.markers(ana, second) == [players[0]: players[2], players[2]: players[1]])
    }

    @Test("a mistyped player or tee is refused before the passphrase is asked for, and nothing changes")
    func typoBeforePassphrase() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let before = try ana.stateHash()
        // No CADDIE_PASSPHRASE and no terminal: a command that asked for the passphrase first would fail saying so.
        for arguments in [
            ["attest", game, "Zoe"],
            ["game", "marker", game, "Zoe", "Ana"],
            ["game", "new", "--course", "Haagsche", "--tee", "1", "--players", "Ana,Zoe"],
            ["game", "setup", game, "--teams", "Ana+Zoe,Ben+Cleo"],
        ] {
            let result = try ana.fails(arguments, passphrase: .some(nil), saying: "no player 'Zoe'")
            #expect(!result.stderr.contains("CADDIE_PASSPHRASE"), "\(arguments): \(result.stderr)")
        }
        let edit = try ana.fails(["player", "edit", "Zoe", "--name", "Zed"], passphrase: .some(nil), saying: "no player 'Zoe'")
        #expect(!edit.stderr.contains("CADDIE_PASSPHRASE"))
        for arguments in [
            ["game", "new", "--course", "Haagsche", "--tee", "Purple", "--players", "Ana"],
            ["game", "new", "--course", "Haagsche", "--tee", "1", "--players", "Ana", "--player-tee", "Ana=Purple"],
            ["game", "setup", game, "--tee", "Purple"],
            ["game", "setup", game, "--player-tee", "Ben=Purple"],
        ] {
            let result = try ana.fails(arguments, passphrase: .some(nil), saying: "has no tee 'Purple'")
            #expect(!result.stderr.contains("CADDIE_PASSPHRASE"), "\(arguments): \(result.stderr)")
        }
        #expect(try ana.stateHash() == before)
    }
}
