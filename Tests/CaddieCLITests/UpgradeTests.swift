import Foundation
import Testing

/// Homes written by earlier versions of `caddie`, kept in Tests/CaddieCLITests/Fixtures (each made by
/// Fixtures/make-home.sh with the binary of its version, which records what that version showed of it; made-by.txt
/// names the commit): today's `caddie` opens each, migrates it, verifies it, shows what that version showed (and
/// more: a column or a JSON field added since is allowed, one changed or lost is not, unless listed below as changed
/// on purpose), and writes to it. A migration adds the fixture of the version before it.
@Suite("a home from an earlier version opens, migrates and shows what it showed", .serialized)
struct UpgradeTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/CaddieCLITests/Fixtures")

    /// Every fixture in the repository, oldest schema first.
    static func versions() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasPrefix("v") && Int($0.dropFirst()) != nil }.sorted {
            Int($0.dropFirst())! < Int($1.dropFirst())!
        }
    }

    /// What changed on purpose since a version, as (what it showed, what is shown now) in a recorded file.
    static let changedOnPurpose: [String: [(String, String)]] = [
        // A tie is named as a tie (up to v10 the standings said "Ana leads" with Cleo level).
        "standings.json": [("\"Ana leads, +1 after 1 hole\"", "\"Ana and Cleo share the lead, +1 after 1 hole\"")]
    ]

    @Test("a fixture for every schema before today's, from v1")
    func fixturesKept() throws {
        let newest = try #require(Int(try Self.freshMigrations().last?.dropFirst() ?? ""))
        #expect(Self.versions() == (1..<newest).map { "v\($0)" }, "each earlier schema's home is kept (v\(newest) is today's)")
    }

    @Test("opened, migrated, verified, the same card, standings and log, and it takes a new entry", arguments: versions())
    func upgrade(_ name: String) throws {
        let version = Self.fixtures.appendingPathComponent(name)
        func recorded(_ file: String) throws -> String? {
            let url = version.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            var text = try String(contentsOf: url, encoding: .utf8)
            for (then, now) in Self.changedOnPurpose[file] ?? [] { text = text.replacingOccurrences(of: then, with: now) }
            return text
        }
        let game = try #require(try recorded("game.txt")).trimmingCharacters(in: .whitespacesAndNewlines)
        var checked = 0
        for member in ["ana", "ben"] {
            let home = try CLI(name: "upgrade-\(name)-\(member)")
            defer { home.remove() }
            try FileManager.default.copyItem(at: version.appendingPathComponent(member), to: home.home)
            let verified = try home.ok(["verify"]).stdout
            #expect(verified.contains(", 0 failures"), "\(name) \(member): \(verified)")
            let card = try home.ok(["card", game]).stdout
            if member == "ben" {
                // The two homes merged before the fixture was recorded: Ben's shows the card Ana's showed.
                let then = try #require(try recorded("card.txt"))
                Self.expectShows(card, all: then, "\(name) ben's card")
                continue
            }
            #expect(verified == (try recorded("verify.txt")))
            if let then = try recorded("card.txt") {
                Self.expectShows(card, all: then, "\(name) card")
                checked += 1
            }
            if let then = try recorded("card.json") {
                Self.expectHolds(
                    try home.ok(["card", game, "--json"]).json(), all: try JSONSerialization.jsonObject(with: Data(then.utf8)),
                    at: "\(name) card")
                checked += 1
            }
            if let then = try recorded("standings.json") {
                let now = try home.ok(["standings", game, "--json"]).json()
                Self.expectHolds(now, all: try JSONSerialization.jsonObject(with: Data(then.utf8)), at: "\(name) standings")
                checked += 1
            }
            if let then = try recorded("log.txt") {
                #expect(try home.ok(["log", "--game", game]).stdout == then)
                checked += 1
            }
            // The migrations ran: every one a new home has, and the home takes a new entry and still verifies.
            #expect(try Self.migrations(of: home.home) == (try Self.freshMigrations()))
            // v13: the home's clock is the newest clock of the ops it held.
            #expect(
                try Self.column(
                    of: home.home,
                    "SELECT (SELECT hlc FROM home_clock) = (SELECT max(hlc) FROM (SELECT hlc FROM op UNION ALL SELECT hlc FROM branch_op))"
                ) == ["1"], "\(name) \(member): the home's clock")
            let ops = Int(verified.prefix { $0.isNumber }) ?? -1
            try home.ok(["score", game, "Dev", "2", "5"])
            #expect(try home.ok(["verify"]).stdout.contains("\(ops + 1) ops checked, 0 failures"))
            let dev = try home.ok(["card", game]).stdout.split(separator: "\n").first { $0.hasPrefix("Dev ") } ?? ""
            #expect(dev.hasPrefix("Dev       6   5 "), "\(name): Dev's new 5 on the 2nd is shown: \(dev)")
        }
        #expect(checked >= 3, "\(name) records at least a card, its JSON or standings, and the log")
    }

    /// Each line `then` showed (but blank ones) begins a line `now` shows, in the same order: a column added at
    /// the end, or a line added between, is allowed; a value changed is not.
    static func expectShows(_ now: String, all then: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var lines = now.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        for line in then.split(separator: "\n", omittingEmptySubsequences: true) {
            let wanted = line.replacing(/\s+$/, with: "")
            var found = false
            while let shown = lines.next() {
                if shown.hasPrefix(wanted) {
                    found = true
                    break
                }
            }
            #expect(found, "\(what): no line begins \"\(wanted)\" in\n\(now)", sourceLocation: sourceLocation)
            if !found { return }
        }
    }

    /// Every key and value of `then` is in `now` (objects may have gained keys; arrays keep their length).
    static func expectHolds(_ now: Any, all then: Any, at path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch then {
        case let then as [String: Any]:
            guard let now = now as? [String: Any] else {
                Issue.record("\(path): an object became \(now)", sourceLocation: sourceLocation)
                return
            }
            for (key, value) in then {
                guard let shown = now[key] else {
                    Issue.record("\(path).\(key) is no longer shown (it was \(value))", sourceLocation: sourceLocation)
                    continue
                }
                expectHolds(shown, all: value, at: "\(path).\(key)", sourceLocation: sourceLocation)
            }
        case let then as [Any]:
            guard let now = now as? [Any], now.count == then.count else {
                Issue.record("\(path): \(then.count) items became \(now)", sourceLocation: sourceLocation)
                return
            }
            for (index, value) in then.enumerated() {
                expectHolds(now[index], all: value, at: "\(path)[\(index)]", sourceLocation: sourceLocation)
            }
        default:
            // Changed on purpose since v1 (the second security review's look-alike names): a marker whose name a
            // player or another member also has is named with its user's fingerprint, "Ana (e37cc05c)".
            if path.hasSuffix(".marker"), let now = now as? String, let then = then as? String,
                now.wholeMatch(of: /(.*) \([0-9a-f]{8}\)/)?.1 == then[...]
            {
                return
            }
            #expect("\(now)" == "\(then)", "\(path)", sourceLocation: sourceLocation)
        }
    }

    /// The migrations a home made by today's `caddie` has.
    static func freshMigrations() throws -> [String] {
        let home = try CLI(name: "upgrade-fresh")
        defer { home.remove() }
        try home.ok(["login", "--name", "Fresh"])
        let list = try migrations(of: home.home)
        // Read through Python's sqlite3: an empty list would make every comparison with it pass, so it must not be.
        try #require(list.first == "v1", "the migrations of a new home could not be read: \(list)")
        return list
    }

    /// The migrations a home's database has had, by their version (v1, v2, ...).
    static func migrations(of home: URL) throws -> [String] {
        try column(of: home, "SELECT identifier FROM grdb_migrations ORDER BY rowid").map {
            String($0.split(separator: ":").first ?? "")
        }
    }

    /// The first column of a query's rows, as text, read by Python's sqlite3 (not by the SQLite Caddie links).
    static func column(of home: URL, _ query: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys; print('\\n'.join(str(r[0]) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])))",
            home.appendingPathComponent("caddie.sqlite").path, query,
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
