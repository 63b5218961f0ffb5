import CaddieCore
import CaddieNode
import Foundation
import Testing

@Suite("caddie serve and sync over TCP on loopback", .serialized)
struct SyncTests {
    @Test("four nodes with offline edits, one cell in conflict, converge; a later CLI edit reaches all while they run")
    func fourNodesConverge() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        for (index, home) in homes.enumerated() {
            for hole in 1...9 { try home.ok(["score", game, players[index], "\(hole)", "\(3 + (hole * index) % 5)"]) }
        }
        try homes[0].ok(["score", game, "Ben", "3", "7"])
        try homes[1].ok(["score", game, "Ben", "3", "6"])
        #expect(try Set(homes.map { try $0.stateHash() }).count == 4)
        var nodes: [NodeProcess] = []
        defer { nodes.forEach { $0.stop() } }
        for home in homes { nodes.append(try NodeProcess(home, peers: nodes.map(\.port))) }
        #expect(try eventually(within: 60) { try Set(homes.map { try $0.stateHash() }).count == 1 })
        let card = try #require(try homes[3].ok(["card", game, "--json"]).json() as? [String: Any])
        #expect((card["conflicts"] as? [Any])?.count == 1)
        // Live push: an edit on one home while the nodes run reaches every other. How fast is a benchmark's
        // figure (caddie-bench, "edit to all three peers"); each poll here launches four processes, so the
        // deadline only turns a hang into a failure.
        try homes[2].ok(["score", game, "Ben", "3", "6"])
        let target = try homes[2].stateHash()
        #expect(try eventually(within: 60) { try homes.allSatisfy { try $0.stateHash() == target } })
        let peers = try #require(try homes[0].ok(["peers", "--json"]).json() as? [[String: Any]])
        #expect(peers.count >= 3)
    }

    @Test(
        "a node of protocol version 1 and nodes of version 2 sync live: a dialler refused version 2 offers 1 at once; two version-2 nodes agree on 2"
    )
    func mixedVersions() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let logs = homes.prefix(3).map { $0.home.appendingPathComponent("serve.log") }
        // Ana's node answers and offers version 1 only, as a node of that version does.
        let older = try NodeProcess(homes[0], environment: ["CADDIE_PROTOCOL_VERSION": "1", "CADDIE_LOG": "info"], log: logs[0])
        defer { older.stop() }
        let ben = try NodeProcess(homes[1], peers: [older.port], environment: ["CADDIE_LOG": "info"], log: logs[1])
        defer { ben.stop() }
        let cal = try NodeProcess(
            homes[2], peers: [older.port, ben.port], environment: ["CADDIE_LOG": "info"], log: logs[2])
        defer { cal.stop() }
        // An edit on each home reaches the other two, while they run.
        for (index, hole) in [(0, "1"), (1, "2"), (2, "3")] {
            try homes[index].ok(["score", game, "Ben", hole, "5"])
            let target = try homes[index].stateHash()
            #expect(
                try eventually(within: 60) { try homes.prefix(3).allSatisfy { try $0.stateHash() == target } },
                "hole \(hole) from home \(index) did not reach the others")
        }
        let text = logs.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
        #expect(
            text[1].contains("the peer speaks an older protocol version: dialling again with it"),
            "Ben's node fell back to version 1 for Ana's: \(text[1].suffix(2000))")
        #expect(!text[0].contains("protocol=2"), "Ana's node never speaks version 2")
        #expect(text[0].contains("protocol=1"), "Ana's node's sessions are of version 1: \(text[0].suffix(2000))")
        #expect(
            text[1].contains("protocol=2") && text[2].contains("protocol=2"),
            "Ben's and Cal's nodes agree on version 2 between them: \(text[2].suffix(2000))")
    }

    @Test("two phones that reach each other only through a hub see each other's edits (the hub relays at once)")
    func hubRelaysAtOnce() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let (hub, left, right) = (homes[0], homes[1], homes[2])
        // The hub logs at debug into a file, to show that it relayed (a time bound alone fails on a loaded machine).
        let hubLog = hub.home.appendingPathComponent("hub.log")
        let hubNode = try NodeProcess(hub, environment: ["CADDIE_LOG": "debug"], log: hubLog)
        defer { hubNode.stop() }
        // Each phone knows only the hub: neither dials the other.
        let leftNode = try NodeProcess(left, peers: [hubNode.port])
        defer { leftNode.stop() }
        let rightNode = try NodeProcess(right, peers: [hubNode.port])
        defer { rightNode.stop() }
        try left.ok(["score", game, "Ben", "1", "4"])
        #expect(try eventually(within: 60) { try Set([hub, left, right].map { try $0.stateHash() }).count == 1 })
        // Without a relay the hub would pass it on at its next digest, two seconds after the change at the earliest;
        // with it, the hub pushes each phone's edit to the other as it arrives, and says so in its log.
        for (from, to, hole) in [(left, right, "2"), (right, left, "3"), (left, right, "4")] {
            try from.ok(["score", game, "Ben", hole, "5"])
            let target = try from.stateHash()
            #expect(try eventually(within: 60) { try to.stateHash() == target }, "hole \(hole) did not cross the hub")
        }
        let log = (try? String(contentsOf: hubLog, encoding: .utf8)) ?? ""
        #expect(log.contains("relaying a change at once to a peer that asked for it"), "the hub never relayed at once")
        // Its debug log names its services and their keys: never a secret.
        #expect(log.contains("ControlService"))
        #expect(!log.contains("secret") && !log.contains("Seed"), "the debug log shows key material")
    }

    @Test(
        "in a chain whose middle phone has another session, the hub still relays to it at once: a live device reaches it only through the hub"
    )
    func chainRelaysAtOnce() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        // far – hub – middle – end: the middle phone has two sessions, so it is not alone, but the far phone's
        // edits reach it only through the hub.
        let (far, hub, middle, end) = (homes[0], homes[1], homes[2], homes[3])
        let hubLog = hub.home.appendingPathComponent("hub.log")
        let hubNode = try NodeProcess(hub, environment: ["CADDIE_LOG": "debug"], log: hubLog)
        defer { hubNode.stop() }
        let middleNode = try NodeProcess(middle, peers: [hubNode.port])
        defer { middleNode.stop() }
        let endNode = try NodeProcess(end, peers: [middleNode.port])
        defer { endNode.stop() }
        let farNode = try NodeProcess(far, peers: [hubNode.port])
        defer { farNode.stop() }
        #expect(try eventually(within: 60) { try Set(homes.map { try $0.stateHash() }).count == 1 })
        // Until the end phone met it, the middle phone was alone and asked for relay for that reason: only what
        // the hub logs from now on counts.
        let before = ((try? String(contentsOf: hubLog, encoding: .utf8)) ?? "").utf8.count
        for hole in ["5", "6", "7"] {
            try far.ok(["score", game, "Ben", hole, "4"])
            let target = try far.stateHash()
            #expect(
                try eventually(within: 60) { try end.stateHash() == target }, "hole \(hole) did not reach the end of the chain")
        }
        let middleDevice = try #require(try Home(path: middle.home.path).identity().deviceKey).short
        let log = String(decoding: ((try? Data(contentsOf: hubLog)) ?? Data()).dropFirst(before), as: UTF8.self)
        let relays = log.split(separator: "\n").filter { $0.contains("relaying a change at once to a peer that asked for it") }
        #expect(
            relays.contains { $0.contains(middleDevice) },
            "the hub never relayed at once to the middle phone, which has another session")
    }

    @Test("a one-shot sync reports what moved and the state hash, and both sides agree")
    func oneShot() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        try homes[1].ok(["score", game, players[1], "1", "4"])
        try homes[1].ok(["score", game, players[1], "2", "5"])
        // Cleo's edit reaches Ben's home by file: the node holds it as a third device's op.
        try homes[2].ok(["score", game, players[2], "1", "6"])
        let bundle = homes[2].home.appendingPathComponent("c.bundle").path
        try homes[2].ok([
            "export", "--out", bundle, "--since",
            try homes[1].ok(["vector"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines),
        ])
        try homes[1].ok(["import", bundle])
        let node = try NodeProcess(homes[1])
        defer { node.stop() }
        try homes[0].ok(["score", game, players[0], "1", "3"])
        let result = try homes[0].ok(["sync", "--peer", "127.0.0.1:\(node.port)", "--json"])
        #expect(try result.field("sent") == "1")
        #expect(try result.field("received") == "3")
        #expect(try result.field("stateHash") == homes[1].stateHash())
    }

    @Test("a node of another space, a wrong key or a revoked device is refused and learns nothing")
    func outsidersRefused() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let node = try NodeProcess(homes[0])
        defer { node.stop() }
        let stranger = try CLI(name: "stranger")
        defer { stranger.remove() }
        try stranger.ok(["login", "--name", "Mallory"])
        try stranger.ok(["space", "create", "Elsewhere"])
        let before = try homes[0].stateHash()
        let strangerBefore = try stranger.stateHash()
        try stranger.fails(["sync", "--peer", "127.0.0.1:\(node.port)"], saying: "does not hold")
        #expect(try homes[0].stateHash() == before)
        #expect(try stranger.stateHash() == strangerBefore)
        #expect(try !stranger.ok(["player", "list"]).stdout.contains("Ana"))
        // Not a caddie at all: garbage on the port leaves the node serving.
        try sendGarbage(port: node.port)
        try homes[1].ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        // A second device of Dev's, paired then revoked: refused.
        var watch = try CLI(name: "watch")
        watch.passphrase = "watch passphrase"
        defer { watch.remove() }
        let watchDevice = try DeviceTests.pair(first: homes[3], second: watch)
        try homes[3].ok(["device", "revoke", watchDevice])
        try homes[3].ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        let watchBefore = try watch.stateHash()
        try watch.fails(["sync", "--peer", "127.0.0.1:\(node.port)"], saying: "revoked")
        #expect(try watch.stateHash() == watchBefore)
    }

    @Test("two nodes that dial each other keep one session, the one the lower device key dialled, and edits flow")
    func oneSessionPerPair() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        // Each node names the other as a static peer, so both dial.
        let ports = [try Self.freePort(), try Self.freePort()]
        func start(_ index: Int) throws -> NodeProcess {
            try NodeProcess(homes[index], port: ports[index], peers: [ports[1 - index]], http: true)
        }
        var nodes = [try start(0), try start(1)]
        defer { nodes.forEach { $0.stop() } }
        func sessions(_ index: Int) throws -> [[String: Any]] {
            let client = HTTPClient(port: nodes[index].httpPort, token: try APITests.token(homes[index]))
            return try client.get("/v1/sync").object()["sessions"] as? [[String: Any]] ?? []
        }
        let devices = try homes[0...1].map { try $0.ok(["whoami", "--json"]).field("device") }
        let lower = devices[0] < devices[1] ? 0 : 1
        // The session that stays is the one the lower key dialled: at that node it is static, at the other incoming.
        // Until the lower node's dial lands (its first may find the other not yet listening, and wait its backoff),
        // the higher node's dial may be the one session: the pair settles on the lower's.
        #expect(
            try eventually(within: 60) {
                let (low, high) = (try sessions(lower), try sessions(1 - lower))
                return low.count == 1 && high.count == 1 && low.first?["foundBy"] as? String == "static"
                    && high.first?["foundBy"] as? String == "incoming"
            })
        // It stays one, and the same one: the other side's dial loop waits instead of redialling.
        let before = try [0, 1].map { try sessions($0).first?["since"] as? String }
        Thread.sleep(forTimeInterval: 4)
        #expect(try [0, 1].map { try sessions($0).count } == [1, 1])
        #expect(try [0, 1].map { try sessions($0).first?["since"] as? String } == before)
        try homes[1].ok(["score", game, players[1], "1", "5"])
        #expect(try eventually(within: 60) { try homes[0].stateHash() == homes[1].stateHash() })
        // When the node whose session stays goes away, the other dials it again once it is back.
        nodes[lower].stop()
        #expect(try eventually(within: 60) { try sessions(1 - lower).isEmpty })
        nodes[lower] = try start(lower)
        #expect(try eventually(within: 60) { try sessions(0).count == 1 && sessions(1).count == 1 })
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw CLI.CLIError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("a partition heals: a stopped node misses edits, restarts, and catches up")
    func partitionHeals() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let a = try NodeProcess(homes[0])
        defer { a.stop() }
        var b = try NodeProcess(homes[1], peers: [a.port])
        defer { b.stop() }
        try homes[0].ok(["score", game, players[0], "1", "4"])
        #expect(try eventually(within: 60) { try homes[0].stateHash() == homes[1].stateHash() })
        b.stop()
        try homes[0].ok(["score", game, players[0], "2", "5"])
        try homes[1].ok(["score", game, players[1], "2", "6"])
        #expect(try homes[0].stateHash() != homes[1].stateHash())
        b = try NodeProcess(homes[1], peers: [a.port])
        #expect(try eventually(within: 60) { try homes[0].stateHash() == homes[1].stateHash() })
    }

    @Test("a node killed in the middle of receiving a large log keeps whole batches only, verifies, and resumes")
    func killedMidBatch() throws {
        let source = try CLI(name: "source")
        let sink = try CLI(name: "sink")
        defer {
            source.remove()
            sink.remove()
        }
        try source.ok(["login", "--name", "Ana"])
        try sink.ok(["login", "--name", "Ben"])
        let invite = try source.createSpace("Big").field("invite")
        try sink.ok(["space", "join", invite])
        let total = try Self.appendPlayers(source, count: 20_000)
        let device = try source.ok(["whoami", "--json"]).field("device")
        let node = try NodeProcess(source)
        defer { node.stop() }
        func received() throws -> Int {
            (try sink.ok(["vector", "--json"]).json() as? [String: Int])?[device] ?? 0
        }
        // Killed inside the transaction of its second to fifth received batch (seeded, printed on failure): the trace
        // names each transaction, so bookkeeping writes (a peer's record) are not counted.
        let seed = SeededGenerator.seedFromEnvironment()
        var rng = SeededGenerator(seed: seed)
        let receiver = try TracedProcess(
            sink, ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--peer", "127.0.0.1:\(node.port)"])
        let batch = Int.random(in: 2...5, using: &rng)
        #expect(
            receiver.waitUntilBegun(batch, "receive"), "the receiver never began batch \(batch) (CADDIE_CRASH_SEED=\(seed))")
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.005, using: &rng))
        let inside = receiver.kill()
        #expect(inside, "the kill landed outside a write (trace \(receiver.trace.suffix(4)), CADDIE_CRASH_SEED=\(seed))")
        #expect(receiver.lastBegun == "receive", "the kill landed in \(receiver.lastBegun ?? "nothing"), not a batch")
        let partial = try received()
        // Each batch applies in one transaction: a kill inside batch N (N from 2) leaves the whole batches before it,
        // at least one, and nothing of batch N (`SyncNode.batchOps` = 1000).
        #expect(
            partial % 1000 == 0 && partial > 0 && partial < total,
            "\(partial) of \(total) (CADDIE_CRASH_SEED=\(seed))")
        try sink.ok(["verify"])
        let again = try NodeProcess(sink, peers: [node.port])
        defer { again.stop() }
        #expect(try eventually(within: 60) { try sink.stateHash() == source.stateHash() })
        try sink.ok(["verify"])
    }

    /// Signs `count` player edits straight into the home's store (as the CLI would, one op each but in
    /// batches, to keep the test fast); returns the device's highest seq.
    static func appendPlayers(_ cli: CLI, count: Int, from first: Int = 0) throws -> Int {
        let home = try Home(path: cli.home.path)
        // The home's writer while it appends, as every writer is: it fails if a node runs on the home.
        try home.takeWrites()
        let keys = try home.unlock(passphrase: cli.passphrase ?? "")
        let space = try home.spaces.resolveSpace(nil)
        for start in stride(from: first, to: first + count, by: 1000) {
            let edits = (start..<min(first + count, start + 1000)).map { index in
                (
                    changes: [
                        Change.set(
                            kind: .player, id: EntityID(unchecked: withUnsafeBytes(of: UInt64(index).bigEndian, Array.init)),
                            fields: ["name": .text("Player \(index)")])
                    ], pred: [OpID]()
                )
            }
            _ = try home.store.appendBatch(space: space, signer: keys.device, edits: edits, now: 1_700_000_000_000)
        }
        return Int(try home.store.vector(space)[keys.device.publicKey])
    }

    private func sendGarbage(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let junk: [UInt8] = [0, 0, 0, 5] + Array("hello".utf8) + (0..<2000).map { _ in UInt8.random(in: 0...255) }
        _ = junk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
