import ArgumentParser
import CaddieCore
import CaddieNode
import Foundation

struct Player: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add and list players.", subcommands: [Add.self, List.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a player to the space.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The player's name.") var name: String
        @Option(help: "The user key (hex) of the player, if they use Caddie themselves.") var user: String?
        @Option(help: "A Handicap Index to use until finished games give one (plus handicaps negative).") var index: Double?
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                var userKey: PublicKey?
                if let user {
                    guard let key = PublicKey(hex: user) else {
                        throw NodeError.invalid("--user must be a user key of 64 hex digits (see `caddie whoami`)")
                    }
                    userKey = key
                }
                let (home, space) = try options.open()
                let keys = try home.unlock(passphrase: try Passphrase.obtain())
                let id = try home.addPlayer(space: space, keys: keys, name: name, user: userKey, handicapIndex: index)
                if json { Console.json(.object([("player", .string(id.hex))])) } else { Console.print("Added \(name): \(id.hex)") }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the players of the space.")
        @OptionGroup var options: SpaceOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                let players = try home.players(space)
                if json {
                    Console.json(.array(players.map {
                        .object([("player", .string($0.id.hex)), ("name", .string($0.name)),
                                 ("user", .optional($0.user?.hex)), ("index", .optional($0.handicapIndex))])
                    }))
                } else {
                    for player in players {
                        Console.print("\(player.id.hex)  \(player.name)" + (player.handicapIndex.map { "  index \($0)" } ?? ""))
                    }
                }
            }
        }
    }
}

struct Course: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Import and list courses.", subcommands: [Import.self, List.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a course from a Caddie course JSON file (docs/course-format.md).")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The course file.") var file: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw NodeError.file("cannot read \(file): check the path")
                }
                let (home, space) = try options.open()
                let keys = try home.unlock(passphrase: try Passphrase.obtain())
                let id = try home.importCourse(space: space, keys: keys, data: data)
                if json { Console.json(.object([("course", .string(id.hex))])) } else { Console.print("Imported course \(id.hex)") }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the courses of the space.")
        @OptionGroup var options: SpaceOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                let courses = try home.courses(space)
                if json {
                    Console.json(.array(courses.map { course in
                        .object([("course", .string(course.id.hex)), ("name", .string(course.name)),
                                 ("club", .optional(course.club)), ("holes", .int(course.holes.count)),
                                 ("tees", .array(course.tees.map { .string($0.name) }))])
                    }))
                } else {
                    for course in courses {
                        Console.print("\(course.id.hex)  \(course.name)  \(course.holes.count) holes, tees "
                                      + course.tees.map(\.name).joined(separator: ", "))
                    }
                }
            }
        }
    }
}

struct Game: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start, list, finish and reopen games; change a roster.",
        subcommands: [New.self, List.self, Finish.self, Reopen.self, AddPlayer.self, RemovePlayer.self])

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start a game on a course from one tee.")
        @OptionGroup var options: SpaceOptions
        @Option(help: "The course (id, id prefix or name).") var course: String
        @Option(help: "The tee's name.") var tee: String
        @Option(help: "Players, comma-separated (ids, id prefixes or names).") var players: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                let keys = try home.unlock(passphrase: try Passphrase.obtain())
                let id = try home.newGame(space: space, keys: keys, course: course, tee: tee,
                                          players: players.split(separator: ",").map(String.init))
                if json { Console.json(.object([("game", .string(id.hex))])) } else { Console.print("Started game \(id.hex)") }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the games of the space, newest first.")
        @OptionGroup var options: SpaceOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                let games = try home.games(space)
                if json {
                    Console.json(.array(games.map {
                        .object([("game", .string($0.id.hex)), ("course", .optional($0.course?.hex)),
                                 ("tee", .string($0.tee)), ("created", .int(Int($0.createdAt))),
                                 ("finished", .bool($0.finished))])
                    }))
                } else {
                    for game in games {
                        Console.print("\(game.id.hex)  tee \(game.tee)  \(game.finished ? "finished" : "in progress")")
                    }
                }
            }
        }
    }

    struct Finish: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a game finished (it then counts for handicaps).")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The game.") var game: String

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                try home.setFinished(space: space, keys: try home.unlock(passphrase: try Passphrase.obtain()),
                                     game: game, finished: true)
                Console.print("Finished game \(game)")
            }
        }
    }

    struct Reopen: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reopen a finished game to correct it.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The game.") var game: String

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                try home.setFinished(space: space, keys: try home.unlock(passphrase: try Passphrase.obtain()),
                                     game: game, finished: false)
                Console.print("Reopened game \(game)")
            }
        }
    }

    struct AddPlayer: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add-player", abstract: "Add a player to a game.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The game.") var game: String
        @Argument(help: "The player.") var player: String

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                try home.addToRoster(space: space, keys: try home.unlock(passphrase: try Passphrase.obtain()),
                                     game: game, player: player)
                Console.print("Added \(player) to game \(game)")
            }
        }
    }

    struct RemovePlayer: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove-player",
                                                        abstract: "Remove a player from a game (their scores are kept).")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The game.") var game: String
        @Argument(help: "The player.") var player: String

        func run() throws {
            try guarded {
                let (home, space) = try options.open()
                try home.removeFromRoster(space: space, keys: try home.unlock(passphrase: try Passphrase.obtain()),
                                          game: game, player: player)
                Console.print("Removed \(player) from game \(game)")
            }
        }
    }
}

struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score", abstract: "Enter a player's strokes on a hole (replaces what the cell shows).")
    @OptionGroup var options: SpaceOptions
    @Argument(help: "The game.") var game: String
    @Argument(help: "The player.") var player: String
    @Argument(help: "The hole number.") var hole: Int
    @Argument(help: "Strokes, 1...30.") var strokes: Int
    @Option(help: "Putts.") var putts: Int?
    @Option(help: "Penalty strokes.") var penalties: Int?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try guarded {
            let entry: ScoreEntry
            do { entry = try ScoreEntry(strokes: strokes, putts: putts, penalties: penalties) } catch {
                throw NodeError.wrap(error)
            }
            let (home, space) = try options.open()
            let keys = try home.unlock(passphrase: try Passphrase.obtain())
            let op = try home.score(space: space, keys: keys, game: game, player: player, hole: hole, entry: entry)
            if json {
                Console.json(.object([("op", .string("\(op.device.hex):\(op.seq)")), ("strokes", .int(strokes))]))
            } else {
                Console.print("Hole \(hole): \(entry.summary) for \(player)")
            }
        }
    }
}

struct Attest: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "As marker, sign a player's card as it stands.")
    @OptionGroup var options: SpaceOptions
    @Argument(help: "The game.") var game: String
    @Argument(help: "The player whose card you attest.") var player: String

    func run() throws {
        try guarded {
            let (home, space) = try options.open()
            let hash = try home.attest(space: space, keys: try home.unlock(passphrase: try Passphrase.obtain()),
                                       game: game, player: player)
            Console.print("Attested \(player)'s card (\(hash.short))")
        }
    }
}
