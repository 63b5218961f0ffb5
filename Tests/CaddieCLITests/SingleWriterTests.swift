import Foundation
import Testing

/// While `caddie serve` runs, it is its home's one writer of ops: `caddie score` and the other editing commands
/// hand their changes to it over the control socket in the home, and write SQLite themselves only when no node
/// runs (or one died and left its socket file behind).
@Suite("one writer: commands hand their edits to the running node", .serialized)
struct SingleWriterTests {
    /// A node on `cli`'s home logging at info into `log`, started and waited for until its control socket answers.
    static func serve(_ cli: CLI, log: URL) throws -> Process {
        let process = try start(cli, log: log)
        let socket = cli.home.appendingPathComponent("control.sock").path
        #expect(
            try eventually(within: 60) {
                try String(contentsOf: log, encoding: .utf8).contains("listening on")
                    && FileManager.default.fileExists(atPath: socket)
            })
        return process
    }

    /// A node on `cli`'s home logging at info into `log`, started.
    static func start(_ cli: CLI, log: URL) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--home", cli.home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = cli.passphrase
        environment["CADDIE_LOG"] = "info"
        process.environment = environment
        try process.run(loggingTo: log)
        return process
    }

    static func log(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    @Test(
        "a score made while the node runs is written by the node; with the node gone (even killed), by the command; one node per home"
    )
    func nodeWrites() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let socket = ana.home.appendingPathComponent("control.sock").path
        let first = ana.home.appendingPathComponent("serve-1.out")
        let node = try Self.serve(ana, log: first)
        defer { if node.isRunning { node.terminate() } }
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600, "the control socket is the owner's alone")

        let start = try ana.stateHash()
        try ana.ok(["score", game, "Ana", "1", "4"])
        #expect(
            try eventually(within: 60) { Self.log(first).contains("wrote for a command") },
            "the node wrote it: \(Self.log(first))"
        )
        let scored = try ana.stateHash()
        #expect(scored != start, "the command returned once the node's write was durable")

        // A second node on the same home is refused before it touches anything.
        try ana.fails(["serve", "--listen", "127.0.0.1:0", "--no-mdns"], saying: "another `caddie serve` runs on this home")

        // A node that dies leaves its socket file: commands notice nobody answers and write themselves.
        kill(node.processIdentifier, SIGKILL)
        node.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: socket))
        try ana.ok(["score", game, "Ana", "2", "5"])
        let written = try ana.stateHash()
        #expect(written != scored, "the command wrote the score itself")

        // A new node replaces the stale socket and takes the writes again; stopped cleanly, it removes the socket.
        let third = ana.home.appendingPathComponent("serve-2.out")
        let again = try Self.serve(ana, log: third)
        try ana.ok(["score", game, "Ana", "3", "3"])
        #expect(try eventually(within: 60) { Self.log(third).contains("wrote for a command") }, "\(Self.log(third))")
        again.terminate()
        again.waitUntilExit()
        #expect(again.terminationStatus == 0, "\(Self.log(third))")
        #expect(!FileManager.default.fileExists(atPath: socket), "a stopped node removes its socket")
        #expect(try ana.stateHash() != written)
    }

    @Test("a home whose path is too long for a socket address has its control socket all the same: commands reach the node")
    func longHomePath() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-test-long-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let cli = CLI(
            at: base.appendingPathComponent(String(repeating: "fairway-", count: 10)).appendingPathComponent("ana"),
            passphrase: "correct horse battery staple")
        #expect(cli.home.appendingPathComponent("control.sock").path.utf8.count > 107)
        try cli.ok(["login", "--name", "Ana"])
        _ = try cli.createSpace("Saturday")
        let out = cli.home.appendingPathComponent("serve.out")
        let process = try Self.serve(cli, log: out)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let before = try cli.stateHash()
        var noKeys = cli
        noKeys.passphrase = nil  // only the node, with its own keys, can write it
        try noKeys.ok(["player", "add", "Ben"])
        #expect(try cli.stateHash() != before)
        #expect(try eventually(within: 30) { Self.log(out).contains("wrote for a command") }, "\(Self.log(out))")
    }

    @Test(
        "a process that holds the home's writer lock but does not answer (a node starting or stuck): a command refuses, writes nothing; a node waits for it"
    )
    func lockedWithoutAnswer() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let before = try ana.stateHash()
        // A process holding the lock the node holds for its life, and no control socket.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import fcntl, sys\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\nsys.stdin.read()",
            ana.home.appendingPathComponent("caddie.sqlite.lock").path,
        ]
        let (out, input) = (Pipe(), Pipe())
        holder.standardOutput = out
        holder.standardInput = input  // it lets go when its input closes
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let said = readChunk(out.fileHandleForReading, until: Date().addingTimeInterval(30))
        #expect(said.map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("held") == true)
        try ana.fails(
            ["score", game, "Ana", "1", "4"],
            saying: "another caddie process holds this home (a `caddie serve` whose control socket did not answer")
        #expect(try ana.stateHash() == before)
        // A node started now waits for the holder (a command unlocking its keys takes a second), rather than fail.
        let log = ana.home.appendingPathComponent("serve-waits.out")
        let node = try Self.start(ana, log: log)
        defer { if node.isRunning { node.terminate() } }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(node.isRunning && !Self.log(log).contains("listening on"), "the node waits: \(Self.log(log))")
        try? input.fileHandleForWriting.close()
        #expect(
            try eventually(within: 60) { Self.log(log).contains("listening on") }, "the node serves once the holder is gone")
        try ana.ok(["score", game, "Ana", "1", "4"])
        #expect(try eventually(within: 60) { Self.log(log).contains("wrote for a command") }, "the node wrote it")
    }

    @Test("a damaged request on the control socket is refused with the reason, and nothing is written")
    func damagedRequest() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let out = ana.home.appendingPathComponent("serve.out")
        let node = try Self.serve(ana, log: out)
        defer {
            node.terminate()
            node.waitUntilExit()
        }
        let before = try ana.stateHash()
        let socket = ana.home.appendingPathComponent("control.sock").path
        // A frame that starts like a request and breaks off, then one that is not a request at all.
        let script = """
            import socket, struct, sys
            def ask(body):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(sys.argv[1])
                s.sendall(struct.pack('>I', len(body)) + body)
                head = s.recv(4)
                n = struct.unpack('>I', head)[0]
                data = b''
                while len(data) < n:
                    data += s.recv(n - len(data))
                s.close()
                return data
            for body in [b'CTL1' + b'\\x01' * 40, b'hello, node']:
                reply = ask(body)
                print(reply[0], reply[1:].decode())
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, socket]
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()
        python.waitUntilExit()
        let replies = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = replies.split(separator: "\n")
        #expect(lines.count == 2, "\(replies)")
        #expect(lines.allSatisfy { $0.hasPrefix("1 the command's request was damaged") }, "\(replies)")
        #expect(try ana.stateHash() == before, "nothing was written")
        #expect(node.isRunning, "the node carries on")
        try ana.ok(["score", game, "Ana", "1", "4"])
        #expect(try ana.stateHash() != before)
    }
}
