import ArgumentParser
import CaddieCore
import CaddieCrypto
import CaddieNode
import Foundation

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Create your identity: a user key and this device's key and certificate, sealed with a passphrase.",
        discussion: """
            A new user (--name) is shown a recovery phrase: 24 words that bring the user back on a new device if \
            this one is lost. On a terminal you are asked for two of them back. `caddie recovery-phrase` shows them \
            again. `caddie login --recover --name NAME` brings the user back from the words (typed when asked, or \
            from --phrase-file); the devices the user had before then count as lost, and the first `caddie sync` \
            revokes them.
            """)

    @OptionGroup var options: Reporting<HomeOptions>
    @Option(help: "Your name as the group will see it (a new user, or with --recover).") var name: String?
    @Option(help: "Join as an existing user: the code `caddie device add` printed on your first device.")
    var deviceCode: String?
    @Flag(help: "Bring back a user from their 24-word recovery phrase, on a new device.") var recover = false
    @Option(help: "With --recover: a file holding the phrase (- for standard input) instead of typing it.")
    var phraseFile: String?

    func validate() throws {
        if recover {
            guard deviceCode == nil else {
                throw ValidationError(
                    "--recover brings a user back from their words; --device-code adds a device to a user who still has "
                        + "one: give one of them")
            }
            guard name != nil else {
                throw ValidationError("--recover needs --name NAME: your name as the group knows it")
            }
        } else {
            guard phraseFile == nil else { throw ValidationError("--phrase-file goes with --recover") }
            guard (name == nil) != (deviceCode == nil) else {
                throw ValidationError("give either --name NAME (a new user) or --device-code CODE (a second device)")
            }
        }
    }

    func run() async throws {
        // The words first: a wrong phrase is refused before a passphrase is asked for or a file written (opening
        // the home would create its database).
        let phrase = recover ? try await RecoveryInput.read(file: phraseFile) : nil
        if let phrase { _ = try DeviceService.recoverySeed(phrase) }
        try await options.read { home in
            try home.requireNoIdentity()
            if let phrase {
                let identity = try home.devices.recover(
                    phrase: phrase, name: name ?? "", passphrase: try Passphrase.obtain(confirm: true))
                if options.json { return Console.json(Views.whoami(identity)) }
                Console.print("Recovered \(identity.name) in \(home.directory.path)")
                Console.print("user   \(identity.user)\ndevice \(identity.device) (new)")
                Console.print(
                    """
                    Join your spaces again (`caddie space join CODE`, a code from a member), then `caddie sync` with a \
                    member: it revokes the devices you had before, so a lost phone is refused everywhere that sync \
                    reaches. Pair your other devices again with `caddie device add`.
                    """)
                return
            }
            let passphrase = try Passphrase.obtain(confirm: true)
            let identity =
                if let deviceCode {
                    try await home.devices.login(deviceCode: deviceCode, passphrase: passphrase)
                } else {
                    try home.login(name: name ?? "", passphrase: passphrase)
                }
            if options.json {
                Console.json(Views.whoami(identity))
            } else {
                Console.print("Logged in as \(identity.name) in \(home.directory.path)")
                Console.print("user   \(identity.user)\ndevice \(identity.device)")
                if deviceCode == nil { try await RecoveryInput.show(try home.devices.recoveryPhrase(passphrase: passphrase)) }
            }
        }
    }
}

struct RecoveryPhraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery-phrase",
        abstract: "Show your recovery phrase: the 24 words that bring your user back on a new device.",
        discussion: "Only the device you first logged in on holds the user key, and so the phrase.")

    @OptionGroup var options: Reporting<HomeOptions>

    func run() async throws {
        try await options.read { home in
            let words = try home.devices.recoveryPhrase(passphrase: try Passphrase.obtain())
            if options.json { return Console.json(.object([("words", .array(words.map { .string($0) }))])) }
            Console.print(RecoveryInput.numbered(words))
        }
    }
}

/// Showing, checking and reading a recovery phrase at the terminal.
enum RecoveryInput {
    /// The words numbered, four to a line.
    static func numbered(_ words: [String]) -> String {
        stride(from: 0, to: words.count, by: 4).map { start in
            (start..<min(start + 4, words.count)).map { index in
                let label = "\(index + 1).".padding(toLength: 4, withPad: " ", startingAt: 0)
                return label + words[index].padding(toLength: 10, withPad: " ", startingAt: 0)
            }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// Shows a new user's phrase and, on a terminal, asks for two of its words back.
    static func show(_ words: [String]) throws {
        Console.print(
            """

            Your recovery phrase. Write these \(words.count) words down, in order, and keep them away from this \
            device: with them you can bring your user back on a new phone if this one is lost. Anyone who has \
            them can act as you.

            """ + numbered(words) + "\n")
        guard isatty(STDIN_FILENO) == 1 else {
            Console.print("(`caddie recovery-phrase` shows them again.)")
            return
        }
        var picks = Array((0..<words.count).shuffled().prefix(2)).sorted()
        for _ in 0..<3 {
            var wrong: [Int] = []
            for index in picks {
                Swift.print("Word \(index + 1)? ", terminator: "")
                let typed = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                let word = words[index]
                if typed != word, !(typed.count >= 4 && word.hasPrefix(typed)) { wrong.append(index) }
            }
            if wrong.isEmpty {
                Console.print("Checked. Keep the words safe; `caddie recovery-phrase` shows them again.")
                return
            }
            Console.print("Word " + wrong.map { "\($0 + 1)" }.joined(separator: " and ") + " did not match: look again.")
            picks = wrong
        }
        Console.print("Not checked. Look at the words again with `caddie recovery-phrase` before you rely on them.")
    }

    /// The phrase from `file` (- for standard input), or typed at the terminal.
    static func read(file: String?) throws -> String {
        if let file {
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            guard let data, let text = String(data: data, encoding: .utf8) else {
                throw NodeError.file("cannot read the recovery phrase from \(file)")
            }
            return text
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw NodeError.badInput(
                .recoveryPhrase, "is missing: type it when asked (on a terminal) or use --phrase-file FILE")
        }
        Swift.print("Recovery phrase (\(RecoveryPhrase.wordCount) words, on one line or several; an empty line ends): ")
        var lines: [String] = []
        while let line = readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines.append(line)
        }
        return lines.joined(separator: " ")
    }
}

struct Whoami: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show this home's user and device.")

    @OptionGroup var options: Reporting<HomeOptions>

    func run() async throws {
        try await options.show {
            try $0.identity()
        } json: {
            Views.whoami($0)
        } text: { identity in
            "\(identity.name)\nuser   \(identity.user)\ndevice \(identity.device)"
        }
    }
}
