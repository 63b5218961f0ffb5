import Foundation
import Testing

/// The network lab (Deploy/lab.sh): hosts in network namespaces, each with its own D-Bus and Avahi.
/// It needs root, as does the disk-full test (a small tmpfs). A run that cannot build the lab fails with the
/// reason, unless CADDIE_SKIP_ROOT_TESTS=1 says to skip the tests that need root (README, "Tests").
struct Lab {
    static let script = CLI.repository.appendingPathComponent("Deploy/lab.sh").path
    static var isRoot: Bool { getuid() == 0 }
    static var skipRootTests: Bool { ProcessInfo.processInfo.environment["CADDIE_SKIP_ROOT_TESTS"] == "1" }
    static var available: Bool { isRoot && FileManager.default.isExecutableFile(atPath: "/usr/sbin/avahi-daemon") }

    let prefix: String

    init(hosts: Int) throws {
        prefix = "ct\(Int.random(in: 100...999))"
        let result = try Self.run(prefix, ["up", "\(hosts)"])
        guard result.status == 0 else { throw CLI.CLIError("lab did not come up: \(result.output)") }
    }

    @discardableResult
    static func run(_ prefix: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_LAB_PREFIX"] = prefix
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        process.killAfter(CLI.commandDeadline)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func cut(_ host: Int) throws { try Self.run(prefix, ["cut", "\(host)"]) }
    func restore(_ host: Int) throws { try Self.run(prefix, ["restore", "\(host)"]) }
    func down() { _ = try? Self.run(prefix, ["down"]) }

    /// Starts `caddie serve` inside a host, with mDNS and no static peer (and `extra` arguments).
    func serve(_ host: Int, _ home: CLI, _ extra: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            [
                Self.script, "exec", "\(host)", "env", "CADDIE_PASSPHRASE=\(home.passphrase ?? "")",
                "CADDIE_LOG=info", CLI.binary.path, "serve", "--listen", "10.251.0.\(host):7400",
                "--home", home.home.path,
            ] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_LAB_PREFIX"] = prefix
        process.environment = environment
        let log = home.home.appendingPathComponent("serve.log")
        try process.run(loggingTo: log)
        return process
    }
}

extension Lab {
    /// Runs a caddie command inside a host, as `home`.
    func caddie(_ host: Int, _ home: CLI, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.run(
            prefix,
            ["exec", "\(host)", "env", "CADDIE_PASSPHRASE=\(home.passphrase ?? "")", CLI.binary.path]
                + arguments + ["--home", home.home.path])
    }
}

@Suite("mDNS discovery in the network lab", .serialized)
struct LabTests {
    @Test(
        "a new device on the same network finds the inviting device over mDNS and joins with the code alone",
        .enabled(if: Lab.available, "the network lab needs root and avahi-daemon"), .timeLimit(.minutes(10)))
    func joinByMdns() throws {
        let ana = try CLI(name: "Ana")
        let ben = try CLI(name: "Ben")
        defer { [ana, ben].forEach { $0.remove() } }
        try ana.ok(["login", "--name", "Ana"])
        try ben.ok(["login", "--name", "Ben"])
        try ana.ok(["space", "create", "Saturday"])
        try ana.ok(["player", "add", "Ana", "--index", "12"])
        let code = try ana.ok(["space", "invite", "--json"]).field("invite")
        let lab = try Lab(hosts: 3)
        defer { lab.down() }
        let node = try lab.serve(1, ana)
        defer {
            node.terminate()
            node.waitUntilExit()
        }
        // Host 3 runs another group's node, which does not know the invite: if it is asked first, it is passed over.
        let bystander = try CLI(name: "Cy")
        defer { bystander.remove() }
        try bystander.ok(["login", "--name", "Cy"])
        try bystander.ok(["space", "create", "Elsewhere"])
        let other = try lab.serve(3, bystander)
        defer {
            other.terminate()
            other.waitUntilExit()
        }
        let joined = try lab.caddie(2, ben, ["space", "join", code, "--wait", "60", "--json"])
        #expect(joined.status == 0, "\(joined.output)")
        let line = joined.output.split(separator: "\n").first { $0.hasPrefix("{") } ?? ""
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["inviter"] as? String == "10.251.0.1:7400", "\(joined.output)")
        #expect(object?["invitedBy"] as? String == "Ana")
        #expect(try ben.stateHash() == (try ana.stateHash()))
    }

    @Test(
        "nodes that join a space while they run find its members over mDNS for it: a lower id dials after looking again, a higher id's new hint is heard",
        .enabled(if: Lab.available, "the network lab needs root and avahi-daemon"), .timeLimit(.minutes(10)))
    func joinWhileServing() throws {
        let (ana, ben, cy) = (try CLI(name: "Ana"), try CLI(name: "Ben"), try CLI(name: "Cy"))
        defer { [ana, ben, cy].forEach { $0.remove() } }
        for (cli, name) in [(ana, "Ana"), (ben, "Ben"), (cy, "Cy")] { try cli.ok(["login", "--name", name]) }
        try ana.ok(["space", "create", "Saturday"])
        let code = try ana.ok(["space", "invite", "--uses", "2", "--json"]).field("invite")
        let lab = try Lab(hosts: 3)
        defer { lab.down() }
        // Fixed ids, so that each way of learning of the space is taken: of two nodes that see each other only the
        // lower id dials. Ben (lowest) must dial Ana once he serves the space (he looks at the nodes he has seen
        // again); Cy (highest) is dialled by both, who must hear his advert change.
        let nodes = [
            try lab.serve(1, ana, ["--node-id", "5000000000000000"]),
            try lab.serve(2, ben, ["--node-id", "1000000000000000"]),
            try lab.serve(3, cy, ["--node-id", "9000000000000000"]),
        ]
        defer {
            for node in nodes {
                node.terminate()
                node.waitUntilExit()
            }
        }
        func log(_ cli: CLI) -> String {
            (try? String(contentsOf: cli.home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        }
        #expect(try eventually(within: 60) { [ana, ben, cy].allSatisfy { log($0).contains("listening") } })
        for (host, cli) in [(2, ben), (3, cy)] {
            let joined = try lab.caddie(host, cli, ["space", "join", code, "--wait", "60", "--json"])
            #expect(joined.status == 0, "\(joined.output)")
            #expect(
                try eventually(within: 30) { log(cli).contains("serving a space created or joined while the node runs") },
                "\(log(cli))")
        }
        // Made after both joins: it reaches them only over the sessions their running nodes keep for the space.
        let added = try lab.caddie(1, ana, ["player", "add", "Zed"])
        #expect(added.status == 0, "\(added.output)")
        let anaHash = try ana.stateHash()
        #expect(
            try eventually(within: 60) { try ben.stateHash() == anaHash && cy.stateHash() == anaHash },
            "Ben: \(log(ben))\nCy: \(log(cy))")
    }

    @Test("the tests that need root can run: the lab (namespaces, Avahi) and disk-full (a tmpfs)")
    func labAvailable() {
        if Lab.skipRootTests {
            print("LabTests: CADDIE_SKIP_ROOT_TESTS=1: the lab and disk-full tests are skipped")
        } else {
            #expect(
                Lab.isRoot,
                "the lab and disk-full tests need root: run as root, or set CADDIE_SKIP_ROOT_TESTS=1 to skip them")
            #expect(Lab.available, "avahi-daemon is not installed: run Deploy/setup.sh")
        }
    }

    @Test(
        "four hosts with no --peer find each other and converge; a cut and restored host catches up; a stranger learns nothing",
        .enabled(if: Lab.available, "the network lab needs root and avahi-daemon"), .timeLimit(.minutes(10)))
    func discoverAndConverge() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        for (index, home) in homes.enumerated() {
            for hole in 1...6 { try home.ok(["score", game, players[index], "\(hole)", "\(3 + (hole + index) % 4)"]) }
        }
        let stranger = try CLI(name: "stranger")
        defer { stranger.remove() }
        try stranger.ok(["login", "--name", "Mallory"])
        try stranger.ok(["space", "create", "Elsewhere"])
        try stranger.ok(["player", "add", "Mallory"])
        let strangerHash = try stranger.stateHash()
        let lab = try Lab(hosts: 5)
        defer { lab.down() }
        var nodes = try homes.enumerated().map { try lab.serve($0.offset + 1, $0.element) }
        nodes.append(try lab.serve(5, stranger))
        defer {
            for node in nodes where node.isRunning {
                node.terminate()
                node.waitUntilExit()
            }
        }
        let start = Date()
        #expect(
            try eventually(within: 60) { try Set(homes.map { try $0.stateHash() }).count == 1 },
            "the four hosts did not converge within 60 s")
        print("LabTests: four hosts converged in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        let peers = try #require(try homes[3].ok(["peers", "--json"]).json() as? [[String: Any]])
        #expect(
            peers.contains { $0["foundBy"] as? String == "mdns" } || peers.contains { $0["foundBy"] as? String == "incoming" })

        // Cut host 4, edit on both sides of the cut, restore: converged again (how fast is printed).
        try lab.cut(4)
        try homes[0].ok(["score", game, players[0], "7", "5"])
        try homes[3].ok(["score", game, players[3], "7", "6"])
        Thread.sleep(forTimeInterval: 2)
        #expect(try homes[3].stateHash() != homes[0].stateHash())
        try lab.restore(4)
        let restored = Date()
        #expect(
            try eventually(within: 60) { try Set(homes.map { try $0.stateHash() }).count == 1 },
            "the cut host did not catch up within 60 s of its link coming back")
        print("LabTests: reconverged \(String(format: "%.1f", Date().timeIntervalSince(restored))) s after the restore")

        // The stranger saw the others advertised, connected to none, and learned nothing.
        #expect(try stranger.stateHash() == strangerHash)
        #expect(try stranger.ok(["peers", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let strangerLog = try String(contentsOf: stranger.home.appendingPathComponent("serve.log"), encoding: .utf8)
        #expect(strangerLog.contains("shares no space"))
        #expect(try !homes[0].ok(["player", "list"]).stdout.contains("Mallory"))
    }

    @Test(
        "a phone on the network reaches `caddie serve --https 0.0.0.0` at the node's own address, as the README runs it",
        .enabled(if: Lab.available, "the network lab needs root and avahi-daemon"), .timeLimit(.minutes(5)))
    func httpsOnTheNetwork() throws {
        let ana = try CLI(name: "Ana")
        defer { ana.remove() }
        try ana.ok(["login", "--name", "Ana"])
        try ana.ok(["space", "create", "Saturday"])
        let lab = try Lab(hosts: 2)
        defer { lab.down() }
        // The README's command, on host 1 (10.251.0.1, not loopback); the phone is host 2.
        let node = try lab.serve(1, ana, ["--https", "0.0.0.0:7443", "--trust-page", "0.0.0.0:7480"])
        defer {
            node.terminate()
            node.waitUntilExit()
        }
        let authority = ana.home.appendingPathComponent("authority.crt")
        #expect(
            try eventually(within: 30) { try ana.run(["web", "authority", "--out", authority.path]).status == 0 },
            "the node made no authority")
        // Python's TLS client (OpenSSL), trusting only the home's authority, checks the certificate against the
        // address itself (an IP address entry), as a phone that typed or scanned https://10.251.0.1:7443 does.
        let script = """
            import http.client, json, ssl, sys, time
            cafile, host = sys.argv[1:3]
            def get(port, path, context):
                for _ in range(150):
                    try:
                        if context is None:
                            c = http.client.HTTPConnection(host, port, timeout=10)
                        else:
                            c = http.client.HTTPSConnection(host, port, timeout=10, context=context)
                        c.request("GET", path)
                        r = c.getresponse()
                        return {"status": r.status, "location": r.getheader("Location"), "body": r.read().decode(errors="replace")[:4000],
                                "version": c.sock.version() if context else None}
                    except ConnectionRefusedError:
                        time.sleep(0.2)
                    except Exception as error:
                        return {"error": "%s: %s" % (type(error).__name__, error)}
                return {"error": "refused for 30 s"}
            trusted = ssl.create_default_context(cafile=cafile)
            print(json.dumps({
                "page": get(7443, "/", trusted),
                "untrusted": get(7443, "/", ssl.create_default_context()),
                "trustPage": get(7480, "/", None),
                "redirect": get(7480, "/v1/whoami", None),
            }))
            """
        let result = try Lab.run(lab.prefix, ["exec", "2", "python3", "-c", script, authority.path, "10.251.0.1"])
        #expect(result.status == 0, "\(result.output)")
        let line = result.output.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]])
        let page = try #require(answers["page"])
        print(
            "LabTests: from 10.251.0.2, https://10.251.0.1:7443/ answered \(page["status"] ?? "-") over \(page["version"] ?? "-"); "
                + "without the authority: \(answers["untrusted"]?["error"] ?? "answered"); the trust page: "
                + "\(answers["trustPage"]?["status"] ?? "-"), /v1/whoami there: \(answers["redirect"]?["status"] ?? "-") to "
                + "\(answers["redirect"]?["location"] ?? "-")")
        #expect(page["status"] as? Int == 200, "the web app over HTTPS at 10.251.0.1: \(page)")
        #expect(["TLSv1.2", "TLSv1.3"].contains(page["version"] as? String ?? ""), "\(page)")
        #expect((page["body"] as? String ?? "").contains("<html"), "\(page)")
        let untrusted = try #require(answers["untrusted"])
        #expect(
            (untrusted["error"] as? String ?? "").contains("CERTIFICATE_VERIFY_FAILED"),
            "a client that does not trust the home's authority is refused: \(untrusted)")
        let trustPage = try #require(answers["trustPage"])
        let fingerprint = try ana.ok(["web", "authority", "--json"]).field("fingerprint")
        #expect(trustPage["status"] as? Int == 200, "\(trustPage)")
        #expect((trustPage["body"] as? String ?? "").contains(fingerprint), "the trust page shows the fingerprint: \(trustPage)")
        let redirect = try #require(answers["redirect"])
        #expect(redirect["status"] as? Int == 308, "\(redirect)")
        #expect(
            (redirect["location"] as? String ?? "").hasPrefix("https://10.251.0.1:7443/"),
            "everything else on the trust page goes to HTTPS at the address the phone used: \(redirect)")
        let log = try String(contentsOf: ana.home.appendingPathComponent("serve.log"), encoding: .utf8)
        #expect(log.contains("10.251.0.1"), "the certificate names the node's address: \(log)")
    }

    @Test("without an Avahi daemon, serve says so once and keeps working with static peers")
    func noDaemon() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        // The machine's own namespace never runs Avahi, so discovery is unavailable here by design.
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--listen", "127.0.0.1:7499", "--home", homes[0].home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = homes[0].passphrase
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/caddie-test-bus"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        try homes[1].ok(["sync", "--peer", "127.0.0.1:7499"])
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.components(separatedBy: "mDNS unavailable").count == 2, "\(log)")
        #expect(log.contains("static peers only"))
    }
}
