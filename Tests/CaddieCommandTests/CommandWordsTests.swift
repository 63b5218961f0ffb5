import CaddieCore
import CaddieNode
import Testing

@testable import caddie

/// The CLI's words for the node's errors: every input the node names has its option, every remedy is a command to
/// type, and nothing of the HTTP API's words reaches a person at the terminal.
@Suite("The CLI words the node's errors")
struct CommandWordsTests {
    let game = GameID(bytes: [UInt8](repeating: 0x1a, count: 8))!

    @Test("every input the node names has the CLI's name for it")
    func everyInput() {
        let missing = NodeError.Input.named.filter { CommandWords.options[$0] == nil }
        #expect(missing.isEmpty, "no CLI words for \(missing)")
        #expect(NodeError.badInput(.holes, "must be 9 or 18").worded(by: CommandWords()) == "--holes must be 9 or 18")
        #expect(NodeError.badInput(.entries, "is empty").worded(by: CommandWords()) == "--entry is empty")
        // An input the node names on the fly (the record a name resolves to) reads as itself.
        #expect(NodeError.badInput(.init("course"), "is blank").worded(by: CommandWords()) == "the course is blank")
    }

    @Test("a remedy is a command to type, with the record's short id")
    func remedies() {
        let finished = NodeError.conflict("game \(game.short) is finished", .reopen(game, then: .toScore))
        #expect(
            finished.worded(by: CommandWords())
                == "game \(game.short) is finished: reopen it with `caddie game reopen \(game.short)` to change a score")
        #expect(
            NodeError.notFound("no game 'x' in this space", .list(.games)).worded(by: CommandWords())
                == "no game 'x' in this space: see `caddie game list`")
        #expect(
            NodeError.notLoggedIn(home: "/h").worded(by: CommandWords())
                == "no identity in /h: run `caddie login --name NAME` first")
        let remedies: [NodeError.Remedy] =
            NodeError.Remedy.Listing.allCases.map { .list($0) } + [
                .restore(game), .reopen(game, then: .first),
                .addToGame(game, player: PlayerID(bytes: [UInt8](repeating: 2, count: 8))!),
                .anotherTee(game, player: "Ana"), .settleDisputes, .deleteByForce, .logIn, .anotherHome, .givePassphrase,
                .createOrJoinSpace, .chooseSpace,
            ]
        for remedy in remedies {
            let said = CommandWords().say(remedy)
            #expect(!said.contains("GET ") && !said.contains("POST ") && !said.contains("/v1/"), "\(said)")
            #expect(said.contains("caddie") || said.contains("--") || said.contains("CADDIE_"), "\(said)")
        }
    }
}
