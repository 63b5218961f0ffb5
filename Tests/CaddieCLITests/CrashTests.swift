import CaddieCore
import CaddieNode
import Foundation
import Testing

/// Nothing acknowledged is ever lost: SIGKILL at random moments while a node syncs, while `caddie score`
/// commits, and while `caddie import` applies a large bundle. CADDIE_CRASH_KILLS sets the number of kills
/// (10 by default, as CI runs it; `CADDIE_CRASH_KILLS=100 swift test --filter CrashTests` for the full run).
@Suite("Crash safety", .serialized)
struct CrashTests {
    static var kills: Int { Int(ProcessInfo.processInfo.environment["CADDIE_CRASH_KILLS"] ?? "") ?? 10 }

    /// Starts a CLI command without waiting for it.
    static func start(_ cli: CLI, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments + ["--home", cli.home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = cli.passphrase
        process.environment = environment
        process.standardOutput = Pipe()
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("random SIGKILLs of a syncing node and of CLI edits lose no acknowledged op, leave verifiable logs, and converge")
    func killLoop() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let (writer, receiver) = (homes[0], homes[1])
        _ = try SyncTests.appendPlayers(writer, count: 3000)  // something to be mid-sync of
        let source = try NodeProcess(writer)
        defer { source.stop() }
        var acknowledged: [String] = []  // op ids the CLI reported as committed
        var rng = SystemRandomNumberGenerator()
        for round in 0..<Self.kills {
            let node = try NodeProcess(receiver, peers: [source.port])
            // Edits on the writer while the receiver syncs: one runs to completion (acknowledged), one is killed.
            let done = try writer.ok(["score", game, players[0], "\(round % 18 + 1)", "\(round % 9 + 1)", "--json"])
            acknowledged.append(try done.field("op"))
            let victim = try Self.start(writer, ["score", game, players[1], "\(round % 18 + 1)", "5"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.3, using: &rng))
            kill(victim.processIdentifier, SIGKILL)
            victim.waitUntilExit()
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.4, using: &rng))
            node.kill()
            // Whatever the moment, both logs verify.
            try receiver.ok(["verify"])
            try writer.ok(["verify"])
        }
        // Every acknowledged edit is in the writer's log.
        let vector = try #require(try writer.ok(["vector", "--json"]).json() as? [String: Int])
        for op in acknowledged {
            let parts = op.split(separator: ":")
            #expect(parts.count == 2 && (vector[String(parts[0])] ?? 0) >= Int(parts[1]) ?? .max, "lost \(op)")
        }
        // And the receiver catches up once it runs undisturbed.
        let final = try NodeProcess(receiver, peers: [source.port])
        defer { final.stop() }
        #expect(try eventually(within: 30) { try receiver.stateHash() == writer.stateHash() })
    }

    @Test("an import killed midway applies all of its bundle or none of it")
    func killedImport() throws {
        let source = try CLI(name: "crash-source")
        let sink = try CLI(name: "crash-sink")
        defer {
            source.remove()
            sink.remove()
        }
        try source.ok(["login", "--name", "Ana"])
        try sink.ok(["login", "--name", "Ben"])
        try sink.ok(["space", "join", try source.createSpace("Big").field("invite")])
        let total = try SyncTests.appendPlayers(source, count: 20_000)
        let device = try source.ok(["whoami", "--json"]).field("device")
        let bundle = source.home.appendingPathComponent("big.bundle").path
        try source.ok(["export", "--out", bundle])
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<max(3, Self.kills / 3) {
            let importer = try Self.start(sink, ["import", bundle])
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &rng))
            kill(importer.processIdentifier, SIGKILL)
            importer.waitUntilExit()
            let held = (try sink.ok(["vector", "--json"]).json() as? [String: Int])?[device] ?? 0
            #expect(held == 0 || held == total, "a killed import left \(held) of \(total) ops")
            try sink.ok(["verify"])
            if held == total { break }
        }
        try sink.ok(["import", bundle])
        #expect((try sink.ok(["vector", "--json"]).json() as? [String: Int])?[device] == total)
    }

    @Test(
        "a home on a nearly full file system gets a clear disk-full error and stays consistent",
        .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func diskFull() throws {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mount) }
        let mounted = Process()
        mounted.executableURL = URL(fileURLWithPath: "/bin/mount")
        mounted.arguments = ["-t", "tmpfs", "-o", "size=1200k", "tmpfs", mount.path]
        try mounted.run()
        mounted.waitUntilExit()
        try #require(mounted.terminationStatus == 0, "could not mount a tmpfs")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [mount.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        var cli = try CLI(name: "full")
        cli = CLI(at: mount.appendingPathComponent("home"), passphrase: cli.passphrase)
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Full"])
        // Leave a few tens of kilobytes free, then add players until a write fails.
        let free =
            (try FileManager.default.attributesOfFileSystem(forPath: mount.path)[.systemFreeSize] as? NSNumber)?.intValue ?? 0
        try Data(count: max(0, free - 160 * 1024)).write(to: mount.appendingPathComponent("filler"))
        var failure: CLI.Result?
        var added = 0
        for index in 0..<300 {
            let result = try cli.run(["player", "add", "Player \(index) " + String(repeating: "x", count: 50)])
            if result.status != 0 {
                failure = result
                break
            }
            added += 1
        }
        let refused = try #require(failure, "the file system never filled up")
        #expect(refused.stderr.contains("disk full") || refused.stderr.contains("cannot write"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        // Every acknowledged add is there, the refused one is not, and the log verifies.
        try cli.ok(["verify"])
        let players = try #require(try cli.ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(players.count == added)
    }
}
