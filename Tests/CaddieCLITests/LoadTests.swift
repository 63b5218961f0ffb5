import Foundation
import Testing

@Suite("a clubhouse hub under load")
struct LoadTests {
    /// `CADDIE_LOAD_PEERS` (16 by default; 64 for the full run) peers over real TCP to one `caddie serve` hub.
    @Test("peers each scoring at a walking rate and then in a burst all end up holding every op")
    func hubConverges() throws {
        let peers = ProcessInfo.processInfo.environment["CADDIE_LOAD_PEERS"] ?? "16"
        let process = Process()
        process.executableURL = CLI.binary.deletingLastPathComponent().appendingPathComponent("caddie-bench")
        process.arguments = ["--load-only", "--load-peers", peers, "--load-seconds", "5", "--json"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.killAfter(CLI.commandDeadline)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors)")
        let line = text.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double])
        #expect(figures["loadPeers"] == Double(peers))
        let converged = try #require(figures["loadConvergeAfterBurstSeconds"])
        #expect(converged < 120)
        #expect((figures["loadOps"] ?? 0) > Double(peers)! * 20)
    }
}
