import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

struct Player: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract: "Add and list players.", subcommands: [Add.self, List.self, Edit.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a player to the space.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The player's name.") var name: String
        @Option(help: "The user key (hex) of the player, if they use Caddie themselves.") var user: String?
        @Option(
            parsing: .unconditional, help: "A Handicap Index to use until finished games give one (plus handicaps negative).",
            transform: decimal) var index: Double?

        func run() async throws {
            try await guarded {
                var userKey: PublicKey?
                if let user {
                    guard let key = PublicKey(hex: user) else {
                        throw NodeError.badInput(.user, "must be a user key of 64 hex digits (see `caddie whoami`)")
                    }
                    userKey = key
                }
                let (home, space) = try options.open()
                // A running node adds the player with its own keys; with none, this process asks for the passphrase.
                let done = try await home.run(.addPlayer(space: space, name: name, user: userKey, handicapIndex: index)) {
                    try home.unlock(passphrase: try Passphrase.obtain())
                }
                let id = try done.addedPlayer()
                options.show(.object([("player", .string(id.hex))]), text: "Added \(name): \(id.hex)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the players of the space.")
        @OptionGroup var options: Reporting<SpaceOptions>

        func run() async throws {
            try await options.list({ try $0.rounds.players($1) }, item: Views.player) { player in
                "\(player.id.hex)  \(player.name)" + (player.handicapIndex.map { "  index \($0)" } ?? "")
            }
        }
    }
}

struct Course: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course",
        abstract: "Import, list, search and show courses.",
        subcommands: [Import.self, List.self, Search.self, Nearby.self, Show.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import a course: Caddie course JSON (docs/course-format.md) or OpenStreetMap GeoJSON/XML.",
            discussion: "A course the space already has (same id) is merged, not duplicated. --sample imports the "
                + "real courses that ship with caddie.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The course file.") var file: String?
        @Flag(help: "Import the sample courses that ship with caddie.") var sample = false

        func validate() throws {
            guard (file == nil) == sample else { throw ValidationError("give a course FILE, or --sample") }
        }

        func run() async throws {
            try await guarded {
                var inputs: [(name: String, data: Data)] = []
                if sample {
                    inputs = try CourseService.sampleCourseFiles()
                } else if let file {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        throw NodeError.file("cannot read \(file): check the path")
                    }
                    inputs = [(file, data)]
                }
                // Every file is read (and refused if it does not read) before anything is written.
                let read = try inputs.map { input throws(NodeError) in try CourseService.read(input.data) }
                let (home, space) = try options.open()
                var results: [CourseImportResult] = []
                for courses in read {
                    results += try await home.run(.importCourses(space: space, courses: courses)) {
                        try home.unlock(passphrase: try Passphrase.obtain())
                    }.importedCourses()
                }
                if options.json {
                    if !sample, results.count == 1 {
                        Console.json(
                            .object([
                                ("course", .string(results[0].id.hex)), ("merged", .bool(results[0].merged)),
                                ("warnings", .array(results[0].warnings.map { .string($0) })),
                            ]))
                    } else {
                        Console.json(
                            .object([
                                (
                                    "courses",
                                    .array(
                                        results.map {
                                            .object([
                                                ("course", .string($0.id.hex)), ("name", .string($0.name)),
                                                ("merged", .bool($0.merged)),
                                                ("warnings", .array($0.warnings.map { .string($0) })),
                                            ])
                                        })
                                )
                            ]))
                    }
                } else {
                    for result in results {
                        Console.print("\(result.merged ? "Merged" : "Imported") course \(result.name): \(result.id.hex)")
                        for warning in result.warnings { Console.print("  note: \(warning)") }
                    }
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the courses of the space.")
        @OptionGroup var options: Reporting<SpaceOptions>

        func run() async throws {
            try await options.list({ try $0.courses.list($1) }, item: Views.course) { course in
                "\(course.id.hex)  \(course.name)  \(course.holes.count) holes, tees "
                    + course.tees.map(\.name).joined(separator: ", ")
            }
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find courses by name, club or city (accents and small typos forgiven), best first.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "What to look for.") var text: String
        @Option(help: "At most this many results.") var limit = 20

        func run() async throws {
            try await options.read { home, space in
                let results = try home.courses.searchCourses(space: space, text: text, limit: limit)
                options.list(results, empty: "No course matches '\(text)'.", item: Views.searchResult) { result in
                    "\(result.course.id.hex)  \(result.course.name)"
                        + ([result.course.club, result.course.city].compactMap { $0 }.map { ", \($0)" }.joined())
                }
            }
        }
    }

    struct Nearby: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "nearby", abstract: "Courses nearest a position, with their distance.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Option(parsing: .unconditional, help: "Latitude, degrees (south negative).", transform: decimal) var lat: Double
        @Option(parsing: .unconditional, help: "Longitude, degrees (west negative).", transform: decimal) var lon: Double
        @Option(
            name: .customLong("radius-km"), parsing: .unconditional, help: "Only within this many kilometres.", transform: decimal
        )
        var radiusKm: Double = 25

        func run() async throws {
            try await options.read { home, space in
                let results = try home.courses.nearbyCourses(
                    space: space, latitude: lat, longitude: lon, radiusKilometres: radiusKm)
                options.list(results, empty: "No course within \(radiusKm) km.", item: Views.nearby) { result in
                    String(format: "%8.1f km  ", result.kilometres) + "\(result.course.name)  \(result.course.id.hex)"
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "The card of a course: hole, par, stroke index and yardage per tee, with totals.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The course (id, id prefix or name).") var course: String
        @Option(help: "Only this tee.") var tee: String?

        func run() async throws {
            try await options.read { home, space in
                let card = try home.courses.courseCard(
                    space: space, course: try home.courses.resolveCourse(space, course).id, tee: tee)
                options.show(Views.courseCard(card), text: card.text)
            }
        }
    }
}

struct Game: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "game",
        abstract: "Start, list, finish and reopen games; change a roster.",
        subcommands: [
            New.self, List.self, Setup.self, Finish.self, Reopen.self, AddPlayer.self, RemovePlayer.self, Marker.self,
            Delete.self, Restore.self, Formats.self,
        ])

    struct Formats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "formats",
            abstract: "List the formats a game can play, what each needs and what it asks for on each hole.")
        // Every command takes --home; the list is the same in every home.
        @OptionGroup var options: HomeOptions
        @Flag(help: "Print JSON.") var json = false

        func run() {
            Console.show(json: json, Views.formats(), text: Self.text())
        }

        static func text() -> String {
            Games.registry.map { format in
                var lines = ["\(format.name)  \(format.title)\(format.onByDefault ? " (played when none is named)" : "")"]
                lines.append("    \(format.summary)")
                let players = format.players
                var needs: [String] = []
                if players != 1...Int.max { needs.append(Games.describe(players: players)) }
                if let sides = format.sides { needs.append(sides.needs) }
                if !needs.isEmpty { lines.append("    needs: " + needs.joined(separator: "; ")) }
                for kind in format.entries {
                    lines.append(
                        "    on each hole: --entry HOLE:\(kind.key)=PLAYER\(kind.allowsLone ? " or =lone" : "") (\(kind.label))")
                }
                return lines.joined(separator: "\n")
            }.joined(separator: "\n")
        }
    }

    /// `Ben:Ana,Cleo:Dev` as (player, marker) pairs.
    static func markerPairs(_ text: String?) throws(NodeError) -> [(player: String, marker: String)] {
        guard let text else { return [] }
        return try text.split(separator: ",").map { pair throws(NodeError) in
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].trimmingCharacters(in: .whitespaces).isEmpty,
                !parts[1].trimmingCharacters(in: .whitespaces).isEmpty
            else {
                throw NodeError.badInput(
                    .markers, "takes PLAYER:MARKER pairs separated by commas, e.g. Ben:Ana,Ana:Ben; got '\(pair)'")
            }
            return (String(parts[0]), String(parts[1]))
        }
    }

    struct Marker: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "marker",
            abstract: "Say who marks a player in a game (the marker attests their card).")
        @OptionGroup var target: GameOptions
        @Argument(help: "The player.") var player: String
        @Argument(help: "Their marker, another player of the game.") var marker: String

        func run() async throws {
            try await target.run(resolving: { home, space, _ in try home.rounds.resolvePlayers(space, [player, marker]) }) {
                space, game, players in
                .setMarker(space: space, game: game, pair: .init(player: players[0], marker: players[1]))
            } done: { _ in
                "\(marker) marks \(player) in game \(target.game)"
            }
        }
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Start a game on a course from one tee.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Option(help: "The course (id, id prefix or name).") var course: String
        @Option(help: "The tee's name.") var tee: String
        @Option(help: "Players, comma-separated (ids, id prefixes or names).") var players: String
        @Option(help: "Who marks whom, PLAYER:MARKER pairs, comma-separated (Ben:Ana means Ana marks Ben).")
        var markers: String?
        @OptionGroup var setup: GameSetupOptions

        func run() async throws {
            try await guarded {
                let pairs = try Game.markerPairs(markers)
                let gameSetup = try setup.setup()
                let (home, space) = try options.open()
                // What was typed first, so that a mistyped name is refused before the passphrase is asked for.
                let courseID = try home.courses.resolveCourse(space, course).id
                let playerIDs = try home.rounds.resolvePlayers(space, players.split(separator: ",").map(String.init))
                let markerIDs = try home.rounds.resolveMarkers(space, pairs)
                let resolvedSetup = try home.rounds.resolve(gameSetup, in: space)
                _ = try home.rounds.newGameChanges(
                    space: space, course: courseID, tee: tee, players: playerIDs, markers: markerIDs, setup: resolvedSetup)
                let command = NodeCommand.newGame(
                    space: space, course: courseID, tee: tee, players: playerIDs,
                    markers: markerIDs.map { NodeCommand.MarkerPair(player: $0.player, marker: $0.marker) }, setup: resolvedSetup)
                // A running node starts the game with its own keys; with none, this process asks for the passphrase.
                let done = try await home.run(command, unlock: Passphrase.unlock(home))
                let id = try done.startedGame()
                options.show(.object([("game", .string(id.hex))]), text: "Started game \(id.hex)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the games of the space, newest first.")
        @OptionGroup var options: Reporting<SpaceOptions>
        @Flag(help: "Also list deleted games.") var deleted = false

        func run() async throws {
            try await options.list({ try $0.rounds.games($1, includeDeleted: deleted) }, item: Views.game) { game in
                let formats = game.formats.isEmpty ? "" : "  " + game.formats.joined(separator: ",")
                return
                    "\(game.id.hex)  tee \(game.tee)  \(game.deleted ? "deleted" : game.finished ? "finished" : "in progress")"
                    + formats
            }
        }
    }

    struct Finish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "finish", abstract: "Mark a game finished (it then counts for handicaps).")
        @OptionGroup var target: GameOptions

        func run() async throws { try await target.setFinished(true) }
    }

    struct Reopen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reopen", abstract: "Reopen a finished game to correct it.")
        @OptionGroup var target: GameOptions

        func run() async throws { try await target.setFinished(false) }
    }

    struct AddPlayer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add-player", abstract: "Add a player to a game.")
        @OptionGroup var target: GamePlayerOptions

        func run() async throws { try await target.setInRoster(true) }
    }

    struct RemovePlayer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-player",
            abstract: "Remove a player from a game (their scores are kept).")
        @OptionGroup var target: GamePlayerOptions

        func run() async throws { try await target.setInRoster(false) }
    }
}

struct ScoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Enter a player's strokes on a hole, or a pick-up (replaces what the cell shows).",
        discussion: """
            A pick-up (`caddie score GAME PLAYER HOLE pickup`, or P) is a hole started and not holed out: 0 points in \
            Stableford, the hole lost in a match, no total (NR) in stroke play, net double bogey for the handicap record.
            """)
    // `--json` beside the options, not in a `Reporting` group: one group less keeps ArgumentParser's checks of
    // the command's options (a debug build's) from growing with every level of nesting.
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var target: GamePlayerOptions
    @Argument(help: "The hole number.") var hole: Int
    @Argument(help: "Strokes, 1...30, or pickup (P) when the player did not hole out.") var strokes: String
    @Option(help: "Putts.") var putts: Int?
    @Option(help: "Penalty strokes.") var penalties: Int?
    @Option(help: "The tee shot on a par 4 or 5: hit, left or right.") var fairway: String?
    @Flag(name: .customLong("gir"), inversion: .prefixedNo, help: "Green reached in regulation (--gir) or not (--no-gir).")
    var greenInRegulation: Bool?

    func run() async throws {
        try await guarded {
            let entry = try ScoreEntry.typed(
                strokes, putts: putts, penalties: penalties, fairway: fairway, greenInRegulation: greenInRegulation)
            let (home, space, game, player) = try target.open()
            // A running node runs it with its own keys: no passphrase, no Argon2id here.
            let done = try await home.run(.score(space: space, game: game, player: player, hole: hole, entry: entry)) {
                try home.unlock(passphrase: try Passphrase.obtain())
            }
            guard let op = done.op else {
                throw NodeError.conflict(
                    "the node signed no op for the score: "
                        + "run the node and its commands from the same version of Caddie")
            }
            Console.show(
                json: json,
                .object([
                    ("op", .string("\(op.device.hex):\(op.seq)")), ("strokes", .optional(entry.holed)),
                    ("pickUp", .bool(entry.pickedUp)),
                ]),
                text: "Hole \(hole): \(entry.summary) for \(target.player)")
        }
    }
}

struct Attest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attest", abstract: "As marker, sign a player's card as it stands.")
    @OptionGroup var target: GameOptions
    @Argument(help: "The player whose card you attest.") var player: String

    func run() async throws {
        try await target.run(resolving: { home, space, _ in try home.rounds.resolvePlayer(space, player).id }) {
            space, game, id in
            .attest(space: space, game: game, player: id)
        } done: { result in
            guard case .attested(_, let hash) = result else {
                throw NodeError.conflict(
                    "the node signed no attestation for \(player)'s card: check with `caddie card`, and run the node "
                        + "and its commands from the same version of Caddie")
            }
            return "Attested \(player)'s card (\(hash.short))"
        }
    }
}

extension GameOptions {
    /// `caddie game finish` and `caddie game reopen`: one op that sets the game's finished flag.
    fileprivate func setFinished(_ finished: Bool) async throws {
        try await run(resolving: { _, _, _ in () }) { space, id, _ in
            .setFinished(space: space, game: id, finished: finished)
        } done: { _ in
            "\(finished ? "Finished" : "Reopened") game \(game)"
        }
    }
}

extension GamePlayerOptions {
    /// `caddie game add-player` and `caddie game remove-player`: one op that adds the player to the game's roster
    /// or removes them.
    fileprivate func setInRoster(_ inRoster: Bool) async throws {
        try await run { space, game, player in
            .setInRoster(space: space, game: game, player: player, inRoster: inRoster)
        } done: { _ in
            inRoster ? "Added \(self.player) to game \(self.game)" : "Removed \(self.player) from game \(self.game)"
        }
    }
}
