import CaddieCore
import CaddieServices
import CaddieStore
import Foundation

/// What a game setup changes; nil leaves a setting as it is. The CLI and the API build one with the players as typed
/// (`GameSetup<String>`) and resolve it once (`RoundService.resolve(_:in:)`); the node takes it with player ids.
public struct GameSetup<Player: Sendable>: Sendable {
    /// The tee everybody plays from unless given their own.
    public var tee: String?
    /// Players' own tees (player, tee).
    public var playerTees: [(player: Player, tee: String)] = []
    /// The hole the game starts on.
    public var start: Int?
    /// How many holes, 9 or 18.
    public var holes: Int?
    /// The formats, by name.
    public var formats: [String]?
    /// "net" or "gross" skins.
    public var skins: String?
    /// Whether skins must be validated on the next hole.
    public var skinsValidation: Bool?
    /// The two sides of the match and Nassau, each a list of players.
    public var teams: [[Player]]?
    /// The stake per unit; 0 clears it.
    public var stake: Double?
    /// Choices entered on holes beyond strokes (the Wolf's partner, Bingo Bango Bongo's points).
    public var entries: [HoleEntryChange<Player>] = []

    /// An empty setup: changes nothing.
    public init() {}

    /// Whether it changes anything.
    public var isEmpty: Bool {
        tee == nil && playerTees.isEmpty && start == nil && holes == nil && formats == nil && skins == nil
            && skinsValidation == nil && teams == nil && stake == nil && entries.isEmpty
    }

    /// The same setup with each player replaced by `transform`'s answer.
    public func map<Other>(_ transform: (Player) throws(NodeError) -> Other) throws(NodeError) -> GameSetup<Other> {
        var other = GameSetup<Other>()
        (other.tee, other.start, other.holes, other.formats) = (tee, start, holes, formats)
        (other.skins, other.skinsValidation, other.stake) = (skins, skinsValidation, stake)
        other.playerTees = try playerTees.map { pair throws(NodeError) in (try transform(pair.player), pair.tee) }
        other.teams = try teams?.map { side throws(NodeError) in try side.map(transform) }
        other.entries = try entries.map { entry throws(NodeError) in
            HoleEntryChange(
                hole: entry.hole, key: entry.key, player: try entry.player.map(transform), lone: entry.lone)
        }
        return other
    }
}

/// A choice entered on a hole: `hole 7, wolf = Kim`, `wolf = lone`, or cleared (no player, not lone).
public struct HoleEntryChange<Player: Sendable>: Sendable {
    /// The hole number.
    public var hole: Int
    /// The entry's key, as its format names it ("wolf", "bingo").
    public var key: String
    /// The player chosen, or nil.
    public var player: Player?
    /// Whether the choice is "alone" (the Wolf without a partner).
    public var lone: Bool

    /// Creates a change.
    public init(hole: Int, key: String, player: Player?, lone: Bool = false) {
        self.hole = hole
        self.key = key
        self.player = player
        self.lone = lone
    }
}

extension HoleEntryChange: Equatable where Player: Equatable {}
extension HoleEntryChange: Codable where Player: Codable {
    enum CodingKeys: String, CodingKey { case hole, key, player, lone }

    /// Reads `{"hole": 7, "key": "wolf", "player": ...}` or `{"hole": 7, "key": "wolf", "lone": true}`; with
    /// neither, the entry is cleared.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hole = try container.decode(Int.self, forKey: .hole)
        key = try container.decode(String.self, forKey: .key)
        player = try container.decodeIfPresent(Player.self, forKey: .player)
        lone = try container.decodeIfPresent(Bool.self, forKey: .lone) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hole, forKey: .hole)
        try container.encode(key, forKey: .key)
        try container.encodeIfPresent(player, forKey: .player)
        if lone { try container.encode(true, forKey: .lone) }
    }
}

extension RoundService {
    // MARK: Setup

    /// A setup as typed, each player resolved once (an id, an id prefix or a name; spaces around it ignored).
    public func resolve(_ setup: GameSetup<String>, in space: SpaceID) throws(NodeError) -> GameSetup<PlayerID> {
        let everyone = try players(space)
        return try setup.map { text throws(NodeError) in
            try resolve(
                text.trimmingCharacters(in: .whitespaces), in: everyone, what: "player", list: .players,
                id: \.id, name: \.name
            ).id
        }
    }

    /// The fields a setup writes, checked against the course, the roster and the scores already entered
    /// (``SetupCheck``).
    func setupFields(
        space: SpaceID, course: CourseRecord, game: GameRecord?, roster: [PlayerID], setup: GameSetup<PlayerID>
    )
        throws(NodeError) -> [String: FieldValue]
    {
        let everyone = Dictionary(try players(space).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let scored: Set<PlayerID>
        if let game {
            scored = Set(try run { try store.cells(space, game: game.id) }.map(\.player))
        } else {
            scored = []
        }
        let check = SetupCheck(course: course, game: game, roster: roster, setup: setup, everyone: everyone, scored: scored)
        var fields: [String: FieldValue] = [:]
        try check.tees(into: &fields)
        try check.holes(into: &fields)
        try check.formats(into: &fields)
        try check.sides(into: &fields)
        try check.entries(into: &fields)
        return fields
    }

    /// Changes a game's setup: tees, holes, start, formats, teams, stake.
    /// Returns the op signed.
    @discardableResult
    func setupGame(
        space: SpaceID, keys: UnlockedKeys, game: GameID, setup: GameSetup<PlayerID>
    ) throws(NodeError)
        -> OpID
    {
        let fields = try setupChanges(space: space, game: game, setup: setup)
        return try append(space: space, keys: keys, changes: [.set(game, fields: fields)]).id
    }

    /// The fields a setup of the game writes, checked against the course, the roster and the scores already entered,
    /// without signing anything: ``setupGame(space:keys:game:setup:)`` signs them, and a command calls this first to
    /// refuse a mistake before it asks for the passphrase.
    public func setupChanges(space: SpaceID, game: GameID, setup: GameSetup<PlayerID>) throws(NodeError) -> [String: FieldValue] {
        guard !setup.isEmpty else {
            throw .badInput(.setupChange, "is needed to say what to change")
        }
        let game = try self.game(space, game)
        try requireGroupCommittee(space, game)
        guard !game.finished else {
            throw .conflict("game \(game.id.short) is finished", .reopen(game.id, then: .first))
        }
        guard let course = try courses.course(of: game, in: space) else {
            throw .notFound("the course of game \(game.id.short) has not arrived yet: sync with the home that imported it")
        }
        let roster = try run { try store.roster(space, game: game.id) }
        return try setupFields(space: space, course: course, game: game, roster: roster, setup: setup)
    }

    /// Deletes a game created by mistake (or restores it): it leaves the game list, its ops stay in the log.
    /// A game with scores is deleted only with `force`. Returns the op that set the flag.
    @discardableResult
    func deleteGame(
        space: SpaceID, keys: UnlockedKeys, game: GameID, force: Bool, restore: Bool = false
    )
        throws(NodeError) -> OpID
    {
        let game = try self.game(space, game, includeDeleted: true)
        try requireGroupCommittee(space, game)
        if restore {
            guard game.deleted else { throw .conflict("game \(game.id.short) is not deleted") }
        } else {
            guard !game.deleted else { throw .conflict("game \(game.id.short) is already deleted") }
            let scores = try run { try store.cells(space, game: game.id) }.count
            if scores > 0, !force {
                throw .conflict(
                    "game \(game.id.short) has \(scores) scores",
                    .deleteByForce)
            }
        }
        return try append(space: space, keys: keys, changes: [.set(game.id, fields: ["deleted": .integer(restore ? 0 : 1)])]).id
    }

    // MARK: Players

    /// Edits a player: a new name, a new entered Handicap Index, or clears the index (`clearIndex`).
    func editPlayer(
        space: SpaceID, keys: UnlockedKeys, player: PlayerID, name: String?, handicapIndex: Double?,
        clearIndex: Bool = false
    ) throws(NodeError) -> PlayerRecord {
        try editPlayerWithOp(
            space: space, keys: keys, player: player, name: name, handicapIndex: handicapIndex, clearIndex: clearIndex
        ).player
    }

    /// As ``editPlayer(space:keys:player:name:handicapIndex:clearIndex:)``, with the op signed (nil when the player
    /// already was so).
    func editPlayerWithOp(
        space: SpaceID, keys: UnlockedKeys, player: PlayerID, name: String?, handicapIndex: Double?, clearIndex: Bool
    ) throws(NodeError) -> (player: PlayerRecord, op: OpID?) {
        let player = try self.player(space, player)
        var fields: [String: FieldValue] = [:]
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { throw .badInput(.name, "must be 1...64 characters") }
            if let same = try players(space).first(where: {
                $0.id != player.id && $0.name.caseInsensitiveCompare(trimmed) == .orderedSame
            }) {
                throw .badInput(
                    .name,
                    "is taken: a player named \(same.name) is already in this space (id \(same.id.hex)): choose a name "
                        + "that tells the two apart")
            }
            if trimmed != player.name { fields["name"] = .text(trimmed) }
        }
        if clearIndex, handicapIndex != nil {
            throw .badInput(.clearIndex, "clears the index: give an index or clear it, not both")
        }
        if let handicapIndex {
            guard Handicap.handicapIndexRange.contains(handicapIndex) else {
                throw .badInput(
                    .index,
                    "is wrong: a Handicap Index must be between +\(Int(-Handicap.handicapIndexRange.lowerBound)) "
                        + "(written as a negative number) and 54.0, got \(handicapIndex)")
            }
            if handicapIndex != player.handicapIndex { fields["index"] = .number(handicapIndex) }
        }
        if clearIndex, player.handicapIndex != nil { fields["index"] = .null }
        guard !fields.isEmpty else {
            if name == nil, handicapIndex == nil, !clearIndex {
                throw .badInput(.playerChange, "is needed to say what to change")
            }
            return (player, nil)  // already so: no op to sign
        }
        let op = try append(space: space, keys: keys, changes: [.set(player.id, fields: fields)])
        return (try self.player(space, player.id), op.id)
    }
}

/// A game's setup as JSON, every field optional: the HTTP API's body (players as typed) and the control socket's
/// (players as ids) are this one form.
public struct GameSetupForm<Player: Codable & Sendable>: Codable, Sendable {
    public struct PlayerTee: Codable, Sendable {
        public var player: Player
        public var tee: String
    }

    public var tee: String?
    public var playerTees: [PlayerTee]?
    public var startHole: Int?
    public var holesPlayed: Int?
    public var formats: [String]?
    public var skins: String?
    public var skinsValidation: Bool?
    public var teams: [[Player]]?
    public var stake: Double?
    public var entries: [HoleEntryChange<Player>]?

    /// The form of a setup.
    public init(_ setup: GameSetup<Player>) {
        (tee, startHole, holesPlayed, formats, skins) = (setup.tee, setup.start, setup.holes, setup.formats, setup.skins)
        (skinsValidation, teams, stake) = (setup.skinsValidation, setup.teams, setup.stake)
        entries = setup.entries.isEmpty ? nil : setup.entries
        playerTees = setup.playerTees.isEmpty ? nil : setup.playerTees.map { PlayerTee(player: $0.player, tee: $0.tee) }
    }

    /// The setup this form says.
    public var setup: GameSetup<Player> {
        var setup = GameSetup<Player>()
        (setup.tee, setup.start, setup.holes, setup.formats, setup.skins) = (tee, startHole, holesPlayed, formats, skins)
        (setup.skinsValidation, setup.teams, setup.stake) = (skinsValidation, teams, stake)
        setup.entries = entries ?? []
        setup.playerTees = (playerTees ?? []).map { ($0.player, $0.tee) }
        return setup
    }
}

/// A setup as JSON: its form (``GameSetupForm``).
extension GameSetup: Codable where Player: Codable {
    public init(from decoder: any Decoder) throws { self = try GameSetupForm<Player>(from: decoder).setup }
    public func encode(to encoder: any Encoder) throws { try GameSetupForm(self).encode(to: encoder) }
}

extension GameSetup: Equatable where Player: Equatable {
    /// Whether two setups change the same settings the same way.
    public static func == (a: GameSetup, b: GameSetup) -> Bool {
        a.tee == b.tee && a.start == b.start && a.holes == b.holes && a.formats == b.formats && a.skins == b.skins
            && a.skinsValidation == b.skinsValidation && a.teams == b.teams && a.stake == b.stake && a.entries == b.entries
            && a.playerTees.map(\.player) == b.playerTees.map(\.player) && a.playerTees.map(\.tee) == b.playerTees.map(\.tee)
    }
}
