import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import CaddieWire
import Foundation
import Logging
import Synchronization

/// Four nodes on loopback, each with its own SQLite home, syncing one space over real TCP.
struct SyncBench {
    /// This process's CPU time so far, every thread's, in seconds, as the scheduler counts it (to the nanosecond,
    /// where `/proc`'s user and system times count clock ticks).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    struct Member {
        let store: OpStore
        let credentials: DeviceCredentials
    }

    /// Records when each op was applied on each node, once ``recording`` is on: during the timed edits only, so that
    /// the bench's own bookkeeping of the convergence's 120,000 arrivals (4% of the samples of a profile, on the
    /// writer's thread at each commit) is not counted in `convergeSeconds4x10000`.
    final class Arrivals: Sendable {
        let times = Mutex<[OpID: [Int: UInt64]]>([:])
        let recording = Atomic<Bool>(false)

        func record(_ ops: [OpID], node: Int) {
            let now = DispatchTime.now().uptimeNanoseconds
            times.withLock { table in for op in ops { table[op, default: [:]][node] = now } }
        }

        func arrivals(_ op: OpID) -> [Int: UInt64] { times.withLock { $0[op] ?? [:] } }
    }

    let directory: URL
    let opsPerNode: Int
    let edits: Int

    func run() async throws -> [(String, Double, String)] {
        let space = SecureRandom.spaceID()
        let key = SecureRandom.bytes(32)
        let game = GameID(SecureRandom.entityID())
        var members: [Member] = []
        for index in 0..<4 {
            // Each node in a directory of its own, as each home is, and each its file's one writer, as a node is.
            let store = try OpStore(
                path: try ownDirectory(directory, "node-\(index)").appendingPathComponent("caddie.sqlite").path)
            try store.claimWrites()
            try store.addSpace(space, name: "bench", now: 0)
            let user = SigningKey.generate()
            let device = SigningKey.generate()
            let certificate = Membership.certify(device: device.publicKey, by: user, at: 1)
            try store.append(
                space: space, signer: device,
                changes: [
                    joinChange(
                        space: space, key: key, user: user,
                        device: device, name: "p\(index)")
                ], now: 1)
            // The foursome round of Deploy/bench-peer.py: edit i fills a fresh cell (18 holes a game, then the next
            // game), except when i % 10 == 9, when it corrects the cell of edit i - 9 and supersedes that op.
            let player = PlayerID(SecureRandom.entityID())
            let games = (0...(opsPerNode / 18)).map { _ in GameID(SecureRandom.entityID()) }
            for start in stride(from: 0, to: opsPerNode, by: 1000) {
                let batch = try (start..<min(opsPerNode, start + 1000)).map { number in
                    let cell = number % 10 == 9 ? number - 9 : number
                    return (
                        changes: [
                            Change.score(
                                game: games[cell / 18], player: player, hole: cell % 18 + 1,
                                entry: try ScoreEntry(strokes: 3 + number % 5))
                        ],
                        pred: number % 10 == 9 ? [OpID(device: device.publicKey, seq: UInt64(cell + 2))] : [OpID]()
                    )
                }
                _ = try store.appendBatch(space: space, signer: device, edits: batch, now: 1_700_000_000_000)
            }
            members.append(
                Member(
                    store: store,
                    credentials: DeviceCredentials(
                        device: device, user: user.publicKey, certifiedAt: 1, certificate: certificate)))
        }
        var logger = Logger(label: "caddie.bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["CADDIE_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .error
        let arrivals = Arrivals()
        let nodes = try members.enumerated().map { index, member in
            // Each op a node applies reaches its store's observers; its own appends are not arrivals.
            let own = member.credentials.device.publicKey
            _ = member.store.observe { change in
                guard arrivals.recording.load(ordering: .relaxed) else { return }
                arrivals.record((change.spaces[space]?.ops ?? []).filter { $0.device != own }, node: index)
            }
            return try SyncNode(
                store: member.store, credentials: member.credentials, spaceKeys: [space: key], logger: logger)
        }
        let total = 4 * (opsPerNode + 1)
        var figures: [(String, Double, String)] = []
        try await withThrowingTaskGroup(of: Void.self) { group in
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = Self.processCPUSeconds()
            var ports: [Int] = []
            for node in nodes {
                let (stream, continuation) = AsyncStream<Int>.makeStream()
                let peers = ports.map { (host: "127.0.0.1", port: $0) }
                group.addTask { try await node.serve(host: "127.0.0.1", port: 0, peers: peers) { continuation.yield($0) } }
                for await port in stream {
                    ports.append(port)
                    break
                }
            }
            func held(_ store: OpStore) throws -> Int { try store.heads(space).reduce(0) { $0 + Int($1.seq) } }
            while try members.contains(where: { try held($0.store) < total }) {
                try await Task.sleep(for: .milliseconds(5))
            }
            let converged = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            // Read before the state hashes below, whose work is not the convergence's (read after them, the figure
            // counted the four hashes of 40,004 ops: 2.5-3.6 "cores" on two).
            let cpuSpent = Self.processCPUSeconds() - cpuStart
            let hashes = try Set(members.map { try $0.store.stateHash(space) })
            guard hashes.count == 1 else { throw BenchError("the four nodes hold the same ops but different states") }
            figures.append(("convergeSeconds4x\(opsPerNode)", converged, "s"))
            // How busy the cores were while the four nodes converged: the process's CPU time over the wall time
            // (2.0 is both cores of this machine all the time; the 5 ms check above adds a little).
            figures.append(("convergeCores4x\(opsPerNode)", cpuSpent / converged, "cores"))

            // Steady state: edits on node 0, timed until all three others applied each.
            try await Task.sleep(for: .milliseconds(300))
            arrivals.recording.store(true, ordering: .relaxed)
            let bytesBefore = nodes.reduce(0) { $0 + $1.wireBytesSent }
            var latencies: [Double] = []
            let author = members[0]
            for number in 0..<edits {
                // Timed from just before the local commit (signing and the transaction, about 0.1 ms, count in).
                let committed = DispatchTime.now().uptimeNanoseconds
                let op = try author.store.append(
                    space: space, signer: author.credentials.device,
                    changes: [
                        .score(
                            game: game, player: PlayerID(game.entity), hole: number % 18 + 1, entry: try ScoreEntry(strokes: 4))
                    ],
                    now: UInt64(Date().timeIntervalSince1970 * 1000))
                let deadline = committed + 5_000_000_000
                while arrivals.arrivals(op.id).count < 3, DispatchTime.now().uptimeNanoseconds < deadline {
                    try await Task.sleep(for: .microseconds(200))
                }
                let seen = arrivals.arrivals(op.id)
                guard seen.count == 3, let last = seen.values.max() else {
                    throw BenchError("edit \(number) did not reach all three peers within 5 s")
                }
                latencies.append(Double(last - committed) / 1e6)
            }
            try await Task.sleep(for: .milliseconds(100))
            let bytes = nodes.reduce(0) { $0 + $1.wireBytesSent } - bytesBefore
            latencies.sort()
            figures.append(("editToAllPeersMedianMs", latencies[latencies.count / 2], "ms"))
            figures.append(("editToAllPeersP99Ms", latencies[min(latencies.count - 1, latencies.count * 99 / 100)], "ms"))
            figures.append(("wireBytesPerEditPerPeer", Double(bytes) / Double(edits * 3), "bytes"))
            group.cancelAll()
        }
        return figures
    }

}
