import Foundation
import Testing

@Suite("caddie CLI: handicap calculations and the index from the merged state", .serialized)
struct HandicapCLITests {
    /// The pars of holes 1-18 of the example course (docs/examples/course.json).
    static let pars = [5, 4, 4, 3, 5, 4, 4, 3, 4, 5, 4, 3, 4, 4, 4, 4, 3, 5]

    /// Runs `caddie handicap ARGUMENTS` against a home that does not exist, and checks it still does not afterwards:
    /// calculations need no login and no home.
    @discardableResult
    static func calculate(
        _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws
        -> CLI.Result
    {
        let cli = try CLI(name: "calc")
        defer { cli.remove() }
        let result = try cli.ok(["handicap"] + arguments, sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: cli.home.path), "a calculation created a home",
            sourceLocation: sourceLocation)
        return result
    }

    /// The output as a JSON object.
    static func object(_ result: CLI.Result) throws -> [String: Any] {
        guard let object = try result.json() as? [String: Any] else {
            throw CLI.CLIError("not a JSON object: \(result.stdout)")
        }
        return object
    }

    /// Twenty differentials, oldest first, whose lowest 8 are `lowest` and the rest 25.0 or more.
    static func record(lowest: [Double]) -> [Double] {
        var values = (0..<(20 - lowest.count)).map { 25.0 + Double($0) / 10 }
        for (offset, low) in lowest.enumerated() {
            values.insert(low, at: min(values.count, offset * 2))
        }
        return values
    }

    static func list(_ values: [Double]) -> String { values.map { String($0) }.joined(separator: ",") }

    // MARK: Calculations

    @Test("differential prints {\"differential\": 19.0} for 94 on 73.0/125, and handles PCC and 9 holes")
    func differential() throws {
        // Pecan Grove WGA, "World Handicap System 2020: Score Differential Calculation" (USGA RoH 5.1a):
        // 113 / 125 x (94 - 73.0 - 0) = 18.984, rounded to 19.0.
        let result = try Self.calculate(["differential", "--ags", "94", "--rating", "73.0", "--slope", "125", "--json"])
        #expect(result.stdout == "{\"differential\": 19.0}\n")
        // USGA RoH 5.1a with a PCC of +1: 113 / 125 x (94 - 73.0 - 1) = 18.08 -> 18.1.
        let pcc = try Self.calculate([
            "differential", "--ags", "94", "--rating", "73.0", "--slope", "125", "--pcc", "1",
            "--json",
        ])
        #expect(try Self.object(pcc)["differential"] as? Double == 18.1)
        // USGA RoH 5.1b, the 9-hole part: 113 / 130 x (45 - 36.1) = 7.736 -> 7.7.
        let nine = try Self.calculate([
            "differential", "--ags", "45", "--rating", "36.1", "--slope", "130", "--holes",
            "9", "--json",
        ])
        #expect(try Self.object(nine)["differential"] as? Double == 7.7)
        let text = try Self.calculate(["differential", "--ags", "94", "--rating", "73.0", "--slope", "125"])
        #expect(text.stdout.contains("Score Differential 19.0"))
    }

    @Test("course prints 31, 26 and 30.72 for index 27.7 on 71.1/129 par 72 at 85%, and takes plus indexes")
    func courseHandicap() throws {
        // USGA RoH 6.1a: 27.7 x 129 / 113 + (71.1 - 72) = 30.722 -> 31; Appendix C: the 85% allowance applies to
        // the unrounded value, 26.11 -> 26.
        let result = try Self.calculate([
            "course", "--index", "27.7", "--slope", "129", "--rating", "71.1",
            "--par", "72", "--allowance", "85", "--json",
        ])
        #expect(result.stdout == "{\"courseHandicap\": 31, \"playingHandicap\": 26, \"unrounded\": 30.72}\n")
        // HANDICAP.md §6: GB&I launched the WHS with index x slope / 113 only: 31.62 -> 32.
        let withoutTerm = try Self.calculate([
            "course", "--index", "27.7", "--slope", "129", "--rating", "71.1",
            "--par", "72", "--without-rating-minus-par", "--json",
        ])
        #expect(try Self.object(withoutTerm)["courseHandicap"] as? Int == 32)
        // A plus index is negative, written either way: -3.0 x 130 / 113 + (71.0 - 72) = -4.451 -> -4 (rounded .5
        // upwards, towards zero for plus handicaps: R&A RoH Appendix C). [computed]
        for index in [["--index=-3.0"], ["--index", "-3.0"]] {
            let plus = try Self.object(
                Self.calculate(
                    ["course"] + index + [
                        "--slope", "130", "--rating", "71.0",
                        "--par", "72", "--json",
                    ]))
            #expect(plus["courseHandicap"] as? Int == -4)
            #expect(plus["playingHandicap"] as? Int == -4)
            #expect(plus["unrounded"] as? Double == -4.45)
        }
    }

    @Test("strokes: 24 gives 2 on stroke index 1-6 and 1 elsewhere; +2 gives back on 17 and 18; 40 gives 3 and 2")
    func strokes() throws {
        // HANDICAP.md §8 (club explanations of Appendix E): floor(24 / 18) = 1 everywhere, one more on SI <= 6.
        let expected = Array(repeating: 2, count: 6) + Array(repeating: 1, count: 12)
        let result = try Self.calculate(["strokes", "--playing-handicap", "24", "--json"])
        let printed = expected.map { String($0) }.joined(separator: ", ")
        #expect(result.stdout == "{\"strokes\": [\(printed)]}\n")
        // R&A RoH Appendix C: a plus handicap gives strokes back from stroke index 18: +2 on 18 and 17.
        for option in [["--playing-handicap=-2"], ["--playing-handicap", "-2"]] {
            let plus = try Self.object(Self.calculate(["strokes"] + option + ["--json"]))
            let strokes = (plus["strokes"] as? [Any])?.compactMap { $0 as? Int }
            #expect(strokes == Array(repeating: 0, count: 16) + [-1, -1])
        }
        // HANDICAP.md §8 [computed]: 40 gives 3 on stroke index 1-4 and 2 elsewhere.
        let forty = try Self.object(Self.calculate(["strokes", "--playing-handicap", "40", "--json"]))
        #expect(
            (forty["strokes"] as? [Any])?.compactMap { $0 as? Int }
                == Array(repeating: 3, count: 4) + Array(repeating: 2, count: 14))
    }

    @Test("max-hole: net double bogey 8 for course handicap 24 on a par 4 of stroke index 5; par + 5 without index")
    func maximumHoleScore() throws {
        // R&A RoH 3.1b: par + 2 + strokes received; 24 receives 2 on stroke index 5 -> 4 + 2 + 2 = 8.
        let result = try Self.calculate([
            "max-hole", "--course-handicap", "24", "--par", "4", "--stroke-index", "5",
            "--json",
        ])
        #expect(result.stdout == "{\"max\": 8}\n")
        // R&A RoH 3.1a: a player without a Handicap Index is limited to par + 5.
        let noIndex = try Self.calculate(["max-hole", "--par", "4", "--stroke-index", "5", "--json"])
        #expect(noIndex.stdout == "{\"max\": 9}\n")
        // R&A RoH 3.1b: a plus handicap gives back its strokes: +2 on stroke index 18 -> 4 + 2 - 1 = 5.
        let plus = try Self.calculate([
            "max-hole", "--course-handicap=-2", "--par", "4", "--stroke-index", "18",
            "--json",
        ])
        #expect(plus.stdout == "{\"max\": 5}\n")
    }

    @Test("stableford: playing handicap 23, par 4, stroke index 1, gross 5 scores 3 points")
    func stableford() throws {
        // Rules of Golf 21.1 (HANDICAP.md §9): 23 receives 2 strokes on stroke index 1, so 5 is a net 3, a net
        // birdie: 3 points. A gross 8 is a net 6, net double bogey: 0.
        let result = try Self.calculate([
            "stableford", "--playing-handicap", "23", "--par", "4", "--stroke-index", "1",
            "--gross", "5", "--json",
        ])
        #expect(result.stdout == "{\"points\": 3}\n")
        let blob = try Self.calculate([
            "stableford", "--playing-handicap", "23", "--par", "4", "--stroke-index", "1",
            "--gross", "8", "--json",
        ])
        #expect(blob.stdout == "{\"points\": 0}\n")
    }

    @Test("index: lowest 8 of 20, the table below 20, and the soft and hard caps against --low-index")
    func index() throws {
        // USGA RoH 5.2b: the average of the lowest 8 of the most recent 20. 86.4 / 8 = 10.8; no cap within 3.0.
        let lows = [9.0, 9.5, 10.2, 10.8, 11.0, 11.4, 11.6, 12.9]
        let plain = try Self.object(
            Self.calculate([
                "index", "--differentials", Self.list(Self.record(lowest: lows)),
                "--low-index", "9.0", "--json",
            ]))
        #expect(plain["index"] as? Double == 10.8)
        #expect((plain["used"] as? [Any])?.compactMap { $0 as? Double } == lows)
        #expect(plain["adjustment"] as? Int == 0)
        #expect(plain["cap"] as? String == "none")

        // USGA committee guidance on Rule 5.8, soft cap example: average 11.6, low index 6.5: 11.6 - 0.5 x (5.1 -
        // 3.0) = 10.55 -> 10.6.
        let softLows = [10.0, 10.5, 11.0, 11.5, 11.8, 12.0, 12.5, 13.5]
        let soft = try Self.object(
            Self.calculate([
                "index", "--differentials", Self.list(Self.record(lowest: softLows)),
                "--low-index", "6.5", "--json",
            ]))
        #expect(soft["index"] as? Double == 10.6)
        #expect(soft["cap"] as? String == "soft")

        // The same guidance, hard cap example: average 18.2, low index 10.2: held at 10.2 + 5.0 = 15.2.
        let hardLows = [16.0, 17.0, 17.5, 18.0, 18.5, 19.0, 19.6, 20.0]
        let hard = try Self.object(
            Self.calculate([
                "index", "--differentials", Self.list(Self.record(lowest: hardLows)),
                "--low-index", "10.2", "--json",
            ]))
        #expect(hard["index"] as? Double == 15.2)
        #expect(hard["cap"] as? String == "hard")

        // Rule 5.2a table (PATT, East Ham Lodge; HANDICAP.md §2): 3 differentials -> the lowest, less 2.0.
        let three = try Self.object(Self.calculate(["index", "--differentials", "15.2,12.0,18.3", "--json"]))
        #expect(three["index"] as? Double == 10.0)
        #expect(three["adjustment"] as? Int == -2)
        // Fewer than 3: no index yet, printed as null.
        let two = try Self.calculate(["index", "--differentials", "15.2,12.0", "--json"])
        #expect(two.stdout == "{\"index\": null, \"used\": [], \"adjustment\": 0, \"cap\": \"none\"}\n")
    }

    @Test("bad input gets one clear line on stderr, exit status 1, and no home")
    func badInput() throws {
        let cases: [([String], String)] = [
            (
                ["differential", "--ags", "94", "--rating", "73.0", "--slope", "200"],
                "slope rating 200 is outside 55...155"
            ),
            (["differential", "--ags", "-5", "--rating", "73.0", "--slope", "125"], "adjusted gross score -5"),
            (
                ["course", "--index", "54.1", "--slope", "129", "--rating", "71.1", "--par", "72"],
                "handicap index 54.1 is outside"
            ),
            (
                ["course", "--index", "20", "--slope", "129", "--rating", "71.1", "--par", "72", "--allowance", "0"],
                "allowance 0%"
            ),
            (["index", "--differentials", "12.0,abc,9.8"], "'abc' is not a number"),
            (["index", "--differentials", "12.0,14.0,16.0", "--low-index", "60"], "low handicap index 60.0"),
            (["strokes", "--playing-handicap", "200"], "handicap 200 is outside"),
            (
                ["max-hole", "--course-handicap", "24", "--par", "4", "--stroke-index", "19"],
                "stroke index 19 is outside 1...18"
            ),
            (
                ["stableford", "--playing-handicap", "10", "--par", "8", "--stroke-index", "1", "--gross", "5"],
                "hole par 8 is outside"
            ),
        ]
        for (arguments, message) in cases {
            let cli = try CLI(name: "bad-calc")
            defer { cli.remove() }
            let result = try cli.fails(["handicap"] + arguments, saying: message)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.home.path), "\(arguments) created a home")
        }
    }

    // MARK: From the merged state

    /// USGA RoH 5.1a on the example course's tee 1 (rating 74.2, slope 133), PCC 0, rounded .5 upwards.
    static func differential(ags: Int) -> Double {
        let unrounded = 113.0 / 133.0 * (Double(ags) - 74.2)
        return (unrounded * 10 + 0.5).rounded(.down) / 10
    }

    /// Plays 18 holes of the example course from tee 1 for one player, `over` strokes over par (at most 2 on any hole,
    /// so net double bogey never caps a hole for a player with a positive Course Handicap), and finishes the game.
    static func playRound(_ home: CLI, space: String, course: String, player: String, over: Int) throws -> String {
        let game = try home.ok([
            "game", "new", "--space", space, "--course", course, "--tee", "1", "--players", player,
            "--json",
        ]).field("game")
        for (offset, par) in pars.enumerated() {
            let hole = offset + 1
            let strokes = par + over / 18 + (hole <= over % 18 ? 1 : 0)
            try home.ok(["score", game, player, "\(hole)", "\(strokes)", "--space", space])
        }
        try home.ok(["game", "finish", game, "--space", space])
        return game
    }

    /// Every home exports every space to every other home by file.
    static func merge(_ homes: [CLI], spaces: [String]) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("caddie-bundles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func bundle(_ home: Int, _ space: String) -> String {
            directory.appendingPathComponent("\(home)-\(space).bundle").path
        }
        for (index, home) in homes.enumerated() {
            for space in spaces { try home.ok(["export", "--space", space, "--out", bundle(index, space)]) }
        }
        for (index, home) in homes.enumerated() {
            for other in homes.indices where other != index {
                for space in spaces { try home.ok(["import", bundle(other, space)]) }
            }
        }
    }

    @Test("two homes record rounds offline in two spaces, merge, and compute the same index as the formulas")
    func mergedStateIndex() throws {
        let ana = try CLI(name: "ana")
        let ben = try CLI(name: "ben")
        defer {
            ana.remove()
            ben.remove()
        }
        try ana.ok(["login", "--name", "Ana"])
        try ben.ok(["login", "--name", "Ben"])
        let anaKey = try ana.ok(["whoami", "--json"]).field("user")
        // Ana's club and Ben's trip: both homes hold both spaces.
        let club = try ana.createSpace("Club")
        try ben.ok(["space", "join", try club.field("invite")])
        let trip = try ben.createSpace("Trip")
        try ana.ok(["space", "join", try trip.field("invite")])
        let clubID = try club.field("space")
        let tripID = try trip.field("space")
        // The same person is "Ana" in the club and "Annie" on the trip, linked by her user key.
        let anaInClub = try ana.ok(["player", "add", "Ana", "--user", anaKey, "--space", clubID, "--json"])
            .field("player")
        let anaOnTrip = try ben.ok(["player", "add", "Annie", "--user", anaKey, "--space", tripID, "--json"])
            .field("player")
        let course = try ana.ok(["course", "import", RoundTests.course, "--space", clubID, "--json"]).field("course")
        try ben.ok(["course", "import", RoundTests.course, "--space", tripID])
        try Self.merge([ana, ben], spaces: [clubID, tripID])

        // Offline: Ana's home records three club rounds; Ben's records two club rounds and one on the trip.
        var games: [String] = []
        for over in [13, 16, 19] {
            games.append(try Self.playRound(ana, space: clubID, course: course, player: anaInClub, over: over))
        }
        for over in [10, 18] {
            games.append(try Self.playRound(ben, space: clubID, course: course, player: anaInClub, over: over))
        }
        games.append(try Self.playRound(ben, space: tripID, course: course, player: anaOnTrip, over: 14))
        let differentials = [85, 88, 91, 82, 90, 86].map { Self.differential(ags: $0) }
        #expect(differentials == [9.2, 11.7, 14.3, 6.6, 13.4, 10.0])

        // Before the merge each home sees three rounds: the lowest, less 2.0 (Rule 5.2a table).
        let anaAlone = try Self.object(ana.ok(["handicap", "player", "Ana", "--space", clubID, "--json"]))
        #expect(anaAlone["index"] as? Double == 7.2)
        let benAlone = try Self.object(ben.ok(["handicap", "player", "Ana", "--space", clubID, "--json"]))
        #expect(benAlone["index"] as? Double == 4.6)

        try Self.merge([ana, ben], spaces: [clubID, tripID])
        let onAna = try ana.ok(["handicap", "player", "Ana", "--space", clubID, "--json"])
        let onBen = try ben.ok(["handicap", "player", "Ana", "--space", clubID, "--json"])
        #expect(onAna.stdout == onBen.stdout)

        // Rule 5.2a table: 6 differentials -> the average of the lowest 2, less 1.0, worked by hand:
        // (6.6 + 9.2) / 2 = 7.9, and 7.9 - 1.0 = 6.9.
        let record = try Self.object(onAna)
        #expect(record["index"] as? Double == 6.9)
        #expect(record["adjustment"] as? Int == -1)
        #expect(record["cap"] as? String == "none")
        #expect((record["used"] as? [Any])?.compactMap { $0 as? Double } == [6.6, 9.2])

        // The working lists every round, oldest first, with its differential and whether it counts.
        let rounds = try #require(record["rounds"] as? [[String: Any]])
        #expect(rounds.compactMap { $0["game"] as? String } == games)
        #expect(rounds.compactMap { $0["differential"] as? Double } == differentials)
        #expect(rounds.compactMap { $0["adjustedGrossScore"] as? Int } == [85, 88, 91, 82, 90, 86])
        #expect(rounds.map { $0["counts"] as? Bool == true } == [true, false, false, true, false, false])
        #expect(rounds.last?["space"] as? String == tripID)
        #expect(rounds.last?["player"] as? String == anaOnTrip)
        #expect((record["skipped"] as? [Any])?.isEmpty == true)

        // The pure calculation over the same differentials agrees.
        let pure = try Self.object(Self.calculate(["index", "--differentials", Self.list(differentials), "--json"]))
        #expect(pure["index"] as? Double == 6.9)

        // The same person under her trip name, found without --space because only one space has an "Annie".
        let annie = try Self.object(ben.ok(["handicap", "player", "Annie", "--json"]))
        #expect(annie["index"] as? Double == 6.9)
        #expect(annie["player"] as? String == anaOnTrip)
        let text = try ana.ok(["handicap", "player", "Ana", "--space", clubID]).stdout
        #expect(text.contains("Handicap Index 6.9"))
        #expect(text.contains("Rounds, oldest first"))
    }

    @Test(
        "a pick-up counts its maximum hole score in the handicap record: par + 5 before an index (Rule 3.3), not a hole unplayed"
    )
    func pickUpInTheRecord() throws {
        let ana = try CLI(name: "ana")
        defer { ana.remove() }
        try ana.ok(["login", "--name", "Ana"])
        let space = try ana.createSpace("Club").field("space")
        let player = try ana.ok(["player", "add", "Ana", "--json"]).field("player")
        let course = try ana.ok(["course", "import", RoundTests.course, "--json"]).field("course")
        var games: [String] = []
        // Two rounds of pars, one with the 6th (par 4, stroke index 1) picked up, one with a 6 there.
        for sixth in ["pickup", "6"] {
            let game = try ana.ok(["game", "new", "--course", course, "--tee", "1", "--players", player, "--json"])
                .field("game")
            for (offset, par) in Self.pars.enumerated() {
                try ana.ok(["score", game, player, "\(offset + 1)", offset == 5 ? sixth : "\(par)", "--space", space])
            }
            try ana.ok(["game", "finish", game])
            games.append(game)
        }
        let record = try Self.object(ana.ok(["handicap", "player", "Ana", "--json"]))
        let rounds = try #require(record["rounds"] as? [[String: Any]])
        #expect(rounds.compactMap { $0["game"] as? String } == games)
        // No index yet: each hole counts at most par + 5 (Rule 3.1a), and the pick-up counts exactly that.
        #expect(rounds.compactMap { $0["adjustedGrossScore"] as? Int } == [72 - 4 + 9, 72 - 4 + 6], "\(rounds)")
    }

    @Test("games on unrated tees are listed as skipped, and an unknown player is a clear error")
    func skippedGamesAndUnknownPlayer() throws {
        let cli = try CLI(name: "unrated")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Club"])
        let player = try cli.ok(["player", "add", "Ana", "--index", "12.4", "--json"]).field("player")
        let holes = (1...9).map { "{\"number\": \($0), \"par\": 3, \"strokeIndex\": \($0)}" }.joined(separator: ", ")
        let file = cli.home.appendingPathComponent("pitch-and-putt.json")
        try Data("{\"name\": \"Pitch and putt\", \"tees\": [{\"name\": \"Blue\"}], \"holes\": [\(holes)]}".utf8)
            .write(to: file)
        let course = try cli.ok(["course", "import", file.path, "--json"]).field("course")
        let game = try cli.ok(["game", "new", "--course", course, "--tee", "Blue", "--players", player, "--json"])
            .field("game")
        try cli.ok(["score", game, player, "1", "3"])
        try cli.ok(["game", "finish", game])

        let record = try Self.object(cli.ok(["handicap", "player", "Ana", "--json"]))
        #expect(record["index"] is NSNull)
        #expect(record["enteredIndex"] as? Double == 12.4)
        #expect((record["rounds"] as? [Any])?.isEmpty == true)
        let skipped = try #require(record["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1)
        #expect(skipped.first?["game"] as? String == game)
        #expect((skipped.first?["reason"] as? String)?.contains("no course rating") == true)
        let text = try cli.ok(["handicap", "player", "Ana"]).stdout
        #expect(text.contains("no Handicap Index yet"))
        #expect(text.contains("Skipped games"))

        let unknown = try cli.fails(["handicap", "player", "Zoe"], saying: "no player 'Zoe'")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.split(separator: "\n").count == 1)
    }
}
