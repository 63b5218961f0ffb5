import CaddieCore
import CaddieServices
import CaddieSync
import Foundation
import Logging

/// What a command did.
public enum NodeCommandResult: Sendable, Equatable {
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

    struct Wire: Codable {
        var device: PublicKey?
        var seq: UInt64?
        var card: Digest32?
        var replay: Bool?
        var player: PlayerID?
        var game: GameID?
        var courses: [CourseImportResult]?
        var spaces: [String]?
        var devices: [PublicKey]?
        var hole: Int?
        var invite: String?
        var revokedInvite: InviteID?
        var removed: RemovalOutcome?
        var epoch: UInt32?
        var sealedTo: Int?
        var applied: Int?
        var duplicates: Int?
        var requestDevice: PublicKey?
        var requestExpires: UInt64?
        var approvedBy: String?
        var sent: Int?
        var received: Int?
        var stateHash: Digest32?
    }

    var wire: Wire {
        switch self {
        case .op(let op): Wire(device: op.device, seq: op.seq)
        case .replayed(let op): Wire(device: op.device, seq: op.seq, replay: true)
        case .attested(let op, let card): Wire(device: op?.device, seq: op?.seq, card: card)
        case .unchanged: Wire()
        case .player(let player): Wire(player: player)
        case .game(let game): Wire(game: game)
        case .courses(let courses): Wire(courses: courses)
        case .revoked(let spaces, let devices): Wire(spaces: spaces, devices: devices)
        case .marked(let hole): Wire(hole: hole)
        case .invite(let text): Wire(invite: text)
        case .inviteRevoked(let id): Wire(revokedInvite: id)
        case .removed(let outcome): Wire(removed: outcome)
        case .rotated(let epoch, let sealedTo): Wire(epoch: epoch, sealedTo: sealedTo)
        case .imported(let applied, let duplicates): Wire(applied: applied, duplicates: duplicates)
        case .synced(let sent, let received, let hash, let lost):
            Wire(devices: lost, sent: sent, received: received, stateHash: hash)
        case .deviceRequest(let device, let expires, let name):
            Wire(requestDevice: device, requestExpires: expires, approvedBy: name)
        }
    }

    init(wire: Wire) {
        let op = wire.device.flatMap { device in wire.seq.map { OpID(device: device, seq: $0) } }
        if let device = wire.requestDevice {
            self = .deviceRequest(device: device, expires: wire.requestExpires ?? 0, approvedBy: wire.approvedBy)
        } else if let hash = wire.stateHash {
            self = .synced(sent: wire.sent ?? 0, received: wire.received ?? 0, stateHash: hash, revokedLost: wire.devices ?? [])
        } else if let applied = wire.applied {
            self = .imported(applied: applied, duplicates: wire.duplicates ?? 0)
        } else if let hole = wire.hole {
            self = .marked(hole: hole)
        } else if let text = wire.invite {
            self = .invite(text)
        } else if let id = wire.revokedInvite {
            self = .inviteRevoked(id)
        } else if let outcome = wire.removed {
            self = .removed(outcome)
        } else if let epoch = wire.epoch {
            self = .rotated(epoch: epoch, sealedTo: wire.sealedTo ?? 0)
        } else if let devices = wire.devices {
            self = .revoked(spaces: wire.spaces ?? [], devices: devices)
        } else if let courses = wire.courses {
            self = .courses(courses)
        } else if let player = wire.player {
            self = .player(player)
        } else if let game = wire.game {
            self = .game(game)
        } else if let card = wire.card {
            self = .attested(op, card: card)
        } else if let op {
            self = wire.replay == true ? .replayed(op) : .op(op)
        } else {
            self = .unchanged
        }
    }

    /// The op signed, if any.
    public var op: OpID? {
        switch self {
        case .op(let op), .replayed(let op): op
        case .attested(let op, _): op
        case .unchanged, .player, .game, .courses, .revoked, .marked, .invite, .inviteRevoked, .removed, .rotated, .imported,
            .synced, .deviceRequest:
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

    /// A node that answered a command with another command's result runs another version of Caddie.
    private static func mismatch(_ answer: NodeCommandResult, _ wanted: String) -> NodeError {
        .refused("the node answered \(answer), not \(wanted): run the node and its commands from the same version of Caddie")
    }

    static func reply(_ result: Result<NodeCommandResult, NodeError>) -> [UInt8] {
        switch result {
        case .success(let value):
            return [0] + [UInt8]((try? JSONEncoder().encode(value.wire)) ?? Data())
        case .failure(let error):
            return [1, error.kind.rawValue] + Array(error.description.utf8)
        }
    }

    static func result(fromReply bytes: [UInt8]) throws(NodeError) -> NodeCommandResult {
        switch bytes.first {
        case 0:
            do {
                return NodeCommandResult(wire: try JSONDecoder().decode(Wire.self, from: Data(bytes.dropFirst())))
            } catch {
                throw .malformed(
                    what: "reply", "the running node's reply was damaged (\(error)): check with `caddie card` before trying again"
                )
            }
        case 1 where bytes.count >= 2:
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
