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
        subcommands: [New.self, List.self, Add.self, Remove.self, Mark.self, Board.self])

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
                        + "  make each group's game part of it: caddie competition add \(id.short) GAME...")
            }
        }

        func settings() throws(NodeError) -> Competition.Settings {
            guard let scoring = Competition.Scoring(rawValue: scoring.lowercased()) else {
                throw .badInput(
                    .init(option: "--scoring", field: "scoring"),
                    "'\(scoring)' is not a scoring: give net, gross or stableford")
            }
            guard let countback = Competition.Countback(rawValue: countback.lowercased()) else {
                throw .badInput(
                    .init(option: "--countback", field: "countback"),
                    "'\(countback)' is not a countback policy: give "
                        + Competition.Countback.allCases.map(\.rawValue).joined(separator: ", "))
            }
            var bands: [Int] = []
            for part in (divisions ?? "").split(separator: ",", omittingEmptySubsequences: false) where divisions != nil {
                guard let value = Int(part.trimmingCharacters(in: .whitespaces)) else {
                    throw .badInput(
                        .init(option: "--divisions", field: "divisions"),
                        "'\(divisions ?? "")' is not a list of whole numbers: give e.g. 12,20")
                }
                bands.append(value)
            }
            return Competition.Settings(
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
            let status: Competition.Status? = try guardedValue { () throws(NodeError) -> Competition.Status? in
                switch self.status.lowercased() {
                case "nr": .noReturn
                case "dq": .disqualified
                case "clear": nil
                default:
                    throw .badInput(
                        .init(option: "the mark", field: "status"), "'\(self.status)' is not a mark: give nr, dq or clear")
                }
            }
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

    struct Board: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "board", abstract: "The board: positions per division, ties counted back, NR and DQ, the twos.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The competition.") var competition: String

        func run() async throws {
            try await options.read { home, space in
                let id = try home.competitions.resolveCompetition(space, competition).id
                let board = try home.competitions.board(space: space, competition: id)
                options.show(Views.board(board), text: BoardText.render(board))
            }
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
