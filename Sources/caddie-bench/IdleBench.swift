import CaddieCore
import CaddieNode
import Foundation

/// What an idle node costs: four `caddie serve` processes (the `caddie` next to this benchmark) in a full mesh
/// on loopback, one space, nothing to do. After they have met and settled, the CPU time and the threads' context
/// switches (each one a wake-up) of the first node (which also serves the HTTP API and web app) and of the second
/// (sync only) are read from /proc over `seconds`.
struct IdleBench {
    let directory: URL
    let seconds: Double

    func run() async throws -> [(String, Double, String)] {
        let caddie = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("caddie")
        let passphrase = "idle passphrase"
        let homes = try (0..<4).map { try Home(path: directory.appendingPathComponent("idle-\($0)").path) }
        for (index, home) in homes.enumerated() { _ = try home.login(name: "Player \(index + 1)", passphrase: passphrase) }
        let invite = try homes[0].spaces.createSpace(name: "Idle round", passphrase: passphrase)
        for home in homes.dropFirst() { _ = try home.spaces.joinSpace(invite: invite.text, passphrase: passphrase) }
        let base = Int.random(in: 20_000...40_000)
        var processes: [Process] = []
        defer {
            for process in processes where process.isRunning { process.terminate() }
            for process in processes { process.waitUntilExit() }
        }
        for (index, home) in homes.enumerated() {
            // Each node dials the ones started before it: one link per pair.
            let process = StartBench.node(
                caddie,
                ["serve", "--listen", "127.0.0.1:\(base + index)", "--no-mdns", "--home", home.directory.path]
                    + (0..<index).flatMap { ["--peer", "127.0.0.1:\(base + $0)"] }
                    + (index == 0 ? ["--http", "127.0.0.1:\(base + 10)"] : []),
                passphrase: passphrase)
            try process.run()
            processes.append(process)
            while !StartBench.connects(port: base + index) { try await Task.sleep(for: .milliseconds(10)) }
        }
        // Let them meet and exchange their joins.
        try await Task.sleep(for: .seconds(5))
        // The first node serves the web app as well (--http); the second is a sync node only.
        let pids = [processes[0].processIdentifier, processes[1].processIdentifier]
        let cpuBefore = pids.map { LoadBench.cpuSeconds(pid: $0) }
        let switchesBefore = pids.map { Self.contextSwitches(pid: $0) }
        let start = DispatchTime.now().uptimeNanoseconds
        try await Task.sleep(for: .seconds(seconds))
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = pids.indices.map { LoadBench.cpuSeconds(pid: pids[$0]) - cpuBefore[$0] }
        let switches = pids.indices.map { Self.contextSwitches(pid: pids[$0]) - switchesBefore[$0] }
        return [
            ("idleCPUPercent", cpu[0] / wall * 100, "% of one core"),
            ("idleWakeupsPerSecond", Double(switches[0]) / wall, "per s"),
            ("idleCPUPercentNoHTTP", cpu[1] / wall * 100, "% of one core"),
            ("idleWakeupsPerSecondNoHTTP", Double(switches[1]) / wall, "per s"),
            ("idleSeconds", wall, "s"),
        ]
    }

    /// Voluntary and involuntary context switches of every thread of a process.
    static func contextSwitches(pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                return sum
            }
            return sum
                + status.split(separator: "\n").filter { $0.hasSuffix("ctxt_switches") || $0.contains("ctxt_switches:") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
        }
    }
}
