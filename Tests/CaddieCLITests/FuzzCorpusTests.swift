import Foundation
import Testing

@Suite("the fuzz harnesses replay their committed corpora")
struct FuzzCorpusTests {
    static var binary: URL { CLI.binary.deletingLastPathComponent().appendingPathComponent("caddie-fuzz") }

    static func run(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.killAfter(CLI.commandDeadline)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The one list of harnesses, from the binary (Deploy/fuzz.sh reads the same).
    static func harnesses() throws -> [String] {
        try run(["--list"]).text.split(separator: "\n").map(String.init)
    }

    @Test("the harnesses the binary names are exactly the corpus folders, each with several seeds")
    func oneListOfHarnesses() throws {
        let harnesses = try Self.harnesses()
        #expect(harnesses.count >= 8, "caddie-fuzz --list named \(harnesses)")
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: CLI.repository.appendingPathComponent("Fuzz/corpus").path)
        #expect(Set(harnesses) == Set(folders), "harnesses \(harnesses.sorted()), corpus folders \(folders.sorted())")
        for harness in harnesses {
            let seeds = try FileManager.default.contentsOfDirectory(
                atPath: CLI.repository.appendingPathComponent("Fuzz/corpus/\(harness)").path)
            #expect(seeds.count >= 2, "Fuzz/corpus/\(harness) has \(seeds.count) seed(s)")
        }
    }

    @Test("every seed and every regression input of each harness runs through it without a crash")
    func replay() throws {
        let harnesses = try Self.harnesses()
        #expect(!harnesses.isEmpty)
        for harness in harnesses {
            let corpus = CLI.repository.appendingPathComponent("Fuzz/corpus/\(harness)")
            let regressions = CLI.repository.appendingPathComponent("Fuzz/regressions/\(harness)")
            let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
            #expect(seeds > 0, "Fuzz/corpus/\(harness) is empty")
            let (status, text) = try Self.run([harness, corpus.path, regressions.path])
            #expect(status == 0, "caddie-fuzz \(harness) crashed: \(text)")
            let regressionCount = (try? FileManager.default.contentsOfDirectory(atPath: regressions.path).count) ?? 0
            #expect(text.contains("replayed \(seeds + regressionCount) inputs"), "\(harness): \(text)")
        }
    }
}
