import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieNode
import CaddieStore
import CaddieSync
import CaddieWire
import Foundation
import Logging

/// A clubhouse hub (`caddie serve`, its own process) with many peers (in this process, each its own
/// SQLite home and sync node over real TCP), each entering scores at a walking golfer's rate and then all
/// at once: time for everyone to hold everything, and the hub's CPU and peak memory.
struct LoadBench {
    let directory: URL
    let peers: Int
    let seconds: Double
    let burst: Int
    /// How long to wait for convergence after the burst, in seconds.
    var wait = 120.0

    func run() async throws -> [(String, Double, String)] {
        let caddie = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("caddie")
        let hubPath = directory.appendingPathComponent("hub").path
        let passphrase = "hub passphrase"
        let invite: InviteCode
        do {
            let hub = try Home(path: hubPath)
            _ = try hub.login(name: "Clubhouse", passphrase: passphrase)
            invite = try hub.spaces.createSpace(name: "Club medal", passphrase: passphrase)
        }
        let port = Int.random(in: 20_000...40_000)
        let process = Process()
        process.executableURL = caddie
        process.arguments = [
            "serve", "--listen", "127.0.0.1:\(port)", "--no-mdns", "--max-per-address", "\(peers + 8)",
            "--max-connections", "\(peers + 16)",
            "--home", hubPath,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = passphrase
        // CADDIE_LOAD_HUB_LOG=FILE keeps the hub's log (at CADDIE_LOAD_LOG's level, info by default) for a diagnosis.
        let hubLog = ProcessInfo.processInfo.environment["CADDIE_LOAD_HUB_LOG"]
        environment["CADDIE_LOG"] = hubLog == nil ? "error" : ProcessInfo.processInfo.environment["CADDIE_LOAD_LOG"] ?? "info"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        if let hubLog, FileManager.default.createFile(atPath: hubLog, contents: nil),
            let file = FileHandle(forWritingAtPath: hubLog)
        {
            process.standardError = file
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        while !StartBench.connects(port: port) { try await Task.sleep(for: .milliseconds(10)) }
        let cpuBefore = Self.cpuSeconds(pid: process.processIdentifier)
        // The start's peak (unlocking the keys: Argon2id's 64 MiB), then the peak counted again from here, so that
        // what the load itself costs is its own figure.
        let startPeak = Self.peakKilobytes(pid: process.processIdentifier)
        let peakReset = Self.resetPeak(pid: process.processIdentifier)

        var logger = Logger(label: "caddie.bench.load") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["CADDIE_LOAD_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .error
        var stores: [OpStore] = []
        var devices: [SigningKey] = []
        var nodes: [SyncNode] = []
        for index in 0..<peers {
            // Each peer in a directory of its own, as each phone's home is, and each its file's one writer, as a
            // node is.
            let store = try OpStore(
                path: try ownDirectory(directory, "peer-\(index)").appendingPathComponent("caddie.sqlite").path)
            try store.claimWrites()
            try store.addSpace(invite.space, name: "Club medal", now: 0)
            let user = SigningKey.generate()
            let device = SigningKey.generate()
            try store.append(
                space: invite.space, signer: device,
                changes: [
                    joinChange(
                        space: invite.space, key: invite.key,
                        user: user, device: device, name: "p\(index)")
                ], now: 1)
            stores.append(store)
            devices.append(device)
            nodes.append(
                try SyncNode(
                    store: store,
                    credentials: DeviceCredentials(
                        device: device, user: user.publicKey, certifiedAt: 1,
                        certificate: Membership.certify(device: device.publicKey, by: user, at: 1)),
                    spaceKeys: [invite.space: invite.key], logger: logger))
        }
        let game = GameID(SecureRandom.entityID())
        var figures: [(String, Double, String)] = []
        let wallStart = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for node in nodes {
                group.addTask { try await node.serve(host: "127.0.0.1", port: 0, peers: [("127.0.0.1", port)]) { _ in } }
            }
            // A walking golfer: one score every ~15 s per player, spread over the run; then the last holes at once.
            var entered = 0
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
            var hole = 1
            while DispatchTime.now().uptimeNanoseconds < deadline {
                for index in stride(from: hole % 15, to: peers, by: 15) {
                    try stores[index].append(
                        space: invite.space, signer: devices[index],
                        changes: [
                            .score(
                                game: game, player: PlayerID(game.entity), hole: hole % 18 + 1,
                                entry: try ScoreEntry(strokes: 4))
                        ], now: 1_700_000_000_000)
                    entered += 1
                }
                hole += 1
                try await Task.sleep(for: .seconds(1))
            }
            for index in 0..<peers {
                _ = try stores[index].appendBatch(
                    space: invite.space, signer: devices[index],
                    edits: try (0..<burst).map { _ in
                        (
                            changes: [
                                Change.score(
                                    game: game, player: PlayerID(game.entity), hole: 18, entry: try ScoreEntry(strokes: 5))
                            ],
                            pred: [OpID]()
                        )
                    }, now: 1_700_000_000_000)
                entered += burst
            }
            let burstDone = DispatchTime.now().uptimeNanoseconds
            FileHandle.standardError.write(Data("load: \(peers) peers entered \(entered) scores; waiting for convergence\n".utf8))
            let total = peers + entered
            let hub = try OpStore(path: directory.appendingPathComponent("hub/caddie.sqlite").path)
            func held(_ store: OpStore) throws -> Int { try store.heads(invite.space).reduce(0) { $0 + Int($1.seq) } }
            // Everyone holds everything: the hub's own join and name ops are on top of the peers' ops.
            let hubOwn = try hub.heads(invite.space).filter { $0.device != devices[0].publicKey }.count
            _ = hubOwn
            let limit = burstDone + UInt64(wait * 1e9)
            var lastReport = DispatchTime.now().uptimeNanoseconds
            while DispatchTime.now().uptimeNanoseconds < limit {
                let hubHolds = try held(hub)
                if DispatchTime.now().uptimeNanoseconds - lastReport > 10_000_000_000 {
                    lastReport = DispatchTime.now().uptimeNanoseconds
                    let lowest = try stores.map(held).min() ?? 0
                    FileHandle.standardError.write(
                        Data("load: waiting: \(total + 2) ops expected, hub \(hubHolds), lowest peer \(lowest)\n".utf8))
                }
                if hubHolds >= total + 2, try stores.allSatisfy({ try held($0) >= total + 2 }) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let converged = Double(DispatchTime.now().uptimeNanoseconds - burstDone) / 1e9
            guard try stores.allSatisfy({ try held($0) >= total + 2 }) else {
                let short = try stores.enumerated().compactMap { index, store in
                    try held(store) < total + 2 ? "peer \(index) holds \(try held(store))" : nil
                }
                if let index = try stores.firstIndex(where: { try held($0) < total + 2 }) {
                    let hubHeads = Dictionary(try hub.heads(invite.space).map { ($0.device, $0.seq) }, uniquingKeysWith: max)
                    let peerHeads = Dictionary(
                        try stores[index].heads(invite.space).map { ($0.device, $0.seq) }, uniquingKeysWith: max)
                    for (device, seq) in hubHeads where peerHeads[device, default: 0] < seq {
                        FileHandle.standardError.write(
                            Data("load: peer \(index) lacks \(device.short) \(peerHeads[device, default: 0] + 1)...\(seq)\n".utf8)
                        )
                    }
                }
                FileHandle.standardError.write(
                    Data("load: expected \(total + 2) ops; hub holds \(try held(hub)); \(short.joined(separator: ", "))\n".utf8))
                throw BenchError("the \(peers) peers did not converge within \(Int(wait)) s of the burst (--load-wait)")
            }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
            let cpu = Self.cpuSeconds(pid: process.processIdentifier) - cpuBefore
            // Every op a peer holds that its own device did not make came to it through the hub (each peer dials the
            // hub alone): the ops the hub delivered.
            var delivered = 0
            for (index, store) in stores.enumerated() {
                let own = try store.heads(invite.space).first { $0.device == devices[index].publicKey }.map { Int($0.seq) } ?? 0
                delivered += try held(store) - own
            }
            figures += [
                ("loadPeers", Double(peers), "peers"), ("loadOps", Double(total), "ops"),
                ("loadConvergeAfterBurstSeconds", converged, "s"),
                ("loadHubCPUPercent", cpu / wall * 100, "% of one core"),
                (
                    "loadHubPeakMiB", Double(max(startPeak, Self.peakKilobytes(pid: process.processIdentifier))) / 1024,
                    "MiB"
                ),

                ("loadOpsDeliveredToPeers", Double(delivered), "ops"),
                ("loadHubCPUMicrosecondsPerOpDelivered", cpu / Double(max(delivered, 1)) * 1e6, "us"),
            ]
            // Where the kernel lets the peak be started again after the hub's start (it does for a process of the
            // same user): the peak of the load alone.
            if peakReset {
                figures.append(
                    ("loadHubPeakMiBUnderLoad", Double(Self.peakKilobytes(pid: process.processIdentifier)) / 1024, "MiB"))
            }
            group.cancelAll()
        }
        return figures
    }

    static func cpuSeconds(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3; utime and stime are fields 14 and 15 (1-based in proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Starts the process's peak resident memory (VmHWM) again from what it holds now (proc(5), `clear_refs` 5).
    /// False where the kernel refuses it.
    static func resetPeak(pid: Int32) -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/\(pid)/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
    }

    static func peakKilobytes(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
