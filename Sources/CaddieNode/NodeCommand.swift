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
        var text: String?
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
            Wire(command: "revoke", user: device)
        case .revokeLostDevices:
            Wire(command: "revoke-lost")
        case .mark(let space, let game, let player, let point, let shot):
            Wire(command: "mark", space: space, game: game, player: player, flag: shot, point: point)
        case .createInvite(let space, let uses, let seconds):
            Wire(command: "invite", space: space, uses: uses, seconds: seconds)
        case .sharedKeyInvite(let space):
            Wire(command: "shared-key-invite", space: space)
        case .revokeInvite(let text):
            Wire(command: "revoke-invite", text: text)
        case .removeMember(let space, let member):
            Wire(command: "remove", space: space, text: member)
        case .rotateKey(let space):
            Wire(command: "rotate", space: space)
        case .importBundle(let path):
            Wire(command: "import", text: path)
        case .sync(let space, let host, let port):
            Wire(command: "sync", space: space, seconds: port, text: host)
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
            self = .revokeDevice(try required(wire.user, "user"))
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
            self = .revokeInvite(try required(wire.text, "text"))
        case "remove":
            self = .removeMember(space: try space(), member: try required(wire.text, "text"))
        case "rotate":
            self = .rotateKey(space: try space())
        case "import":
            self = .importBundle(path: try required(wire.text, "text"))
        case "sync":
            self = .sync(space: try space(), host: try required(wire.text, "text"), port: try required(wire.seconds, "seconds"))
        default:
            throw .malformed(what: "command", "'\(wire.command)' is not a command this node runs: update caddie")
        }
    }
}

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
        }
    }

    init(wire: Wire) {
        let op = wire.device.flatMap { device in wire.seq.map { OpID(device: device, seq: $0) } }
        if let hash = wire.stateHash {
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
            .synced:
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

extension Home {
    /// Runs a command here, with these keys: the feature's checks, then its append.
    public func execute(_ command: NodeCommand, keys: UnlockedKeys) throws(NodeError) -> NodeCommandResult {
        switch command {
        case .score(let space, let game, let player, let hole, let entry, let seen):
            let made = try rounds.score(
                space: space, keys: keys, game: game, player: player, hole: hole, entry: entry, seen: seen)
            return made.replay ? .replayed(made.op) : .op(made.op)
        case .attest(let space, let game, let player):
            let (op, card) = try rounds.attestWithOp(space: space, keys: keys, game: game, player: player)
            return .attested(op, card: card)
        case .setFinished(let space, let game, let finished):
            return try rounds.setFinished(space: space, keys: keys, game: game, finished: finished).map { .op($0) } ?? .unchanged
        case .setInRoster(let space, let game, let player, let inRoster):
            let op =
                inRoster
                ? try rounds.addToRoster(space: space, keys: keys, game: game, player: player)
                : try rounds.removeFromRoster(space: space, keys: keys, game: game, player: player)
            return op.map { .op($0) } ?? .unchanged
        case .addPlayer(let space, let name, let user, let handicapIndex):
            return .player(try rounds.addPlayer(space: space, keys: keys, name: name, user: user, handicapIndex: handicapIndex))
        case .newGame(let space, let course, let tee, let players, let markers, let setup):
            return .game(
                try rounds.newGame(
                    space: space, keys: keys, course: course, tee: tee, players: players,
                    markers: markers.map { ($0.player, $0.marker) }, setup: setup))
        case .setup(let space, let game, let setup):
            return .op(try rounds.setupGame(space: space, keys: keys, game: game, setup: setup))
        case .editPlayer(let space, let player, let name, let handicapIndex, let clearIndex):
            let (_, op) = try rounds.editPlayerWithOp(
                space: space, keys: keys, player: player, name: name, handicapIndex: handicapIndex, clearIndex: clearIndex)
            return op.map { .op($0) } ?? .unchanged
        case .setDeleted(let space, let game, let deleted, let force):
            return .op(try rounds.deleteGame(space: space, keys: keys, game: game, force: force, restore: !deleted))
        case .setMarker(let space, let game, let pair):
            return .op(try rounds.setMarker(space: space, keys: keys, game: game, player: pair.player, marker: pair.marker))
        case .importCourses(let space, let read):
            return .courses(try courses.importCourses(space: space, keys: keys, read))
        case .revokeDevice(let device):
            return .revoked(spaces: try devices.revokeDevice(device, keys: keys), devices: [device])
        case .revokeLostDevices:
            guard try identity().recoveredAt != nil else {
                throw .refused(
                    "--lost is for a home made with `caddie login --recover`; revoke a device by its key instead "
                        + "(`caddie device list`)")
            }
            return .revoked(spaces: [], devices: try devices.revokeLostDevices(keys: keys))
        case .mark(let space, let game, let player, let point, let shot):
            let mark = try guidance.mark(
                space: space, keys: keys, game: game, player: player, point: point, kind: shot ? .shot : .fix)
            return .marked(hole: mark.hole)
        case .createInvite(let space, let uses, let seconds):
            return .invite(try spaces.createInvite(space: space, uses: uses, seconds: seconds, keys: keys).text)
        case .sharedKeyInvite(let space):
            return .invite(try spaces.sharedKeyInvite(space: space, keys: keys).text)
        case .revokeInvite(let text):
            return .inviteRevoked(try spaces.revokeInvite(text, keys: keys).id)
        case .removeMember(let space, let member):
            return .removed(try spaces.removeMember(space: space, user: member, keys: keys))
        case .rotateKey(let space):
            let rotation = try spaces.rotateKey(space: space, keys: keys)
            return .rotated(epoch: rotation.epoch, sealedTo: rotation.sealed.count)
        case .importBundle(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .file("cannot read \(path): check the path")
            }
            let report = try rounds.importBundle(keys: keys, bytes: [UInt8](data))
            return .imported(applied: report.applied.count, duplicates: report.duplicates)
        case .sync:
            throw .refused("a sync runs asynchronously: `executeAsync` runs it")
        }
    }

    /// Runs a command in the node running on this home, if one answers; else here, with the keys `unlock` opens
    /// (the passphrase and Argon2id are paid only then).
    public func run(_ command: NodeCommand, unlock: () throws -> UnlockedKeys) throws -> NodeCommandResult {
        if !servesWrites.withLock({ $0 }) {
            let reply: [UInt8]?
            do {
                guard let device = try identity().deviceKey else {
                    throw NodeError.file("identity.json names no valid device key: log in again in a new home")
                }
                reply = try ControlSocket.request(
                    path: controlSocketPath, command.encoded(device: device), replyTimeout: command.replyTimeoutSeconds)
            } catch let error as NodeError {
                throw error
            } catch {
                // The node took the command and did not answer (ControlSocket.Failure.noAnswer).
                throw NodeError.unreachable("\(error)")
            }
            // A node of an older caddie takes edits only (CTL1): the command runs here and hands it its edits.
            if let reply, !Self.isLegacyRefusal(reply) { return try NodeCommandResult.result(fromReply: reply) }
        }
        return try execute(command, keys: try unlock())
    }

    /// As ``run(_:unlock:)``, for a command that may run asynchronously here (a sync).
    public func runAsync(
        _ command: NodeCommand, logger: Logger, unlock: () throws -> UnlockedKeys
    ) async throws -> NodeCommandResult {
        if !servesWrites.withLock({ $0 }) {
            guard let device = try identity().deviceKey else {
                throw NodeError.file("identity.json names no valid device key: log in again in a new home")
            }
            let reply = try ControlSocket.request(
                path: controlSocketPath, command.encoded(device: device), replyTimeout: command.replyTimeoutSeconds)
            if let reply, !Self.isLegacyRefusal(reply) { return try NodeCommandResult.result(fromReply: reply) }
        }
        return try await executeAsync(command, keys: try unlock(), logger: logger)
    }

    /// Runs a command here: a sync on the network, any other as ``execute(_:keys:)`` does, off the caller's thread.
    public func executeAsync(_ command: NodeCommand, keys: UnlockedKeys, logger: Logger) async throws -> NodeCommandResult {
        guard case .sync(let space, let host, let port) = command else {
            return try await Task.detached { try self.execute(command, keys: keys) }.value
        }
        return try await syncOnce(space: space, host: host, port: port, keys: keys, logger: logger)
    }

    /// Syncs one space with one peer once, both ways. A recovered user's devices from before the recovery are then
    /// revoked (this home now holds what the group holds of them), and on the owner's devices a key that reached a
    /// removed member is replaced; either goes back to the peer at once.
    func syncOnce(space: SpaceID, host: String, port: Int, keys: UnlockedKeys, logger: Logger) async throws -> NodeCommandResult {
        let address = "\(host):\(port)"
        let node = try syncNode(keys: keys, logger: logger)
        let report = try await node.syncOnce(host: host, port: port, space: space)
        guard report.completed else {
            let text = "sync with \(address) failed: \(report.failure ?? "the session ended early")"
            throw report.refused ? NodeError.refused(text) : NodeError.unreachable(text)
        }
        let lost = try devices.revokeLostDevices(keys: keys, only: [space])
        let renewed = try spaces.renewExposedKey(space: space, keys: keys)
        var sent = report.sent
        if !lost.isEmpty || renewed != nil {
            let again = try await node.syncOnce(host: host, port: port, space: space)
            guard again.completed else {
                let text =
                    "the lost devices were revoked here, but sending that to \(address) failed: "
                    + "\(again.failure ?? "the session ended early"); run `caddie sync` again"
                throw again.refused ? NodeError.refused(text) : NodeError.unreachable(text)
            }
            sent += again.sent
        }
        return .synced(sent: sent, received: report.received, stateHash: try stateHash(space), revokedLost: lost)
    }

    /// Whether a reply is an older node's refusal of a command it does not read: one that takes edits only (CTL1),
    /// or one that runs commands but not this one (a command added since, or fields it cannot read). The command
    /// then runs here, and its edits still reach that node.
    static func isLegacyRefusal(_ reply: [UInt8]) -> Bool {
        guard reply.first == 1 else { return false }
        let text = String(decoding: reply.dropFirst(), as: UTF8.self)
        return ["does not start with CTL1", "is not a command this node runs", "the command's JSON does not read"]
            .contains { text.contains($0) }
    }
}
