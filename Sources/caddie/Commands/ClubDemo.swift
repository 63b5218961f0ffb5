import CaddieCodes
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

/// `caddie demo --club`: a club's Stableford on one clubhouse home, compressed: 48 entrants from a CSV, a shotgun
/// draw of 12 groups, every card scored (a pick-up and a dispute among them), a tie decided by the countback, a
/// disqualification, a correction, a card signed twice and locked, the board, the results and the close. In this process, on a home in a scratch folder.
final class ClubDemo {
    let folder: URL
    let home: Home
    let started = Date()
    static let size = 48

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-club-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        home = try Home(path: folder.appendingPathComponent("clubhouse").path)
    }

    func say(_ text: String) { Console.print(text) }

    /// The entry list: 48 players, indexes from 2 to 35, two divisions by name.
    static func entriesCSV() -> String {
        let first = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
        let last = ["Moreau", "Novak", "Okafor", "Park"]
        var rows = ["name,index,tee,division,club"]
        for number in 0..<size {
            let index = 2.0 + Double((number * 37) % 331) / 10
            let division = index <= 18 ? "Low" : "High"
            rows.append("\(first[number % 12]) \(last[number / 12]),\(index),Yellow,\(division),C\(1000 + number)")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// A player's strokes on a hole, the same on every run: par, plus a share of the handicap's strokes, plus a
    /// little scatter.
    static func strokes(player: Int, hole: Int, par: Int, index: Double) -> Int {
        let scatter = (player * 31 + hole * 17 + player * hole) % 7
        let extra = index > 20 ? (scatter < 3 ? 2 : 1) : index > 10 ? (scatter < 4 ? 1 : 0) : (scatter < 2 ? 1 : 0)
        return max(2, par + extra - (scatter == 6 && (player + hole) % 3 == 0 ? 1 : 0))
    }

    func play() async throws {
        say("== The committee's clubhouse home (under \(folder.path))")
        _ = try home.login(name: "Committee", passphrase: Demo.passphrase)
        let space = try home.spaces.createSpace(name: "Club", passphrase: Demo.passphrase).space
        let keys = try home.unlock(passphrase: Demo.passphrase)
        let course = try home.execute(
            .importCourses(space: space, courses: try CourseService.read(Data(DemoRun.demoCourse.utf8))), keys: keys
        ).importedCourses()[0].id
        let record = try home.courses.course(space, course)
        let competition = try home.execute(
            .newCompetition(
                space: space, name: "Saturday Stableford",
                settings: .init(scoring: .stableford, countback: .randa, allowance: 95)),
            keys: keys
        ).createdCompetition()
        say("   competition Saturday Stableford: Stableford, 95% allowance, ties by the R&A's countback")

        say("== The entry list from the club's spreadsheet: a bad row first, then the real one")
        let bad = "name,index,tee\nAna Moreau,12.4,Yellow\nBen Moreau,twelve,Yellow\n"
        do {
            _ = try EntryList(csv: bad)
        } catch {
            say("   refused: entries.csv \(error); nothing was imported")
        }
        let list = try EntryList(csv: Self.entriesCSV())
        let playersBefore = try home.rounds.players(space).count
        _ = try home.execute(.importEntries(space: space, competition: competition, list: list), keys: keys)
        let entrants = try home.competitions.competition(space, competition).entries.count
        let newPlayers = try home.rounds.players(space).count - playersBefore
        say("   \(entrants) entrants, \(newPlayers) new players, two divisions (Low, High)")

        say("== The draw: a shotgun, 12 groups of four on holes 1-12, each player marked by the next in the group")
        _ = try home.execute(
            .draw(space: space, competition: competition, course: course, size: 4, start: .shotgun, shuffled: false),
            keys: keys)
        let sheet = try home.competitions.sheet(space: space, competition: competition)
        // Each group's game and its players in the draw's order.
        let drawn = sheet.groups.map { (game: $0.game, label: $0.label, players: $0.players.map(\.player.id)) }
        for group in sheet.groups.prefix(2) {
            say(
                "   group \(group.label): "
                    + group.players.map { "\($0.player.name) (\($0.index.map { String($0) } ?? "-"))" }.joined(separator: ", "))
        }
        say("   ... and \(drawn.count - 2) more")

        say("== The day, compressed: every card scored, hole by hole")
        let entries = try home.competitions.competition(space, competition).entries
        let order = entries.sorted { $0.value.order < $1.value.order }.map(\.key)
        var entered = 0
        let scoring = Date()
        for group in drawn {
            let holes = HandicapService.holesPlayed(try home.rounds.game(space, group.game), course: record)
            for hole in holes {
                let par = record.hole(hole)?.par(tee: "Yellow") ?? 4
                for player in group.players {
                    let number = order.firstIndex(of: player) ?? 0
                    // The 8th entrant picks up on the 5th: 0 points there, still on the board (Stableford).
                    let entry: ScoreEntry =
                        number == 7 && hole == 5
                        ? .pickUp
                        : try ScoreEntry(
                            strokes: Self.strokes(player: number, hole: hole, par: par, index: entries[player]?.index ?? 18))
                    _ = try home.execute(
                        .score(space: space, game: group.game, player: player, hole: hole, entry: entry), keys: keys)
                    entered += 1
                }
            }
        }
        say(String(format: "   %d entries in %.1f s", entered, Date().timeIntervalSince(scoring)))
        try committeesDay(space: space, keys: keys, competition: competition, drawn: drawn)
        try lockACard(space: space, keys: keys, game: drawn[4].game, first: drawn[4].players[0])

        say("== The board")
        let board = try home.competitions.board(space: space, competition: competition)
        say(BoardText.render(board).split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
        let decided = board.board.divisions.flatMap(\.lines).filter { $0.decidedBy != nil }.count
        say("   \(decided) lines decided or left equal by the countback")
        // The clubhouse TV and spectators' phones: the same board, each card's last three holes hidden.
        _ = try home.execute(
            .setBoardAccess(space: space, competition: competition, isPublic: true, hiddenHoles: 3), keys: keys)
        let shown = try home.competitions.board(space: space, competition: competition, publicView: true)
        let leaders = shown.board.divisions.compactMap { division in
            division.lines.first.map { "\(division.name ?? String(division.number)): \(shown.entrants[$0.entrant].player.name)" }
        }
        say(
            "   public board at /board/\(space.hex)/\(competition.hex) on `caddie serve --https`, the last 3 holes "
                + "hidden (thru \(shown.board.divisions.flatMap(\.lines).map(\.thru).max() ?? 0)): leads "
                + leaders.joined(separator: ", "))

        say("== Results and the close")
        let results = folder.appendingPathComponent("results.html")
        try Console.write(Data(board.html.utf8), to: results.path)
        _ = try home.execute(.setCompetitionClosed(space: space, competition: competition, closed: true), keys: keys)
        say("   results page: \(results.path)")
        say("   closed: every group's game finished, each card now counts for its player's handicap record")
        say(String(format: "== Done in %.1f s", Date().timeIntervalSince(started)))
    }

    /// What the committee meets on the day: two markers' values of one cell (a dispute), a disqualification, and a
    /// score corrected against the marker's card (refused without a reason, then taken with one).
    func committeesDay(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID,
        drawn: [(game: GameID, label: String, players: [PlayerID])]
    ) throws {
        // Two markers disagree on a cell: a value entered without having seen the first stands beside it.
        let disputed = drawn[2]
        _ = try home.execute(
            .score(
                space: space, game: disputed.game, player: disputed.players[1], hole: 7, entry: try ScoreEntry(strokes: 9),
                seen: []),
            keys: keys)
        say("   a dispute in group \(disputed.label): two values of one cell, both kept until the group settles it")
        let ruledOut = drawn[5].players[0]
        _ = try home.execute(
            .setCompetitionStatus(space: space, competition: competition, player: ruledOut, status: .disqualified),
            keys: keys)
        say("   the committee disqualifies \(try home.rounds.player(space, ruledOut).name)")
        // The committee checks a card against the marker's and corrects a score, saying why (never without a reason).
        let checked = drawn[3]
        let corrected = checked.players[1]
        let was =
            try home.cells(space, game: checked.game).first { $0.player == corrected && $0.hole == 5 }?.winner?.entry.holed
            ?? 4
        do {
            _ = try home.execute(
                .correctScore(
                    space: space, competition: competition, player: corrected, hole: 5,
                    entry: try ScoreEntry(strokes: was + 1), reason: ""),
                keys: keys)
        } catch {
            say("   refused, a correction without a reason: \(Console.words(error))")
        }
        let reason = "marker's card: \(was + 1), not \(was)"
        _ = try home.execute(
            .correctScore(
                space: space, competition: competition, player: corrected, hole: 5,
                entry: try ScoreEntry(strokes: was + 1), reason: reason),
            keys: keys)
        say("   the committee corrects \(try home.rounds.player(space, corrected).name)'s 5th: \"\(reason)\" (in the audit)")
    }

    /// A card signed twice is locked: the player signs on a device of their own (a second home here, joined with the
    /// space's code, the two merged by bundle), the scorer's hut signs on the clubhouse home, and the clubhouse then
    /// refuses an entry for it, by name.
    func lockACard(space: SpaceID, keys: UnlockedKeys, game: GameID, first: PlayerID) throws {
        let player = try home.rounds.player(space, first)
        let phone = try Home(path: folder.appendingPathComponent("phone").path)
        _ = try phone.login(name: player.name, passphrase: Demo.passphrase)
        let code = try home.execute(.sharedKeyInvite(space: space), keys: keys).madeInvite()
        _ = try phone.spaces.joinSpace(invite: code, passphrase: Demo.passphrase)
        let phoneKeys = try phone.unlock(passphrase: Demo.passphrase)
        _ = try phone.rounds.importBundle(keys: phoneKeys, bytes: try home.rounds.export(space: space, since: .init()).bundle)
        _ = try phone.execute(.attest(space: space, game: game, player: player.id), keys: phoneKeys)
        _ = try home.execute(.attest(space: space, game: game, player: player.id), keys: keys)
        _ = try home.rounds.importBundle(keys: keys, bytes: try phone.rounds.export(space: space, since: .init()).bundle)
        say("   \(player.name) signs the card on their own device, the scorer's hut signs it on the clubhouse home: locked")
        do {
            _ = try home.execute(
                .score(space: space, game: game, player: player.id, hole: 1, entry: try ScoreEntry(strokes: 3)), keys: keys)
            say("   (the locked card took an entry: this is a fault)")
        } catch {
            say("   refused, a late entry for it: \(Console.words(error))")
        }
    }

    func finish(keep: Bool) {
        if keep {
            say("   kept: \(folder.path)")
        } else {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
