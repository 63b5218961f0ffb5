import CaddieCore
import CaddieNode
import Foundation
import Testing

/// Nothing acknowledged is ever lost: SIGKILL inside the write transactions of a syncing node, of `caddie score`,
/// of a running node writing for commands and for a phone's entries, and of `caddie import` (CADDIE_TRACE_WRITES shows each transaction
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
        // syncs from a source that gains 1,500 new ops a round, so that it is always mid-sync when killed. The ops
        // are written while the source's node is stopped (a running node is its home's one writer), and it comes
        // back on the same port.
        let (writer, receiver, sourceHome) = (homes[0], homes[1], homes[2])
        var source = try NodeProcess(sourceHome)
        let sourcePort = source.port
        defer { source.stop() }
        var acknowledged: [String] = []  // op ids a killed `caddie score` had printed as committed
        var editsInside = 0
        var syncsInside = 0
        for round in 0..<Self.kills {
            source.stop()
            _ = try SyncTests.appendPlayers(sourceHome, count: 1500, from: 100_000 + round * 1500)
            source = try NodeProcess(sourceHome, port: sourcePort)
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
        "a running node killed inside the writes it makes for commands and for a phone's entries keeps every op it acknowledged, verifies, restarts clean and converges"
    )
    func killedNode() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        var rng = SeededGenerator(seed: seed)
        let replay = "CADDIE_CRASH_SEED=\(seed)"
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        // A phone that is a device of its own (Dee's) is admitted and joins while the node runs undisturbed.
        let phone: PhoneStream
        do {
            let node = try NodeProcess(ana, http: true)
            defer { node.stop() }
            let api = HTTPClient(port: node.httpPort, token: try APITests.token(ana))
            let spaceHex = try #require(try api.get("/v1/spaces").array().first?["space"] as? String)
            var dee = PhoneDeviceTests.Phone()
            let admitted = try api.post(
                "/v1/spaces/\(spaceHex)/admissions",
                #"{"user":"\#(dee.user.publicKey.hex)","device":"\#(dee.device.publicKey.hex)","certifiedAt":\#(dee.certifiedAt),"certificate":"\#(Hex.encode(dee.certificate))"}"#
            )
            #expect(admitted.status == 201)
            let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))
            let space = try #require(SpaceID(hex: spaceHex))
            let join = dee.join(space, name: "Dee", proof: proof)
            #expect(try api.post("/v1/spaces/\(spaceHex)/ops", #"{"ops":["\#(Hex.encode(join))"]}"#).status == 201)
            phone = PhoneStream(
                dee, space: space, game: try #require(GameID(hex: game)), player: try #require(PlayerID(hex: players[3])),
                token: try APITests.token(ana))
        }
        let http = try SyncTests.freePort()
        let commands = CommandStream()
        // Kills until CADDIE_CRASH_KILLS of them have landed inside a write, half inside a command's ("append") and
        // half inside a phone's entries ("receive": the node checks a phone's ops as a peer's); a kill that lands
        // between two writes is tried again, at most three times as many rounds in all.
        let half = (Self.kills + 1) / 2
        var inside = ["append": 0, "receive": 0]
        var round = 0
        while (inside["append"]! < half || inside["receive"]! < half) && round < Self.kills * 3 {
            defer { round += 1 }
            // While `caddie serve` runs it is the home's one writer: each `caddie score` hands its edit to the node
            // over the control socket, and the node signs and writes it ("append"), then answers; the phone posts its
            // signed entries one at a time, each kept until a node answers 2xx (as the web app's outbox does).
            let kind = inside["append"]! < half && (inside["receive"]! >= half || round % 2 == 0) ? "append" : "receive"
            let node = try TracedProcess(
                ana, ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--http", "127.0.0.1:\(http)"])
            let stopCommands = commands.start(ana, game: game, players: players, round: round)
            let stopPhone = phone.start(port: http)
            let write = Int.random(in: 1...3, using: &rng)
            #expect(
                node.waitUntilBegun(write, kind), "round \(round): the node never began \(kind) write \(write) (\(replay))")
            if Bool.random(using: &rng) { Thread.sleep(forTimeInterval: Double.random(in: 0...0.002, using: &rng)) }
            if node.kill(), node.lastBegun == kind { inside[kind]! += 1 }
            stopCommands()
            stopPhone()
            try ana.ok(["verify"])
        }
        let acknowledged = commands.acknowledged + phone.acknowledged
        print(
            "CrashTests: \(inside["append"]!) node kills inside a command's write and \(inside["receive"]!) inside a phone's, "
                + "in \(round) rounds; \(commands.acknowledged.count) commands and \(phone.acknowledged.count) phone entries "
                + "acknowledged, \(commands.refused) commands refused by a dying node (\(replay))")
        #expect(
            inside["append"]! >= half,
            "only \(inside["append"]!) of \(round) node kills landed inside a command's write (\(replay))")
        #expect(
            inside["receive"]! >= half,
            "only \(inside["receive"]!) of \(round) node kills landed inside a phone's write (\(replay))")
        #expect(commands.acknowledged.count >= half, "\(commands.acknowledged.count) commands acknowledged (\(replay))")
        #expect(phone.acknowledged.count >= half, "\(phone.acknowledged.count) phone entries acknowledged (\(replay))")
        #expect(phone.refusals.isEmpty, "a node refused the phone's entries: \(phone.refusals.prefix(3)) (\(replay))")
        // Every op a command printed, and every entry a node answered 2xx, is in the home's log.
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

/// A phone's entries posted to a node's `POST .../ops` one at a time on a background thread until stopped: each
/// signed once and kept until a node answers 2xx (then acknowledged), sent again to the next node when the one it
/// was sent to died without answering, as the web app's outbox does.
final class PhoneStream: @unchecked Sendable {
    private let lock = NSLock()
    private var phone: PhoneDeviceTests.Phone
    private var pending: [UInt8]?
    private var ops: [String] = []
    private var refused: [String] = []
    private var running = false
    /// The phone's own last entry on each hole, the one its next entry there replaces.
    private var last: [Int: OpID] = [:]
    private var count = 0
    let space: SpaceID
    let game: GameID
    let player: PlayerID
    let token: String

    init(_ phone: PhoneDeviceTests.Phone, space: SpaceID, game: GameID, player: PlayerID, token: String) {
        self.phone = phone
        self.space = space
        self.game = game
        self.player = player
        self.token = token
    }

    var acknowledged: [String] { lock.withLock { ops } }
    var refusals: [String] { lock.withLock { refused } }

    func start(port: Int) -> () -> Void {
        lock.withLock { running = true }
        let ended = DispatchSemaphore(value: 0)
        let api = HTTPClient(port: port, token: token)
        Thread.detachNewThread {
            while self.lock.withLock({ self.running }) {
                let op = self.lock.withLock { () -> [UInt8] in
                    if let pending = self.pending { return pending }
                    self.count += 1
                    let hole = self.count % 18 + 1
                    let entry = try! ScoreEntry(strokes: self.count % 9 + 1)
                    let bytes = self.phone.op(
                        self.space, [.score(game: self.game, player: self.player, hole: hole, entry: entry)],
                        pred: self.last[hole].map { [$0] } ?? [])
                    self.last[hole] = OpID(device: self.phone.device.publicKey, seq: self.phone.seq)
                    self.pending = bytes
                    return bytes
                }
                let reply = try? api.post("/v1/spaces/\(self.space.hex)/ops", #"{"ops":["\#(Hex.encode(op))"]}"#)
                self.lock.withLock {
                    guard let reply else { return }  // the node died: the entry waits for the next one
                    if reply.status == 200 || reply.status == 201 {
                        self.ops.append("\(self.phone.device.publicKey.hex):\(self.phone.seq)")
                        self.pending = nil
                    } else {
                        self.refused.append("\(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
                    }
                }
                if reply == nil || !(200...201).contains(reply!.status) { Thread.sleep(forTimeInterval: 0.02) }
            }
            ended.signal()
        }
        return {
            self.lock.withLock { self.running = false }
            ended.wait()
        }
    }
}
