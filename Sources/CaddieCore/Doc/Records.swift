/// A player as the merged state has them.
public struct PlayerRecord: Hashable, Sendable {
    /// The player's id.
    public let id: PlayerID
    /// Display name.
    public let name: String
    /// The user who is this player, when linked.
    public let user: PublicKey?
    /// A Handicap Index entered by hand (the handicap service computes one from finished games).
    public let handicapIndex: Double?

    /// Reads a player from its last-writer-wins fields.
    public init(id: PlayerID, fields: [String: FieldValue]) {
        self.id = id
        name = fields["name"]?.text ?? "player \(id.short)"
        if case .bytes(let bytes)? = fields["user"] { user = PublicKey(bytes: bytes) } else { user = nil }
        handicapIndex = fields["index"]?.number
    }

    /// The fields that create a player.
    public static func fields(name: String, user: PublicKey?, handicapIndex: Double?) -> [String: FieldValue] {
        var fields: [String: FieldValue] = ["name": .text(name)]
        if let user { fields["user"] = .bytes(user.bytes) }
        if let handicapIndex { fields["index"] = .number(handicapIndex) }
        return fields
    }
}

/// A game as the merged state has it.
public struct GameRecord: Hashable, Sendable {
    /// The game's id.
    public let id: GameID
    /// The course played.
    public let course: CourseID?
    /// The tee played from.
    public let tee: String
    /// When it was created (ms since 1970).
    public let createdAt: UInt64
    /// Whether the last finish/reopen was a finish.
    public let finished: Bool
    /// Who marks whom: each player's marker (another player of the game), where the group said so. Each is its
    /// own last-writer-wins field, `marker.<player id>`, holding the marker's player id.
    public let markers: [PlayerID: PlayerID]
    /// Each player's own tee where it differs from `tee` (`tee.<player id>` fields).
    public let playerTees: [PlayerID: String]
    /// Each player's team for match play and the Nassau, "A" or "B" (`team.<player id>` fields).
    public let teams: [PlayerID: String]
    /// The hole the game starts on (a shotgun start may start on any): 1 unless set.
    public let startHole: Int
    /// How many holes are played, 9 or 18; nil plays every hole of the course.
    public let holesPlayed: Int?
    /// The formats played, as their names (`stroke`, `stableford`, `match`, `skins`, `nassau`); empty means
    /// stroke play and Stableford, as before formats existed.
    public let formats: [String]
    /// Whether skins are played on gross scores (otherwise net).
    public let grossSkins: Bool
    /// Whether a skin must be validated on the next hole.
    public let skinsValidation: Bool
    /// The stake per unit (a skin, a bet), when the group settles up.
    public let stake: Double?
    /// Whether the game was deleted (created by mistake); its ops stay in the log.
    public let deleted: Bool
    /// The competition this game is a group of (its `competition` field), if any.
    public let competition: CompetitionID?
    /// Choices entered on holes beyond strokes, by hole number and then key ("wolf", "bingo"): each its own
    /// last-writer-wins field, `hole.<number>.<key>`, holding a player id, or "lone".
    public let holeEntries: [Int: [String: HoleEntry]]

    /// A choice entered on a hole: a player, or alone (the Wolf without a partner).
    public enum HoleEntry: Hashable, Sendable {
        case player(PlayerID)
        case lone
    }

    /// The field that holds a player's marker.
    public static func markerField(_ player: PlayerID) -> String { "marker." + player.hex }
    /// The field that holds a player's own tee.
    public static func teeField(_ player: PlayerID) -> String { "tee." + player.hex }
    /// The field that holds a player's team.
    public static func teamField(_ player: PlayerID) -> String { "team." + player.hex }
    /// The field that holds a hole's entry of one key.
    public static func holeEntryField(hole: Int, key: String) -> String { "hole.\(hole).\(key)" }

    /// The tee a player plays from.
    public func tee(of player: PlayerID) -> String { playerTees[player] ?? tee }

    /// Reads a game from its last-writer-wins fields.
    public init(id: GameID, fields: [String: FieldValue]) {
        self.id = id
        func player(_ name: String, _ prefix: String) -> PlayerID? {
            guard name.hasPrefix(prefix) else { return nil }
            return Hex.decode(String(name.dropFirst(prefix.count))).flatMap(PlayerID.init(bytes:))
        }
        var markers: [PlayerID: PlayerID] = [:]
        var tees: [PlayerID: String] = [:]
        var teams: [PlayerID: String] = [:]
        var entries: [Int: [String: HoleEntry]] = [:]
        for (name, value) in fields {
            if let id = player(name, "marker."), case .bytes(let bytes) = value, let marker = PlayerID(bytes: bytes) {
                markers[id] = marker
            } else if let id = player(name, "tee."), let text = value.text, !text.isEmpty {
                tees[id] = text
            } else if let id = player(name, "team."), let text = value.text, !text.isEmpty {
                teams[id] = text
            } else if name.hasPrefix("hole.") {
                let parts = name.split(separator: ".", maxSplits: 2)
                guard parts.count == 3, let hole = Int(parts[1]), (1...36).contains(hole) else { continue }
                if case .bytes(let bytes) = value, let chosen = PlayerID(bytes: bytes) {
                    entries[hole, default: [:]][String(parts[2])] = .player(chosen)
                } else if value.text == "lone" {
                    entries[hole, default: [:]][String(parts[2])] = .lone
                }
            }
        }
        holeEntries = entries
        self.markers = markers
        playerTees = tees
        self.teams = teams
        startHole = Int(clamping: max(1, min(36, fields["start"]?.integer ?? 1)))
        holesPlayed = fields["holes"]?.integer.flatMap { $0 == 9 || $0 == 18 ? Int($0) : nil }
        formats = (fields["formats"]?.text ?? "").split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
        grossSkins = fields["skins"]?.text == "gross"
        skinsValidation = (fields["skins.validate"]?.integer ?? 0) != 0
        stake = fields["stake"]?.number.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        deleted = (fields["deleted"]?.integer ?? 0) != 0
        if case .bytes(let bytes)? = fields["course"] { course = CourseID(bytes: bytes) } else { course = nil }
        if case .bytes(let bytes)? = fields["competition"] {
            competition = CompetitionID(bytes: bytes)
        } else {
            competition = nil
        }
        tee = fields["tee"]?.text ?? ""
        createdAt = UInt64(max(0, fields["created"]?.integer ?? 0))
        finished = (fields["finished"]?.integer ?? 0) != 0
    }

    /// The fields that create a game.
    public static func fields(course: CourseID, tee: String, createdAt: UInt64) -> [String: FieldValue] {
        [
            "course": .bytes(course.bytes), "tee": .text(tee), "created": .integer(Int64(clamping: createdAt)),
            "finished": .integer(0),
        ]
    }
}

/// One value of a score cell, with who entered it.
public struct ScoreValue: Hashable, Sendable {
    /// The op that entered it.
    public let op: OpID
    /// When.
    public let hlc: HLC
    /// Strokes, putts, penalties.
    public let entry: ScoreEntry
    /// The name of the user whose device entered it.
    public let author: String

    /// Creates a value.
    public init(op: OpID, hlc: HLC, entry: ScoreEntry, author: String) {
        self.op = op
        self.hlc = hlc
        self.entry = entry
        self.author = author
    }

    /// Orders values for the deterministic winner: later clock, then larger device key, then larger seq.
    public static func shownBefore(_ lhs: ScoreValue, _ rhs: ScoreValue) -> Bool {
        if lhs.hlc != rhs.hlc { return lhs.hlc > rhs.hlc }
        if lhs.op.device != rhs.op.device { return lhs.op.device > rhs.op.device }
        return lhs.op.seq > rhs.op.seq
    }
}

/// A score cell: every concurrent value still standing, and the one shown.
public struct ScoreCell: Hashable, Sendable {
    /// The player.
    public let player: PlayerID
    /// The hole.
    public let hole: Int
    /// The values not superseded by any other op, the shown one first.
    public let values: [ScoreValue]

    /// Creates a cell, ordering its values so the winner comes first.
    public init(player: PlayerID, hole: Int, values: [ScoreValue]) {
        self.player = player
        self.hole = hole
        self.values = values.sorted(by: ScoreValue.shownBefore)
    }

    /// The value shown on the card.
    public var winner: ScoreValue? { values.first }
    /// Whether concurrent values disagree and wait for someone to settle them. Two markers who entered the
    /// same strokes, putts and penalties without seeing each other agree: both values stay, but nothing is
    /// in dispute.
    public var isConflict: Bool { Set(values.map(\.entry)).count > 1 }
}

/// A club competition (docs/competitions.md): what the committee chose, as last-writer-wins fields. Its groups are
/// the games whose `competition` field names it; the board is computed from their cards like any standings.
public struct CompetitionRecord: Hashable, Sendable {
    /// The competition's id.
    public let id: CompetitionID
    /// Its name, e.g. "Saturday Medal".
    public let name: String
    /// When it was created (ms since 1970).
    public let createdAt: UInt64
    /// `net`, `gross` or `stableford`, as typed (the node reads it; an unknown value reads as Stableford).
    public let scoring: String
    /// The countback policy's name (`r-and-a` unless set).
    public let countback: String
    /// The handicap allowance, percent of the Course Handicap.
    public let allowance: Int
    /// The highest Playing Handicap of each division but the last, ascending; empty: one division.
    public let divisions: [Int]
    /// Whether the twos are shared per division.
    public let twosByDivision: Bool
    /// Whether the committee closed it (`closed` 1): its groups' games were finished with it.
    public let closed: Bool
    /// Whether the committee lets anyone who reaches a node of the space see the board, with no sign-in (`public`
    /// 1): the clubhouse TV and spectators' phones.
    public let publicBoard: Bool
    /// How many of each card's last holes (in the order the player plays them) a public board leaves out (`hide`,
    /// 0-9), so that the finish stays a surprise.
    public let hiddenHoles: Int
    /// What the committee marked of a player: "NR" or "DQ" (`status.<player id>` fields; an empty text clears it).
    public let statuses: [PlayerID: String]
    /// The entry list as imported (`entry.<player id>` fields; an empty text clears one).
    public let entries: [PlayerID: Entry]
    /// The committee's corrections, each with its reason (`correction.<game id>.<player id>.<hole>` fields, written in
    /// the op that carries the corrected score), by game, player and hole.
    public let corrections: [Correction]

    /// A score the committee corrected, and why.
    public struct Correction: Hashable, Sendable {
        public let game: GameID
        public let player: PlayerID
        public let hole: Int
        public let reason: String
    }

    /// The field that holds the reason of a correction.
    public static func correctionField(game: GameID, player: PlayerID, hole: Int) -> String {
        "correction.\(game.hex).\(player.hex).\(hole)"
    }

    /// One entrant of the list: their place in it, the Handicap Index frozen at the import, their tee, the
    /// division and club id the list gave. Stored as one text field, tab-separated, so an entrant changes whole.
    public struct Entry: Hashable, Sendable {
        public let order: Int
        public let index: Double
        public let tee: String
        public let division: String?
        public let club: String?

        public init(order: Int, index: Double, tee: String, division: String?, club: String?) {
            self.order = order
            self.index = index
            self.tee = tee
            self.division = division
            self.club = club
        }

        /// The field's text.
        public var text: String {
            [String(order), String(index), tee, division ?? "", club ?? ""].joined(separator: "\t")
        }

        /// An entry from its field's text; nil for anything else.
        public init?(text: String) {
            let parts = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 5, let order = Int(parts[0]), let index = Double(parts[1]), index.isFinite,
                !parts[2].isEmpty
            else { return nil }
            self.init(
                order: order, index: index, tee: parts[2], division: parts[3].isEmpty ? nil : parts[3],
                club: parts[4].isEmpty ? nil : parts[4])
        }
    }

    /// The most holes a public board hides.
    public static let maxHiddenHoles = 9

    /// The field that holds a player's entry.
    public static func entryField(_ player: PlayerID) -> String { "entry." + player.hex }

    /// The field that holds a player's status.
    public static func statusField(_ player: PlayerID) -> String { "status." + player.hex }

    /// The users the creator named to the committee beside themselves: `committee.<the user key's first 8 bytes, hex>`
    /// fields holding the whole key while named, empty bytes once taken off (a field name has at most 64 bytes).
    public let committee: Set<PublicKey>

    /// The user who created it, where its id proves it (`owner`, with `ownerSalt`: a competition this version made);
    /// nil for one an earlier version made, whose creator is the writer of its `created` field.
    public let owner: PublicKey?

    /// The field that names a user to the committee.
    public static func committeeField(_ user: PublicKey) -> String { "committee." + Hex.encode(Array(user.bytes.prefix(8))) }

    /// Reads a competition from its fields.
    public init(id: CompetitionID, fields: [String: FieldValue]) {
        self.id = id
        name = fields["name"]?.text ?? ""
        createdAt = UInt64(max(0, fields["created"]?.integer ?? 0))
        scoring = fields["scoring"]?.text ?? "stableford"
        countback = fields["countback"]?.text ?? "r-and-a"
        allowance = Int(clamping: min(100, max(1, fields["allowance"]?.integer ?? 95)))
        divisions = (fields["divisions"]?.text ?? "").split(separator: ",").compactMap { Int($0) }.sorted()
        twosByDivision = fields["twos"]?.text == "division"
        closed = (fields["closed"]?.integer ?? 0) != 0
        publicBoard = (fields["public"]?.integer ?? 0) != 0
        hiddenHoles = Int(clamping: min(Int64(Self.maxHiddenHoles), max(0, fields["hide"]?.integer ?? 0)))
        var statuses: [PlayerID: String] = [:]
        var entries: [PlayerID: Entry] = [:]
        for (name, value) in fields {
            for prefix in ["status.", "entry."] where name.hasPrefix(prefix) {
                guard let player = Hex.decode(String(name.dropFirst(prefix.count))).flatMap(PlayerID.init(bytes:)),
                    let text = value.text, !text.isEmpty
                else { continue }
                if prefix == "status." { statuses[player] = text } else { entries[player] = Entry(text: text) }
            }
        }
        self.statuses = statuses
        self.entries = entries
        if case .bytes(let bytes)? = fields["owner"] { owner = PublicKey(bytes: bytes) } else { owner = nil }
        committee = Set(
            fields.compactMap { name, value in
                guard case .bytes(let bytes) = value, let user = PublicKey(bytes: bytes), Self.committeeField(user) == name
                else { return nil }
                return user
            })
        corrections = fields.compactMap { name, value -> Correction? in
            let parts = name.split(separator: ".")
            guard parts.count == 4, parts[0] == "correction",
                let game = Hex.decode(String(parts[1])).flatMap(GameID.init(bytes:)),
                let player = Hex.decode(String(parts[2])).flatMap(PlayerID.init(bytes:)), let hole = Int(parts[3]),
                let reason = value.text, !reason.isEmpty
            else { return nil }
            return Correction(game: game, player: player, hole: hole, reason: reason)
        }.sorted { ($0.game, $0.player, $0.hole) < ($1.game, $1.player, $1.hole) }
    }

    /// The fields that create a competition: `owner` and `ownerSalt` are its creator's user key and the salt that
    /// hashes it to the competition's id (Membership.ownedCompetitionID).
    public static func fields(
        owner: PublicKey, ownerSalt: [UInt8], name: String, createdAt: UInt64, scoring: String, countback: String,
        allowance: Int, divisions: [Int], twosByDivision: Bool
    ) -> [String: FieldValue] {
        [
            "owner": .bytes(owner.bytes), "ownerSalt": .bytes(ownerSalt),
            "name": .text(name), "created": .integer(Int64(clamping: createdAt)), "scoring": .text(scoring),
            "countback": .text(countback), "allowance": .integer(Int64(allowance)),
            "divisions": .text(divisions.map(String.init).joined(separator: ",")),
            "twos": .text(twosByDivision ? "division" : "field"),
        ]
    }
}
