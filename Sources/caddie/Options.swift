import ArgumentParser
import CaddieCore
import CaddieNode
import Foundation

/// Options every command takes.
struct HomeOptions: ParsableArguments {
    @Option(name: .long, help: "The home directory (default: $CADDIE_HOME, else ~/.caddie).")
    var home: String?

    func open() throws -> Home { try Home(path: home ?? Home.defaultPath()) }
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

    /// A command that reads the space: opens the home, resolves the space, runs `body`; an error ends the command
    /// with its one line and exit status 1.
    func read(_ body: (Home, SpaceID) throws -> Void) throws {
        try guarded {
            let (home, space) = try open()
            try body(home, space)
        }
    }

    /// A command that edits the space: as ``read(_:)``, with the keys unlocked (`CADDIE_PASSPHRASE` or a prompt);
    /// prints the line `body` returns.
    func edit(_ body: (Home, SpaceID, UnlockedKeys) throws -> String) throws {
        try guarded {
            let (home, space) = try open()
            Console.print(try body(home, space, try home.unlock(passphrase: try Passphrase.obtain())))
        }
    }
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
                throw NodeError.invalid("the passphrases did not match")
            }
        }
        return first
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
