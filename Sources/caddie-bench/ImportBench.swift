import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation

/// The bundle import (`bundleImportPerSecond`): D devices' logs made elsewhere, decoded, verified, applied and
/// persisted in one transaction of a fresh home on disk. With `runs` above one, each run imports into a home of its
/// own and the figures are the median run's (`caddie-bench --import-only` runs five): the receive path measured
/// alone, on one thread, with nothing else in the process.
func bundleImport(
    options: Options, directory: URL, space: SpaceID, key: [UInt8], game: GameID, players: [PlayerID], runs: Int
) throws -> (figures: [(String, Double, String)], importer: OpStore, ops: Int, lastOp: [UInt8]) {
    var bundle: [[UInt8]] = []
    for index in 0..<options.devices {
        let author = try OpStore()
        try author.addSpace(space, name: "bench", now: 0)
        let user = SigningKey.generate()
        let device = SigningKey.generate()
        try author.append(
            space: space, signer: device,
            changes: [joinChange(space: space, key: key, user: user, device: device, name: "p\(index)")], now: 1)
        for start in stride(from: 1, to: options.opsPerDevice, by: 500) {
            let edits = try (start..<min(start + 500, options.opsPerDevice)).map {
                (changes: try scoreEdit($0 + index, game: game, players: players), pred: [OpID]())
            }
            _ = try author.appendBatch(space: space, signer: device, edits: edits, now: 1_700_000_000_000)
        }
        bundle += try author.ops(space: space)
    }
    let encoded = OpBundle(space: space, ops: bundle).encoded
    var times: [Double] = []
    var last: OpStore?
    for run in 0..<runs {
        let importer = try OpStore(path: directory.appendingPathComponent("import-\(run).sqlite").path)
        try importer.addSpace(space, name: "bench", now: 0)
        var applied = 0
        times.append(
            try seconds {
                let decoded = try OpBundle(decoding: encoded)
                applied = try importer.receive(
                    space: space, spaceKey: key, ops: decoded.ops, mode: .strict,
                    now: UInt64(Date().timeIntervalSince1970 * 1000)
                ).applied.count
            })
        guard applied == bundle.count else { throw BenchError("import applied \(applied) of \(bundle.count) ops") }
        last = importer
    }
    let median = times.sorted()[times.count / 2]
    var figures: [(String, Double, String)] = [
        ("bundleImportPerSecond", Double(bundle.count) / median, "ops/s"),
        ("bundleImportSeconds", median, "s"),
        ("bundleOps", Double(bundle.count), "ops"),
    ]
    if runs > 1 {
        figures.append(("bundleImportRuns", Double(runs), "runs"))
        figures.append(("bundleImportFastestPerSecond", Double(bundle.count) / (times.min() ?? median), "ops/s"))
    }
    guard let last else { throw BenchError("no import run") }
    return (figures, last, bundle.count, bundle.last ?? [])
}
