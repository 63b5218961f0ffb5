import CaddieCore
import CaddieCrypto
import CaddieNode
import CaddieServices
import CaddieStore
import Foundation

/// A club's competition at the size of a field (docs/competitions.md): 160 entrants from a CSV, a shotgun draw of
/// 40 groups on a sample course, every card scored, then the board computed from the merged state. Times the entry
/// list's import and the draw (one op each), and the board (median of several runs), and says how many bytes the
/// whole board is as JSON; then, the board made public, how many bytes and lines a public board's stream is sent per
/// corrected score (only what changed) against the board whole.
struct BoardBench {
    let directory: URL
    let entrants: Int
    let runs = 9

    func run() throws -> [(String, Double, String)] {
        let passphrase = "bench passphrase"
        let home = try Home(path: directory.appendingPathComponent("board-home").path)
        _ = try home.login(name: "Committee", passphrase: passphrase)
        let space = try home.spaces.createSpace(name: "Club", passphrase: passphrase).space
        let keys = try home.unlock(passphrase: passphrase)
        guard let file = try CourseService.sampleCourseFiles().first(where: { $0.name == "haagsche.json" }) else {
            throw BenchError("the sample course haagsche.json is missing")
        }
        let imported = try home.execute(.importCourses(space: space, courses: try CourseService.read(file.data)), keys: keys)
        let course = try home.courses.course(space, try imported.importedCourses()[0].id)
        guard let tee = course.tees.first(where: { $0.rating != nil && $0.slope != nil && $0.par != nil }) else {
            throw BenchError("the sample course has no rated tee")
        }
        let competition = try home.execute(
            .newCompetition(space: space, name: "Bench Stableford", settings: .init(scoring: .stableford, divisions: [12, 24])),
            keys: keys
        ).createdCompetition()
        var csv = "name,index,tee\n"
        for number in 0..<entrants { csv += "Player \(number + 1),\(Double((number * 37) % 360) / 10),\(tee.name)\n" }
        let list = try EntryList(csv: csv)
        let importTime = try seconds {
            _ = try home.execute(.importEntries(space: space, competition: competition, list: list), keys: keys)
        }
        let drawTime = try seconds {
            _ = try home.execute(
                .draw(space: space, competition: competition, course: course.id, size: 4, start: .shotgun, shuffled: true),
                keys: keys)
        }
        let drawn = try home.competitions.sheet(space: space, competition: competition)
        for (number, group) in drawn.groups.enumerated() {
            var edits: [(changes: [Change], pred: [OpID])] = []
            for (index, player) in group.players.map(\.player.id).enumerated() {
                for hole in 1...18 {
                    let strokes = 3 + (hole * 7 + index * 3 + number) % 4
                    let entry = try ScoreEntry(strokes: strokes)
                    edits.append(([Change.score(game: group.game, player: player, hole: hole, entry: entry)], []))
                }
            }
            _ = try home.store.appendBatch(space: space, signer: keys.device, edits: edits, now: Home.now())
        }
        var times: [Double] = []
        var bytes = 0
        var lines = 0
        for _ in 0..<runs {
            var board: CompetitionBoard?
            times.append(try seconds { board = try home.competitions.board(space: space, competition: competition) } * 1000)
            guard let board else { throw BenchError("no board") }
            bytes = Views.board(board).text.utf8.count
            lines = board.board.divisions.reduce(0) { $0 + $1.lines.count }
        }
        guard lines == entrants else { throw BenchError("the board has \(lines) lines for \(entrants) entrants") }
        // What a public board's stream is sent per change: one score corrected at a time (a stroke more, on a
        // different player's card each time), the event with only the lines that changed, against the board whole.
        _ = try home.execute(
            .setBoardAccess(space: space, competition: competition, isPublic: true, hiddenHoles: 0), keys: keys)
        var sent = Views.PublicBoardSent()
        _ = sent.take(try home.competitions.board(space: space, competition: competition, publicView: true), space: space)
        let whole = (sent.whole(space: space) ?? .null).text.utf8.count
        var changeBytes: [Int] = []
        var changedLines: [Int] = []
        for change in 0..<runs {
            let group = drawn.groups[(change * 7) % drawn.groups.count]
            let player = group.players[change % group.players.count].player.id
            let hole = 1 + (change * 5) % 18
            let cell = try home.cells(space, game: group.game).first { $0.player == player && $0.hole == hole }
            guard let shown = cell?.winner else { throw BenchError("no score to correct") }
            let strokes = (shown.entry.holed ?? 4) + 1
            _ = try home.store.appendBatch(
                space: space, signer: keys.device,
                edits: [
                    (
                        [Change.score(game: group.game, player: player, hole: hole, entry: try ScoreEntry(strokes: strokes))],
                        [shown.op]
                    )
                ], now: Home.now())
            let board = try home.competitions.board(space: space, competition: competition, publicView: true)
            guard let event = sent.take(board, space: space) else { throw BenchError("a correction changed nothing") }
            changeBytes.append(event.text.utf8.count)
            if case .object(let fields) = event, case .array(let sentLines)? = fields.first(where: { $0.0 == "lines" })?.1 {
                changedLines.append(sentLines.count)
            }
        }
        return [
            ("boardEntrants", Double(entrants), "players"),
            ("boardGroups", Double(drawn.groups.count), "groups"),
            ("boardImportEntriesMs", importTime * 1000, "ms"),
            ("boardDrawMs", drawTime * 1000, "ms"),
            ("boardComputeMedianMs", times.sorted()[runs / 2], "ms"),
            ("boardJSONBytes", Double(bytes), "bytes"),
            ("boardEventWholeBytes", Double(whole), "bytes"),
            ("boardEventPerChangeMedianBytes", Double(changeBytes.sorted()[runs / 2]), "bytes"),
            ("boardEventPerChangeMaxBytes", Double(changeBytes.max() ?? 0), "bytes"),
            ("boardEventLinesPerChangeMedian", Double(changedLines.sorted()[changedLines.count / 2]), "lines"),
        ]
    }
}
