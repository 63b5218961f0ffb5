import Foundation
import Testing

@Suite("caddie CLI: the audit log shows what it cannot read")
struct AuditTests {
    /// Alters the stored bytes of op `seq` of the home's only other device's log, as a damaged disk or a hand with
    /// sqlite would, through Python's sqlite3 (the test machine's python3; no Caddie code).
    static func alter(_ home: CLI, seq: Int, sql: String) throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute(sys.argv[2], (int(sys.argv[3]),))
            db.commit()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, home.home.appendingPathComponent("caddie.sqlite").path, sql, "\(seq)"]
        try process.run()
        process.killAfter(CLI.commandDeadline)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("an op whose stored bytes or changes cannot be read is listed, marked unreadable and not verified, never skipped")
    func unreadableOpsAreShown() throws {
        let ana = try CLI(name: "Ana")
        defer { ana.remove() }
        try ana.ok(["login", "--name", "Ana"])
        _ = try ana.createSpace("Saturday")
        for name in ["Ana", "Ben", "Cleo"] { try ana.ok(["player", "add", name]) }
        let before = try #require(try ana.ok(["log", "--json"]).json() as? [[String: Any]])
        #expect(before.allSatisfy { $0["readable"] as? Bool == true && $0["verified"] as? Bool == true })
        // Op 3 (the first player): its change tag becomes unknown. The tag is the payload's third byte, 87 bytes
        // before the end (a 25-byte payload, then the 64-byte signature). Op 4: its bytes are cut short.
        try Self.alter(
            ana, seq: 3,
            sql:
                "UPDATE op SET bytes = substr(bytes, 1, length(bytes) - 87) || X'99' || substr(bytes, length(bytes) - 85) WHERE seq = ?"
        )
        try Self.alter(ana, seq: 4, sql: "UPDATE op SET bytes = substr(bytes, 1, 20) WHERE seq = ?")
        let after = try #require(try ana.ok(["log", "--json"]).json() as? [[String: Any]])
        #expect(after.count == before.count, "every op is still listed")
        let unreadable = after.filter { $0["readable"] as? Bool == false }
        #expect(unreadable.count == 2, "\(after.map { $0["change"] ?? "" })")
        #expect(
            unreadable.allSatisfy {
                $0["verified"] as? Bool == false && ($0["change"] as? String)?.hasPrefix("UNREADABLE") == true
            })
        #expect(Set(unreadable.compactMap { $0["op"] as? String }.compactMap { $0.split(separator: ":").last }) == ["3", "4"])
        let text = try ana.ok(["log"]).stdout
        #expect(text.contains("BAD ?? UNREADABLE"), "\(text)")
    }
}
