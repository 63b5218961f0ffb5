import CaddieCore
import CaddieNode
import Testing

@testable import CaddieAPI

/// The HTTP API's words for the node's errors: every input the node names has its field, every remedy is a request
/// or a thing to do, and no command to type reaches an API client (the web app shows the message as it comes).
@Suite("The API words the node's errors")
struct RequestWordsTests {
    let game = GameID(bytes: [UInt8](repeating: 0x1a, count: 8))!

    @Test("every input the node names has the API's field for it")
    func everyInput() {
        let missing = NodeError.Input.named.filter { RequestWords.fields[$0] == nil }
        #expect(missing.isEmpty, "no API words for \(missing)")
        #expect(
            APIError(NodeError.badInput(.holes, "must be 9 or 18, got 7")).message == "holesPlayed must be 9 or 18, got 7")
        #expect(APIError(NodeError.badInput(.query, "is blank")).message == "q is blank")
    }

    @Test("a remedy is a request, never a command; the status follows the kind")
    func remedies() {
        let finished = APIError(NodeError.conflict("game \(game.short) is finished", .reopen(game, then: .toScore)))
        #expect(finished.status == .conflict && finished.code == "conflict")
        #expect(finished.message == "game \(game.short) is finished: reopen the game to change a score")
        let missing = APIError(NodeError.notFound("no space matches 'x'", .list(.spaces)))
        #expect(missing.status == .notFound && missing.message == "no space matches 'x': GET /v1/spaces lists them")
        let restore = APIError(NodeError.notFound("game \(game.short) was deleted", .restore(game)))
        #expect(restore.message.hasSuffix("POST /v1/spaces/{space}/games/\(game.hex)/restore brings it back"))
        let remedies: [NodeError.Remedy] =
            NodeError.Remedy.Listing.allCases.map { .list($0) } + [
                .restore(game), .reopen(game, then: .first),
                .addToGame(game, player: PlayerID(bytes: [UInt8](repeating: 2, count: 8))!),
                .anotherTee(game, player: "Ana"), .settleDisputes, .deleteByForce, .logIn, .anotherHome, .givePassphrase,
                .createOrJoinSpace, .chooseSpace,
                .committeeCorrects(
                    CompetitionID(bytes: [UInt8](repeating: 3, count: 8))!,
                    player: PlayerID(bytes: [UInt8](repeating: 2, count: 8))!, hole: 4),
            ]
        for remedy in remedies {
            let said = RequestWords().say(remedy)
            #expect(!said.contains("caddie ") && !said.contains("`") && !said.contains("--"), "\(said)")
        }
        #expect(APIError(NodeError.passphraseRequired).status == .forbidden)
        #expect(APIError(NodeError.noSpace).code == "no_space")
        #expect(APIError(NodeError.store(.diskFull("full"))).status.code == 507)
    }
}
