import Foundation
import Testing

/// Side games end to end: real homes (SQLite files), the `caddie` binary, merges by op bundle.
@Suite("caddie CLI: side games, standings, the card to hand in", .serialized)
struct GamesCLITests {
    /// Ana and Ben in one space, with a game of match play, gross skins and a Nassau at 2 a unit, Ana from tee 1
    /// and Ben from tee 2 (no Handicap Index: both off scratch, so the figures below are gross and easy to check).
    static func twoBall() throws -> (homes: [CLI], game: String) {
        let homes = try ["Ana", "Ben"].map { try CLI(name: $0) }
        for (home, name) in zip(homes, ["Ana", "Ben"]) { try home.ok(["login", "--name", name]) }
        let invite = try homes[0].createSpace("Saturday").field("invite")
        try homes[1].ok(["space", "join", invite])
        for name in ["Ana", "Ben"] { try homes[0].ok(["player", "add", name]) }
        let course = try homes[0].ok(["course", "import", RoundTests.course, "--json"]).field("course")
        let game = try homes[0].ok([
            "game", "new", "--course", course, "--tee", "1", "--players", "Ana,Ben",
            "--player-tee", "Ben=2", "--formats", "match,skins,nassau", "--skins", "gross",
            "--stake", "2", "--json",
        ]).field("game")
        try RoundTests.merge(homes)
        return (homes, game)
    }

    /// Ana 3 on the 1st, Ben 3 on the 2nd, 4 everywhere else; Ben's 3rd is entered 3 by Ben and 5 by Ana.
    static func play(_ homes: [CLI], _ game: String) throws {
        for hole in 1...18 {
            try homes[0].ok(["score", game, "Ana", "\(hole)", hole == 1 ? "3" : "4"])
            if hole != 3 { try homes[1].ok(["score", game, "Ben", "\(hole)", hole == 2 ? "3" : "4"]) }
        }
        try homes[1].ok(["score", game, "Ben", "3", "3"])
        try homes[0].ok(["score", game, "Ben", "3", "5"])
        try RoundTests.merge(homes)
    }

    @Test("a disputed hole is shown with what it decides, the settlement is provisional until it is settled")
    func disputeDecidesSkinsAndMatch() throws {
        let (homes, game) = try Self.twoBall()
        defer { homes.forEach { $0.remove() } }
        try Self.play(homes, game)
        let open = try #require(try homes[0].ok(["standings", game, "--json"]).json() as? [String: Any])
        #expect(open["provisional"] as? Bool == true)
        let disputes = try #require(open["disputes"] as? [[String: Any]])
        #expect(disputes.count == 1)
        let text = try #require(disputes.first?["text"] as? String)
        #expect(text.hasPrefix("Ben's 3rd: "), "\(text)")
        let decides = try #require(disputes.first?["decides"] as? [String])
        // With Ben's 3 he wins skin 3 and the match 1 up; with Ana's 5 she wins both.
        #expect(
            decides.contains { $0.hasPrefix("skin 3 (") && $0.contains("Ben wins 1") && $0.contains("Ana wins 1") }, "\(decides)")
        #expect(decides.contains { $0.hasPrefix("the match (") }, "\(decides)")
        #expect(decides.contains { $0.hasPrefix("the front nine (") }, "\(decides)")
        let notes = try #require(open["notes"] as? [String])
        #expect(notes.contains { $0.contains("Ana has no Course Handicap here (no Handicap Index") })
        // The card and the text view agree on the dispute.
        let shown = try homes[1].ok(["standings", game]).stdout
        #expect(shown.contains(text))
        #expect(shown.contains("(provisional: a dispute changes it)"))

        // Ben settles it with his 3, seen by Ana after the next merge.
        try homes[1].ok(["score", game, "Ben", "3", "3"])
        try RoundTests.merge(homes)
        let settled = try #require(try homes[0].ok(["standings", game, "--json"]).json() as? [String: Any])
        #expect(settled["provisional"] as? Bool == false)
        #expect((settled["disputes"] as? [Any])?.isEmpty == true)
        let match = try #require(settled["match"] as? [String: Any])
        #expect(match["status"] as? String == "Ben won 1 up")
        let skins = try #require(settled["skins"] as? [String: Any])
        #expect(skins["carry"] as? Int == 15, "holes 4-18 tied: 15 skins unclaimed")
        let players = try #require(settled["players"] as? [[String: Any]])
        #expect(players.map { $0["skins"] as? Int } == [1, 2])
        #expect(players.map { $0["tee"] as? String } == ["1", "2"], "Ben plays his own tee")
        // Ben: skins +1 unit, match +1, front nine +1, back halved, 18 holes +1 = 4 units at 2.00.
        let settlement = try #require(settled["settlement"] as? [[String: Any]])
        #expect(settlement.count == 1)
        #expect(settlement.first?["fromName"] as? String == "Ana" && settlement.first?["toName"] as? String == "Ben")
        #expect(settlement.first?["amount"] as? Double == 8.0)
        let nassau = try #require(settled["nassau"] as? [String: Any])
        let bets = try #require(nassau["bets"] as? [[String: Any]])
        #expect(bets.map { $0["name"] as? String } == ["front nine", "back nine", "18 holes"])
        #expect(bets.map { $0["status"] as? String } == ["Ben won 1 up", "all square", "Ben won 1 up"])
        // Both homes compute the same standings from the same ops.
        let other = try homes[1].ok(["standings", game, "--json"]).stdout
        #expect(other == (try homes[0].ok(["standings", game, "--json"]).stdout))
    }

    @Test(
        "a pick-up typed on one home reaches the other: P on the card, NR in stroke play, the hole lost in the match, and a later score replaces it"
    )
    func pickUpTravelsAndScores() throws {
        let (homes, game) = try Self.twoBall()
        defer { homes.forEach { $0.remove() } }
        let made = try #require(try homes[0].ok(["score", game, "Ana", "1", "pickup", "--json"]).json() as? [String: Any])
        #expect(made["pickUp"] as? Bool == true && made["strokes"] is NSNull, "\(made)")
        try homes[1].ok(["score", game, "Ben", "1", "6"])
        try homes[0].ok(["score", game, "Ana", "2", "4"])
        try homes[1].ok(["score", game, "Ben", "2", "4"])
        try RoundTests.merge(homes)
        // Ben's home, which never typed it, holds the pick-up (change 0x23 merged by bundle).
        let card = try homes[1].ok(["card", game]).stdout
        let anaRow = try #require(card.split(separator: "\n").first { $0.hasPrefix("Ana") })
        #expect(anaRow.contains(" P ") && anaRow.contains("NR"), "\(anaRow)")
        let standings = try #require(try homes[1].ok(["standings", game, "--json"]).json() as? [String: Any])
        let players = try #require(standings["players"] as? [[String: Any]])
        #expect(players.map { $0["noReturn"] as? Bool } == [true, false])
        #expect(players.map { $0["thru"] as? Int } == [2, 2])
        let match = try #require(standings["match"] as? [String: Any])
        #expect(match["status"] as? String == "Ben 1 up thru 2", "Ben's 6 beats the pick-up; the 2nd is halved")
        let history = try homes[1].ok(["history", game, "Ana", "1"]).stdout
        #expect(history.contains("picked up"), "\(history)")
        // Ana finds her ball after all: a score replaces the pick-up, and the card has a total again.
        try homes[0].ok(["score", game, "Ana", "1", "7"])
        try RoundTests.merge(homes)
        let again = try #require(try homes[1].ok(["standings", game, "--json"]).json() as? [String: Any])
        #expect((again["players"] as? [[String: Any]])?.map { $0["noReturn"] as? Bool } == [false, false])
        #expect((again["match"] as? [String: Any])?["status"] as? String == "Ben 1 up thru 2", "a 7 still loses to a 6")
        #expect((again["players"] as? [[String: Any]])?.first?["gross"] as? Int == 11)
    }

    @Test("the card prints on one A4 page, as CSV, and as HTML with attestations and the state hash")
    func cardToHandIn() throws {
        let (homes, game) = try Self.twoBall()
        defer { homes.forEach { $0.remove() } }
        try Self.play(homes, game)
        try homes[1].ok(["score", game, "Ben", "3", "3"])
        try RoundTests.merge(homes)
        try homes[1].ok(["attest", game, "Ana"])
        try RoundTests.merge(homes)
        let csv = try homes[0].ok(["card", game, "--format", "csv"]).stdout
        let rows = csv.split(separator: "\r\n")
        #expect(rows.count == 4, "header, par, Ana, Ben")
        #expect(rows[0].hasPrefix("player,tee,course handicap,playing handicap,hole 1,"))
        #expect(rows[2].hasPrefix("Ana,1,,,3,4,4,"))
        #expect(rows[2].contains(",Ben"), "Ana's card is attested by Ben")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("card.html")
        try homes[0].ok(["card", game, "--format", "html", "--out", html.path])
        let page = try String(contentsOf: html, encoding: .utf8)
        let hash = try homes[0].stateHash()
        #expect(page.contains(hash))
        #expect(page.contains("Ana: signed by Ben") && page.contains("signature checked") && page.contains("matches this card"))
        #expect(page.contains("Ben: not attested"))
        #expect(page.contains("Ana pays Ben 8.00"))
        #expect(!page.contains("<script"))
        // Chromium (Debian's) prints it to PDF: exactly one page.
        let pdf = folder.appendingPathComponent("card.pdf")
        let chromium = Process()
        chromium.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        chromium.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--print-to-pdf=\(pdf.path)", html.absoluteString,
        ]
        chromium.standardOutput = FileHandle.nullDevice
        chromium.standardError = FileHandle.nullDevice
        try chromium.run()
        chromium.waitUntilExit()
        let bytes = try Data(contentsOf: pdf)
        let text = String(decoding: bytes, as: UTF8.self)
        let pages =
            text.components(separatedBy: "/Type /Page").count - 1 - (text.components(separatedBy: "/Type /Pages").count - 1)
        #expect(pages == 1, "the card should print on one page, got \(pages)")
    }

    @Test("bad setups are refused with a reason and change nothing")
    func badSetupsAreRefused() throws {
        let (homes, game) = try Self.twoBall()
        defer { homes.forEach { $0.remove() } }
        let home = homes[0]
        let before = try home.stateHash()
        try home.fails(["game", "setup", game, "--formats", "stroke,bingo"], saying: "unknown format 'bingo'")
        try home.fails(["game", "setup", game, "--holes", "7"], saying: "--holes must be 9 or 18")
        try home.fails(["game", "setup", game, "--start", "19"], saying: "--start must be a hole of")
        try home.fails(["game", "setup", game, "--skins", "best"], saying: "--skins must be net or gross")
        try home.fails(["game", "setup", game, "--stake", "-1"], saying: "--stake must be between 0")
        try home.fails(["game", "setup", game, "--teams", "Ana"], saying: "--teams takes two sides")
        try home.fails(["game", "setup", game, "--teams", "Ana,Ana"], saying: "--teams puts Ana on both sides")
        try home.fails(
            ["game", "setup", game, "--teams", "Ana+Ben,Ana"],
            saying: "--teams takes sides of equal size, and these are unequal (Ana+Ben against Ana)")
        try home.fails(
            ["game", "setup", game, "--teams", "Ana+Ben+Ana,Ben"],
            saying: "--teams takes sides of one or two players, and Ana+Ben+Ana is 3")
        try home.fails(["game", "setup", game, "--player-tee", "Ana=Blue"], saying: "has no tee 'Blue'")
        try home.fails(["game", "setup", game, "--player-tee", "Ana"], saying: "--player-tee takes PLAYER=TEE")
        try home.fails(["game", "setup", game], saying: "say what to change")
        try home.fails(["player", "edit", "Ana", "--name", "ben"], saying: "a player named Ben is already")
        try home.fails(["player", "edit", "Ana", "--index", "60"], saying: "a Handicap Index must be between")
        try home.fails(["score", game, "Ana", "1", "4", "--fairway", "bunker"], saying: "--fairway must be hit, left or right")
        #expect(try home.stateHash() == before, "a refused command changes nothing")

        // Once Ben has a score, his tee is fixed; the back nine only accepts holes 10-18.
        try home.ok(["score", game, "Ben", "1", "4"])
        try home.fails(["game", "setup", game, "--player-tee", "Ben=1"], saying: "Ben already has scores from tee 2")
        try home.ok(["game", "setup", game, "--holes", "9", "--start", "10"])
        try home.fails(["score", game, "Ana", "2", "4"], saying: "plays holes 10-18: hole 2 is not one of them")
        let standings = try #require(try home.ok(["standings", game, "--json"]).json() as? [String: Any])
        #expect(standings["holes"] as? [Int] == Array(10...18))
        #expect((standings["notes"] as? [String])?.contains { $0.contains("a Nassau needs 18 holes") } == true)

        // A game with scores is deleted only with --force, then hidden, then restored.
        try home.fails(["game", "delete", game], saying: "has 1 scores: delete it with --force")
        try home.ok(["game", "delete", game, "--force"])
        #expect(!(try home.ok(["game", "list"]).stdout.contains(game)))
        try home.fails(["standings", game], saying: "was deleted: `caddie game restore")
        #expect(try home.ok(["game", "list", "--deleted"]).stdout.contains(game))
        try home.ok(["game", "restore", game])
        #expect(try home.ok(["game", "list"]).stdout.contains(game))
    }

    @Test("player edits and statistics from fairways, greens, putts and penalties of finished games")
    func statisticsAndEdits() throws {
        let (homes, game) = try Self.twoBall()
        defer { homes.forEach { $0.remove() } }
        let home = homes[0]
        try home.ok(["player", "edit", "Ana", "--name", "Ana B.", "--index", "11.8"])
        let players = try #require(try home.ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(players.contains { $0["name"] as? String == "Ana B." && $0["index"] as? Double == 11.8 })
        // Hole 1 is a par 5, hole 2 a par 4 and hole 4 a par 3 on tee 1 of the example course.
        try home.ok(["score", game, "Ana B.", "1", "5", "--putts", "2", "--fairway", "hit", "--gir"])
        try home.ok(["score", game, "Ana B.", "2", "5", "--putts", "1", "--penalties", "1", "--fairway", "left", "--no-gir"])
        try home.ok(["score", game, "Ana B.", "4", "3", "--putts", "2", "--gir"])
        try home.ok(["game", "finish", game])
        let stats = try #require(try home.ok(["stats", "Ana B.", "--json"]).json() as? [String: Any])
        #expect(stats["rounds"] as? Int == 1)
        #expect((stats["fairways"] as? [String: Any])?["hit"] as? Int == 1)
        #expect((stats["fairways"] as? [String: Any])?["recorded"] as? Int == 2, "the par 3 has no fairway")
        #expect((stats["greensInRegulation"] as? [String: Any])?["percent"] as? Double == 66.7)
        #expect(stats["puttsPerRound"] as? Double == 5)
        #expect(stats["puttsPerGreenInRegulation"] as? Double == 2)
        #expect(stats["penalties"] as? Int == 1)
        // A score with fairway and green travels to the other home (change 0x22) and reads back the same.
        try RoundTests.merge(homes)
        let history = try #require(try homes[1].ok(["history", game, "Ana B.", "1", "--json"]).json() as? [[String: Any]])
        #expect(history.first?["fairway"] as? String == "hit")
        #expect(history.first?["gir"] as? Bool == true)
        #expect(try homes[1].stateHash() == (try home.stateHash()))
    }

    @Test("a back-nine game uses the back nine's own ratings: index 16.0 on 37.0/113 par 36 gets 9.0 (Rule 6.1b)")
    func nineHoleGameUsesTheNinesRatings() throws {
        let home = try CLI(name: "Kim")
        defer { home.remove() }
        try home.ok(["login", "--name", "Kim"])
        _ = try home.createSpace("Saturday")
        try home.ok(["player", "add", "Kim", "--index", "16.0"])
        // The example course, its tee 1 (74.2/133, par 72) given a back nine rated 37.0, slope 113, par 36.
        var course = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: RoundTests.course)))
                as? [String: Any])
        var tees = try #require(course["tees"] as? [[String: Any]])
        tees[0]["back"] = ["rating": 37.0, "slope": 113, "par": 36]
        course["tees"] = tees
        let file = home.home.deletingLastPathComponent().appendingPathComponent("nines-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: course).write(to: file)
        let courseID = try home.ok(["course", "import", file.path, "--json"]).field("course")
        let game = try home.ok([
            "game", "new", "--course", courseID, "--tee", "1", "--players", "Kim", "--holes", "9", "--start", "10",
            "--json",
        ]).field("game")
        let standings = try #require(try home.ok(["standings", game, "--json"]).json() as? [String: Any])
        let kim = try #require((standings["players"] as? [[String: Any]])?.first)
        #expect(kim["courseHandicap"] as? Double == 9.0, "\(kim)")
        // The front nine has no ratings of its own: half the 18-hole rating, the 18-hole slope (8 x 133/113 + 1.1).
        try home.ok(["game", "setup", game, "--start", "1"])
        let front = try #require(try home.ok(["standings", game, "--json"]).json() as? [String: Any])
        #expect((front["players"] as? [[String: Any]])?.first?["courseHandicap"] as? Double == 10.5)
    }

    /// The Wolf, Bingo Bango Bongo and a scramble from the CLI: hole choices are fields of the game, made on two
    /// homes without seeing each other and merged like everything else; bad choices are refused and change nothing.
    @Test("a foursome plays the Wolf and Bingo Bango Bongo with choices entered on two homes, and a scramble")
    func wolfAndBingoBangoBongoFromTheCLI() throws {
        let (all, game, _) = try RoundTests.foursome()
        defer { all.forEach { $0.remove() } }
        let homes = Array(all.prefix(2))
        let ana = homes[0]
        try ana.ok(["game", "setup", game, "--formats", "stroke,wolf,bbb", "--stake", "1"])
        try RoundTests.merge(homes)
        let before = try ana.stateHash()
        try ana.fails(["game", "setup", game, "--entry", "1:wolf=Ana"], saying: "--entry Ana is the Wolf on that hole")
        try ana.fails(["game", "setup", game, "--entry", "1:skins=Ben"], saying: "--entry names 'skins', which no format")
        try ana.fails(
            ["game", "setup", game, "--entry", "19:wolf=Ben"], saying: "--entry names hole 19, which this game does not play")
        try ana.fails(["game", "setup", game, "--entry", "1:bingo=lone"], saying: "--entry takes a player for bingo")
        try ana.fails(["game", "setup", game, "--entry", "wolf=Ben"], saying: "--entry takes HOLE:KEY=PLAYER")
        try ana.fails(["game", "setup", game, "--entry", "1:wolf=Zed"], saying: "Zed")
        #expect(try ana.stateHash() == before, "a refused entry changes nothing")

        // The card's order is by name: Ana is the Wolf on the 1st, Ben on the 2nd. Ana takes Cleo on the 1st on her
        // home; Ben goes alone on the 2nd on his, and enters the 1st's Bingo Bango Bongo.
        try ana.ok(["game", "setup", game, "--entry", "1:wolf=Cleo"])
        try homes[1].ok([
            "game", "setup", game, "--entry", "2:wolf=lone", "--entry", "1:bingo=Ben", "--entry", "1:bango=Ana",
            "--entry", "1:bongo=Ben",
        ])
        // Hole 1: Ana 4, Ben 5, Cleo 5, Dev 6 (Ana & Cleo win); hole 2: Ben 3 against 4s (the Lone Wolf wins).
        for (hole, strokes) in [(1, [4, 5, 5, 6]), (2, [4, 3, 4, 4])] {
            for (name, value) in zip(["Ana", "Ben", "Cleo", "Dev"], strokes) {
                try ana.ok(["score", game, name, "\(hole)", "\(value)"])
            }
        }
        try RoundTests.merge(homes)
        let json = try ana.ok(["standings", game, "--json"]).stdout
        #expect(json == (try homes[1].ok(["standings", game, "--json"]).stdout), "both homes score the same choices")
        let standings = try #require(try ana.ok(["standings", game, "--json"]).json() as? [String: Any])
        let results = try #require(standings["results"] as? [[String: Any]])
        let wolf = try #require(results.first { $0["format"] as? String == "wolf" })
        #expect((wolf["holes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Ana & Cleo won", "Ben (lone) won"])
        let column = try #require((wolf["column"] as? [String: Any])?["values"] as? [[String: Any]])
        // All four players are 18.2 off the same tee: no strokes between them. Ana +1 -2, Ben -1 +6, Cleo +1 -2,
        // Dev -1 -2.
        #expect(column.map { $0["value"] as? String } == ["-1", "+5", "-1", "-3"])
        let bbb = try #require(results.first { $0["format"] as? String == "bbb" })
        #expect(bbb["summary"] as? String == "Ben leads with 2 points")
        let players = try #require(standings["players"] as? [[String: Any]])
        // Units: the Wolf's plus Bingo Bango Bongo's (Ben 2, Ana 1: 4 x points - 3).
        #expect(players.map { $0["units"] as? Int } == [-1 + 1, 5 + 5, -1 - 3, -3 - 3])
        let text = try ana.ok(["standings", game]).stdout
        #expect(text.contains("Wolf: Ben leads, +5 after 2 holes"), "\(text)")
        #expect(text.contains("Bingo Bango Bongo: Ben leads with 2 points"))
        // The game's record lists the choices; clearing one removes it.
        #expect(try ana.ok(["game", "list", "--json"]).stdout.contains("\"bongo\""))
        try ana.ok(["game", "setup", game, "--entry", "1:bongo="])
        #expect(!(try ana.ok(["game", "list", "--json"]).stdout.contains("\"bongo\"")))
        // The audit says what each choice changed, naming the player chosen (the third review's L2: every game
        // `set` read "new game ... from tee ?").
        let log = try ana.ok(["log", "--game", game]).stdout
        #expect(log.contains("hole.1.wolf=Cleo"), "\(log)")
        #expect(log.contains("hole.2.wolf=lone") && log.contains("hole.1.bongo=Ben"), "\(log)")
        #expect(log.contains("hole.1.bongo=(cleared)"), "\(log)")
        #expect(!log.contains("from tee ?"), "\(log)")

        // Sides of three against one: match play wants equal sides, a scramble at least two a side.
        try ana.fails(
            ["game", "setup", game, "--formats", "match,scramble", "--teams", "Ana+Ben+Cleo,Dev"],
            saying: "--teams takes sides of equal size")
        try ana.fails(
            ["game", "setup", game, "--formats", "scramble", "--teams", "Ana+Ben+Cleo,Dev"],
            saying: "--teams does not fit Scramble: it takes sides of 2 to 4 players, not 1")
        // Sides of one set for a match do not fit four-ball Stableford: changing the formats alone is refused.
        try ana.ok(["game", "setup", game, "--formats", "match", "--teams", "Ana,Ben"])
        try ana.fails(
            ["game", "setup", game, "--formats", "fourball"],
            saying: "--formats names Four-ball Stableford, which does not fit the sides set (Ana against Ben): it takes "
                + "sides of 2 players, not 1")
        try ana.ok(["game", "setup", game, "--formats", "scramble", "--teams", "Ana+Ben,Cleo+Dev"])
        let scramble = try #require(try ana.ok(["standings", game, "--json"]).json() as? [String: Any])
        let result = try #require((scramble["results"] as? [[String: Any]])?.first)
        #expect(result["sides"] as? [String] == ["Ana & Ben", "Cleo & Dev"])
        #expect((result["summary"] as? String)?.hasSuffix("net thru 2") == true, "\(result)")
    }

    @Test("caddie game formats lists every format with what it needs")
    func formatsAreListed() throws {
        let home = try CLI(name: "Ana")
        defer { home.remove() }
        let listed = try #require(try home.ok(["game", "formats", "--json"]).json() as? [[String: Any]])
        #expect(
            listed.map { $0["name"] as? String } == [
                "stroke", "stableford", "match", "skins", "nassau", "fourball", "teamstableford", "wolf", "bbb", "chapman",
                "greensomes", "foursomes", "scramble",
            ])
        let text = try home.ok(["game", "formats"]).stdout
        #expect(text.contains("on each hole: --entry HOLE:wolf=PLAYER or =lone (the Wolf's partner)"))
    }
}
