import CaddieCore
import CaddieNode
import Foundation

/// The demo's four nodes: started (on loopback, or in the network lab), waited for until they agree, stopped or
/// left running.
extension DemoRun {
    func startNodes() throws {
        if lab {
            if nodes.isEmpty, !FileManager.default.fileExists(atPath: "/tmp/caddie-lab-cdemo") {
                try script(["up", "4"])
            }
            for (index, home) in homes.enumerated() {
                try launch(
                    [
                        "exec", "\(index + 1)", executable.path, "serve", "--listen", "10.251.0.\(index + 1):7400",
                        "--home", home.directory.path,
                    ], through: labScript, log: index)
            }
            return
        }
        var ports: [Int] = []
        for (index, home) in homes.enumerated() {
            let arguments =
                ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--home", home.directory.path]
                + ports.flatMap { ["--peer", "127.0.0.1:\($0)"] }
            ports.append(try launch(arguments, through: nil, log: index))
        }
    }

    /// Starts one node; returns the port it listens on (0 in the lab, where it is fixed).
    @discardableResult
    func launch(_ arguments: [String], through script: URL?, log index: Int) throws -> Int {
        let process = Process()
        if let script {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = Demo.passphrase
        environment["CADDIE_LOG"] = environment["CADDIE_LOG"] ?? "warning"
        environment["CADDIE_LAB_PREFIX"] = "cdemo"
        process.environment = environment
        let logURL = folder.appendingPathComponent("\(Demo.names[index]).serve.log")
        if !FileManager.default.fileExists(atPath: logURL.path) {
            FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.standardError = log
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nodes.append(process)
        var buffer = Data()
        let deadline = Date().addingTimeInterval(20)
        while !buffer.contains(UInt8(ascii: "\n")), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += chunk
        }
        let line = String(decoding: buffer, as: UTF8.self)
        guard line.hasPrefix("listening on "),
            let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else {
            throw NodeError.unreachable("\(Demo.names[index])'s node did not start (log: \(logURL.path)): \(line)")
        }
        return port
    }

    func stopNodes() {
        for node in nodes where node.isRunning { kill(node.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        for node in nodes {
            while node.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if node.isRunning { kill(node.processIdentifier, SIGKILL) }
        }
        if lab { Thread.sleep(forTimeInterval: 0.3) }
        nodes = []
    }

    func script(_ arguments: [String]) throws {
        guard let labScript else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [labScript.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_LAB_PREFIX"] = "cdemo"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NodeError.conflict("Deploy/lab.sh \(arguments.joined(separator: " ")) failed")
        }
    }

    /// Waits until the four homes hold one state; returns how long it took.
    func waitConverged(_ space: SpaceID) throws -> Double {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if Set(try homes.map { try $0.stateHash(space) }).count == 1 { return Date().timeIntervalSince(start) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw NodeError.unreachable("the four nodes did not converge within \(Int(timeout)) s (logs in \(folder.path))")
    }

    func finish(keep: Bool) {
        stopNodes()
        if lab { try? script(["down"]) }
        if keep {
            say("demo: the four homes are kept in \(folder.path)")
            if !lab {
                do { try keepRunning() } catch { say("demo: could not leave the nodes running: \(error)") }
            }
        } else {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Starts the four nodes again on loopback, detached from this process (output to their logs), Ana's with
    /// the web app, and prints a one-time sign-in link to the merged card.
    func keepRunning() throws {
        var ports: [Int] = []
        var pids: [Int32] = []
        for (index, home) in homes.enumerated() {
            let process = Process()
            process.executableURL = executable
            process.arguments =
                ["serve", "--listen", "127.0.0.1:0", "--no-mdns", "--home", home.directory.path]
                + (index == 0 ? ["--http", "127.0.0.1:0"] : []) + ports.flatMap { ["--peer", "127.0.0.1:\($0)"] }
            var environment = ProcessInfo.processInfo.environment
            environment["CADDIE_PASSPHRASE"] = Demo.passphrase
            environment["CADDIE_LOG"] = environment["CADDIE_LOG"] ?? "warning"
            process.environment = environment
            let logURL = folder.appendingPathComponent("\(Demo.names[index]).kept.log")
            FileManager.default.createFile(atPath: logURL.path, contents: nil)
            let log = try FileHandle(forWritingTo: logURL)
            process.standardOutput = log
            process.standardError = log
            process.standardInput = FileHandle.nullDevice
            try process.run()
            pids.append(process.processIdentifier)
            let deadline = Date().addingTimeInterval(20)
            var port: Int?
            while port == nil, Date() < deadline {
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                port = text.split(separator: "\n").first { $0.hasPrefix("listening on ") }?.split(separator: ":").last
                    .flatMap { Int($0) }
                if port == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            guard let port else {
                throw NodeError.unreachable("\(Demo.names[index])'s node did not start (log: \(logURL.path))")
            }
            ports.append(port)
        }
        let deadline = Date().addingTimeInterval(20)
        var endpoint = try HTTPEndpoint.read(homes[0])
        while endpoint == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            endpoint = try HTTPEndpoint.read(homes[0])
        }
        guard let endpoint else {
            throw NodeError.unreachable("Ana's node did not start its web app (log in \(folder.path))")
        }
        let secret = try WebAccess(home: homes[0]).newLink(.owner)
        say("\n== The four nodes keep running; Ana's serves the web app")
        say("   open this within 10 minutes, once, to see the card as Ana: http://127.0.0.1:\(endpoint.port)/signin?t=\(secret)")
        say("   a new link: caddie web link --home \(homes[0].directory.path)")
        say("   stop the nodes: kill \(pids.map(String.init).joined(separator: " "))")
    }
}
