import ArgumentParser
import CaddieCore
import CaddieNode
import Foundation

struct Card: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "card", abstract: "Show a game's scorecard, conflicts marked.")
    @OptionGroup var target: GameOptions
    @Flag(help: "Print JSON with every cell, its winner and its concurrent values.") var json = false
    @Option(help: "text (default), csv, or html: a card to hand in that prints on one A4 page.") var format = "text"
    @Option(help: "Write the card to this file instead of standard output.") var out: String?

    func run() async throws {
        try await guarded {
            guard ["text", "csv", "html"].contains(format) else {
                throw NodeError.badInput(.format, "must be text, csv or html, got '\(format)'")
            }
            guard !(json && format != "text") else {
                throw NodeError.badInput(
                    .format, "\(format) and --json do not go together: give --json or --format, not both")
            }
            let (home, space, game) = try target.open()
            if format != "text" {
                let export = try home.rounds.cardExport(space: space, game: game)
                let text = format == "csv" ? export.csv : export.html
                if let out {
                    try Console.write(Data(text.utf8), to: out)
                    Console.print("Wrote the card to \(out)")
                } else {
                    FileHandle.standardOutput.write(Data(text.utf8))
                }
                return
            }
            let card = try home.rounds.card(space: space, game: game)
            // Individual stroke play and Stableford: 95% of the course handicap (Rules of Handicapping, Appendix C).
            let net = try home.handicaps.playingHandicap(card: card, space: space, allowancePercent: 95)
            Console.show(json: json, Views.card(card, net: net), text: CardText.render(card, net: net))
        }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the space's ops to a bundle file for another home.")
    @OptionGroup var options: Reporting<SpaceOptions>
    @Option(help: "The bundle file to write.") var out: String
    @Option(help: "Only ops the receiver lacks: its `caddie vector`.") var since: String?

    func run() async throws {
        try await guarded {
            let vector: VersionVector
            do { vector = try VersionVector(parsing: since ?? "") } catch { throw NodeError.wrap(error) }
            let (home, space) = try options.open()
            let (bundle, count) = try home.rounds.export(space: space, since: vector)
            try Console.write(Data(bundle), to: out)
            options.show(
                .object([("ops", .int(count)), ("file", .string(out))]), text: "Exported \(count) ops to \(out)")
        }
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Verify and merge an op bundle; one bad op refuses the whole file.")
    @OptionGroup var options: Reporting<HomeOptions>
    @Argument(help: "The bundle file.") var file: String

    func run() async throws {
        try await guarded {
            // The node reads the file itself (it runs as this user): by its absolute path.
            let path = URL(fileURLWithPath: file).standardizedFileURL.path
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw NodeError.file("cannot read \(file): check the path")
            }
            let home = try options.open()
            let (applied, duplicates) = try await home.run(.importBundle(path: path), unlock: Passphrase.unlock(home))
                .expect("the bundle it imported") { if case .imported(let a, let d) = $0 { (a, d) } else { nil } }
            options.show(
                .object([("applied", .int(applied)), ("duplicates", .int(duplicates))]),
                text: "Imported \(applied) new ops (\(duplicates) already here)")
        }
    }
}

struct Log: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "The audit trail: who changed what, when, on which device, and whether it verifies.")
    @OptionGroup var options: Reporting<SpaceOptions>
    @Option(help: "Only ops that touch this game.") var game: String?

    func run() async throws {
        try await options.read { home, space in
            let entries = try home.audit.auditLog(space: space, game: try game.map { try home.rounds.resolveGame(space, $0).id })
            options.list(entries, item: Views.audit) { entry in
                "\(Views.time(entry.hlc))  \(entry.userName.padding(toLength: max(10, entry.userName.count), withPad: " ", startingAt: 0)) "
                    + "\(entry.op.device.short):\(entry.op.seq)  \(entry.verified ? "ok " : "BAD") \(entry.readable ? "" : "?? ")"
                    + "\(entry.coveredBy.map { $0 == entry.op ? "" : "(covered by :\($0.seq)) " } ?? "")"
                    + "\(entry.removed.map { "NOT IN STATE (\($0)): " } ?? "")\(entry.forkBranch ? "FORK BRANCH: " : "")\(entry.summary)"
            }
        }
    }
}

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Every value one score cell has had, by whom.")
    // `--json` beside the options, not in a `Reporting` group: one group less keeps ArgumentParser's checks of
    // the command's options (a debug build's) from growing with every level of nesting.
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var target: GamePlayerOptions
    @Argument(help: "The hole.") var hole: Int

    func run() async throws {
        try await target.read { home, space, game, player in
            let entries = try home.audit.history(space: space, game: game, player: player, hole: hole)
            Console.list(
                entries, json: json, empty: "No score has been entered for \(target.player) on hole \(hole).",
                item: Views.history
            ) { entry in
                let replaces =
                    entry.supersedes.isEmpty ? "" : ", replacing " + entry.supersedes.map(\.description).joined(separator: ", ")
                let state =
                    entry.supersededBy.isEmpty
                    ? "standing" : "replaced by " + entry.supersededBy.map(\.description).joined(separator: ", ")
                return "\(Views.time(entry.value.hlc))  \(entry.value.entry.summary) by \(entry.value.author) "
                    + "(\(entry.value.op)\(replaces)) — \(state)"
            }
        }
    }
}

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-check every signature, chain link and certificate; exit 1 naming each op that fails.")
    @OptionGroup var options: Reporting<HomeOptions>
    @Option(help: "Only this space (default: every space).") var space: String?

    func run() async throws {
        try await options.read { home in
            let spaces = try space.map { [try home.spaces.resolveSpace($0)] } ?? home.spaces.list().map(\.id)
            let keys = ProcessInfo.processInfo.environment["CADDIE_PASSPHRASE"].flatMap { try? home.unlock(passphrase: $0) }
            var checked = 0
            var failures: [(SpaceID, VerificationFailure)] = []
            for id in spaces {
                let result = try home.audit.verify(space: id, keys: keys)
                checked += result.checked
                failures += result.failures.map { (id, $0) }
            }
            if options.json {
                Console.json(
                    .object([
                        ("checked", .int(checked)), ("ok", .bool(failures.isEmpty)),
                        ("membershipChecked", .bool(keys != nil)),
                        (
                            "failures",
                            .array(
                                failures.map {
                                    .object([
                                        ("space", .string($0.0.hex)), ("device", .string($0.1.op.device.hex)),
                                        ("seq", .int(Int($0.1.op.seq))), ("reason", .string($0.1.reason)),
                                    ])
                                })
                        ),
                    ]))
            } else {
                for (space, failure) in failures {
                    Console.print(
                        "FAIL space \(space.short) device \(failure.op.device.hex) seq \(failure.op.seq): \(failure.reason)")
                }
                Console.print(
                    "\(checked) ops checked, \(failures.count) failures"
                        + (keys == nil ? " (membership proofs not checked: set CADDIE_PASSPHRASE)" : ""))
            }
            if !failures.isEmpty { throw ExitCode(1) }
        }
    }
}

struct StateHash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state-hash", abstract: "A digest of the space's merged state: equal on replicas holding the same ops.")
    @OptionGroup var options: Reporting<SpaceOptions>

    func run() async throws {
        try await options.show {
            try $0.stateHash($1)
        } json: {
            .object([("stateHash", .string($0.hex))])
        } text: {
            $0.hex
        }
    }
}

struct VectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vector", abstract: "This home's version vector of the space (for `caddie export --since`).")
    @OptionGroup var options: Reporting<SpaceOptions>

    func run() async throws {
        try await options.show {
            try $0.vector($1)
        } json: { vector in
            .object(vector.entries.sorted { $0.key < $1.key }.map { ($0.key.hex, .int(Int($0.value))) })
        } text: {
            $0.description
        }
    }
}
