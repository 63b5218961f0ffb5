import CaddieCore
import CaddieNode
import Foundation
import Testing

/// Nothing acknowledged is ever lost: SIGKILL inside the write transactions of a syncing node, of `caddie score`,
/// of a running node writing for commands, and of `caddie import` (CADDIE_TRACE_WRITES shows each transaction
/// begin and commit and what it is, so each test knows where its kill landed and fails unless enough of them
/// landed inside a write). CADDIE_CRASH_KILLS sets the
/// rounds of the kill loop (20 by default, as CI runs it: 40 kills; 100 for a long run); CADDIE_CRASH_SEED
/// replays the kill times of a failed run, which print its seed.
@Suite("Crash safety", .serialized)
struct CrashTests {
    static var kills: Int { Int(ProcessInfo.processInfo.environment["CADDIE_CRASH_KILLS"] ?? "") ?? 20 }

    @Test(
        "SIGKILLs inside the writes of a syncing node and of CLI edits lose no acknowledged op, leave verifiable logs, and converge"
    )
    func killLoop() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        var rng = SeededGenerator(seed: seed)
        let replay = "CADDIE_CRASH_SEED=\(seed)"
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        // The writer edits with no node of its own (each `caddie score` writes itself); the receiver's node
        // syncs from a source that gains 1,500 new ops a round, so that it is always mid-sync when killed.
        let (writer, receiver, sourceHome) = (homes[0], homes[1], homes[2])
        let source = try NodeProcess(sourceHome)
        defer { source.stop() }
        var acknowledged: [String] = []  // op ids a killed `caddie score` had printed as committed
        var editsInside = 0
        var syncsInside = 0
        for round in 0..<Self.kills {
            _ = try SyncTests.appendPlayers(sourceHome, count: 1500, from: 100_000 + round * 1500)
            // One edit runs to its end: what it printed is acknowledged.
            let done = try writer.ok(["score", game, players[(round + 1) % 4], "\(round % 18 + 1)", "4", "--json"])
            acknowledged.append(try done.field("op"))
            let edit = try TracedProcess(
                writer, ["score", game, players[round % 4], "\(round % 18 + 1)", "\(round % 9 + 1)", "--json"])
            #expect(edit.waitUntilBegun(1), "round \(round): the edit never began its write (\(replay))")
            // One op's transaction lasts a few milliseconds: kill as soon as it begins, or up to 1 ms later.
            if Bool.random(using: &rng) { Thread.sleep(forTimeInterval: Double.random(in: 0...0.001, using: &rng)) }
            if edit.kill() { editsInside += 1 }
            if let op = try? CLI.Result(status: 0, stdout: edit.printed, stderr: "").field("op") { acknowledged.append(op) }

            let node = try TracedProcess(
                receiver, ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--peer", "127.0.0.1:\(source.port)"])
            let write = Int.random(in: 2...4, using: &rng)
            #expect(node.waitUntilBegun(write), "round \(round): the receiver never began write \(write) (\(replay))")
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.005, using: &rng))
            if node.kill() { syncsInside += 1 }
            // Wherever the kill landed, both logs verify.
            try receiver.ok(["verify"])
            try writer.ok(["verify"])
        }
        print(
            "CrashTests: \(editsInside) of \(Self.kills) edit kills and \(syncsInside) of \(Self.kills) sync kills landed inside a write (\(replay))"
        )
        // Enough kills must land inside a write, or the loop shows nothing about crashes there (an edit's
        // transaction is short, so only a quarter of its kills must).
        #expect(
            editsInside * 4 >= Self.kills, "only \(editsInside) of \(Self.kills) edit kills landed inside a write (\(replay))")
        #expect(
            syncsInside * 2 >= Self.kills, "only \(syncsInside) of \(Self.kills) sync kills landed inside a write (\(replay))")
        // Every edit a command acknowledged, finished or killed after it printed, is in the writer's log.
        #expect(acknowledged.count >= Self.kills)
        let vector = try #require(try writer.ok(["vector", "--json"]).json() as? [String: Int])
        for op in acknowledged {
            let parts = op.split(separator: ":")
            #expect(parts.count == 2 && (vector[String(parts[0])] ?? 0) >= Int(parts[1]) ?? .max, "lost \(op) (\(replay))")
        }
        // And the receiver catches up once it runs undisturbed.
        let final = try NodeProcess(receiver, peers: [source.port])
        defer { final.stop() }
        #expect(try eventually(within: 60) { try receiver.stateHash() == sourceHome.stateHash() }, "\(replay)")
    }

    @Test(
        "a running node killed inside the writes it makes for commands keeps every op it acknowledged, verifies, restarts clean and converges"
    )
    func killedNode() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        var rng = SeededGenerator(seed: seed)
        let replay = "CADDIE_CRASH_SEED=\(seed)"
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let commands = CommandStream()
        var inside = 0
        var round = 0
        // Kills until CADDIE_CRASH_KILLS of them have landed inside a command's write (a kill that lands between two
        // writes is tried again, at most three times as many rounds in all).
        while inside < Self.kills && round < Self.kills * 3 {
            defer { round += 1 }
            // While `caddie serve` runs it is the home's one writer: each `caddie score` hands its edit to the node
            // over the control socket, and the node signs and writes it ("append"), then answers.
            let node = try TracedProcess(ana, ["serve", "--listen", "127.0.0.1:0", "--no-mdns"])
            let stop = commands.start(ana, game: game, players: players, round: round)
            let write = Int.random(in: 1...3, using: &rng)
            #expect(
                node.waitUntilBegun(write, "append"), "round \(round): the node never began command write \(write) (\(replay))")
            if Bool.random(using: &rng) { Thread.sleep(forTimeInterval: Double.random(in: 0...0.002, using: &rng)) }
            if node.kill(), node.lastBegun == "append" { inside += 1 }
            stop()
            try ana.ok(["verify"])
        }
        let acknowledged = commands.acknowledged
        print(
            "CrashTests: \(inside) of \(round) node kills landed inside a command's write; "
                + "\(acknowledged.count) commands acknowledged, \(commands.refused) refused by a dying node (\(replay))")
        #expect(inside == Self.kills, "only \(inside) of \(round) node kills landed inside a write (\(replay))")
        #expect(acknowledged.count >= Self.kills, "\(acknowledged.count) commands acknowledged (\(replay))")
        // Every op a command printed is in the home's log.
        let vector = try #require(try ana.ok(["vector", "--json"]).json() as? [String: Int])
        for op in acknowledged {
            let parts = op.split(separator: ":")
            #expect(parts.count == 2 && (vector[String(parts[0])] ?? 0) >= Int(parts[1]) ?? .max, "lost \(op) (\(replay))")
        }
        // The node restarts clean, and a replica that syncs with it ends with the same state.
        let node = try NodeProcess(ana)
        defer { node.stop() }
        let ben = try NodeProcess(homes[1], peers: [node.port])
        defer { ben.stop() }
        #expect(try eventually(within: 60) { try homes[1].stateHash() == ana.stateHash() }, "\(replay)")
        try homes[1].ok(["verify"])
    }

    @Test("an import killed inside its transaction applies none of its bundle, and a later import all of it")
    func killedImport() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        var rng = SeededGenerator(seed: seed)
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
        let wanted = 3
        var inside = 0
        for _ in 0..<wanted * 3 where inside < wanted {
            let importer = try TracedProcess(sink, ["import", bundle])
            #expect(importer.waitUntilBegun(1), "the import never began its write (CADDIE_CRASH_SEED=\(seed))")
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.1, using: &rng))
            let landed = importer.kill()
            let held = (try sink.ok(["vector", "--json"]).json() as? [String: Int])?[device] ?? 0
            // All or nothing, wherever the kill landed; a kill counts as inside the transaction only when the trace
            // says so and nothing was applied (one just after the commit, before its trace line, applied all).
            #expect(held == 0 || held == total, "a killed import left \(held) of \(total) ops")
            if landed, held == 0 { inside += 1 }
            try sink.ok(["verify"])
            if held == total { break }
        }
        #expect(inside >= wanted, "only \(inside) kills landed inside the import's transaction (CADDIE_CRASH_SEED=\(seed))")
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

/// `caddie score` commands run one after another on a background thread until stopped, keeping the op each one
/// printed (acknowledged) and counting those that failed (a node killed while it held the command).
final class CommandStream: @unchecked Sendable {
    private let lock = NSLock()
    private var ops: [String] = []
    private var failures = 0
    private var running = false

    var acknowledged: [String] { lock.withLock { ops } }
    var refused: Int { lock.withLock { failures } }

    /// Starts the commands; the function returned stops them and waits for the one in flight to end.
    func start(_ cli: CLI, game: String, players: [String], round: Int) -> () -> Void {
        lock.withLock { running = true }
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var count = 0
            while self.lock.withLock({ self.running }) {
                count += 1
                let hole = (round * 7 + count) % 18 + 1
                let result = try? cli.run(["score", game, players[count % 4], "\(hole)", "\(count % 9 + 1)", "--json"])
                self.lock.withLock {
                    if let result, result.status == 0, let op = try? result.field("op") {
                        self.ops.append(op)
                    } else {
                        self.failures += 1
                    }
                }
            }
            ended.signal()
        }
        return {
            self.lock.withLock { self.running = false }
            ended.wait()
        }
    }
}
