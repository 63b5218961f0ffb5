import ArgumentParser
import CaddieCore
import CaddieNode
import Foundation

/// Options every command takes.
struct HomeOptions: ParsableArguments {
    @Option(name: .long, help: "The home directory (default: $CADDIE_HOME, else ~/.caddie).")
    var home: String?

    func open() throws -> Home { try Home(path: home ?? Home.defaultPath()) }

    /// A command on the home: opens it and runs `body` (which may unlock the keys to write); an error ends the
    /// command with its one line and exit status 1.
    func read(_ body: (Home) async throws -> Void) async throws {
        try await guarded { try await body(try open()) }
    }
}

/// Options of commands that work in one space.
struct SpaceOptions: ParsableArguments {
    @OptionGroup var homeOptions: HomeOptions

    @Option(name: .long, help: "The space (id, id prefix or name); needed when the home holds several.")
    var space: String?

    func open() throws -> (Home, SpaceID) {
        let home = try homeOptions.open()
        return (home, try home.spaces.resolveSpace(space))
    }

    /// A command on the space: opens the home, resolves the space, runs `body` (which may unlock the keys to
    /// write); an error ends the command with its one line and exit status 1.
    func read(_ body: (Home, SpaceID) async throws -> Void) async throws {
        try await guarded {
            let (home, space) = try open()
            try await body(home, space)
        }
    }
}

/// The game a command acts on, as typed: an id or an id prefix (`caddie game list`).
struct GameOptions: ParsableArguments {
    @OptionGroup var space: SpaceOptions
    @Argument(help: "The game.") var game: String

    /// Opens the home and resolves the space and the game (a deleted game only when asked for).
    func open(includeDeleted: Bool = false) throws -> (Home, SpaceID, GameID) {
        let (home, space) = try space.open()
        return (home, space, try home.rounds.resolveGame(space, game, includeDeleted: includeDeleted).id)
    }

    /// A command on the game: as ``SpaceOptions/read(_:)``, with the game resolved.
    func read(_ body: (Home, SpaceID, GameID) async throws -> Void) async throws {
        try await guarded {
            let (home, space, game) = try open()
            try await body(home, space, game)
        }
    }
}

extension GameOptions {
    /// A command on the game (``NodeCommand``), with the rest of what the person typed resolved first: run by the
    /// node running on this home when there is one (no passphrase asked), else here after unlocking the keys.
    func run<Typed>(
        includeDeleted: Bool = false,
        resolving resolve: (Home, SpaceID, GameID) throws -> Typed,
        _ command: (SpaceID, GameID, Typed) -> NodeCommand,
        done: (NodeCommandResult) throws -> String
    ) async throws {
        try await guarded {
            let (home, space, game) = try open(includeDeleted: includeDeleted)
            let typed = try resolve(home, space, game)
            let result = try await home.run(command(space, game, typed), unlock: Passphrase.unlock(home))
            Console.print(try done(result))
        }
    }
}

/// A player of a game, as typed: the game, then the player (an id, an id prefix or a name). The game is an
/// argument here, not a ``GameOptions`` group: each level of groups multiplies the checks a debug build of
/// ArgumentParser makes of a command's options at every launch (`caddie score` took 1.7 s of CPU to parse).
struct GamePlayerOptions: ParsableArguments {
    @OptionGroup var space: SpaceOptions
    @Argument(help: "The game.") var game: String
    @Argument(help: "The player.") var player: String

    /// Opens the home and resolves the space, the game and the player.
    func open() throws -> (Home, SpaceID, GameID, PlayerID) {
        let (home, space) = try space.open()
        let game = try home.rounds.resolveGame(space, game).id
        return (home, space, game, try home.rounds.resolvePlayer(space, player).id)
    }

    /// A command on the player in the game (``NodeCommand``): run by the node running on this home when there is
    /// one (no passphrase asked), else here after unlocking the keys.
    func run(
        _ command: (SpaceID, GameID, PlayerID) -> NodeCommand, done: (NodeCommandResult) throws -> String
    ) async throws {
        try await guarded {
            let (home, space, game, player) = try open()
            let result = try await home.run(command(space, game, player), unlock: Passphrase.unlock(home))
            Console.print(try done(result))
        }
    }

    /// A command on the player's part of the game: as ``SpaceOptions/read(_:)``, with both resolved.
    func read(_ body: (Home, SpaceID, GameID, PlayerID) async throws -> Void) async throws {
        try await guarded {
            let (home, space, game, player) = try open()
            try await body(home, space, game, player)
        }
    }
}

/// A command's options with `--json`: the command prints its result as JSON with it, else as text.
@dynamicMemberLookup
struct Reporting<Target: ParsableArguments>: ParsableArguments {
    // `--json` first, so that the target's arguments stay together in the usage line (`<game> <player> <hole>`).
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var target: Target

    subscript<Value>(dynamicMember path: KeyPath<Target, Value>) -> Value { target[keyPath: path] }

    /// A list command's result in the form `--json` asks for (``Console/list(_:json:empty:item:line:)``).
    func list<Item>(_ items: [Item], empty: String? = nil, item: (Item) -> JSON, line: (Item) -> String) {
        Console.list(items, json: json, empty: empty, item: item, line: line)
    }

    /// A command's one result in the form `--json` asks for (``Console/show(json:_:text:)``).
    func show(_ value: @autoclosure () -> JSON, text: @autoclosure () -> String) {
        Console.show(json: json, value(), text: text())
    }
}

extension Reporting where Target == HomeOptions {
    func open() throws -> Home { try target.open() }
    func read(_ body: (Home) async throws -> Void) async throws { try await target.read(body) }

    /// A list command: opens the home and lists what `items` reads from it.
    func list<Item>(
        _ items: (Home) async throws -> [Item], empty: String? = nil, item: (Item) -> JSON, line: (Item) -> String
    ) async throws {
        try await read { home in list(try await items(home), empty: empty, item: item, line: line) }
    }

    /// A command with one result: opens the home, makes the result and prints it as JSON or as text.
    func show<Result>(
        _ make: (Home) async throws -> Result, json: (Result) -> JSON, text: (Result) -> String
    ) async throws {
        try await read { home in
            let result = try await make(home)
            show(json(result), text: text(result))
        }
    }
}

extension Reporting where Target == SpaceOptions {
    func open() throws -> (Home, SpaceID) { try target.open() }
    func read(_ body: (Home, SpaceID) async throws -> Void) async throws { try await target.read(body) }

    /// A list command: opens the home, resolves the space and lists what `items` reads from it.
    func list<Item>(
        _ items: (Home, SpaceID) async throws -> [Item], empty: String? = nil, item: (Item) -> JSON,
        line: (Item) -> String
    ) async throws {
        try await read { home, space in list(try await items(home, space), empty: empty, item: item, line: line) }
    }

    /// A command with one result: opens the home, resolves the space, makes the result and prints it as JSON or
    /// as text.
    func show<Result>(
        _ make: (Home, SpaceID) async throws -> Result, json: (Result) -> JSON, text: (Result) -> String
    ) async throws {
        try await read { home, space in
            let result = try await make(home, space)
            show(json(result), text: text(result))
        }
    }
}

extension Reporting where Target == GameOptions {
    func read(_ body: (Home, SpaceID, GameID) async throws -> Void) async throws { try await target.read(body) }
}

/// The passphrase that unlocks a home's keys: `CADDIE_PASSPHRASE`, else a prompt on the terminal.
enum Passphrase {
    static func obtain(confirm: Bool = false) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let env = environment["CADDIE_PASSPHRASE"] { return env }
        // A file (for a service: systemd's LoadCredential puts it in $CREDENTIALS_DIRECTORY).
        if let path = environment["CADDIE_PASSPHRASE_FILE"] {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw NodeError.file("cannot read the passphrase file \(path) (CADDIE_PASSPHRASE_FILE)")
            }
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
        guard isatty(STDIN_FILENO) == 1 else { throw NodeError.passphraseRequired }
        guard let first = getpass("Passphrase: ").map({ String(cString: $0) }) else { throw NodeError.passphraseRequired }
        if confirm {
            guard let second = getpass("Again: ").map({ String(cString: $0) }), second == first else {
                throw NodeError.badInput(.passphrase, "typed again did not match")
            }
        }
        return first
    }

    /// What unlocks `home`'s keys for a ``NodeCommand`` no node runs for it: the passphrase, asked for only then.
    static func unlock(_ home: Home) -> () throws -> UnlockedKeys {
        { try home.unlock(passphrase: try obtain()) }
    }
}

/// Moves `--home DIR` written before the subcommand to after it, so both `caddie --home D score ...` and
/// `caddie score ... --home D` work.
func reorderHomeOption(_ arguments: [String]) -> [String] {
    var rest = arguments[...]
    var moved: [String] = []
    while let first = rest.first {
        if first == "--home", rest.count >= 2 {
            moved += rest.prefix(2)
            rest = rest.dropFirst(2)
        } else if first.hasPrefix("--home=") {
            moved.append(first)
            rest = rest.dropFirst()
        } else {
            break
        }
    }
    var result = Array(rest)
    guard !moved.isEmpty else { return result }
    if let separator = result.firstIndex(of: "--") { result.insert(contentsOf: moved, at: separator) } else { result += moved }
    return result
}

/// A number option as a person types it (`--lat -37.951`): a plain decimal, never hexadecimal, an exponent,
/// `nan` or `inf` (which the argument parser's own `Double` would take). Options that take it are declared with
/// `parsing: .unconditional` so that a leading minus sign is a value, not an option.
@Sendable func decimal(_ text: String) throws -> Double {
    guard let value = PlainDecimal.parse(text) else { throw ValidationError(PlainDecimal.problem(text)) }
    return value
}
