import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

extension CompetitionCommand {
    struct Committee: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "committee",
            abstract: "The creator names a member to the competition's committee, or takes them off.",
            discussion: "A committee member runs the committee's commands (the list, the draw, marks, corrections, the "
                + "public board, the close) from their own devices, and their corrections count on a locked card.")
        @OptionGroup var options: SpaceOptions
        @Argument(help: "The competition.") var competition: String
        @Argument(help: "add or remove.") var action: String
        @Argument(help: "The member: their name, or the start of their user key.") var member: String

        func run() async throws {
            let on = try guardedValue { () throws(NodeError) -> Bool in
                switch action.lowercased() {
                case "add": return true
                case "remove": return false
                default:
                    throw .badInput(.committeeAction, "'\(action)' is not add or remove: give one")
                }
            }
            try await options.read { home, space in
                let record = try home.competitions.resolveCompetition(space, competition)
                let named = try home.competitions.resolveMember(space, member)
                _ = try await home.run(
                    .setCommittee(space: space, competition: record.id, user: named.user, on: on),
                    unlock: Passphrase.unlock(home))
                Console.print(
                    on
                        ? "\(named.shown) is on the committee of \(record.name)"
                        : "\(named.shown) is off the committee of \(record.name)")
            }
        }
    }
}
