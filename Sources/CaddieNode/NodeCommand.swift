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
/// Carried over the control socket as `"CMD1"` ‖ JSON (``NodeCommand/Wire``). Reply: `0` ‖ JSON of the
/// ``NodeCommandResult``; or `1` ‖ the error's kind (``NodeError/Kind``, one byte) ‖ UTF-8 text.
public enum NodeCommand: Sendable, Equatable {
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
    /// An invite made here revoked, named by its id or the start of it.
    case revokeInvite(String)
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

    /// How long a command's process waits for the node's answer: a sync moves a whole history over the network.
    var replyTimeoutSeconds: Int64 {
        if case .sync = self { 900 } else { ControlSocket.replyTimeoutSeconds }
    }

    /// A course as the control socket carries it: its record as the `set` change an op would carry
    /// (Protocol/op-format.md), so it meets the same limits, and the notes about what could not be used.
    struct WireCourse: Codable {
        var change: Data
        var warnings: [String]
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

    static let magic: [UInt8] = Array("CMD1".utf8)

    /// The JSON form on the control socket.
    struct Wire: Codable {
        var command: String
        /// The device the command acts as: the node refuses a command for another device.
        var device: PublicKey?
        /// Nil only for the commands of the whole home (a device revoked).
        var space: SpaceID?
        var game: GameID?
        var player: PlayerID?
        var hole: Int?
        var strokes: Int?
        var putts: Int?
        var penalties: Int?
        var fairway: String?
        var greenInRegulation: Bool?
        var seen: [String]?
        var flag: Bool?
        var name: String?
        var user: PublicKey?
        var index: Double?
        var course: CourseID?
        var tee: String?
        var players: [PlayerID]?
        var markers: [MarkerPair]?
        var setup: GameSetupForm<PlayerID>?
        var force: Bool?
        var courses: [WireCourse]?
        var point: GeoPoint?
        var uses: Int?
        var seconds: Int?
        /// The device a revocation names.
        var revoked: PublicKey?
        /// An invite, as typed (its id or the start of it).
        var invite: String?
        /// A member to remove, as typed (a user key, its start, or a name).
        var member: String?
        /// A bundle's absolute path.
        var path: String?
        /// The peer a sync dials.
        var host: String?
        var port: Int?
        /// What an older CLI (of the previous session's version) sent in place of `invite`, `member`, `path` and
        /// `host`, as it sent a sync's port in `seconds` and a revoked device in `user`: read, never written.
        var text: String?
        /// A phone's device code, as typed.
        var code: String?
    }

    var wire: Wire {
        switch self {
        case .score(let space, let game, let player, let hole, let entry, let seen):
            Wire(
                command: "score", space: space, game: game, player: player, hole: hole, strokes: entry.strokes,
                putts: entry.putts, penalties: entry.penalties, fairway: entry.fairway?.name,
                greenInRegulation: entry.greenInRegulation, seen: seen?.map(Views.opName))
        case .attest(let space, let game, let player):
            Wire(command: "attest", space: space, game: game, player: player)
        case .setFinished(let space, let game, let finished):
            Wire(command: "finished", space: space, game: game, flag: finished)
        case .setInRoster(let space, let game, let player, let inRoster):
            Wire(command: "roster", space: space, game: game, player: player, flag: inRoster)
        case .addPlayer(let space, let name, let user, let handicapIndex):
            Wire(command: "player", space: space, name: name, user: user, index: handicapIndex)
        case .newGame(let space, let course, let tee, let players, let markers, let setup):
            Wire(
                command: "game", space: space, course: course, tee: tee, players: players, markers: markers,
                setup: setup.isEmpty ? nil : GameSetupForm(setup))
        case .setup(let space, let game, let setup):
            Wire(command: "setup", space: space, game: game, setup: GameSetupForm(setup))
        case .editPlayer(let space, let player, let name, let handicapIndex, let clearIndex):
            Wire(command: "edit-player", space: space, player: player, flag: clearIndex, name: name, index: handicapIndex)
        case .setDeleted(let space, let game, let deleted, let force):
            Wire(command: "deleted", space: space, game: game, flag: deleted, force: force)
        case .setMarker(let space, let game, let pair):
            Wire(command: "marker", space: space, game: game, markers: [pair])
        case .importCourses(let space, let read):
            Wire(
                command: "courses", space: space, flag: read.fromOSM,
                courses: read.courses.map {
                    WireCourse(
                        change: Data(Payload.encode([.set($0.record.id, fields: $0.record.fields)])), warnings: $0.warnings)
                })
        case .revokeDevice(let device):
            Wire(command: "revoke", revoked: device)
        case .revokeLostDevices:
            Wire(command: "revoke-lost")
        case .mark(let space, let game, let player, let point, let shot):
            Wire(command: "mark", space: space, game: game, player: player, flag: shot, point: point)
        case .createInvite(let space, let uses, let seconds):
            Wire(command: "invite", space: space, uses: uses, seconds: seconds)
        case .sharedKeyInvite(let space):
            Wire(command: "shared-key-invite", space: space)
        case .revokeInvite(let text):
            Wire(command: "revoke-invite", invite: text)
        case .removeMember(let space, let member):
            Wire(command: "remove", space: space, member: member)
        case .rotateKey(let space):
            Wire(command: "rotate", space: space)
        case .importBundle(let path):
            Wire(command: "import", path: path)
        case .sync(let space, let host, let port):
            Wire(command: "sync", space: space, host: host, port: port)
        case .readDeviceRequest(let space, let code):
            Wire(command: "device-request", space: space, code: code)
        case .approveDeviceRequest(let space, let code):
            Wire(command: "device-approve", space: space, code: code)
        }
    }

    /// The request's bytes, for the node of `device`.
    public func encoded(device: PublicKey) -> [UInt8] {
        var wire = wire
        wire.device = device
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of strings, numbers and booleans cannot fail.
        return Self.magic + [UInt8]((try? encoder.encode(wire)) ?? Data())
    }

    /// Decodes a request and the device it is for; the error says what was wrong with it.
    public static func decode(_ bytes: [UInt8]) throws(NodeError) -> (command: NodeCommand, device: PublicKey) {
        let wire = try Self.wire(bytes)
        guard let device = wire.device else { throw .malformed(what: "command", "the command names no device: update caddie") }
        return (try NodeCommand(wire: wire), device)
    }

    /// Decodes a request's command; the error says what was wrong with it.
    public init(decoding bytes: [UInt8]) throws(NodeError) { try self.init(wire: try Self.wire(bytes)) }

    /// The request's JSON, read once.
    static func wire(_ bytes: [UInt8]) throws(NodeError) -> Wire {
        guard bytes.starts(with: magic) else { throw .malformed(what: "command", "a command request must start with CMD1") }
        do {
            return try JSONDecoder().decode(Wire.self, from: Data(bytes.dropFirst(magic.count)))
        } catch {
            throw .malformed(what: "command", "the command's JSON does not read: \(error)")
        }
    }

    init(wire: Wire) throws(NodeError) {
        func required<T>(_ value: T?, _ name: String) throws(NodeError) -> T {
            guard let value else { throw .malformed(what: "command", "the \(wire.command) command needs '\(name)'") }
            return value
        }
        func space() throws(NodeError) -> SpaceID { try required(wire.space, "space") }
        switch wire.command {
        case "score":
            let game = try required(wire.game, "game")
            let fairway = try wire.fairway.map { name throws(NodeError) in
                guard let value = ScoreEntry.Fairway(name: name) else {
                    throw .malformed(what: "command", "'fairway' must be hit, left or right, got '\(name)'")
                }
                return value
            }
            let entry: ScoreEntry
            do {
                entry = try ScoreEntry(
                    strokes: try required(wire.strokes, "strokes"), putts: wire.putts, penalties: wire.penalties,
                    fairway: fairway, greenInRegulation: wire.greenInRegulation)
            } catch let error as NodeError {
                throw error
            } catch {
                throw .wrap(error)
            }
            let seen = try wire.seen.map { names throws(NodeError) in
                try names.map { name throws(NodeError) in
                    guard let op = Views.opID(named: name) else {
                        throw .malformed(what: "command", "'seen' names DEVICEHEX:SEQ, got '\(name)'")
                    }
                    return op
                }
            }
            self = .score(
                space: try space(), game: game, player: try required(wire.player, "player"),
                hole: try required(wire.hole, "hole"), entry: entry, seen: seen)
        case "attest":
            self = .attest(
                space: try space(), game: try required(wire.game, "game"),
                player: try required(wire.player, "player"))
        case "finished":
            self = .setFinished(
                space: try space(), game: try required(wire.game, "game"),
                finished: try required(wire.flag, "flag"))
        case "roster":
            self = .setInRoster(
                space: try space(), game: try required(wire.game, "game"),
                player: try required(wire.player, "player"),
                inRoster: try required(wire.flag, "flag"))
        case "player":
            self = .addPlayer(
                space: try space(), name: try required(wire.name, "name"), user: wire.user,
                handicapIndex: wire.index)
        case "game":
            self = .newGame(
                space: try space(), course: try required(wire.course, "course"),
                tee: try required(wire.tee, "tee"),
                players: try required(wire.players, "players"), markers: wire.markers ?? [],
                setup: wire.setup?.setup ?? GameSetup())
        case "setup":
            self = .setup(
                space: try space(), game: try required(wire.game, "game"),
                setup: try required(wire.setup, "setup").setup)
        case "edit-player":
            self = .editPlayer(
                space: try space(), player: try required(wire.player, "player"), name: wire.name,
                handicapIndex: wire.index,
                clearIndex: wire.flag ?? false)
        case "deleted":
            self = .setDeleted(
                space: try space(), game: try required(wire.game, "game"),
                deleted: try required(wire.flag, "flag"),
                force: wire.force ?? false)
        case "marker":
            guard let markers = wire.markers, markers.count == 1 else {
                throw .malformed(what: "command", "the marker command needs one 'markers' pair")
            }
            self = .setMarker(space: try space(), game: try required(wire.game, "game"), pair: markers[0])
        case "courses":
            let courses = try required(wire.courses, "courses").map { course throws(NodeError) in
                let changes: [Change]
                do { changes = try Payload.decode([UInt8](course.change)) } catch {
                    throw .malformed(what: "command", "a course of the courses command does not read: \(error)")
                }
                guard changes.count == 1, case .set(.course, let id, let fields) = changes[0] else {
                    throw .malformed(what: "command", "a course of the courses command must be one `set` of a course record")
                }
                return (record: CourseRecord(id: CourseID(unchecked: id.bytes), fields: fields), warnings: course.warnings)
            }
            self = .importCourses(
                space: try space(),
                courses: CourseService.ReadCourses(courses: courses, fromOSM: wire.flag ?? false))
        case "revoke":
            self = .revokeDevice(try required(wire.revoked ?? wire.user, "revoked"))
        case "revoke-lost":
            self = .revokeLostDevices
        case "mark":
            self = .mark(
                space: try space(), game: try required(wire.game, "game"), player: try required(wire.player, "player"),
                point: try required(wire.point, "point"), shot: try required(wire.flag, "flag"))
        case "invite":
            self = .createInvite(
                space: try space(), uses: try required(wire.uses, "uses"), seconds: try required(wire.seconds, "seconds"))
        case "shared-key-invite":
            self = .sharedKeyInvite(space: try space())
        case "revoke-invite":
            self = .revokeInvite(try required(wire.invite ?? wire.text, "invite"))
        case "remove":
            self = .removeMember(space: try space(), member: try required(wire.member ?? wire.text, "member"))
        case "rotate":
            self = .rotateKey(space: try space())
        case "import":
            self = .importBundle(path: try required(wire.path ?? wire.text, "path"))
        case "sync":
            self = .sync(
                space: try space(), host: try required(wire.host ?? wire.text, "host"),
                port: try required(wire.port ?? wire.seconds, "port"))
        case "device-request":
            self = .readDeviceRequest(space: try space(), code: try required(wire.code, "code"))
        case "device-approve":
            self = .approveDeviceRequest(space: try space(), code: try required(wire.code, "code"))
        default:
            throw .malformed(what: "command", "'\(wire.command)' is not a command this node runs: update caddie")
        }
    }
}
