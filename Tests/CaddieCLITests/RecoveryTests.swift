import CaddieCrypto
import Foundation
import Testing

@Suite("caddie CLI: a lost phone, brought back from its recovery phrase", .serialized)
struct RecoveryTests {
    static func write(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-phrase-\(UUID().uuidString)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("login shows 24 numbered words, and recovery-phrase shows the same ones again")
    func loginShowsThePhrase() throws {
        let eve = try CLI(name: "Eve")
        defer { eve.remove() }
        let login = try eve.ok(["login", "--name", "Eve"])
        let words = try #require(try eve.ok(["recovery-phrase", "--json"]).json() as? [String: Any])["words"] as? [String]
        #expect(words?.count == 24)
        for (index, word) in (words ?? []).enumerated() {
            #expect(
                login.stdout.contains("\(index + 1). \(word)") || login.stdout.contains("\(index + 1).  \(word)"),
                "word \(index + 1) in: \(login.stdout)")
        }
        #expect(login.stdout.contains("Write these 24 words down"))
        // Shown again, on the first device only; a wrong passphrase shows nothing.
        let again = try eve.ok(["recovery-phrase"])
        #expect(again.stdout.contains("24. \(words?.last ?? "?")"))
        let refused = try eve.fails(["recovery-phrase"], passphrase: "not the passphrase", saying: "wrong passphrase")
        #expect(!refused.stdout.contains(words?.first ?? "?"))
    }

    @Test("a user whose only phone is lost comes back from the 24 words; the first sync revokes the lost phone")
    func lostPhone() throws {
        let ana = try CLI(name: "Ana")
        let ben = try CLI(name: "Ben")
        let newPhone = try CLI(name: "Ana-new")
        defer { [ana, ben, newPhone].forEach { $0.remove() } }
        try ana.ok(["login", "--name", "Ana"])
        try ben.ok(["login", "--name", "Ben"])
        let invite = try ana.createSpace("Saturday").field("invite")
        try ben.ok(["space", "join", invite])
        let player = try ana.ok(["player", "add", "Ana", "--index", "12", "--json"]).field("player")
        let course = try ana.ok(["course", "import", RoundTests.course, "--json"]).field("course")
        let game = try ana.ok(["game", "new", "--course", course, "--tee", "1", "--players", player, "--json"]).field("game")
        for hole in 1...3 { try ana.ok(["score", game, "Ana", "\(hole)", "\(hole + 3)"]) }
        let user = try ana.ok(["whoami", "--json"]).field("user")
        let lostDevice = try ana.ok(["whoami", "--json"]).field("device")
        let words = try #require(try ana.ok(["recovery-phrase", "--json"]).json() as? [String: Any])["words"] as? [String]
        let phrase = try #require(words).joined(separator: " ")

        let node = try NodeProcess(ben)
        defer { node.stop() }
        try ana.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])

        // The phone is lost. A mistyped phrase is refused with what is wrong, and leaves the new home empty.
        // (The last word's low 8 bits are the checksum: its neighbour in the list keeps the key and breaks the sum.)
        var mistaken = try #require(words)
        mistaken[23] = RecoveryPhrase.words[(RecoveryPhrase.words.firstIndex(of: mistaken[23]) ?? 0) ^ 1]
        let wrong = try Self.write(mistaken.joined(separator: " "))
        defer { try? FileManager.default.removeItem(at: wrong) }
        try newPhone.fails(["login", "--recover", "--name", "Ana", "--phrase-file", wrong.path], saying: "two are swapped")
        var typo = try #require(words)
        typo[7] += "x"
        let typoFile = try Self.write(typo.joined(separator: " "))
        defer { try? FileManager.default.removeItem(at: typoFile) }
        try newPhone.fails(
            ["login", "--recover", "--name", "Ana", "--phrase-file", typoFile.path],
            saying: "word 8, '\(typo[7])', is not on the recovery word list")
        // Said with what is missing, not what is not wanted.
        try newPhone.fails(["login", "--recover", "--phrase-file", wrong.path], saying: "--recover needs --name NAME")
        try newPhone.fails(
            ["login", "--recover", "--name", "Ana", "--device-code", "CADDIEPAIR1X"], saying: "give one of them")
        // "Nothing was changed" holds: no file was written where the new home was to be.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: newPhone.home.path)) ?? []
        #expect(left.isEmpty, "a refused phrase leaves the new home empty: \(left)")
        try newPhone.fails(["whoami"], saying: "no identity")

        // The right words, written as people write them down, bring the same user back with a new device key.
        let written = try Self.write(try #require(words).enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(at: written) }
        let recovered = try newPhone.ok(["login", "--recover", "--name", "Ana", "--phrase-file", written.path, "--json"])
        #expect(try recovered.field("user") == user)
        #expect(try recovered.field("device") != lostDevice)
        #expect(try newPhone.ok(["recovery-phrase", "--json"]).json() as? [String: [String]] == ["words": try #require(words)])

        // Nothing to revoke until it knows the group's log; the first sync revokes the lost phone and tells the peer.
        #expect(try newPhone.ok(["device", "revoke", "--lost"]).stdout.contains("Nothing to revoke"))
        try newPhone.ok(["space", "join", invite])
        let synced = try #require(
            try newPhone.ok(["sync", "--peer", "127.0.0.1:\(node.port)", "--json"]).json() as? [String: Any])
        #expect(synced["revokedLostDevices"] as? [String] == [lostDevice])

        // The lost phone (say, in a thief's hands) is refused by Ben's node; its scores from before stay.
        try ana.ok(["score", game, "Ana", "4", "9"])
        let refused = try ana.run(["sync", "--peer", "127.0.0.1:\(node.port)"])
        #expect(refused.status != 0 && refused.stderr.contains("revoked"), "the lost phone was not refused: \(refused.stderr)")
        for home in [newPhone, ben] {
            let card = try #require(try home.ok(["card", game, "--json"]).json() as? [String: Any])
            let cells = ((card["players"] as? [[String: Any]])?.first?["cells"] as? [[String: Any]]) ?? []
            let strokes = Dictionary(
                uniqueKeysWithValues: cells.compactMap { cell -> (Int, Int)? in
                    guard let hole = cell["hole"] as? Int, let value = cell["strokes"] as? Int else { return nil }
                    return (hole, value)
                })
            #expect(
                strokes == [1: 4, 2: 5, 3: 6], "the lost phone's scores before the loss stay, its later one does not: \(strokes)")
        }
        // A second run has nothing left to revoke; a home that was never recovered has no --lost.
        #expect(try newPhone.ok(["device", "revoke", "--lost"]).stdout.contains("Nothing to revoke"))
        try ben.fails(["device", "revoke", "--lost"], saying: "is for a home made with `caddie login --recover`")

        // The same words under the same name say nothing of names.
        #expect(!(try newPhone.ok(["sync", "--peer", "127.0.0.1:\(node.port)"]).stdout.contains("known as")))
        // The words brought back under another name: the phrase cannot tell, but the group's log can, and the
        // first sync says how the space knows this user.
        let zed = try CLI(name: "recovery-zed")
        defer { zed.remove() }
        try zed.ok(["login", "--recover", "--name", "Zed", "--phrase-file", written.path])
        try zed.ok(["space", "join", invite])
        let told = try zed.ok(["sync", "--peer", "127.0.0.1:\(node.port)"]).stdout
        #expect(
            told.contains("your user is known as Ana, and this device calls you Zed")
                && told.contains("--name Ana"), "\(told)")
    }
}
