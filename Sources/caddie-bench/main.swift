import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation

// caddie-bench: Caddie's performance figures, measured on real SQLite files in a temporary directory.
//
//   caddie-bench [--json] [--appends N] [--devices D] [--ops-per-device N]
//
// Prints a table, then (or with --json only) one JSON document with named figures.

struct Options {
    var jsonOnly = false
    var appends = 10_000
    var devices = 4
    var opsPerDevice = 10_000
    var syncOps = 10_000
    var edits = 200
    var skipSync = false
    var startOps = 100_000
    var loadPeers = 64
    var loadSeconds = 20.0
    var loadWait = 120.0
    var loadOnly = false
    var idleOnly = false
    var idleSeconds = 30.0
    var convergeOnly = false
    var importOnly = false
    var cardGames = 40
    var cardOnly = false
    var boardOnly = false
    var boardEntrants = 160
    var cardHome: String?
    var pycrdtSeconds: Double?
    var loroSeconds: Double?

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            func number() throws -> Int {
                guard let text = iterator.next(), let value = Int(text), value > 0 else {
                    throw BenchError("\(argument) needs a positive number")
                }
                return value
            }
            switch argument {
            case "--json": jsonOnly = true
            case "--appends": appends = try number()
            case "--devices": devices = try number()
            case "--ops-per-device": opsPerDevice = try number()
            case "--sync-ops": syncOps = try number()
            case "--edits": edits = try number()
            case "--no-sync": skipSync = true
            case "--start-ops": startOps = try number()
            case "--load-peers": loadPeers = try number()
            case "--load-seconds": loadSeconds = Double(try number())
            case "--load-wait": loadWait = Double(try number())
            case "--load-only": loadOnly = true
            case "--idle-only": idleOnly = true
            case "--idle-seconds": idleSeconds = Double(try number())
            case "--converge-only": convergeOnly = true
            case "--import-only": importOnly = true
            case "--card-games": cardGames = try number()
            case "--card-only": cardOnly = true
            case "--board-only": boardOnly = true
            case "--board-entrants": boardEntrants = try number()
            case "--card-home":
                guard let path = iterator.next(), !FileManager.default.fileExists(atPath: path) else {
                    throw BenchError("--card-home needs a path that does not exist yet (the home is left there)")
                }
                cardHome = path
            case "--pycrdt-seconds":
                guard let text = iterator.next(), let value = Double(text), value > 0 else {
                    throw BenchError("--pycrdt-seconds needs pycrdt's convergence time in seconds (Deploy/bench-peer.sh)")
                }
                pycrdtSeconds = value
            case "--loro-seconds":
                guard let text = iterator.next(), let value = Double(text), value > 0 else {
                    throw BenchError("--loro-seconds needs Loro's convergence time in seconds (Deploy/bench-peer.sh)")
                }
                loroSeconds = value
            case "-h", "--help":
                print(
                    "usage: caddie-bench --club [bench-club.py's options] | caddie-bench [--json] [--appends N] [--devices D] [--ops-per-device N] [--sync-ops N] [--edits N] [--no-sync] [--start-ops N] [--load-peers N] [--load-seconds S] [--load-wait S] [--load-only] [--idle-seconds S] [--idle-only] [--converge-only] [--import-only] [--card-games N] [--card-only] [--card-home DIR] [--board-only] [--board-entrants N] [--pycrdt-seconds S] [--loro-seconds S]"
                )
                exit(0)
            default: throw BenchError("unknown argument \(argument); see --help")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func joinChange(space: SpaceID, key: [UInt8], user: SigningKey, device: SigningKey, name: String) -> Change {
    .join(
        .init(
            user: user.publicKey, userName: name, certifiedAt: 1,
            certificateSignature: Membership.certify(device: device.publicKey, by: user, at: 1),
            membershipProof: Membership.membershipProof(
                space: space, spaceKey: key, device: device.publicKey,
                user: user.publicKey)))
}

/// A score edit as a golfer makes it: the next hole of one of four players, superseding nothing.
func scoreEdit(_ index: Int, game: GameID, players: [PlayerID]) throws -> [Change] {
    [
        .score(
            game: game, player: players[index % players.count], hole: index / players.count % 18 + 1,
            entry: try ScoreEntry(strokes: 3 + index % 5, putts: 2))
    ]
}

/// `caddie-bench --club [OPTIONS]`: a club's competition day, 160 phones checking in and signing their entries over
/// HTTPS against a `caddie serve --https` hub (docs/performance.md), played by `Deploy/bench-club.py` with the
/// `caddie` built beside this benchmark; the options after `--club` are the script's (`--hole-seconds 12`, ...).
func club(_ arguments: [String]) throws -> Never {
    let built = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let candidates = [
        // .build/release/ is a link to .build/<triple>/release/: the repository is two or three folders up.
        built.appendingPathComponent("../../Deploy/bench-club.py").standardized,
        built.appendingPathComponent("../../../Deploy/bench-club.py").standardized,
        URL(fileURLWithPath: "Deploy/bench-club.py"),
    ]
    guard let script = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
        throw BenchError(
            "--club plays the day with Deploy/bench-club.py, which is not beside this build or in ./Deploy: run "
                + "caddie-bench from the repository")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--caddie", built.appendingPathComponent("caddie").path] + arguments
    try process.run()
    process.waitUntilExit()
    exit(process.terminationStatus)
}

func run() async throws {
    if CommandLine.arguments.dropFirst().first == "--club" { try club(Array(CommandLine.arguments.dropFirst(2))) }
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let space = SecureRandom.spaceID()
    let key = SecureRandom.bytes(32)
    let game = GameID(SecureRandom.entityID())
    let players = (0..<4).map { _ in PlayerID(SecureRandom.entityID()) }
    var figures: [(String, Double, String)] = []
    if options.idleOnly {
        report(
            try await IdleBench(directory: directory, seconds: options.idleSeconds).run(), options: options, directory: directory)
        return
    }
    if options.convergeOnly {
        figures = try await SyncBench(directory: directory, opsPerNode: options.syncOps, edits: options.edits).run()
        if let caddie = figures.first(where: { $0.0 == "convergeSeconds4x\(options.syncOps)" })?.1 {
            // The same round with pycrdt and with Loro (Deploy/bench-peer.sh), and the ratio to the faster of them.
            let peers = [("pycrdt", options.pycrdtSeconds), ("loro", options.loroSeconds)].compactMap { name, seconds in
                seconds.map { (name, $0) }
            }
            for (name, seconds) in peers {
                figures.append(("\(name)ConvergeSeconds4x\(options.syncOps)", seconds, "s"))
                figures.append(("convergeRatioTo\(name == "loro" ? "Loro" : "Pycrdt")", caddie / seconds, "x"))
            }
            if let fastest = peers.map(\.1).min() { figures.append(("convergeRatioToFaster", caddie / fastest, "x")) }
        }
        report(figures, options: options, directory: directory)
        return
    }
    if options.importOnly {
        report(
            try bundleImport(
                options: options, directory: directory, space: space, key: key, game: game, players: players, runs: 5
            ).figures, options: options, directory: directory)
        return
    }
    if options.boardOnly {
        report(
            try BoardBench(directory: directory, entrants: options.boardEntrants).run(), options: options, directory: directory)
        return
    }
    if options.cardOnly {
        report(
            try CardBench(directory: directory, games: options.cardGames, keep: options.cardHome).run(), options: options,
            directory: directory)
        return
    }
    if options.loadOnly {
        figures = try await LoadBench(
            directory: directory, peers: options.loadPeers, seconds: options.loadSeconds, burst: 20, wait: options.loadWait
        )
        .run()
        report(figures, options: options, directory: directory)
        return
    }

    // (a) Local appends: one signed op per transaction, as `caddie score` makes them.
    let local = try OpStore(path: directory.appendingPathComponent("local.sqlite").path)
    try local.addSpace(space, name: "bench", now: 0)
    let user = SigningKey.generate()
    let device = SigningKey.generate()
    try local.append(
        space: space, signer: device,
        changes: [
            joinChange(
                space: space, key: key, user: user, device: device,
                name: "bench")
        ], now: 1)
    let appendTime = try seconds {
        for index in 0..<options.appends {
            try local.append(
                space: space, signer: device, changes: try scoreEdit(index, game: game, players: players),
                now: 1_700_000_000_000 + UInt64(index))
        }
    }
    figures.append(("opAppendPerSecond", Double(options.appends) / appendTime, "ops/s"))
    let batchTime = try seconds {
        for start in stride(from: 0, to: options.appends, by: 100) {
            let edits = try (start..<min(start + 100, options.appends)).map {
                (changes: try scoreEdit($0, game: game, players: players), pred: [OpID]())
            }
            _ = try local.appendBatch(space: space, signer: device, edits: edits, now: 1_700_000_000_000)
        }
    }
    figures.append(("opAppendBatched100PerSecond", Double(options.appends) / batchTime, "ops/s"))

    // (b) Bundle import: D devices' logs made elsewhere, verified, applied and persisted in one transaction.
    let (bundleFigures, importer, bundleCount, lastOp) = try bundleImport(
        options: options, directory: directory, space: space, key: key, game: game, players: players, runs: 1)
    figures += bundleFigures
    let verifyTime = try seconds { _ = try importer.verify(space, spaceKeys: [key]) }
    figures.append(("verifyEveryOpPerSecond", Double(bundleCount) / verifyTime, "ops/s"))
    let sample = try SignedOp(bytes: lastOp)
    figures.append(("scoreOpBytes", Double(sample.bytes.count), "bytes"))
    figures += try CourseBench(courses: 10_000, queries: 200).run()
    figures += try CardBench(directory: directory, games: options.cardGames).run()
    figures += try StartBench(directory: directory, ops: options.startOps).run()
    if !options.skipSync {
        figures += try await SyncBench(directory: directory, opsPerNode: options.syncOps, edits: options.edits).run()
    }

    figures += try await IdleBench(directory: directory, seconds: options.idleSeconds).run()
    figures += try await LoadBench(
        directory: directory, peers: options.loadPeers, seconds: options.loadSeconds, burst: 20, wait: options.loadWait
    ).run()
    report(figures, options: options, directory: directory)
}

func report(_ figures: [(String, Double, String)], options: Options, directory: URL) {
    if !options.jsonOnly {
        print("Caddie benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores, SQLite files in \(directory.path))")
        for (name, value, unit) in figures {
            print("  \(name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(String(format: "%12.1f", value)) \(unit)")
        }
    }
    let json = figures.map { "\"\($0.0)\": \(String(format: "%.3f", $0.1))" }.joined(separator: ", ")
    print("{\(json)}")
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("caddie-bench: error: \(error)\n".utf8))
    exit(1)
}

/// A new directory `name` inside `parent`, for one node's database.
func ownDirectory(_ parent: URL, _ name: String) throws -> URL {
    let url = parent.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
