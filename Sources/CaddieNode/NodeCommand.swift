import CaddieCore
import CaddieServices
import CaddieSync
import Foundation
import Logging

/// A command a person gives their node, built by the CLI from what was typed (names already resolved to ids).
/// The node that holds the home runs it (``Home/execute(_:keys:)``): the feature's checks and the append happen
/// in that one process, with the keys it unlocked when it started, so a command sent to a running node needs
/// neither the passphrase nor the Argon2id that opens the keys. With no node running, the CLI runs the same
/// command in its own process after unlocking the keys (``Home/run(_:unlock:)``).
///
/// Carried over the control socket as `"CMD2"` ‖ JSON of a ``Request``: `{"v": 2, "device", "command"}`, the command
/// in Swift's own coding of an enum (`{"score": {"space": ..., "entry": {...}}}`), so a new command or field needs no
/// codec of its own. Reply: `0` ‖ JSON `{"v": 2, "result"}` (``NodeCommandResult``, coded the same way); or `1` ‖ the
/// error's kind (``NodeError/Kind``, one byte) ‖ UTF-8 text.
public enum NodeCommand: Sendable, Equatable, Codable {
    /// A player's strokes on a hole, superseding `seen` (the values the person entering it last saw), or every
    /// value the cell shows when `seen` is nil.
    case score(space: SpaceID, game: GameID, player: PlayerID, hole: Int, entry: ScoreEntry, seen: [OpID]? = nil)
    /// A marker's attestation of a player's card as it stands.
    case attest(space: SpaceID, game: GameID, player: PlayerID)
    /// A game finished or reopened.
    case setFinished(space: SpaceID, game: GameID, finished: Bool)
    /// A player added to a game's roster, or taken off it.
    case setInRoster(space: SpaceID, game: GameID, player: PlayerID, inRoster: Bool)
    /// A player added to the space, with their user key if they use Caddie and a Handicap Index to start from.
    case addPlayer(space: SpaceID, name: String, user: PublicKey? = nil, handicapIndex: Double? = nil)
    /// A game started on a course from one tee, with who marks whom and the rest of its setup.
    case newGame(
        space: SpaceID, course: CourseID, tee: String, players: [PlayerID], markers: [MarkerPair] = [],
        setup: GameSetup<PlayerID> = GameSetup())

    /// A game's tees, holes, start, formats, teams or stake changed.
    case setup(space: SpaceID, game: GameID, setup: GameSetup<PlayerID>)
    /// A player's name or entered Handicap Index corrected (`clearIndex`: the entered index removed).
    case editPlayer(space: SpaceID, player: PlayerID, name: String? = nil, handicapIndex: Double? = nil, clearIndex: Bool = false)
    /// A game deleted (`force`: even though it has scores) or restored.
    case setDeleted(space: SpaceID, game: GameID, deleted: Bool, force: Bool = false)
    /// A club competition created with the committee's settings.
    case newCompetition(space: SpaceID, name: String, settings: Competition.Settings)
    /// Games made groups of a competition (`add`), or taken out of it.
    case setCompetitionGroups(space: SpaceID, competition: CompetitionID, games: [GameID], add: Bool)
    /// A competition's entry list (read from a CSV file by the command's process), imported.
    case importEntries(space: SpaceID, competition: CompetitionID, list: EntryList)
    /// A competition's draw made: its groups as games on `course`.
    case draw(space: SpaceID, competition: CompetitionID, course: CourseID, size: Int, start: Draw.Start, shuffled: Bool)
    /// A competition closed (its groups' games finished) or reopened.
    case setCompetitionClosed(space: SpaceID, competition: CompetitionID, closed: Bool)
    /// A competition's board opened to anyone who reaches the node (its last `hiddenHoles` holes left out there),
    /// or closed again.
    case setBoardAccess(space: SpaceID, competition: CompetitionID, isPublic: Bool, hiddenHoles: Int)
    /// The creator names a member to the competition's committee, or takes them off.
    case setCommittee(space: SpaceID, competition: CompetitionID, user: PublicKey, on: Bool)
    /// The committee's correction of a player's score on a hole, with its reason.
    case correctScore(
        space: SpaceID, competition: CompetitionID, player: PlayerID, hole: Int, entry: ScoreEntry, reason: String)
    /// The committee's mark of a player in a competition (NR, DQ), or nil to clear it.
    case setCompetitionStatus(space: SpaceID, competition: CompetitionID, player: PlayerID, status: Competition.Status?)
    /// Who marks a player in a game.
    case setMarker(space: SpaceID, game: GameID, pair: MarkerPair)
    /// Courses read from a file (by the command's process: the file is where the person is), merged into the space.
    case importCourses(space: SpaceID, courses: CourseService.ReadCourses)
    /// One of this user's devices revoked in every space this home holds.
    case revokeDevice(PublicKey)
    /// After a recovery: every device of this user certified before it revoked.
    case revokeLostDevices
    /// Where a player is on their current hole: a shot, or a plain fix.
    case mark(space: SpaceID, game: GameID, player: PlayerID, point: GeoPoint, shot: Bool)
    /// An invite made at this device: admits `uses` devices for `seconds`.
    case createInvite(space: SpaceID, uses: Int, seconds: Int)
    /// The older code that carries the space key itself.
    case sharedKeyInvite(space: SpaceID)
    /// An invite made here revoked, named by its id or the start of it; with `space`, only an invite of that space
    /// (another space's is not found, and stays as it is).
    case revokeInvite(String, space: SpaceID? = nil)
    /// A member removed by the space's owner, named as typed (a name or the start of a user key), with a new key.
    case removeMember(space: SpaceID, member: String)
    /// A new key for the space, sealed to every member device neither removed nor revoked (its owner only).
    case rotateKey(space: SpaceID)
    /// An op bundle verified and merged as a whole, read from this file (an absolute path: the node runs as the same
    /// user, and a bundle may be larger than a control message).
    case importBundle(path: String)
    /// One space synced with one peer once, both ways (`caddie sync`); run by ``Home/executeAsync(_:keys:logger:)``.
    case sync(space: SpaceID, host: String, port: Int)
    /// The device a phone's code names (``DeviceRequests``), held by the running node only.
    case readDeviceRequest(space: SpaceID, code: String)
    /// The running node signs the certificate of the device a phone's code names with this home's user key, and
    /// carries it to that phone (`caddie device approve`): the phone then joins as this user's device.
    case approveDeviceRequest(space: SpaceID, code: String)

    /// A new space, with a fresh key (`caddie space create`): the node seals the key into the home's ring with the
    /// key its unlock kept, and serves the space at once.
    case createSpace(name: String)
    /// A space joined with an invite code (`caddie space join`): a shared-key code (CADDIE1) at once, a ticket
    /// (CADDIE2) redeemed at the inviting device (at `peer`, `HOST:PORT`, or found over mDNS within `wait` seconds)
    /// and synced with once; run by ``Home/executeAsync(_:keys:logger:)``. A running node serves the space at once.
    case joinSpace(code: String, peer: HostPort?, wait: Int)

    /// How long a command's process waits for the node's answer: a sync moves a whole history over the network, and
    /// a join looks for the inviting device first.
    var replyTimeoutSeconds: Int64 {
        switch self {
        case .sync: 900
        case .joinSpace(_, _, let wait): 900 + Int64(wait)
        default: ControlSocket.replyTimeoutSeconds
        }
    }

    /// A player and their marker.
    public struct MarkerPair: Sendable, Equatable, Codable {
        public let player: PlayerID
        public let marker: PlayerID

        public init(player: PlayerID, marker: PlayerID) {
            self.player = player
            self.marker = marker
        }
    }

    /// The version of the request and reply this node reads and writes.
    static let version = 2
    static let magic: [UInt8] = Array("CMD2".utf8)
    /// What a CLI before commands were data sent.
    static let olderMagic: [UInt8] = Array("CMD1".utf8)

    /// A request on the control socket.
    struct Request: Codable {
        var v: Int
        /// The device the command acts as: the node refuses a command for another device.
        var device: PublicKey?
        var command: NodeCommand
    }

    /// The request's bytes, for the node of `device`.
    public func encoded(device: PublicKey) -> [UInt8] {
        // Encoding ids, strings, numbers and booleans cannot fail.
        Self.magic + [UInt8]((try? JSONEncoder().encode(Request(v: Self.version, device: device, command: self))) ?? Data())
    }

    /// Decodes a request and the device it is for; the error says what was wrong with it.
    public static func decode(_ bytes: [UInt8]) throws(NodeError) -> (command: NodeCommand, device: PublicKey) {
        let request = try Self.request(bytes)
        guard let device = request.device else {
            throw .malformed(what: "command", "the command names no device: run the node and its commands from one version")
        }
        return (request.command, device)
    }

    /// Decodes a request's command; the error says what was wrong with it.
    public init(decoding bytes: [UInt8]) throws(NodeError) { self = try Self.request(bytes).command }

    /// The request, read once.
    static func request(_ bytes: [UInt8]) throws(NodeError) -> Request {
        if bytes.starts(with: olderMagic) {
            throw .malformed(
                what: "command",
                "the command came from an older caddie: run the node and its commands from the same version of Caddie")
        }
        guard bytes.starts(with: magic) else { throw .malformed(what: "command", "a command request must start with CMD2") }
        let json = Data(bytes.dropFirst(magic.count))
        // The version first, so that another version's command is named as such, not as a damaged one.
        struct Version: Decodable { var v: Int? }
        let version = (try? JSONDecoder().decode(Version.self, from: json))?.v
        if let version, version != Self.version {
            throw .malformed(
                what: "command",
                "the command is of version \(version), this node reads version \(Self.version): run the node and its "
                    + "commands from the same version of Caddie")
        }
        do {
            return try JSONDecoder().decode(Request.self, from: json)
        } catch {
            throw .malformed(what: "command", "the command does not read: \(Self.words(error))")
        }
    }

    /// What a decoding error says, for a person: where in the request, and what.
    static func words(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty
                ? "the request" : "'" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(let type, let context) where type == NodeCommand.self:
            // An enum's coding finds none of its cases' names: a command of another version.
            return "\(path(context.codingPath)) is not a command this node runs: run the node and its commands from the "
                + "same version of Caddie"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)) is not of the kind expected: \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "it is not JSON, or not a command this node runs (\(context.debugDescription))"
                : "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}

/// A course file read as the control socket carries it: each course's record as the `set` change an op would carry
/// (Protocol/op-format.md), so it meets the same limits, and the notes about what could not be used.
extension CourseService.ReadCourses: Codable {
    private struct Course: Codable {
        var change: Data
        var warnings: [String]
    }

    private enum Keys: String, CodingKey { case courses, fromOSM }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let courses = try container.decode([Course].self, forKey: .courses).map { course in
            guard let changes = try? Payload.decode([UInt8](course.change)), changes.count == 1,
                case .set(.course, let id, let fields) = changes[0]
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .courses, in: container, debugDescription: "a course must be one `set` of a course record")
            }
            return (record: CourseRecord(id: CourseID(unchecked: id.bytes), fields: fields), warnings: course.warnings)
        }
        self.init(courses: courses, fromOSM: try container.decode(Bool.self, forKey: .fromOSM))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        let wire = courses.map {
            Course(change: Data(Payload.encode([.set($0.record.id, fields: $0.record.fields)])), warnings: $0.warnings)
        }
        try container.encode(wire, forKey: .courses)
        try container.encode(fromOSM, forKey: .fromOSM)
    }
}
