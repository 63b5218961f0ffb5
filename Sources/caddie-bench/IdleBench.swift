import CaddieCore
import CaddieNode
import Foundation

/// What an idle node costs: four `caddie serve` processes (the `caddie` next to this benchmark) in a full mesh
/// on loopback, one space, nothing to do. After they have met and settled, the first node's CPU time and its
/// threads' context switches (each one a wake-up) are read from /proc over `seconds`.
struct IdleBench {
    let directory: URL
    let seconds: Double

    func run() async throws -> [(String, Double, String)] {
        let caddie = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("caddie")
        let passphrase = "idle passphrase"
        let homes = try (0..<4).map { try Home(path: directory.appendingPathComponent("idle-\($0)").path) }
        for (index, home) in homes.enumerated() { _ = try home.login(name: "Player \(index + 1)", passphrase: passphrase) }
        let invite = try homes[0].createSpace(name: "Idle round", passphrase: passphrase)
        for home in homes.dropFirst() { _ = try home.joinSpace(invite: invite.text, passphrase: passphrase) }
        let base = Int.random(in: 20_000...40_000)
        var processes: [Process] = []
        defer {
            for process in processes where process.isRunning { process.terminate() }
            for process in processes { process.waitUntilExit() }
        }
        for (index, home) in homes.enumerated() {
            let process = Process()
            process.executableURL = caddie
            // Each node dials the ones started before it: one link per pair.
            process.arguments = ["serve", "--listen", "127.0.0.1:\(base + index)", "--no-mdns", "--home", home.directory.path]
                + (0..<index).flatMap { ["--peer", "127.0.0.1:\(base + $0)"] }
                + (index == 0 ? ["--http", "127.0.0.1:\(base + 10)"] : [])
            var environment = ProcessInfo.processInfo.environment
            environment["CADDIE_PASSPHRASE"] = passphrase
            environment["CADDIE_LOG"] = "error"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            while !StartBench.connects(port: base + index) { try await Task.sleep(for: .milliseconds(10)) }
        }
        // Let them meet and exchange their joins.
        try await Task.sleep(for: .seconds(5))
        let pid = processes[0].processIdentifier
        let cpuBefore = LoadBench.cpuSeconds(pid: pid)
        let switchesBefore = Self.contextSwitches(pid: pid)
        let start = DispatchTime.now().uptimeNanoseconds
        try await Task.sleep(for: .seconds(seconds))
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = LoadBench.cpuSeconds(pid: pid) - cpuBefore
        let switches = Self.contextSwitches(pid: pid) - switchesBefore
        return [("idleCPUPercent", cpu / wall * 100, "% of one core"),
                ("idleWakeupsPerSecond", Double(switches) / wall, "per s"),
                ("idleSeconds", wall, "s")]
    }

    /// Voluntary and involuntary context switches of every thread of a process.
    static func contextSwitches(pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { return sum }
            return sum + status.split(separator: "\n").filter { $0.hasSuffix("ctxt_switches") || $0.contains("ctxt_switches:") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
        }
    }
}
