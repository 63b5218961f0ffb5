import Foundation
import Testing

/// Homes written by earlier versions of `caddie`, kept in Tests/CaddieCLITests/Fixtures (each made by
/// Fixtures/make-home.sh with the binary of its version, which records what that version showed of it): today's
/// `caddie` opens each, migrates it, verifies it, shows the same card, standings and audit, and writes to it. A
/// migration adds the fixture of the version before it.
@Suite("a home from an earlier version opens, migrates and shows what it showed", .serialized)
struct UpgradeTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/CaddieCLITests/Fixtures")

    @Test("schema v10 (before the fork-branch acknowledgements were kept): opened, migrated, the same card, standings and log")
    func fromV10() throws {
        let version = Self.fixtures.appendingPathComponent("v10")
        let ana = try CLI(name: "upgrade-v10")
        defer { ana.remove() }
        try FileManager.default.copyItem(at: version.appendingPathComponent("ana"), to: ana.home)
        func recorded(_ name: String) throws -> String {
            try String(contentsOf: version.appendingPathComponent(name), encoding: .utf8)
        }
        let game = try recorded("game.txt").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try ana.ok(["verify"]).stdout == (try recorded("verify.txt")))
        #expect(try ana.ok(["card", game]).stdout == (try recorded("card.txt")))
        // What changed on purpose since v10: a tie is named as a tie (v10 said "Ana leads" with Cleo level).
        let standings = try recorded("standings.json").replacingOccurrences(
            of: "\"Ana leads, +1 after 1 hole\"", with: "\"Ana and Cleo share the lead, +1 after 1 hole\"")
        #expect(try ana.ok(["standings", game, "--json"]).stdout == standings)
        #expect(try ana.ok(["log", "--game", game]).stdout == (try recorded("log.txt")))
        // The migration ran: the home takes a new entry and still verifies.
        try ana.ok(["score", game, "Dev", "2", "5"])
        #expect(try ana.ok(["verify"]).stdout.contains("20 ops checked, 0 failures"))
        let migrations = Process()
        migrations.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        migrations.arguments = [
            "python3", "-c",
            "import sqlite3, sys; print([r[0][:3] for r in sqlite3.connect(sys.argv[1]).execute('SELECT identifier FROM grdb_migrations')])",
            ana.home.appendingPathComponent("caddie.sqlite").path,
        ]
        let out = Pipe()
        migrations.standardOutput = out
        try migrations.run()
        migrations.waitUntilExit()
        let applied = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(applied.contains("'v11'"), "the home was migrated to v11: \(applied)")
    }
}
