import CaddieCore
import CaddieNode
import Testing

/// The request a command hands the running node over its control socket: the node reads back exactly what the
/// command wrote, and refuses the pred lists an op could not carry before it signs anything.
@Suite("the control socket's request")
struct ControlRequestTests {
    let device = PublicKey(unchecked: [UInt8](repeating: 7, count: 32))
    let space = SpaceID(unchecked: [UInt8](repeating: 3, count: 16))
    let game = GameID(unchecked: [UInt8](repeating: 1, count: 8))
    let player = PlayerID(unchecked: [UInt8](repeating: 2, count: 8))

    func request(pred: [OpID]) -> ControlRequest {
        ControlRequest(
            device: device, space: space,
            edits: [ControlRequest.Edit(changes: [.rosterAdd(game: game, player: player)], pred: pred)])
    }

    @Test("a request with preds reads back as written")
    func roundTrip() throws {
        let written = request(pred: [OpID(device: device, seq: 5), OpID(device: device, seq: SignedOp.maxSeq)])
        #expect(try ControlRequest(decoding: written.encoded) == written)
    }

    @Test("a pred with seq 0, or more preds than an op carries, is refused naming the field")
    func badPreds() {
        #expect {
            try ControlRequest(decoding: request(pred: [OpID(device: device, seq: 0)]).encoded)
        } throws: { ($0 as? DecodeError)?.what == "pred seq" }
        let tooMany = (1...UInt64(SignedOp.maxPred + 1)).map { OpID(device: device, seq: $0) }
        #expect {
            try ControlRequest(decoding: request(pred: tooMany).encoded)
        } throws: { error in
            (error as? DecodeError)?.what == "pred count" && (error as? DecodeError)?.reason == "(65) is more than 64"
        }
    }
}
