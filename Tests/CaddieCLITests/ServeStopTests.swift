import Foundation
import Testing

/// `caddie serve` stopped as systemd stops it (SIGTERM) or as a person does (SIGINT, Ctrl-C): a clean stop with
/// exit status 0, the log line "stopped", no error, and the web endpoint file removed.
@Suite("caddie serve stops cleanly", .serialized)
struct ServeStopTests {
    @Test("SIGTERM and SIGINT end the node with exit 0 and 'stopped'", arguments: [SIGTERM, SIGINT])
    func stops(signal: Int32) throws {
        let cli = try CLI(name: "stop")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Saturday"])
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--http", "127.0.0.1:0", "--home", cli.home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = cli.passphrase
        environment["CADDIE_LOG"] = "info"
        process.environment = environment
        let log = cli.home.appendingPathComponent("serve.out")
        try process.run(loggingTo: log)
        let endpoint = cli.home.appendingPathComponent("http-endpoint.json")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: endpoint.path), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: endpoint.path), "the node records where it serves the web app")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(process.terminationStatus == 0, "exit status \(process.terminationStatus): \(text)")
        #expect(text.contains("stopped"))
        #expect(!text.contains("error"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: endpoint.path), "the endpoint file is gone with the node")
    }
}
