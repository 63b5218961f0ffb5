import Foundation
import Testing

@Suite("the fuzz harnesses replay their committed corpora")
struct FuzzCorpusTests {
    static let harnesses = ["frame", "message", "op", "handshake", "invite", "course", "osm", "gpx"]

    @Test("every seed and every regression input of each harness runs through it without a crash", arguments: harnesses)
    func replay(harness: String) throws {
        let binary = CLI.binary.deletingLastPathComponent().appendingPathComponent("caddie-fuzz")
        let corpus = CLI.repository.appendingPathComponent("Fuzz/corpus/\(harness)")
        let regressions = CLI.repository.appendingPathComponent("Fuzz/regressions/\(harness)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
        #expect(seeds > 0, "Fuzz/corpus/\(harness) is empty")
        let process = Process()
        process.executableURL = binary
        process.arguments = [harness, corpus.path, regressions.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "caddie-fuzz \(harness) crashed: \(text)")
        let regressionCount = (try? FileManager.default.contentsOfDirectory(atPath: regressions.path).count) ?? 0
        #expect(text.contains("replayed \(seeds + regressionCount) inputs"), "\(text)")
    }
}
