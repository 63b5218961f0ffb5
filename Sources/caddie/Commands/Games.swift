import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

/// The options that set up a game, shared by `game new` and `game setup`.
struct GameSetupOptions: ParsableArguments {
    @Option(name: .customLong("player-tee"), help: "A player's own tee, PLAYER=TEE (repeat for each; mixed tees).")
    var playerTees: [String] = []
    @Option(help: "The hole the game starts on (a shotgun start may start anywhere).") var start: Int?
    @Option(help: "How many holes: 9 or 18 (front nine: --holes 9; back nine: --holes 9 --start 10).") var holes: Int?
    @Option(
        help: ArgumentHelp(
            "Formats, comma-separated: \(Games.registry.map(\.name).joined(separator: ", ")).",
            discussion: "`caddie game formats` says what each is and what it needs."))
    var formats: String?
    @Option(help: "Skins on net or gross scores (net by default).") var skins: String?
    @Flag(inversion: .prefixedNo, help: "Skins must be validated by tying or beating the next hole.")
    var validateSkins: Bool?
    @Option(help: "The two sides of the formats played in sides, e.g. Ann+Ben,Cleo+Dev (two players need none).")
    var teams: String?
    @Option(
        name: .customLong("entry"),
        help: "A hole's choice beyond strokes, HOLE:KEY=PLAYER, =lone or = to clear (repeat), e.g. 7:wolf=Kim, 7:bingo=Ann.")
    var entries: [String] = []
    @Option(
        parsing: .unconditional, help: "The stake per unit (a skin, a bet) for the settlement; 0 for none.",
        transform: decimal)
    var stake: Double?

    func setup(tee: String? = nil) throws(NodeError) -> GameSetup<String> {
        var setup = GameSetup<String>()
        setup.tee = tee
        for pair in playerTees {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw NodeError.badInput(.playerTees, "takes PLAYER=TEE, e.g. --player-tee Ann=Red; got '\(pair)'")
            }
            setup.playerTees.append((parts[0], parts[1]))
        }
        setup.start = start
        setup.holes = holes
        setup.formats = formats.map { $0.split(separator: ",").map(String.init) }
        setup.skins = skins?.lowercased()
        setup.skinsValidation = validateSkins
        if let teams {
            let sides = teams.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
            }
            guard sides.count == 2, sides.allSatisfy({ $0.allSatisfy { !$0.isEmpty } }) else {
                throw NodeError.badInput(
                    .teams,
                    "takes two sides separated by a comma, partners joined by +, e.g. Ann+Ben,Cleo+Dev; got '\(teams)'")
            }
            setup.teams = sides
        }
        setup.stake = stake
        for text in entries {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let place = parts.first?.split(separator: ":", maxSplits: 1) ?? []
            guard parts.count == 2, place.count == 2, let hole = Int(place[0].trimmingCharacters(in: .whitespaces)),
                !place[1].trimmingCharacters(in: .whitespaces).isEmpty
            else {
                throw NodeError.badInput(
                    .entries,
                    "takes HOLE:KEY=PLAYER, e.g. --entry 7:wolf=Kim, --entry 7:wolf=lone or --entry 7:wolf= to clear; got '\(text)'"
                )
            }
            let key = place[1].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            setup.entries.append(
                HoleEntryChange(
                    hole: hole, key: key, player: value.isEmpty || value.lowercased() == "lone" ? nil : value,
                    lone: value.lowercased() == "lone"))
        }
        return setup
    }
}

extension Game {
    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "setup",
            abstract: "Change a game's tees, holes, start, formats, teams or stake.",
            discussion: "A player's tee cannot change once they have scores. Every setting is a synced field of the game: "
                + "the last change wins, on every device.")
        @OptionGroup var target: GameOptions
        @Option(help: "The tee for everybody without their own.") var tee: String?
        @OptionGroup var setup: GameSetupOptions

        func run() async throws {
            let changes = try guardedValue { try setup.setup(tee: tee) }
            try await target.run(
                resolving: { home, space, game in
                    let resolved = try home.rounds.resolve(changes, in: space)
                    _ = try home.rounds.setupChanges(space: space, game: game, setup: resolved)
                    return resolved
                }, { space, game, resolved in .setup(space: space, game: game, setup: resolved) },
                done: { _ in "Set up game \(target.game)" })
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a game created by mistake (its ops stay in the log; `game restore` brings it back).")
        @OptionGroup var target: GameOptions
        @Flag(help: "Delete it even though it has scores.") var force = false

        func run() async throws { try await target.setDeleted(true, force: force) }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring back a deleted game.")
        @OptionGroup var target: GameOptions

        func run() async throws { try await target.setDeleted(false, force: true) }
    }
}

extension Player {
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Correct a player's name or entered Handicap Index.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The player.") var player: String
        @Option(help: "The new name.") var name: String?
        @Option(parsing: .unconditional, help: "The Handicap Index to use until finished games give one.", transform: decimal)
        var index: Double?
        @Flag(name: .customLong("clear-index"), help: "Remove the entered Handicap Index.") var clearIndex = false

        func run() async throws {
            try await options.read { home, space in
                let id = try home.rounds.resolvePlayer(space, player).id  // before the passphrase is asked for
                // A running node makes the change with its own keys; with none, this process asks for the passphrase.
                _ = try await home.run(
                    .editPlayer(space: space, player: id, name: name, handicapIndex: index, clearIndex: clearIndex),
                    unlock: Passphrase.unlock(home))
                let edited = try home.rounds.player(space, id)
                options.show(
                    Views.player(edited),
                    text: "\(edited.name) (\(edited.id.short))" + (edited.handicapIndex.map { ", index \($0)" } ?? ", no index"))
            }
        }
    }
}

struct StandingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standings",
        abstract: "A game's standings: stroke play, Stableford, match, skins, Nassau, disputes and settlement.")
    @OptionGroup var target: Reporting<GameOptions>

    func run() async throws {
        try await target.read { home, space, game in
            let standings = try home.handicaps.standings(space: space, game: game)
            target.show(Views.standings(standings), text: StandingsText.render(standings))
        }
    }
}

struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "A player's statistics over finished games: fairways, greens in regulation, putts, penalties, scoring by par.")
    @OptionGroup var options: Reporting<SpaceOptions>
    @Argument(help: "The player.") var player: String

    func run() async throws {
        try await options.read { home, space in
            let stats = try home.handicaps.statistics(space: space, player: try home.rounds.resolvePlayer(space, player).id)
            if options.json {
                Console.json(Views.statistics(stats))
                return
            }
            func percent(_ part: Int, _ whole: Int) -> String {
                whole == 0 ? "not recorded" : String(format: "%d of %d (%.0f%%)", part, whole, Double(part) / Double(whole) * 100)
            }
            var lines = [
                "\(stats.player.name): \(stats.rounds) finished round\(stats.rounds == 1 ? "" : "s"), \(stats.holes) holes"
            ]
            lines.append("  fairways hit        \(percent(stats.fairwaysHit, stats.fairwaysRecorded))")
            lines.append("  greens in reg.      \(percent(stats.greensHit, stats.greensRecorded))")
            lines.append(
                "  putts per round     "
                    + (stats.puttRounds == 0
                        ? "not recorded"
                        : String(format: "%.1f (%d rounds)", Double(stats.putts) / Double(stats.puttRounds), stats.puttRounds)))
            lines.append(
                "  putts per GIR       "
                    + (stats.greensHitWithPutts == 0
                        ? "not recorded"
                        : String(format: "%.2f", Double(stats.puttsOnGreensHit) / Double(stats.greensHitWithPutts))))
            lines.append(
                "  penalties           \(stats.penalties)"
                    + (stats.rounds > 0 ? String(format: " (%.1f a round)", Double(stats.penalties) / Double(stats.rounds)) : ""))
            for par in stats.byPar.keys.sorted() {
                let value = stats.byPar[par]!
                lines.append(
                    String(
                        format: "  par %d average      %.2f over %d holes", par,
                        Double(value.strokes) / Double(value.holes), value.holes))
            }
            Console.print(lines.joined(separator: "\n"))
        }
    }
}

extension GameOptions {
    /// `caddie game delete` and `caddie game restore`: one op that sets the game's deleted flag (a ``NodeCommand``).
    fileprivate func setDeleted(_ deleted: Bool, force: Bool) async throws {
        try await run(includeDeleted: true, resolving: { _, _, _ in () }) { space, id, _ in
            .setDeleted(space: space, game: id, deleted: deleted, force: force)
        } done: { _ in
            deleted ? "Deleted game \(game) (`caddie game restore \(game)` brings it back)" : "Restored game \(game)"
        }
    }
}
