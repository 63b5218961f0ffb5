import CaddieCore
import CaddieCrypto
import CaddieNode
import CaddieStore
import Foundation

/// Cold start of `caddie serve` on a home holding many ops: time until it accepts connections, and its
/// resident memory then.
struct StartBench {
    let directory: URL
    let ops: Int

    func run() throws -> [(String, Double, String)] {
        let caddie = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("caddie")
        guard FileManager.default.isExecutableFile(atPath: caddie.path) else {
            throw BenchError("caddie is not built next to caddie-bench (swift build -c release --product caddie)")
        }
        let path = directory.appendingPathComponent("big-home").path
        let passphrase = "bench passphrase"
        do {
            let home = try Home(path: path)
            _ = try home.login(name: "Bench", passphrase: passphrase)
            let invite = try home.spaces.createSpace(name: "Bench", passphrase: passphrase)
            let keys = try home.unlock(passphrase: passphrase)
            let game = GameID(SecureRandom.entityID())
            for start in stride(from: 0, to: ops, by: 5000) {
                let edits = try (start..<min(ops, start + 5000)).map { number in
                    (
                        changes: [
                            Change.score(
                                game: game, player: PlayerID(game.entity), hole: number % 18 + 1,
                                entry: try ScoreEntry(strokes: 3 + number % 5))
                        ], pred: [OpID]()
                    )
                }
                _ = try home.store.appendBatch(space: invite.space, signer: keys.device, edits: edits, now: 1_700_000_000_000)
            }
        }
        // The home is closed: now start the node from cold, as a device would after a restart.
        let port = Int.random(in: 20_000...40_000)
        let process = Self.node(
            caddie, ["serve", "--listen", "127.0.0.1:\(port)", "--no-mdns", "--home", path], passphrase: passphrase)
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var accepting = false
        while !accepting, DispatchTime.now().uptimeNanoseconds - start < 30_000_000_000 {
            accepting = Self.connects(port: port)
            if !accepting { usleep(2000) }
        }
        guard accepting else { throw BenchError("caddie serve did not accept connections within 30 s") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        usleep(300_000)
        let rss = Self.residentKilobytes(pid: process.processIdentifier)
        return [("coldStartSeconds\(ops)", seconds, "s"), ("serveResidentMiB\(ops)", Double(rss) / 1024, "MiB")]
    }

    /// A `caddie` process with these arguments, the passphrase in its environment, its output discarded; not started.
    static func node(_ caddie: URL, _ arguments: [String], passphrase: String) -> Process {
        let process = Process()
        process.executableURL = caddie
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = passphrase
        environment["CADDIE_LOG"] = "error"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }

    static func connects(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    static func residentKilobytes(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
