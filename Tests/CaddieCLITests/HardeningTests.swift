import Foundation
import Testing

/// Findings of the security review that are fixed so far (docs/security.md): a home others can read, names that
/// carry terminal escape sequences, and a node that dials itself.
@Suite("hardening", .serialized)
struct HardeningTests {
    static func mode(_ path: String) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test("a home that existed with mode 0755 becomes 0700, and its database is 0600")
    func ownerOnly() throws {
        let cli = try CLI(name: "modes")
        defer { cli.remove() }
        try FileManager.default.createDirectory(
            at: cli.home, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Saturday"])
        #expect(try Self.mode(cli.home.path) == 0o700)
        #expect(try Self.mode(cli.home.appendingPathComponent("caddie.sqlite").path) == 0o600)
        // SQLite removes the -wal and -shm files when the last connection closes, so after a command they are
        // usually gone: a running node holds the database open, and with it both files.
        let node = try NodeProcess(cli)
        defer { node.stop() }
        let paths = ["-wal", "-shm"].map { cli.home.appendingPathComponent("caddie.sqlite" + $0).path }
        try #require(
            eventually(within: 60) { paths.allSatisfy { FileManager.default.fileExists(atPath: $0) } },
            "the node runs without a -wal and a -shm file")
        for path in paths { #expect(try Self.mode(path) & 0o077 == 0, "\(path)") }
    }

    @Test("a new home refuses a passphrase shorter than 8 characters and keeps no identity")
    func passphraseLength() throws {
        let cli = try CLI(name: "short")
        defer { cli.remove() }
        for short in ["x", "1234567"] {
            try cli.fails(["login", "--name", "Ana"], passphrase: .some(short), saying: "at least 8 characters")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("identity.json").path))
        try cli.run(["login", "--name", "Ana"], passphrase: .some("12345678"))
        #expect(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("identity.json").path))
    }

    @Test("names with terminal escape sequences, from this home or from a peer, print without them")
    func escapes() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let hostile = "Eve\u{1B}]0;owned\u{07}\u{1B}[2J"
        try homes[1].ok(["player", "add", hostile])
        try RoundTests.merge(Array(homes.prefix(2)))
        let listed = try homes[0].ok(["player", "list"]).stdout
        #expect(listed.contains("Eve"))
        #expect(!listed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "escape sequences reached the terminal")
        #expect(listed.contains("Eve?]0;owned??[2J"))
        // JSON keeps the name exactly, escaped by the encoder.
        let json = try #require(try homes[0].ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(json.contains { $0["name"] as? String == hostile })
    }

    @Test("a name with a newline or bidi controls cannot forge a line of caddie log (second review)")
    func forgedLogLines() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let before = try homes[0].ok(["log"]).stdout.split(separator: "\n").count
        // A line that would read as Ana's entry, and a right-to-left override that would reverse what follows.
        let forged = "Zed\n09:00  Ana  0a1b2c3d:9  ok  added Ana"
        try homes[1].ok(["player", "add", forged])
        try homes[1].ok(["player", "add", "Yan\u{202E}kram"])
        try RoundTests.merge(Array(homes.prefix(2)))
        let log = try homes[0].ok(["log"]).stdout
        let lines = log.split(separator: "\n")
        #expect(lines.count == before + 2, "two new ops, two new lines: \(lines.suffix(3))")
        #expect(log.contains("Zed\\n09:00  Ana"), "the newline is shown as \\n")
        #expect(!log.unicodeScalars.contains { $0.value == 0x202E } && log.contains("Yan?kram"))
        // JSON keeps both names exactly.
        let players = try #require(try homes[0].ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(players.contains { $0["name"] as? String == forged })
    }

    @Test("a node given its own address as a peer refuses to sync with itself and does not hammer it")
    func notWithItself() throws {
        let cli = try CLI(name: "self")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Saturday"])
        let port = Int.random(in: 30_000...45_000)
        let node = try NodeProcess(cli, port: port, peers: [port], http: true)
        defer { node.stop() }
        Thread.sleep(forTimeInterval: 3)
        let api = HTTPClient(port: node.httpPort, token: try APITests.token(cli))
        let status = try api.get("/v1/sync").object()
        #expect((status["sessions"] as? [Any])?.isEmpty == true, "the node holds a session with itself: \(status)")
    }
}
