import Foundation
import Testing

/// A running `caddie serve` on loopback, started from a test home.
final class NodeProcess: @unchecked Sendable {
    let process = Process()
    let home: CLI
    private(set) var port = 0
    /// The HTTP API's port, when started with `http`.
    private(set) var httpPort = 0
    /// The HTTPS port, when started with `https` (its certificate names `caddie.test`).
    private(set) var httpsPort = 0
    private let errors = Pipe()

    /// Starts the node and waits until it listens.
    init(
        _ home: CLI, port requested: Int = 0, peers: [Int] = [], bindAll: Bool = false, http: Bool = false,
        https: Bool = false, trustPage: (https: Int, trust: Int)? = nil, environment extra: [String: String] = [:],
        log: URL? = nil
    ) throws {
        self.home = home
        process.executableURL = CLI.binary
        var arguments: [String] = [
            "serve", "--listen", "\(bindAll ? "0.0.0.0" : "127.0.0.1"):\(requested)", "--no-mdns", "--home", home.home.path,
        ]
        arguments += peers.flatMap { ["--peer", "127.0.0.1:\($0)"] }
        if http { arguments += ["--http", "127.0.0.1:0"] }
        if https { arguments += ["--https", "127.0.0.1:0", "--https-name", "caddie.test"] }
        if let trustPage {
            arguments += [
                "--https", "127.0.0.1:\(trustPage.https)", "--https-name", "caddie.test", "--trust-page",
                "127.0.0.1:\(trustPage.trust)",
            ]
        }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = home.passphrase
        environment["CADDIE_LOG"] = "warning"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = errors
        }
        try process.run()
        // "listening on HOST:PORT", and with --http "api on http://HOST:PORT (...)", in either order.
        var buffer: [UInt8] = []
        let deadline = Date().addingTimeInterval(60)
        func lines() -> [Substring] { String(decoding: buffer, as: UTF8.self).split(separator: "\n") }
        let expected = 1 + (http ? 1 : 0) + (https ? 1 : 0) + (trustPage == nil ? 0 : 2)
        while lines().count < expected || buffer.last != UInt8(ascii: "\n"), Date() < deadline {
            guard let chunk = readChunk(out.fileHandleForReading, until: deadline) else { break }
            buffer += chunk
        }
        for line in lines() {
            if line.hasPrefix("listening on "), let text = line.split(separator: ":").last, let port = Int(text) {
                self.port = port
            } else if line.hasPrefix("api on http://"),
                let text = line.dropFirst("api on http://".count).split(separator: " ").first?.split(separator: ":").last,
                let port = Int(text)
            {
                httpPort = port
            } else if line.hasPrefix("web app on https://"),
                let text = line.dropFirst("web app on https://".count).split(separator: " ").first?.split(separator: ":").last,
                let port = Int(text)
            {
                httpsPort = port
            }
        }
        guard port != 0, !http || httpPort != 0, !https || httpsPort != 0, trustPage == nil || httpsPort != 0 else {
            process.terminate()
            throw CLI.CLIError("caddie serve did not start: \(String(decoding: buffer, as: UTF8.self))")
        }
    }

    /// Stops it as an operator would (SIGTERM) and waits.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Kills it without warning (SIGKILL), as a dying phone would.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}

/// Reads what a pipe holds, waiting with poll(2) at most until the deadline: nil at the end of the stream or at
/// the deadline, so that a process that neither writes nor exits fails the wait instead of hanging it.
func readChunk(_ handle: FileHandle, until deadline: Date) -> [UInt8]? {
    var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, Int32(max(0, deadline.timeIntervalSinceNow * 1000))) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = read(handle.fileDescriptor, &buffer, buffer.count)
    return count > 0 ? Array(buffer[0..<count]) : nil
}

/// Waits until `condition` holds, polling; false if it never did within `seconds`. The pause between looks grows
/// from 50 ms to half a second: most conditions launch `caddie` (a state hash), and a look every 50 ms for a
/// minute would be a thousand processes competing with the nodes they wait for.
func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var pause = 0.05
    repeat {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: min(pause, max(0, deadline.timeIntervalSinceNow)))
        pause = min(pause * 1.5, 0.5)
    } while Date() < deadline
    return try condition()
}

extension Process {
    /// Kills the process (SIGKILL) if it still runs after `seconds`: a deadline that turns a hang into a failure
    /// (the killed command's status and output say so) instead of a test that waits for ever.
    ///
    /// The deadline holds the process weakly: a finished command's `Process`, and the pipes it holds, go at once,
    /// not when its deadline passes. (Held strongly, the pipes of every command of the last five minutes stayed
    /// open; past about 1,300 descriptors Foundation's `Process.run` read beyond its directory buffer and the
    /// test process crashed.)
    func killAfter(_ seconds: Double) {
        let process = UncheckedProcess(process: self)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if let running = process.process, running.isRunning { Foundation.kill(running.processIdentifier, SIGKILL) }
        }
    }

    /// Starts the process with its standard output and error both written to a new file at `log`.
    func run(loggingTo log: URL) throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        standardOutput = handle
        standardError = handle
        try run()
    }
}

/// A process handed to the deadline's timer; the timer only asks whether it runs and kills it.
private struct UncheckedProcess: @unchecked Sendable {
    weak var process: Process?
}
