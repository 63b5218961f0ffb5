import Foundation
import Testing

@Suite("caddie demo: the foursome round across four node processes")
struct DemoTests {
    @Test("the demo converges, shows the card with net and Stableford, the conflict and its resolution, and cleans up")
    func demoRuns() throws {
        let (status, text, _) = try Self.demo([])
        #expect(status == 0, "\(text)")
        #expect(text.contains("four devices, 4 different states"))
        #expect(text.contains("demo: converged, all four homes hold the same state"))
        #expect(text.contains("Dev joined Saturday foursome, invited by Ana") && text.contains("3 of 3 uses taken"))
        #expect(text.contains("PH  Net  Pts"))
        #expect(text.contains("Dev, hole 7: 6 by Ben vs 4 by Dev"))
        // The side games: the disputed hole is shown deciding a skin, and the settlement waits for it.
        #expect(text.contains("Dev's 7th: 6 by Ben vs 4 by Dev: decides skin 7 (carry 2 or Dev wins 2)"))
        #expect(text.contains("Settlement at 1.00 a unit (provisional: a dispute changes it):"))
        #expect(text.contains("Nassau (Ana & Cleo v Ben & Dev):") && text.contains("front nine: "))
        #expect(text.contains("== Settled: the standings on Ben's device now"))
        #expect(text.contains("5 by Dev on device") && text.contains("— standing"))
        #expect(text.contains("Green, ") && text.contains("yards"))
        // How long convergence took is printed as a number of seconds.
        #expect(text.range(of: #"converged after the round in [0-9]+\.[0-9]+ s"#, options: .regularExpression) != nil)
        // Its homes are gone afterwards.
        let folder = text.range(of: #"/[^ )]*caddie-demo-[A-F0-9]{8}"#, options: .regularExpression).map { String(text[$0]) }
        let path = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the demo plays any format it is asked for, with the hole choices entered, and refuses an unknown one")
    func demoPlaysAnyFormat() throws {
        let (status, text, _) = try Self.demo(["--formats", "wolf,bbb,chapman"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Ana enters each hole's wolf, bingo, bango, bongo on her device"))
        // Every hole has its Wolf's choice: the standings name all eighteen, and the Lone Wolf on the 6th.
        #expect(text.contains("Wolf: ") && text.contains("6: Ben (lone) "), "\(text)")
        #expect(text.contains("Bingo Bango Bongo: Ana leads with"))
        #expect(text.contains("Chapman (Pinehurst): ") && text.contains("team handicap"))
        #expect(text.contains("demo: converged, all four homes hold the same state"))

        let (refused, _, message) = try Self.demo(["--formats", "wolf,golf"])
        #expect(refused != 0)
        #expect(message.contains("--formats names an unknown format 'golf': choose from stroke,"), "\(message)")
    }

    @Test("the club demo: a bad entry list refused, 48 entrants drawn, the board with its countback, a DQ, the close")
    func clubDemoRuns() throws {
        let (status, text, errors) = try Self.demo(["--club"])
        #expect(status == 0, "\(errors)")
        #expect(text.contains("refused: entries.csv line 3: Ben Moreau's index 'twelve' is not a Handicap Index"))
        #expect(text.contains("48 entrants, 48 new players"))
        #expect(text.contains("12 groups, 48 players"))
        #expect(text.contains("864 entries"))
        #expect(text.range(of: #"\(last (9|6|3): \d+ v \d+"#, options: .regularExpression) != nil, "a tie counted back")
        #expect(text.contains("Division Low") && text.contains("Division High"))
        #expect(text.contains("   DQ   "), "the disqualified player is listed as DQ")
        #expect(text.contains("has 1 open dispute"))
        #expect(text.contains("refused, a correction without a reason"))
        #expect(text.contains("the committee corrected") && text.contains("5th: marker's card:"), "in the board's notes")
        #expect(text.contains("the last 3 holes hidden (thru 15)"))
        #expect(text.contains("signs it on the clubhouse home: locked"))
        #expect(text.contains("refused, a late entry for it:") && text.contains("'s card is locked:"), "a locked card")
        #expect(text.contains("closed: every group's game finished"))
        // The scratch home is removed at the end.
        let folder = text.range(of: #"/[^ )]*caddie-club-demo-[A-F0-9-]{36}"#, options: .regularExpression).map {
            String(text[$0])
        }
        #expect(folder.map { !FileManager.default.fileExists(atPath: $0) } == true, "\(folder ?? "no folder printed")")
    }

    /// Runs `caddie demo` with these arguments to its end (or the command deadline): its status, output and errors.
    static func demo(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["demo"] + arguments
        // Errors go to a file, so a full error pipe cannot stall the demo while its output is read.
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-demo-errors-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.killAfter(CLI.commandDeadline)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, try String(contentsOf: errors, encoding: .utf8))
    }
}
