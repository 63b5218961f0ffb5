import Foundation
import Testing

/// `caddie competition` on real homes: a competition of two groups (games), scored with `caddie score`, synced by
/// bundle; the board with a countback, a no return from a pick-up, the committee's DQ and the twos, the same on both
/// homes; bad input refused with nothing written.
@Suite("competitions: groups, board, countback, NR and DQ across two homes")
struct CompetitionCLITests {
    @Test("two groups of a 9-hole medal: a tie counted back, a pick-up NR, a DQ by the committee only, the twos")
    func boardAcrossTwoHomes() throws {
        let homes = try ["Ana", "Ben"].map { try CLI(name: $0) }
        defer { homes.forEach { $0.remove() } }
        for (home, name) in zip(homes, ["Ana", "Ben"]) { try home.ok(["login", "--name", name]) }
        let created = try homes[0].createSpace("Club")
        let (invite, space) = (try created.field("invite"), try created.field("space"))
        try homes[1].ok(["space", "join", invite])
        for name in ["Ana", "Ben", "Cal"] { try homes[0].ok(["player", "add", name]) }
        let course = try homes[0].ok(["course", "import", RoundTests.course, "--json"]).field("course")
        func group(_ players: String) throws -> String {
            try homes[0].ok([
                "game", "new", "--course", course, "--tee", "1", "--players", players, "--holes", "9", "--json",
            ]).field("game")
        }
        let first = try group("Ana,Ben")
        let second = try group("Cal")
        try RoundTests.merge(homes)
        // Bad input first: nothing may be written.
        try homes[0].fails(
            ["competition", "new", "Medal", "--countback", "fancy"], saying: "r-and-a, r-and-a-rounded, last-played")
        try homes[0].fails(["competition", "new", "Medal", "--scoring", "bogey"], saying: "give net, gross or stableford")
        try homes[0].fails(["competition", "new", "Medal", "--divisions", "20,12"], saying: "ascending")
        try homes[0].fails(["competition", "new", "Medal", "--allowance", "120"], saying: "from 1 to 100")
        #expect(try homes[0].ok(["competition", "list"]).stdout.contains("No competitions yet"))
        let medal = try homes[0].ok(["competition", "new", "Medal", "--scoring", "gross", "--json"]).field("competition")
        let other = try homes[0].ok(["competition", "new", "Other", "--json"]).field("competition")
        try homes[0].ok(["competition", "add", "Medal", first, second])
        try homes[0].fails(["competition", "add", other, first], saying: "is a group of competition Medal")
        try homes[0].fails(["competition", "mark", "Other", "Ana", "dq"], saying: "plays in none of the groups")
        try homes[0].fails(["competition", "mark", "Medal", "Ana", "out"], saying: "give nr, dq or clear")
        // Ana 4s: 36. Cal a 2 on the 1st and a 6 on the 9th: 36, but 26 over the last six (holes 4-9) to Ana's 24.
        // Ben picks up on the 5th: no return in medal play.
        for hole in 1...9 {
            try homes[0].ok(["score", first, "Ana", "\(hole)", "4"])
            try homes[1].ok(["score", first, "Ben", "\(hole)", hole == 5 ? "pickup" : "4"])
            try homes[1].ok(["score", second, "Cal", "\(hole)", hole == 1 ? "2" : hole == 9 ? "6" : "4"])
        }
        try RoundTests.merge(homes)
        let board = try #require(try homes[0].ok(["competition", "board", "Medal", "--json"]).json() as? [String: Any])
        let lines = try #require((board["divisions"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])
        #expect(lines.map { $0["name"] as? String } == ["Ana", "Cal", "Ben"])
        #expect(lines.map { $0["position"] as? Int } == [1, 2, nil])
        #expect(lines.map { $0["gross"] as? Int } == [36, 36, 32])
        #expect(lines[0]["decidedBy"] as? String == "last 6: 24 v 26")
        #expect(lines[2]["status"] as? String == "NR")
        #expect((board["twos"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Cal"])
        #expect(board["groups"] as? Int == 2)
        let text = try homes[0].ok(["competition", "board", "Medal"]).stdout
        #expect(text.contains("(last 6: 24 v 26)"), "\(text)")
        #expect(text.contains("Twos: 1, a share each: Cal (1st)"), "\(text)")
        // Only the competition's creator runs its committee's commands: Ben's home is refused, and nothing is
        // written; Ana disqualifies Cal, and Ben's home shows it after a merge, Cal's two out of the pool.
        let before = try homes[1].stateHash()
        try homes[1].fails(["competition", "mark", "Medal", "Cal", "dq"], saying: "only Ana, who created Medal")
        // A group's game is the committee's too: Ben's home neither finishes, deletes, nor changes a group's roster
        // (every node would take such a write from the committee only).
        try homes[1].fails(["game", "finish", second], saying: "only Ana, who created Medal")
        try homes[1].fails(["game", "delete", second, "--force"], saying: "only Ana, who created Medal")
        try homes[1].fails(["game", "remove-player", second, "Cal"], saying: "only Ana, who created Medal")
        #expect(try homes[1].stateHash() == before)
        try homes[0].ok(["competition", "mark", "Medal", "Cal", "dq"])
        try RoundTests.merge(homes)
        for home in homes {
            let after = try #require(try home.ok(["competition", "board", "Medal", "--json"]).json() as? [String: Any])
            let ranked = try #require((after["divisions"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])
            #expect(ranked.map { $0["name"] as? String } == ["Ana", "Ben", "Cal"])
            #expect(ranked.map { $0["status"] as? String } == [nil, "NR", "DQ"])
            #expect(ranked[0]["decidedBy"] is NSNull, "alone at the top: nothing to count back")
            #expect((after["twos"] as? [[String: Any]])?.isEmpty == true)
        }
        #expect(try homes[0].stateHash() == homes[1].stateHash())
        // The public board: bad words and numbers refused with nothing written; only the committee opens it.
        let closed = try homes[0].stateHash()
        try homes[0].fails(["competition", "public", "Medal", "maybe"], saying: "give on or off")
        try homes[0].fails(["competition", "public", "Medal", "on", "--hide-last", "12"], saying: "give 0 to 9")
        try homes[0].fails(["competition", "public", "Medal", "off"], saying: "is not public already")
        try homes[1].fails(["competition", "public", "Medal", "on"], saying: "only Ana, who created Medal")
        #expect(try homes[0].stateHash() == closed)
        let opened = try homes[0].ok(["competition", "public", "Medal", "on", "--hide-last", "3"]).stdout
        #expect(opened.contains("/board/"), "\(opened)")
        #expect(opened.contains("last 3 holes left off"), "\(opened)")
        try homes[0].fails(["competition", "public", "Medal", "on", "--hide-last", "3"], saying: "is public already")
        // The printed draw sheet carries the public board's QR code for the clubhouse wall.
        let sheet = try homes[0].ok([
            "competition", "show", "Medal", "--format", "html", "--url", "https://clubhouse.local:7443",
        ]).stdout
        #expect(sheet.contains("https://clubhouse.local:7443/board/\(space)/\(medal)"), "the board's link on the sheet")
        #expect(sheet.contains("The board, live"))
        // The public view hides the last three holes each player played; the members' board still shows all nine.
        let members = try #require(try homes[0].ok(["competition", "board", "Medal", "--json"]).json() as? [String: Any])
        let shown = try #require((members["divisions"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])
        #expect(shown.first?["thru"] as? Int == 9)
        // The results as CSV and as a page; then the committee closes the competition: both groups finished.
        let csv = try homes[0].ok(["competition", "results", "Medal"]).stdout.split(separator: "\r\n")
        #expect(csv.first?.hasPrefix("division,position,player,group,") == true)
        #expect(csv.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] } == ["1", "NR", "DQ"])
        #expect(csv.dropFirst().first?.contains(",Ana,") == true && csv.dropFirst().first?.contains(",36,") == true)
        try homes[0].fails(["competition", "results", "Medal", "--format", "pdf"], saying: "give csv or html")
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-results-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        try homes[0].ok(["competition", "results", "Medal", "--format", "html", "--out", page.path])
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<h1>Medal</h1>") && html.contains("<td class=\"name\">Ana</td>") && !html.contains("<script"))
        try homes[0].ok(["competition", "close", "Medal"])
        let games = try #require(try homes[0].ok(["game", "list", "--json"]).json() as? [[String: Any]])
        #expect(
            games.filter { [first, second].contains($0["game"] as? String) }.map { $0["finished"] as? Bool } == [true, true])
        try homes[0].fails(["competition", "close", "Medal"], saying: "is closed already")
        try homes[0].fails(["competition", "remove", "Medal", first], saying: "is closed: reopen it first")
        // The committee's correction says why, even on a closed competition's finished card; refused without a reason,
        // from Ben's home, for a hole the group does not play: nothing written. Ana's 3rd becomes a 5 (37), and the
        // audit and the board name the reason.
        let unchanged = try homes[0].stateHash()
        try homes[0].fails(["competition", "correct", "Medal", "Ana", "3", "5"], saying: "a committee's correction says why")
        try homes[0].fails(
            ["competition", "correct", "Medal", "Ana", "12", "5", "--reason", "card"], saying: "hole 12 is not one of them")
        try homes[0].fails(["competition", "correct", "Medal", "Ana", "3", "five", "--reason", "card"], saying: "five")
        #expect(try homes[0].stateHash() == unchanged)
        try RoundTests.merge(homes)
        try homes[1].fails(
            ["competition", "correct", "Medal", "Ana", "3", "5", "--reason", "card"], saying: "only Ana, who created Medal")
        try homes[0].ok(["competition", "correct", "Medal", "Ana", "3", "5", "--reason", "marker's card: 5, not 4"])
        let corrected = try #require(try homes[0].ok(["competition", "board", "Medal", "--json"]).json() as? [String: Any])
        let ana = try #require(
            ((corrected["divisions"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])?.first {
                $0["name"] as? String == "Ana"
            })
        #expect(ana["gross"] as? Int == 37)
        #expect(
            (corrected["notes"] as? [String])?.contains("the committee corrected Ana's 3rd: marker's card: 5, not 4") == true,
            "\(corrected["notes"] ?? "")")
        let audit = try homes[0].ok(["log"]).stdout
        #expect(audit.contains("committee's correction in competition"), "\(audit)")
        #expect(audit.contains("Ana's 3rd, \"marker's card: 5, not 4\""), "\(audit)")
        try homes[0].ok(["competition", "close", "Medal", "--reopen"])
    }

    @Test(
        "a card its player and marker signed is locked on every home, whatever order the ops came in; the committee corrects it")
    func lockedCard() throws {
        let homes = try ["Ana", "Ben", "Cal"].map { try CLI(name: $0) }
        defer { homes.forEach { $0.remove() } }
        for (home, name) in zip(homes, ["Ana", "Ben", "Cal"]) { try home.ok(["login", "--name", name]) }
        let invite = try homes[0].createSpace("Club").field("invite")
        for home in homes.dropFirst() { try home.ok(["space", "join", invite]) }
        for name in ["Ben", "Cal"] { try homes[0].ok(["player", "add", name]) }
        let course = try homes[0].ok(["course", "import", RoundTests.course, "--json"]).field("course")
        let game = try homes[0].ok([
            "game", "new", "--course", course, "--tee", "1", "--players", "Ben,Cal", "--holes", "9", "--json",
        ]).field("game")
        let casual = try homes[0].ok([
            "game", "new", "--course", course, "--tee", "1", "--players", "Ben,Cal", "--holes", "9", "--json",
        ]).field("game")
        try homes[0].ok(["competition", "new", "Medal", "--scoring", "gross"])
        try homes[0].ok(["competition", "add", "Medal", game])
        try RoundTests.merge(homes)
        for hole in 1...9 {
            for played in [game, casual] { try homes[1].ok(["score", played, "Cal", "\(hole)", "4"]) }
        }
        try RoundTests.merge(homes)
        func calsCard(_ home: CLI, _ game: String) throws -> (holes: [Int], locked: [String: Any]?) {
            let card = try #require(try home.ok(["card", game, "--json"]).json() as? [String: Any])
            let cal = try #require((card["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Cal" })
            let cells = try #require(cal["cells"] as? [[String: Any]])
            let strokes = cells.sorted { ($0["hole"] as? Int ?? 0) < ($1["hole"] as? Int ?? 0) }.map {
                ($0["winner"] as? [String: Any])?["strokes"] as? Int ?? 0
            }
            return (strokes, cal["locked"] as? [String: Any])
        }
        // Ben (the marker) and Cal (the player) sign Cal's card of both games on their own homes, offline. Ben, not yet
        // knowing of Cal's signature, then enters a 5 on the 3rd of each: his home takes it (one signature is no lock).
        for played in [game, casual] {
            try homes[1].ok(["attest", played, "Cal"])
            try homes[2].ok(["attest", played, "Cal"])
        }
        for played in [game, casual] { try homes[1].ok(["score", played, "Cal", "3", "5"]) }
        #expect(try calsCard(homes[1], game).holes[2] == 5)
        // One merge: Ana's home reads Ben's bundle (his signature and the late 5) before Cal's (the second signature);
        // Cal's home has its signature before Ben's bundle comes. Every home shows the card as signed, the 5 refused.
        try RoundTests.merge(homes)
        for home in homes {
            let (holes, locked) = try calsCard(home, game)
            #expect(holes == Array(repeating: 4, count: 9), "the late 5 is refused on the signed card")
            let lock = try #require(locked, "Cal's card is locked")
            #expect(Set(lock["signedBy"] as? [String] ?? []).count == 2)
            let refused = try #require(lock["refused"] as? [[String: Any]])
            #expect(refused.map { $0["hole"] as? Int } == [3] && refused.first?["strokes"] as? Int == 5)
            // A friendly game has no committee and no lock: the late 5 stands, and the signatures no longer match.
            let friendly = try calsCard(home, casual)
            #expect(friendly.holes[2] == 5 && friendly.locked == nil)
        }
        #expect(try Set(homes.map { try $0.stateHash() }).count == 1)
        let text = try homes[2].ok(["card", game]).stdout
        #expect(text.contains("Locked: Cal's card, signed by"), "\(text)")
        #expect(text.contains("refused after the lock: hole 3, 5 by Ben"), "\(text)")
        // Now each home refuses an entry for it by name, the committee's own `caddie score` too; nothing is written.
        let before = try homes.map { try $0.stateHash() }
        try homes[1].fails(["score", game, "Cal", "6", "5"], saying: "Cal's card is locked")
        try homes[2].fails(["score", game, "Cal", "6", "5"], saying: "only the committee changes it now, with a reason")
        try homes[0].fails(["score", game, "Cal", "6", "5"], saying: "caddie competition correct")
        // Nor may a player of the group name another marker (whose signature would then lock the card): the draw's
        // markers are the committee's.
        try homes[2].fails(["game", "marker", game, "Cal", "Ben"], saying: "the groups and their markers")
        #expect(try homes.map { try $0.stateHash() } == before)
        // The committee corrects it with a reason: every home shows the correction, the lock kept, Ben's 5 still refused.
        try homes[0].ok(["competition", "correct", "Medal", "Cal", "6", "5", "--reason", "Cal's own card: 5"])
        try RoundTests.merge(homes)
        for home in homes {
            let (holes, locked) = try calsCard(home, game)
            #expect(holes == [4, 4, 4, 4, 4, 5, 4, 4, 4])
            #expect((locked?["refused"] as? [[String: Any]])?.count == 1)
        }
        // Ana names Ben to the committee: his correction then counts on the locked card on every home. Only Ana names
        // it; a bad word or an unknown member is refused; nothing is written by any of these.
        let named = try homes.map { try $0.stateHash() }
        try homes[1].fails(
            ["competition", "correct", "Medal", "Cal", "7", "6", "--reason", "seen it"], saying: "and the members they name")
        try homes[2].fails(["competition", "committee", "Medal", "add", "Cal"], saying: "only Ana, who created Medal, names")
        try homes[0].fails(["competition", "committee", "Medal", "invite", "Ben"], saying: "give one")
        try homes[0].fails(["competition", "committee", "Medal", "add", "Zed"], saying: "no member of this space is called")
        #expect(try homes.map { try $0.stateHash() } == named)
        try homes[0].ok(["competition", "committee", "Medal", "add", "Ben"])
        #expect(try homes[0].ok(["competition", "show", "Medal"]).stdout.contains("Committee: Ana, Ben"))
        try homes[0].fails(["competition", "committee", "Medal", "add", "Ben"], saying: "on the committee of Medal already")
        try RoundTests.merge(homes)
        try homes[1].ok(["competition", "correct", "Medal", "Cal", "7", "6", "--reason", "the marker's card: 6"])
        try RoundTests.merge(homes)
        for home in homes {
            let shown = try calsCard(home, game)
            #expect(shown.holes == [4, 4, 4, 4, 4, 5, 6, 4, 4], "\(shown)")
        }
        // Players linked to users (their phones checked in): Ben is Bea, Cal is Cy, and Bea marks Cy. Only those two
        // sign Cy's card: Ana's home is refused, by name, with nothing written; their two signatures lock it.
        let users = try homes.map { try $0.ok(["whoami", "--json"]).field("user") }
        try homes[0].ok(["player", "add", "Bea", "--user", users[1]])
        try homes[0].ok(["player", "add", "Cy", "--user", users[2]])
        let linked = try homes[0].ok([
            "game", "new", "--course", course, "--tee", "1", "--players", "Bea,Cy", "--markers", "Cy:Bea", "--holes", "9",
            "--json",
        ]).field("game")
        try homes[0].ok(["competition", "add", "Medal", linked])
        for hole in 1...9 { try homes[0].ok(["score", linked, "Cy", "\(hole)", "5"]) }
        try RoundTests.merge(homes)
        let unsigned = try homes[0].stateHash()
        try homes[0].fails(["attest", linked, "Cy"], saying: "only Cy and their marker Bea sign Cy's card")
        #expect(try homes[0].stateHash() == unsigned)
        try homes[1].ok(["attest", linked, "Cy"])
        try homes[2].ok(["attest", linked, "Cy"])
        try RoundTests.merge(homes)
        let card = try #require(try homes[0].ok(["card", linked, "--json"]).json() as? [String: Any])
        let cy = (card["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Cy" }
        #expect(cy?["locked"] is [String: Any], "signed by Cy and Bea: locked")
    }

    @Test("an entry list from CSV (a bad row refused whole), the draw from two tees, the index frozen, named divisions")
    func entriesAndDraw() throws {
        let home = try CLI(name: "Sec")
        defer { home.remove() }
        try home.ok(["login", "--name", "Sec"])
        _ = try home.createSpace("Club")
        let course = try home.ok(["course", "import", RoundTests.course, "--json"]).field("course")
        try home.ok(["player", "add", "Ann", "--index", "20"])
        try home.ok(["competition", "new", "Medal", "--scoring", "net"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-entries-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ text: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let bad = try file("bad.csv", "name,index,tee\nBob,14.2,1\nCat,twenty,2\n")
        try home.fails(["competition", "entries", "Medal", bad], saying: "line 3: Cat's index 'twenty' is not a Handicap Index")
        let players = try #require(try home.ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(players.map { $0["name"] as? String } == ["Ann"], "nothing was imported: Bob is not a player")
        let list = try file(
            "entries.csv", "Name,Index,Tee,Division\nann,8.4,1,Men\n\"Brown, Bob\",14.2,1,Men\nCat,22,2,Ladies\nDan,+1.2,1,Men\n")
        try home.ok(["competition", "entries", "Medal", list])
        #expect(try #require(try home.ok(["player", "list", "--json"]).json() as? [[String: Any]]).count == 4, "Ann matched")
        // A tee the course does not have stops the draw, naming the player.
        try home.ok(["competition", "new", "Other"])
        try home.ok(["competition", "entries", "Other", try file("blue.csv", "name,index,tee\nEve,10,Blue\n")])
        try home.fails(["competition", "draw", "Other", "--course", course], saying: "Eve's tee 'Blue' is not a tee of")
        try home.fails(
            ["competition", "draw", "Medal", "--course", course, "--first", "9am"], saying: "'9am' is not a time")
        let sheet = try #require(
            try home.ok([
                "competition", "draw", "Medal", "--course", course, "--size", "2", "--two-tees", "--order", "entry",
                "--first", "09:00", "--json",
            ]).json() as? [String: Any])
        let groups = try #require(sheet["groups"] as? [[String: Any]])
        #expect(groups.map { $0["teeTime"] as? String } == ["09:00", "09:00"])
        #expect(groups.map { $0["startHole"] as? Int } == [1, 10])
        let first = try #require(groups.first?["players"] as? [[String: Any]])
        #expect(first.map { $0["name"] as? String } == ["Ann", "Brown, Bob"])
        #expect(first.map { $0["marker"] as? String } == ["Brown, Bob", "Ann"])
        #expect(first.map { $0["index"] as? Double } == [8.4, 14.2], "the list's index, not Ann's own 20")
        try home.fails(["competition", "draw", "Medal", "--course", course], saying: "is made already (2 groups)")
        // The starter's sheet: a block per group with a QR code of the group's card at the web app's address.
        let sheetFile = folder.appendingPathComponent("sheet.html").path
        try home.ok([
            "competition", "show", "Medal", "--format", "html", "--url", "https://caddie.test:7443", "--out", sheetFile,
        ])
        let page = try String(contentsOfFile: sheetFile, encoding: .utf8)
        let games = groups.compactMap { $0["game"] as? String }
        #expect(games.allSatisfy { page.contains("https://caddie.test:7443/#/game/\($0)") })
        #expect(page.components(separatedBy: "<svg").count == 3 && !page.contains("<script"))
        #expect(page.contains("<b>Brown, Bob</b>") && page.contains("marked by Ann"))
        try home.fails(
            ["competition", "show", "Medal", "--format", "html", "--url", "http://caddie.test"],
            saying: "is not the web app's HTTPS address")
        try home.fails(["competition", "entries", "Medal", list], saying: "can no longer change")
        // The board plays Ann off the list's 8.4 even after her own index changes; her game's standings follow the
        // new one.
        func annOnBoard() throws -> [String: Any] {
            let board = try #require(try home.ok(["competition", "board", "Medal", "--json"]).json() as? [String: Any])
            let divisions = try #require(board["divisions"] as? [[String: Any]])
            #expect(divisions.map { $0["name"] as? String } == ["Men", "Ladies"])
            let lines = divisions.flatMap { ($0["lines"] as? [[String: Any]]) ?? [] }
            return try #require(lines.first { $0["name"] as? String == "Ann" })
        }
        let before = try #require(try annOnBoard()["playingHandicap"] as? Int)
        try home.ok(["player", "edit", "Ann", "--index", "30"])
        #expect(try annOnBoard()["playingHandicap"] as? Int == before)
        let game = try #require(groups.first?["game"] as? String)
        let standings = try #require(try home.ok(["standings", game, "--json"]).json() as? [String: Any])
        let ann = try #require((standings["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Ann" })
        #expect(try #require(ann["playingHandicap"] as? Int) > before + 15, "the game itself uses her index of 30")
    }
}
