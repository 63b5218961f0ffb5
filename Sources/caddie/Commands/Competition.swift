import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

/// `caddie competition`: a club competition on one node (docs/competitions.md). Its groups are games; the board
/// ranks every group's cards by the competition's scoring, per division, with ties counted back.
struct CompetitionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "competition",
        abstract: "Run a club competition: create it, make games its groups, mark NR or DQ, print the board.",
        subcommands: [
            New.self, List.self, Entries.self, DrawCommand.self, Show.self, Add.self, Remove.self, Mark.self,
            Correct.self, Board.self, Public.self, Results.self, Close.self, Committee.self,
        ])

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new", abstract: "Create a competition with its scoring, countback, allowance and divisions.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The competition's name, e.g. \"Saturday Medal\".") var name: String
        @Option(help: "net (medal net), gross (medal gross) or stableford.") var scoring = "stableford"
        @Option(help: "How ties are decided: r-and-a, r-and-a-rounded or last-played (docs/competitions.md).")
        var countback = "r-and-a"
        @Option(help: "The handicap allowance, percent of the Course Handicap.") var allowance = 95
        @Option(help: "Divisions by Playing Handicap: the highest of each but the last, e.g. 12,20 (up to 12, 13-20, 21+).")
        var divisions: String?
        @Flag(help: "Share the twos per division (else across the field).") var twosByDivision = false

        func run() async throws {
            let chosen = try guardedValue { try settings() }
            try await options.read { home, space in
                let id = try await home.run(.newCompetition(space: space, name: name, settings: chosen)) {
                    try home.unlock(passphrase: try Passphrase.obtain())
                }.createdCompetition()
                options.show(
                    .object([("competition", .string(id.hex))]),
                    text: "Created competition \(name): \(id.hex)\n"
                        + "  \(chosen.scoring.title), \(chosen.allowance)% allowance, ties by \(chosen.countback.title)\n"
                        + "  next: caddie competition entries \(id.short) FILE.csv, then caddie competition draw "
                        + "\(id.short) --course COURSE (or add games made by hand: caddie competition add \(id.short) GAME...)")
            }
        }

        func settings() throws(NodeError) -> Competition.Settings {
            var bands: [Int] = []
            for part in (divisions ?? "").split(separator: ",", omittingEmptySubsequences: false) where divisions != nil {
                guard let value = Int(part.trimmingCharacters(in: .whitespaces)) else {
                    throw .badInput(
                        .divisions,
                        "'\(divisions ?? "")' is not a list of whole numbers: give e.g. 12,20")
                }
                bands.append(value)
            }
            return try CompetitionService.settings(
                scoring: scoring, countback: countback, allowance: allowance, divisions: bands,
                twosByDivision: twosByDivision)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the space's competitions.")
        @OptionGroup var options: Reporting<SpaceOptions>

        func run() async throws {
            try await options.list(
                { try $0.competitions.competitions($1) }, empty: "No competitions yet (caddie competition new NAME).",
                item: Views.competition
            ) { record in
                "\(record.id.hex)  \(record.name)  \(record.scoring), \(record.allowance)%, countback \(record.countback)"
            }
        }
    }

    struct Entries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "entries",
            abstract: "Import the entry list from a CSV file: name,index,tee and optionally division,club.",
            discussion: "A bad row refuses the whole file, naming its line; nothing is imported. Each name is matched to "
                + "the space's player of that name, or added as a new player. The index is the one the board uses.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Argument(help: "The CSV file.") var file: String

        func run() async throws {
            let list = try guardedValue { () throws(NodeError) -> EntryList in
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw .file("cannot read \(file): check the path")
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw .file("\(file) is not UTF-8 text: save it from the spreadsheet as CSV UTF-8")
                }
                do {
                    return try EntryList(csv: text)
                } catch {
                    throw .file("\(file) \(error); nothing was imported")
                }
            }
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                let before = try home.rounds.players(space).count
                _ = try await home.run(
                    .importEntries(space: space, competition: record.id, list: list), unlock: Passphrase.unlock(home))
                let added = try home.rounds.players(space).count - before
                Console.print(
                    "Imported \(list.entries.count) entrants into \(record.name) (\(added) new player"
                        + "\(added == 1 ? "" : "s")); next: caddie competition draw \(record.id.short) --course COURSE")
            }
        }
    }

    struct DrawCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "draw",
            abstract: "Make the draw: groups of 2-4 as games, with tee times from the 1st (and 10th) or a shotgun.",
            discussion: "Each player is marked by the next in their group. The whole draw is one op; it is refused "
                + "once made (take the groups out with `competition remove` to draw again).")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The competition.") var competition: String
        @Option(help: "The course (id, id prefix or name).") var course: String
        @Option(help: "Players a group, 2 to 4.") var size = 4
        @Option(help: "The first tee time, HH:MM.") var first = "08:00"
        @Option(help: "Minutes between groups.") var interval = 10
        @Flag(help: "Start groups from the 1st and the 10th.") var twoTees = false
        @Flag(help: "A shotgun: every group at once, each from its own hole.") var shotgun = false
        @Option(help: "random (the default) or entry (the list's order).") var order = "random"

        func run() async throws {
            let (start, shuffled) = try guardedValue {
                try CompetitionService.drawStart(
                    first: first, interval: interval, twoTees: twoTees, shotgun: shotgun, order: order)
            }
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                let courseID = try home.courses.resolveCourse(space, course).id
                _ = try await home.run(
                    .draw(
                        space: space, competition: record.id, course: courseID, size: size, start: start,
                        shuffled: shuffled),
                    unlock: Passphrase.unlock(home))
                let sheet = try home.competitions.sheet(space: space, competition: record.id)
                options.show(Views.sheet(sheet), text: BoardText.sheet(sheet))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "The draw: each group's start, tee time, players, indexes and markers.",
            discussion: "--format html makes the starter's sheet to print: a block per group with a QR code that opens "
                + "the group's card on a phone (at --url, else at the HTTPS address of the node running on this home).")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The competition.") var competition: String
        @Option(help: "text (default) or html: the sheet to print, with a QR code per group.") var format = "text"
        @Option(help: "Write the sheet to this file (else standard output).") var out: String?
        @Option(help: "The web app's address for the QR codes, e.g. https://clubhouse.local:7443.") var url: String?
        @Flag(
            help: ArgumentHelp(
                "Each group's code checks its players' phones in for the day (a sign-in for the group's phones, each "
                    + "becoming its player's device), instead of opening the card: the printed sheet then signs phones in."))
        var checkIn = false

        func run() async throws {
            guard format == "html" || !checkIn else {
                return try await guarded {
                    throw NodeError.badInput(
                        .checkIn, "prints codes on the sheet: give --format html too")
                }
            }
            guard format == "html" else {
                try await guarded {
                    guard format == "text" else {
                        throw NodeError.badInput(
                            .reportFormat, "'\(format)' is not a format: give text or html")
                    }
                }
                return try await CompetitionCommand.show(options, competition) { home, space, id in
                    let sheet = try home.competitions.sheet(space: space, competition: id)
                    return (Views.sheet(sheet), BoardText.sheet(sheet))
                }
            }
            try await options.read { home, space in
                let sheet = try home.competitions.sheet(
                    space: space, competition: try home.competitions.resolveCompetition(space, competition).id)
                var base = url
                if base == nil { base = try CompetitionCommand.httpsAddress(home) }
                if let given = base {
                    guard given.hasPrefix("https://"), URL(string: given)?.host != nil else {
                        throw NodeError.badInput(
                            .url,
                            "'\(given)' is not the web app's HTTPS address: give it like https://clubhouse.local:7443")
                    }
                }
                var checkIns: [GameID: String] = [:]
                if checkIn {
                    guard base != nil else {
                        throw NodeError.badInput(
                            .url,
                            "is needed for check-in codes: give the web app's HTTPS address, or run `caddie serve --https`")
                    }
                    for group in sheet.groups {
                        checkIns[group.game] = try WebAccess(home: home).newCheckIn(
                            space: space, game: group.game, uses: group.players.count)
                    }
                }
                // A phone new to the node trusts its authority first: the node's plain-HTTP trust page, at the
                // sheet's host, has a code of its own on the sheet.
                let trust =
                    try checkIns.isEmpty
                    ? nil
                    : HTTPEndpoint.read(home)?.trustPort.flatMap { port in
                        base.flatMap { URL(string: $0)?.host }.map { "http://\($0):\(port)/" }
                    }
                let page = BoardText.sheetHTML(
                    sheet, base: base.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }, space: space,
                    checkIns: checkIns, trust: trust)
                guard let out else { return FileHandle.standardOutput.write(Data(page.utf8)) }
                try Console.write(Data(page.utf8), to: out)
                Console.print(
                    "Wrote the draw sheet of \(sheet.competition.name) to \(out)"
                        + (base == nil ? " (no QR codes: give --url, or run `caddie serve --https`)" : ""))
            }
        }
    }

    /// What `add` and `remove` take: the competition and its games.
    struct Groups: ParsableArguments {
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Argument(help: "The games (ids or id prefixes).") var games: [String]
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Make games groups of a competition (one op).")
        @OptionGroup var groups: Groups

        func run() async throws { try await CompetitionCommand.setGroups(groups, add: true) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take games out of a competition.")
        @OptionGroup var groups: Groups

        func run() async throws { try await CompetitionCommand.setGroups(groups, add: false) }
    }

    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark", abstract: "The committee marks a player NR (no return) or DQ, or clears the mark.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Argument(help: "The player.") var player: String
        @Argument(help: "nr, dq or clear.") var status: String

        func run() async throws {
            let status = try guardedValue { try CompetitionService.mark(self.status) }
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                let player = try home.rounds.resolvePlayer(space, player)
                _ = try await home.run(
                    .setCompetitionStatus(space: space, competition: record.id, player: player.id, status: status),
                    unlock: Passphrase.unlock(home))
                Console.print(
                    status.map { "Marked \(player.name) \($0.rawValue) in \(record.name)" }
                        ?? "Cleared \(player.name)'s mark in \(record.name)")
            }
        }
    }

    struct Correct: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "correct",
            abstract: "The committee corrects a player's score on a hole, saying why (the audit shows the reason).",
            discussion: "The correction replaces every value the hole shows (it settles a dispute), in the player's group "
                + "of the competition, even once the game is finished or the competition closed. Only the committee "
                + "(the competition's creator) corrects.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Argument(help: "The player.") var player: String
        @Argument(help: "The hole number.") var hole: Int
        @Argument(help: "Strokes, 1...30, or pickup (P).") var strokes: String
        @Option(help: "Why, in one line: e.g. \"marker's card: 5, not 4\".") var reason = ""

        func run() async throws {
            let entry = try guardedValue { () throws(NodeError) -> ScoreEntry in try ScoreEntry.typed(strokes) }
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                let player = try home.rounds.resolvePlayer(space, player)
                _ = try await home.run(
                    .correctScore(
                        space: space, competition: record.id, player: player.id, hole: hole, entry: entry, reason: reason),
                    unlock: Passphrase.unlock(home))
                Console.print(
                    "Corrected \(player.name)'s \(Dispute.ordinal(hole)) in \(record.name) to "
                        + "\(entry.pickedUp ? "a pick-up" : String(entry.holed ?? 0)): \(reason)")
            }
        }
    }

    struct Board: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "board", abstract: "The board: positions per division, ties counted back, NR and DQ, the twos.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The competition.") var competition: String

        func run() async throws {
            try await CompetitionCommand.show(options, competition) { home, space, id in
                let board = try home.competitions.board(space: space, competition: id)
                return (Views.board(board), BoardText.render(board))
            }
        }
    }

    struct Public: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "public",
            abstract: "Open the board to anyone who reaches this node (the clubhouse TV, spectators' phones), or close it.",
            discussion: "The public board is a page at /board/SPACE/COMPETITION on `caddie serve`, with no sign-in: "
                + "a TV shows it in large type and pages through the divisions; a phone scrolls it. It updates as "
                + "scores arrive. --hide-last N leaves each card's last N holes off it, so the finish stays a surprise.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Argument(help: "on or off.") var access: String
        @Option(help: "Leave each card's last N holes (as the player plays them) off the public board: 0 to 9.")
        var hideLast = 0

        func run() async throws {
            let isPublic = try guardedValue { () throws(NodeError) -> Bool in
                switch access.lowercased() {
                case "on": return true
                case "off": return false
                default:
                    throw .badInput(
                        .access, "'\(access)' is not on or off: give on or off")
                }
            }
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                _ = try await home.run(
                    .setBoardAccess(space: space, competition: record.id, isPublic: isPublic, hiddenHoles: hideLast),
                    unlock: Passphrase.unlock(home))
                guard isPublic else { return Console.print("The board of \(record.name) is no longer public") }
                let path = "/board/\(space.hex)/\(record.id.hex)"
                let hidden = hideLast == 0 ? "" : ", each card's last \(hideLast) hole\(hideLast == 1 ? "" : "s") left off"
                guard let base = try CompetitionCommand.httpsAddress(home) else {
                    return Console.print(
                        "The board of \(record.name) is public at \(path) on the node's HTTPS address (`caddie serve "
                            + "--https`)\(hidden)")
                }
                Console.print(
                    "The board of \(record.name) is public at \(base)\(path)\(hidden)\n"
                        + "  for the wall: `caddie competition show \(record.id.short) --format html` prints its QR code "
                        + "under the draw")
            }
        }
    }

    struct Results: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "results", abstract: "The results to print or publish: CSV or a one-page HTML, per division.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Option(help: "csv or html.") var format = "csv"
        @Option(help: "Write to this file (else standard output).") var out: String?

        func run() async throws {
            let html = try guardedValue { () throws(NodeError) -> Bool in
                guard ["csv", "html"].contains(format) else {
                    throw .badInput(.reportFormat, "'\(format)' is not a format: give csv or html")
                }
                return format == "html"
            }
            try await options.read { home, space in
                let id = try home.competitions.resolveCompetition(space, competition).id
                let board = try home.competitions.board(space: space, competition: id)
                let text = html ? board.html : board.csv
                guard let out else { return FileHandle.standardOutput.write(Data(text.utf8)) }
                try Console.write(Data(text.utf8), to: out)
                Console.print("Wrote the results of \(board.competition.name) to \(out)")
            }
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "close",
            abstract: "Close the competition: every group's game finished, so each card enters its handicap record.",
            discussion: "Closing refuses further entries, draws and groups; --reopen opens it again (the games stay "
                + "finished: `caddie game reopen GAME` to correct one).")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Flag(help: "Open a closed competition again.") var reopen = false

        func run() async throws {
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                _ = try await home.run(
                    .setCompetitionClosed(space: space, competition: record.id, closed: !reopen),
                    unlock: Passphrase.unlock(home))
                Console.print(reopen ? "Reopened \(record.name)" : "Closed \(record.name): its groups' games are finished")
            }
        }
    }

    /// The web app's HTTPS address while `caddie serve --https` runs on this home (`https://HOST:PORT`), else nil.
    static func httpsAddress(_ home: Home) throws -> String? {
        guard let endpoint = try HTTPEndpoint.read(home), endpoint.scheme == "https" else { return nil }
        return "https://\(try Web.Link.address(endpoint: endpoint, given: nil)):\(endpoint.port)"
    }

    /// A read of one competition, printed as JSON or text.
    static func show(
        _ options: Reporting<SpaceOptions>, _ competition: String,
        _ make: (Home, SpaceID, CompetitionID) throws -> (JSON, String)
    ) async throws {
        try await options.read { home, space in
            let (json, text) = try make(home, space, try home.competitions.resolveCompetition(space, competition).id)
            options.show(json, text: text)
        }
    }

    /// `add` and `remove`: the games resolved, then one command.
    static func setGroups(_ groups: Groups, add: Bool) async throws {
        try await groups.options.read { home, space in
            let record = try home.competitions.resolveCompetition(space, groups.competition)
            let ids = try groups.games.map { try home.rounds.resolveGame(space, $0).id }
            _ = try await home.run(
                .setCompetitionGroups(space: space, competition: record.id, games: ids, add: add),
                unlock: Passphrase.unlock(home))
            let count = "\(ids.count) game\(ids.count == 1 ? "" : "s")"
            Console.print(add ? "Added \(count) to \(record.name)" : "Took \(count) out of \(record.name)")
        }
    }
}
