import CaddieCrypto
import Foundation
import Testing

@Suite("caddie CLI: bad input changes nothing", .serialized)
struct BadInputTests {
    /// A home with a space, two players, the example course and a game.
    static func home() throws -> (CLI, String) {
        let cli = try CLI(name: "bad")
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Club"])
        try cli.ok(["player", "add", "Ana"])
        try cli.ok(["player", "add", "Ben"])
        let course = try cli.ok(["course", "import", RoundTests.course, "--json"]).field("course")
        let game = try cli.ok(["game", "new", "--course", course, "--tee", "1", "--players", "Ana,Ben", "--json"]).field("game")
        return (cli, game)
    }

    @Test("each bad command gets one clear line, a non-zero exit, and the state hash does not move")
    func refusals() throws {
        let (cli, game) = try Self.home()
        defer { cli.remove() }
        let before = try cli.stateHash()
        let garbage = cli.home.appendingPathComponent("garbage.bundle")
        try Data("not a bundle".utf8).write(to: garbage)
        let cases: [([String], String?, String)] = [
            (["score", game, "Ana", "1", "5"], "wrong passphrase", "wrong passphrase"),
            (["score", "ffff0000", "Ana", "1", "5"], nil, "no game"),
            (["score", game, "Zoe", "1", "5"], nil, "no player 'Zoe' in this space: see `caddie player list`"),
            (["score", game, "Ana", "19", "5"], nil, "hole 19"),
            (["score", game, "Ana", "1", "31"], nil, "strokes must be between 1 and 30"),
            (["score", game, "Ana", "1", "0"], nil, "strokes must be between 1 and 30"),
            (["score", game, "Ana", "1", "4", "--putts", "6"], nil, "putts"),
            (["score", game, "Ana", "1", "x"], nil, "must be a number of strokes (1...30) or pickup (P)"),
            (["score", game, "Ana", "1", "pickup", "--putts", "1"], nil, "cannot be given with a pick-up"),
            (["import", garbage.path], nil, "not a Caddie op bundle"),
            (["import", "/nonexistent/file"], nil, "cannot read"),
            (["course", "import", garbage.path], nil, "not valid JSON"),
            (["game", "new", "--course", "Haagsche 18 holes", "--tee", "Blue", "--players", "Ana"], nil, "no tee"),
            (["export", "--out", "/tmp/x.bundle", "--since", "nonsense"], nil, "version vector"),
            (["space", "join", "CADDIE1AAAA"], nil, "invite"),
            (["space", "join", "CADDIE2AAAA"], nil, "invite"),
            (["space", "invite", "--uses", "0"], nil, "--uses must be 1...100"),
            (["space", "invite", "--expires", "soon"], nil, "not a duration"),
            (["space", "invite", "--expires", "31d"], nil, "--expires must be at most 30 days"),
            (["space", "invite", "revoke", "ffff"], nil, "no invite made here"),
            (["login", "--name", "Again"], nil, "already holds"),
        ]
        for (arguments, passphrase, message) in cases {
            let result = try cli.fails(arguments, passphrase: passphrase.map { .some($0) } ?? nil, saying: message)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try cli.stateHash() == before)
    }

    @Test("a truncated or tampered bundle is refused whole and imports nothing")
    func badBundles() throws {
        let (source, _) = try Self.home()
        defer { source.remove() }
        let target = try CLI(name: "target")
        defer { target.remove() }
        try target.ok(["login", "--name", "Ben"])
        let invite = try source.createSpace("Second").field("invite")
        try target.ok(["space", "join", invite])
        try source.ok(["player", "add", "Cleo", "--space", "Second"])
        let bundle = source.home.appendingPathComponent("second.bundle")
        try source.ok(["export", "--space", "Second", "--out", bundle.path])
        let bytes = try Data(contentsOf: bundle)
        let before = try target.stateHash()
        let truncated = source.home.appendingPathComponent("truncated.bundle")
        try bytes.prefix(bytes.count - 7).write(to: truncated)
        try target.fails(["import", truncated.path], saying: "truncated or damaged")
        // A damaged byte with the checksum left as it was: refused before any op is looked at.
        var damaged = [UInt8](bytes)
        damaged[damaged.count - 40] ^= 1
        let damagedURL = source.home.appendingPathComponent("damaged.bundle")
        try Data(damaged).write(to: damagedURL)
        try target.fails(["import", damagedURL.path], saying: "truncated or damaged")
        // The same damage with the checksum recomputed, as a forger would: op verification refuses it.
        var forged = Array(damaged.dropLast(32))
        forged += Blake2b.hash(forged).bytes
        let forgedURL = source.home.appendingPathComponent("forged.bundle")
        try Data(forged).write(to: forgedURL)
        try target.fails(["import", forgedURL.path], saying: "signature does not verify")
        #expect(try target.stateHash() == before)
        try target.ok(["import", bundle.path])
        #expect(try target.ok(["player", "list", "--json"]).stdout.contains("Cleo"))
        let back = target.home.appendingPathComponent("back.bundle")
        try target.ok(["export", "--out", back.path])
        try source.ok(["import", back.path])
        #expect(try target.stateHash() == source.ok(["state-hash", "--json", "--space", "Second"]).field("stateHash"))
    }

    @Test("a home with several spaces asks which one")
    func ambiguousSpace() throws {
        let (cli, _) = try Self.home()
        defer { cli.remove() }
        try cli.ok(["space", "create", "Other"])
        try cli.fails(["player", "list"], saying: "--space")
        try cli.ok(["player", "list", "--space", "Other"])
    }

    @Test("commands that need keys say how to give the passphrase when none is set")
    func noPassphrase() throws {
        let cli = try CLI(name: "nopass")
        defer { cli.remove() }
        try cli.fails(["login", "--name", "Ana"], passphrase: .some(nil), saying: "CADDIE_PASSPHRASE")
        try cli.fails(["whoami"], saying: "caddie login")
    }

    @Test("a truncated invite or device code is told it is incomplete, and by how much; a mistyped one that it is mistyped")
    func truncatedCodes() throws {
        let ana = try CLI(name: "codes-ana")
        let ben = try CLI(name: "codes-ben")
        defer {
            ana.remove()
            ben.remove()
        }
        try ana.ok(["login", "--name", "Ana"])
        try ben.ok(["login", "--name", "Ben"])
        try ana.ok(["space", "create", "Club"])
        let invite = try ana.ok(["space", "invite", "--json"]).field("invite")
        #expect(invite.hasPrefix("CADDIE2"))
        let quarter = invite.dropLast((invite.count - "CADDIE2".count) / 4)
        try ben.fails(["space", "join", String(quarter)], saying: "the invite code is incomplete: at least")
        try ben.fails(["space", "join", String(invite.dropLast(1)) + "1"], saying: "the invite code is mistyped")
        try ben.fails(["space", "join", "HELLO" + invite], saying: "that is not a Caddie invite code")
        #expect((try ben.ok(["space", "list", "--json"]).json() as? [Any])?.isEmpty == true, "nothing was joined")

        // A device that is not there: why, in words, never the text of the network library's errors.
        let closed = try SyncTests.freePort()
        let join = try ben.fails(
            ["space", "join", invite, "--peer", "127.0.0.1:\(closed)"],
            saying: "cannot reach Ana's device at 127.0.0.1:\(closed): connection refused (nothing listens on that port")
        let sync = try ana.fails(
            ["sync", "--peer", "127.0.0.1:\(closed)"],
            saying: "cannot reach the peer: 127.0.0.1:\(closed): connection refused (nothing listens on that port")
        for result in [join, sync] {
            #expect(!result.stderr.contains("Connection") && !result.stderr.contains("errno"), "\(result.stderr)")
        }
        #expect((try ben.ok(["space", "list", "--json"]).json() as? [Any])?.isEmpty == true, "nothing was joined")

        let (add, code) = try DeviceTests.startAdd(ana)
        defer {
            add.terminate()
            add.waitUntilExit()
        }
        #expect(code.hasPrefix("CADDIEPAIR1"))
        let tablet = try CLI(name: "codes-tablet")
        defer { tablet.remove() }
        try tablet.fails(
            ["login", "--device-code", String(code.dropLast(3))],
            saying: "the device code is incomplete: 3 characters are missing at its end")
        try tablet.fails(["login", "--device-code", code + "AB"], saying: "the device code is 2 characters too long")
        #expect(!FileManager.default.fileExists(atPath: tablet.home.appendingPathComponent("identity.json").path))
    }
}
