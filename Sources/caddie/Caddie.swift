import ArgumentParser
import CaddieNode
import Foundation

/// Every command names itself (`commandName:`): otherwise ArgumentParser derives each name from its type's name
/// at every launch, which costs a scan of the binary's protocol conformances per command (about 40 ms of the
/// 90 ms a debug `caddie whoami` took; docs/performance.md, "#47").
@main
struct Caddie: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caddie",
        abstract: "Offline score keeping and sync for golf groups.",
        discussion: """
            Each player's device keeps the group's games as a signed log; homes merge by file \
            (export/import) and every edit stays auditable. Start with `caddie login --name NAME`.
            """,
        version: "0.1.0",
        subcommands: [
            Login.self, Whoami.self, RecoveryPhraseCommand.self, Device.self, Space.self, Player.self, Course.self, Game.self,
            ScoreCommand.self, Card.self, StandingsCommand.self, Stats.self,
            Attest.self, Export.self, Import.self, Log.self, History.self, Verify.self, StateHash.self,
            VectorCommand.self, HandicapCommand.self, Guide.self, Track.self, Serve.self, SyncCommand.self, Peers.self,
            MdnsService.self, Demo.self, Web.self, CompetitionCommand.self,
        ]
    )

    static func main() async {
        let arguments = reorderHomeOption(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as NodeError {
            exit(withError: Worded(text: Console.words(error)))
        } catch {
            exit(withError: error)
        }
    }
}

/// An error already in the CLI's words.
private struct Worded: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
