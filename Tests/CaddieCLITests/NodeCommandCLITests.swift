import Foundation
import Testing

/// Commands in, end to end: with a node running, `caddie score`, `game finish`, `game reopen`, `attest`,
/// `game add-player`, `player add` and `game new` are run by the node with its own keys, so no passphrase is asked; with none running the
/// command asks for it. A refusal keeps its kind: the CLI names the command to type, the API the request.
@Suite("commands run by the running node", .serialized)
struct NodeCommandCLITests {
    @Test("with a node running no passphrase is needed; a finished game refuses in each edge's words")
    func noPassphraseThroughTheNode() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, game) = (served.homes[0], served.game)
        let none: String?? = .some(nil)
        // The node signs: the command never opened the keys (no CADDIE_PASSPHRASE in its environment).
        let scored = try ana.run(["score", game, "Ana", "3", "5", "--putts", "2", "--json"], passphrase: none)
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(try Self.strokes(ana, game, "Ana", hole: 3) == 5)
        let device = try #require(try ana.ok(["whoami", "--json"]).json() as? [String: Any])["device"] as? String
        #expect(scored.stdout.contains(String(try #require(device).prefix(16))), "the op is this device's: \(scored.stdout)")
        // The roster and the attestation go the same way; the attestation's card hash comes back over the socket.
        #expect(try ana.run(["game", "remove-player", game, "Dev"], passphrase: none).status == 0)
        try ana.fails(["game", "remove-player", game, "Dev"], passphrase: none, saying: "is not on the roster")
        #expect(try ana.run(["game", "add-player", game, "Dev"], passphrase: none).status == 0)
        let attested = try ana.run(["attest", game, "Ben"], passphrase: none)
        #expect(attested.status == 0 && attested.stdout.contains("Attested Ben's card ("), "\(attested.stdout)\(attested.stderr)")
        #expect(try ana.run(["game", "finish", game], passphrase: none).status == 0)
        // A finished game: a conflict, with the command to type at the CLI ...
        let refused = try ana.fails(
            ["score", game, "Ana", "4", "4"], passphrase: none, saying: "is finished: reopen it with `caddie game reopen")
        #expect(!refused.stderr.contains("passphrase"))
        // ... and the request to make in the API, never a command to type.
        let players = try served.api.get("/v1/spaces/\(served.space)/players").array()
        let anaID = try #require(players.first { $0["name"] as? String == "Ana" }?["player"] as? String)
        let api = try served.api.post(
            "/v1/spaces/\(served.space)/games/\(game)/scores", #"{"player":"\#(anaID)","hole":4,"strokes":4}"#)
        #expect(api.status == 409)
        let message = try api.object()["message"] as? String ?? ""
        #expect(message.contains("reopen the game to change a score") && !message.contains("caddie"), "\(message)")
        #expect(try ana.run(["game", "reopen", game], passphrase: none).status == 0)
        #expect(try ana.run(["score", game, "Ana", "4", "4"], passphrase: none).status == 0)

        // A new player and a new game go the same way, with the setup the node checks.
        let eve = try ana.run(["player", "add", "Eve", "--index", "9.4", "--json"], passphrase: none)
        #expect(eve.status == 0, "\(eve.stderr)")
        let eveID = try eve.field("player")
        try ana.fails(["player", "add", "eve"], passphrase: none, saying: "already in this space")
        let course = try #require(
            (try ana.ok(["course", "list", "--json"]).json() as? [[String: Any]])?.first?["course"] as? String)
        let started = try ana.run(
            [
                "game", "new", "--course", course, "--tee", "1", "--players", "Eve,Ana", "--markers", "Eve:Ana",
                "--holes", "9", "--formats", "match", "--json",
            ], passphrase: none)
        #expect(started.status == 0, "\(started.stderr)")
        let second = try started.field("game")
        let games = try #require(try ana.ok(["game", "list", "--json"]).json() as? [[String: Any]])
        let made = try #require(games.first { $0["game"] as? String == second })
        #expect(made["holesPlayed"] as? Int == 9 && made["formats"] as? [String] == ["match"], "\(made)")
        let markers = made["markers"] as? [[String: String]] ?? []
        #expect(markers == [["player": eveID, "marker": anaID]], "\(made)")
        try ana.fails(
            ["game", "new", "--course", course, "--tee", "1", "--players", "Eve", "--holes", "7"], passphrase: none,
            saying: "--holes must be 9 or 18")
        // The game's setup and a player's correction too.
        #expect(
            try ana.run(["game", "setup", second, "--formats", "stroke,skins", "--stake", "2"], passphrase: none).status == 0)
        let setUp = try #require(
            (try ana.ok(["game", "list", "--json"]).json() as? [[String: Any]])?.first { $0["game"] as? String == second })
        #expect(setUp["formats"] as? [String] == ["stroke", "skins"] && setUp["stake"] as? Double == 2, "\(setUp)")
        let edited = try ana.run(["player", "edit", "Eve", "--index", "8.1", "--json"], passphrase: none)
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect((try edited.json() as? [String: Any])?["index"] as? Double == 8.1, "\(edited.stdout)")
        try ana.fails(["player", "edit", "Eve", "--index", "60"], passphrase: none, saying: "a Handicap Index must be between")
        #expect(try ana.run(["game", "marker", second, "Ana", "Eve"], passphrase: none).status == 0)
        try ana.fails(["game", "marker", second, "Ana", "Ana"], passphrase: none, saying: "cannot mark their own card")
        // A course file is read by the command and merged by the node; a file that does not read changes nothing.
        let imported = try ana.run(["course", "import", RoundTests.course, "--json"], passphrase: none)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect((try imported.json() as? [String: Any])?["merged"] as? Bool == true, "the space had it: \(imported.stdout)")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json")
        try Data(#"{"name": "Nowhere", "holes": []}"#.utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let coursesBefore = try ana.ok(["course", "list", "--json"]).stdout
        #expect(try ana.run(["course", "import", broken.path], passphrase: none).status != 0)
        #expect(try ana.ok(["course", "list", "--json"]).stdout == coursesBefore)
        // A device revoked: the node checks whose it is (Ben's is not Ana's to revoke), and the key as typed is checked
        // first.
        let bens = try served.homes[1].ok(["whoami", "--json"]).field("device")
        try ana.fails(["device", "revoke", bens], passphrase: none, saying: "belongs to another user (Ben)")
        try ana.fails(
            ["device", "revoke", String(bens.prefix(20))], passphrase: none, saying: "the device key takes the device's full key")
        // A game deleted and restored: the refusal of a game with scores keeps its CLI words.
        try ana.fails(["game", "delete", game], passphrase: none, saying: "delete it with --force")
        #expect(try ana.run(["game", "delete", second], passphrase: none).status == 0)
        #expect(try !ana.ok(["game", "list"]).stdout.contains(second))
        try ana.fails(["game", "delete", second], passphrase: none, saying: "is already deleted")
        #expect(try ana.run(["game", "restore", second], passphrase: none).status == 0)
        #expect(try ana.ok(["game", "list"]).stdout.contains(second))

        // A position marked; an invite made, listed and revoked; a member removed and the key rotated: all by the node.
        let marked = try ana.run(
            ["track", "mark", game, "Ana", "--lat", "36.5683", "--lon", "-121.9497", "--json"], passphrase: none)
        #expect(marked.status == 0, "\(marked.stderr)")
        try ana.fails(["space", "invite", "--uses", "0"], passphrase: none, saying: "--uses must be 1...100")
        let invite = try ana.run(["space", "invite", "--uses", "2", "--json"], passphrase: none)
        #expect(invite.status == 0, "\(invite.stderr)")
        let inviteID = try invite.field("id")
        #expect(try invite.field("invite").hasPrefix("CADDIE2"))
        #expect(try ana.ok(["space", "invite", "list"]).stdout.contains(inviteID))
        #expect(try ana.run(["space", "invite", "revoke", String(inviteID.prefix(6))], passphrase: none).status == 0)
        #expect(try ana.ok(["space", "invite", "list"]).stdout.contains("revoked"))
        let shared = try ana.run(["space", "invite", "--shared-key", "--json"], passphrase: none)
        #expect(try shared.field("invite").hasPrefix("CADDIE1"), "\(shared.stderr)")
        let removed = try ana.run(["space", "remove", "Dev", "--json"], passphrase: none)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect((try removed.json() as? [String: Any])?["epoch"] as? Int == 1, "\(removed.stdout)")
        let rotated = try ana.run(["space", "rotate", "--json"], passphrase: none)
        #expect((try rotated.json() as? [String: Any])?["epoch"] as? Int == 2, "\(rotated.stdout)\(rotated.stderr)")
        try ana.fails(
            ["space", "invite", "--shared-key"], passphrase: none, saying: "a shared-key code cannot carry its earlier keys")

        // A bundle is read and merged by the node, by the file's absolute path (the command passes it on).
        let ben = served.homes[1]
        try ben.ok(["player", "add", "Gus"])
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("ben-\(UUID().uuidString).bundle")
        defer { try? FileManager.default.removeItem(at: bundle) }
        try ben.ok(["export", "--out", bundle.path])
        let merged = try ana.run(["import", bundle.path, "--json"], passphrase: none)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect((try merged.json() as? [String: Any])?["applied"] as? Int ?? 0 >= 1, "\(merged.stdout)")
        #expect(try ana.ok(["player", "list"]).stdout.contains("Gus"))
        try ana.fails(["import", "/nonexistent/ben.bundle"], passphrase: none, saying: "cannot read /nonexistent/ben.bundle")
        // `caddie sync` is run by the node too: it dials Ben's node with its own keys.
        try ben.ok(["player", "add", "Hal"])
        let benNode = try NodeProcess(ben)
        defer { benNode.stop() }
        let synced = try ana.run(["sync", "--peer", "127.0.0.1:\(benNode.port)", "--json"], passphrase: none)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try synced.field("stateHash") == (try ben.stateHash()))
        #expect(try ana.ok(["player", "list"]).stdout.contains("Hal"))
        try ana.fails(["sync", "--peer", "127.0.0.1:1"], passphrase: none, saying: "nothing listens on that port")

        // With the node stopped, the same command must open the keys itself.
        served.node.stop()
        try ana.fails(["score", game, "Ana", "5", "4"], passphrase: none, saying: "CADDIE_PASSPHRASE")
        try ana.ok(["score", game, "Ana", "5", "4"])
        try ana.fails(["player", "add", "Fay"], passphrase: none, saying: "CADDIE_PASSPHRASE")
    }

    /// The strokes a player's cell shows, from `caddie card --json`.
    static func strokes(_ home: CLI, _ game: String, _ name: String, hole: Int) throws -> Int? {
        let card = try #require(try home.ok(["card", game, "--json"]).json() as? [String: Any])
        let players = try #require(card["players"] as? [[String: Any]])
        let cells = players.first { $0["name"] as? String == name }?["cells"] as? [[String: Any]] ?? []
        return cells.first { $0["hole"] as? Int == hole }?["strokes"] as? Int
    }
}
