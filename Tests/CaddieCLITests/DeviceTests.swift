import CaddieCodes
import CaddieNode
import Foundation
import Testing

@Suite("caddie CLI: a second device, and revoking a lost one", .serialized)
struct DeviceTests {
    /// Starts `device add` on `first`, listening on `listen`, and returns the process and the code it printed.
    static func startAdd(_ first: CLI, listen: String = "127.0.0.1:0") throws -> (process: Process, code: String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["device", "add", "--listen", listen, "--timeout", "30", "--home", first.home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = first.passphrase
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.killAfter(CLI.commandDeadline)
        var buffer: [UInt8] = []
        let deadline = Date().addingTimeInterval(60)
        while !buffer.contains(UInt8(ascii: "\n")), let chunk = readChunk(out.fileHandleForReading, until: deadline) {
            buffer += chunk
        }
        let code = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        #expect(code.hasPrefix("CADDIEPAIR1"))
        return (process, code)
    }

    /// Starts `device add` on `first`, waits for its code, and pairs `second` with it over loopback.
    static func pair(first: CLI, second: CLI) throws -> String {
        let (process, code) = try startAdd(first)
        let login = try second.run(["login", "--device-code", code, "--json"])
        process.waitUntilExit()
        #expect(login.status == 0, "\(login.stderr)")
        #expect(process.terminationStatus == 0)
        return try login.field("device")
    }

    @Test("a second device pairs over the LAN, gets its own key certified by the same user, and scores in the space")
    func secondDevice() throws {
        let phone = try CLI(name: "phone")
        var watch = try CLI(name: "watch")
        watch.passphrase = "another passphrase"
        defer {
            phone.remove()
            watch.remove()
        }
        try phone.ok(["login", "--name", "Ana"])
        try phone.ok(["space", "create", "Saturday"])
        let player = try phone.ok(["player", "add", "Ana", "--json"]).field("player")
        let watchDevice = try Self.pair(first: phone, second: watch)
        let phoneID = try phone.ok(["whoami", "--json"])
        let watchID = try watch.ok(["whoami", "--json"])
        #expect(try phoneID.field("user") == watchID.field("user"))
        #expect(try phoneID.field("device") != watchID.field("device"))
        #expect(try watchID.field("device") == watchDevice)
        // The watch holds the space key: it can take the phone's ops and add its own.
        let bundle = phone.home.appendingPathComponent("p.bundle").path
        try phone.ok(["export", "--out", bundle])
        try watch.ok(["import", bundle])
        #expect(try watch.ok(["player", "list", "--json"]).stdout.contains(player))
        try watch.ok(["player", "add", "Ben"])
        let back = watch.home.appendingPathComponent("w.bundle").path
        try watch.ok(["export", "--out", back])
        try phone.ok(["import", back])
        #expect(try phone.stateHash() == watch.stateHash())
        let devices = try #require(try phone.ok(["device", "list", "--json"]).json() as? [[String: Any]])
        #expect(devices.count == 2)
        // The watch is lost: revoke it. What it signs afterwards is refused everywhere the revocation reaches.
        try watch.fails(["device", "revoke", try phoneID.field("device")], saying: "user key")
        try phone.ok(["device", "revoke", watchDevice])
        try watch.ok(["player", "add", "Mallory"])
        try watch.ok(["export", "--out", back])
        try phone.fails(["import", back], saying: "revoked")
        #expect(try !phone.ok(["player", "list"]).stdout.contains("Mallory"))
        let listed = try #require(try phone.ok(["device", "list", "--json"]).json() as? [[String: Any]])
        #expect(listed.contains { ($0["device"] as? String) == watchDevice && $0["revokedAfter"] is Int })
        // Once the watch holds its own revocation it signs nothing more, and says why.
        let forth = phone.home.appendingPathComponent("p.bundle").path
        try phone.ok(["export", "--out", forth])
        try watch.ok(["import", forth])
        let before = try watch.stateHash()
        try watch.fails(["player", "add", "Eve"], saying: "this device cannot sign in this space: it was revoked")
        #expect(try watch.stateHash() == before)
    }

    @Test("pairing: a silent connection holds nobody up, a garbled request is refused, and the new device pairs")
    func strangersOnTheLAN() throws {
        let phone = try CLI(name: "phone")
        let tablet = try CLI(name: "tablet")
        defer {
            phone.remove()
            tablet.remove()
        }
        try phone.ok(["login", "--name", "Ana"])
        try phone.ok(["space", "create", "Saturday"])
        let port = try SyncTests.freePort()
        let (process, code) = try Self.startAdd(phone, listen: "127.0.0.1:\(port)")
        defer { if process.isRunning { process.terminate() } }
        // A stranger connects and says nothing; another sends a request made without the code.
        let silent = try RawPeer(port: port)
        let garbled = try RawPeer(port: port)
        garbled.sendFrame(Array("CPR1".utf8) + [UInt8](repeating: 7, count: 64))
        let refusal = try #require(garbled.readFrame())
        #expect(String(decoding: refusal, as: UTF8.self) == "CPX1the device code does not match")
        // The garbled request came after the silent connection and was answered while the silent one still waits
        // for its request (it is given 10 s to speak, then refused): nothing to read on it yet, not even its end.
        var quiet = pollfd(fd: silent.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&quiet, 1, 0) == 0, "the silent connection was answered or closed before a later request")
        // So the tablet pairs without waiting for the silent connection. (No clock on it: the time would include
        // launching `caddie login`.)
        let login = try tablet.run(["login", "--device-code", code, "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(silent.isClosed(), "the silent connection is closed once `device add` has ended")
        #expect(try tablet.ok(["whoami", "--json"]).field("user") == (try phone.ok(["whoami", "--json"]).field("user")))
    }

    @Test("a pairing address is a plain dotted IPv4 address: no names, signs, leading zeros or missing parts")
    func addresses() throws {
        #expect(PairingCode.ipv4("192.168.1.20") == [192, 168, 1, 20])
        #expect(PairingCode.ipv4("0.0.0.0") == [0, 0, 0, 0])
        for text in [
            "localhost", "1.2.3", "1.2.3.4.", " 1.2.3.4", "256.1.1.1", "01.2.3.4", "192.168.1.010", "+1.2.3.4", "-0.1.2.3", "::1",
        ] {
            #expect(PairingCode.ipv4(text) == nil, "\(text) was taken for an address")
        }
        let cli = try CLI(name: "address")
        defer { cli.remove() }
        try cli.fails(["device", "add", "--listen", "192.168.1.010:7401"], saying: "--listen takes an IPv4 address")
    }

    @Test("a wrong or stale device code is refused with a clear reason")
    func wrongCode() throws {
        let cli = try CLI(name: "code")
        defer { cli.remove() }
        try cli.fails(["login", "--device-code", "CADDIEPAIR1AAAA"], saying: "device code")
        try cli.fails(["login", "--name", "Ana", "--device-code", "X"], saying: "either --name")
        // A well-formed code for a port nobody listens on.
        try cli.fails(
            ["login", "--device-code", "CADDIEPAIR1AJ7QAAABWP7UONGGRXU622QC5SC6RQBW44VEDGHCIOBA"],
            saying: "cannot reach")
        // The same code from a caddie before framed pairing (version 1): it says which side to update.
        try cli.fails(
            ["login", "--device-code", "CADDIEPAIR1AF7QAAABWP7UONGGRXU622QC5SC6RQBW44VECIIJBXDA"],
            saying: "comes from an older caddie")
        // The code holds an IPv4 address: a host name would make a code no device can use.
        try cli.fails(["device", "add", "--listen", "localhost:7401"], saying: "--listen takes an IPv4 address")
        try cli.fails(["device", "add", "--address", "phone.local"], saying: "--address takes")
    }
}
