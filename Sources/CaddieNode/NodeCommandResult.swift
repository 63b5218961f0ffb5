import CaddieCore
import CaddieServices
import CaddieSync
import Foundation
import Logging

/// What a command did.
public enum NodeCommandResult: Sendable, Equatable, Codable {
    /// The op signed for it.
    case op(OpID)
    /// The same entry was made before with the same `seen` (its answer was lost): nothing signed, this is its op.
    case replayed(OpID)
    /// The attestation's op and the hash of the card it attests.
    case attested(OpID?, card: Digest32)
    /// Nothing needed signing (the game was already so).
    case unchanged
    /// The player added.
    case player(PlayerID)
    /// The game started.
    case game(GameID)
    /// The competition created.
    case competition(CompetitionID)
    /// The courses imported.
    case courses([CourseImportResult])
    /// The devices revoked, and the names of the spaces they were revoked in (empty when not told).
    case revoked(spaces: [String], devices: [PublicKey])
    /// The hole a mark was recorded on.
    case marked(hole: Int)
    /// An invite's code.
    case invite(String)
    /// The invite revoked.
    case inviteRevoked(InviteID)
    /// A member removed.
    case removed(RemovalOutcome)
    /// The space's new key: its epoch and how many devices it was sealed to.
    case rotated(epoch: UInt32, sealedTo: Int)
    /// A bundle merged: ops new here, and ops already held.
    case imported(applied: Int, duplicates: Int)
    /// A sync done: ops sent and received, the state hash after it, and devices of a recovered user's from before the
    /// recovery that were revoked on the way.
    case synced(sent: Int, received: Int, stateHash: Digest32, revokedLost: [PublicKey])
    /// The device a phone's code names, when its code ends (ms since 1970), and the name of the user whose device
    /// answered it, once one has.
    case deviceRequest(device: PublicKey, expires: UInt64, approvedBy: String?)
    /// A space created: its id and name.
    case createdSpace(space: SpaceID, name: String)
    /// A space joined.
    case joined(JoinOutcome)

    /// A reply on the control socket.
    struct Reply: Codable {
        var v: Int
        var result: NodeCommandResult
    }

    /// A refusal on the control socket: the error with its reason, input and remedy as values.
    struct Refusal: Codable {
        var v: Int
        var error: NodeError.Carried
    }

    /// The op signed, if any.
    public var op: OpID? {
        switch self {
        case .op(let op), .replayed(let op): op
        case .attested(let op, _): op
        case .unchanged, .player, .game, .competition, .courses, .revoked, .marked, .invite, .inviteRevoked, .removed, .rotated,
            .imported,
            .synced, .deviceRequest, .createdSpace, .joined:
            nil
        }
    }

    /// The player an `addPlayer` command added.
    public func addedPlayer() throws(NodeError) -> PlayerID {
        guard case .player(let player) = self else { throw Self.mismatch(self, "the player it was asked to add") }
        return player
    }

    /// The courses an `importCourses` command imported.
    public func importedCourses() throws(NodeError) -> [CourseImportResult] {
        guard case .courses(let courses) = self else { throw Self.mismatch(self, "the courses it was asked to import") }
        return courses
    }

    /// What a `revokeDevice` or `revokeLostDevices` command revoked.
    public func revocation() throws(NodeError) -> (spaces: [String], devices: [PublicKey]) {
        guard case .revoked(let spaces, let devices) = self else { throw Self.mismatch(self, "the devices it revoked") }
        return (spaces, devices)
    }

    /// The answer of a command that is expected to give `T`, as `extract` reads it.
    public func expect<T>(_ wanted: String, _ extract: (NodeCommandResult) -> T?) throws(NodeError) -> T {
        guard let value = extract(self) else { throw Self.mismatch(self, wanted) }
        return value
    }

    /// The game a `newGame` command started.
    public func startedGame() throws(NodeError) -> GameID {
        guard case .game(let game) = self else { throw Self.mismatch(self, "the game it was asked to start") }
        return game
    }

    /// The competition a `newCompetition` command created.
    public func createdCompetition() throws(NodeError) -> CompetitionID {
        guard case .competition(let id) = self else { throw Self.mismatch(self, "the competition it was asked to create") }
        return id
    }

    /// The code a `createInvite` or `sharedKeyInvite` command made, as a person passes it on.
    public func madeInvite() throws(NodeError) -> String {
        guard case .invite(let text) = self else { throw Self.mismatch(self, "the invite it was asked to make") }
        return text
    }

    /// The invite a `revokeInvite` command revoked.
    public func revokedInvite() throws(NodeError) -> InviteID {
        guard case .inviteRevoked(let id) = self else { throw Self.mismatch(self, "the invite it was asked to revoke") }
        return id
    }

    /// A node that answered a command with another command's result runs another version of Caddie.
    private static func mismatch(_ answer: NodeCommandResult, _ wanted: String) -> NodeError {
        .refused("the node answered \(answer), not \(wanted): run the node and its commands from the same version of Caddie")
    }

    /// The reply's first byte: the result, or the refusal.
    private enum ReplyTag: UInt8 {
        case result = 0
        /// An older node's refusal: its kind, then its one line worded for the CLI.
        case worded = 1
        case refusal = 2
    }

    static func reply(_ result: Result<NodeCommandResult, NodeError>) -> [UInt8] {
        switch result {
        case .success(let value):
            return [ReplyTag.result.rawValue]
                + [UInt8]((try? JSONEncoder().encode(Reply(v: NodeCommand.version, result: value))) ?? Data())
        case .failure(let error):
            let refusal = Refusal(v: NodeCommand.version, error: error.carried)
            if let json = try? JSONEncoder().encode(refusal) { return [ReplyTag.refusal.rawValue] + [UInt8](json) }
            return [ReplyTag.worded.rawValue, error.kind.rawValue] + Array(error.description.utf8)
        }
    }

    static func result(fromReply bytes: [UInt8]) throws(NodeError) -> NodeCommandResult {
        let doesNotRead = { (error: any Error) -> NodeError in
            .malformed(
                what: "reply",
                "the running node's reply does not read (\(NodeCommand.words(error))): run the node and its commands "
                    + "from the same version of Caddie, and check with `caddie card` before trying again")
        }
        switch bytes.first.flatMap(ReplyTag.init(rawValue:)) {
        case .result:
            do {
                return try JSONDecoder().decode(Reply.self, from: Data(bytes.dropFirst())).result
            } catch {
                throw doesNotRead(error)
            }
        case .refusal:
            let refusal: Refusal
            do {
                refusal = try JSONDecoder().decode(Refusal.self, from: Data(bytes.dropFirst()))
            } catch {
                throw doesNotRead(error)
            }
            throw NodeError(refusal.error)
        case .worded where bytes.count >= 2:
            guard let kind = NodeError.Kind(rawValue: bytes[1]) else {
                // A node of an older caddie answers with its text alone, no kind: it refused the command.
                throw NodeError.conflict(String(decoding: bytes.dropFirst(), as: UTF8.self))
            }
            throw NodeError(kind: kind, text: String(decoding: bytes.dropFirst(2), as: UTF8.self))
        default:
            throw .malformed(what: "reply", "the running node sent a reply this version does not read: update caddie")
        }
    }
}
