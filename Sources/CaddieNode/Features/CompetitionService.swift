import CaddieCore
import CaddieCrypto
import CaddieServices
import Foundation

/// Club competitions (docs/competitions.md): a competition is a record of what the committee chose; its groups are
/// games that name it; its board is computed from their merged cards, like a game's standings.
public struct CompetitionService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any CompetitionStore { home.store }
}

/// One entrant of a board: who, in which group.
public struct BoardEntrant: Sendable, Equatable {
    /// The player.
    public let player: PlayerRecord
    /// The group's game.
    public let game: GameID
    /// The hole the group started on.
    public let startHole: Int
}

/// A competition's draw, group by group.
public struct DrawSheet: Sendable {
    /// One player of a group.
    public struct Player: Sendable {
        public let player: PlayerRecord
        public let tee: String
        /// The index they play off: the entry list's, else their own entered one.
        public let index: Double?
        /// Their marker's name, from the draw.
        public let marker: String?
    }

    /// One group.
    public struct Group: Sendable {
        public let game: GameID
        public let label: String
        public let startHole: Int
        public let teeTime: String?
        public let players: [Player]
    }

    public let competition: CompetitionRecord
    /// Entrants on the list.
    public let entries: Int
    /// The committee by name: its creator, then the members they named.
    public var committee: [String] = []
    /// The groups, by tee time, then start hole.
    public let groups: [Group]
}

extension CompetitionService {
    /// The competitions of a space, newest first.
    public func competitions(_ space: SpaceID) throws(NodeError) -> [CompetitionRecord] {
        try run { try store.all(space, CompetitionRecord.self) }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    /// The competition meant by `text`: an id, an id prefix or a name.
    public func resolveCompetition(_ space: SpaceID, _ text: String) throws(NodeError) -> CompetitionRecord {
        try resolve(
            text, in: try competitions(space), what: "competition", list: .competitions, id: \.id,
            name: \.name)
    }

    /// The competition with this id.
    public func competition(_ space: SpaceID, _ id: CompetitionID) throws(NodeError) -> CompetitionRecord {
        guard let record: CompetitionRecord = try run({ try store.one(space, id) }) else {
            throw .notFound(
                "no competition \(id.short) in this space", .list(.competitions))
        }
        return record
    }

    /// What the committee chose, read from the record. A value this version does not know (set by a newer one) is
    /// refused rather than guessed.
    public static func settings(of record: CompetitionRecord) throws(NodeError) -> Competition.Settings {
        guard let scoring = Competition.Scoring(rawValue: record.scoring) else {
            throw .conflict(
                "competition \(record.name) is scored '\(record.scoring)', which this version of Caddie does not "
                    + "know: update Caddie")
        }
        guard let countback = Competition.Countback(rawValue: record.countback) else {
            throw .conflict(
                "competition \(record.name) decides ties by '\(record.countback)', which this version of Caddie "
                    + "does not know: update Caddie")
        }
        return Competition.Settings(
            scoring: scoring, countback: countback, allowance: record.allowance, divisions: record.divisions,
            twosByDivision: record.twosByDivision)
    }

    /// Creates a competition.
    func newCompetition(
        space: SpaceID, keys: UnlockedKeys, name: String, settings: Competition.Settings
    ) throws(NodeError) -> CompetitionID {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw .badInput(.competitionName, "is blank: give the competition a name")
        }
        guard trimmed.utf8.count <= 80 else {
            throw .badInput(
                .competitionName, "is \(trimmed.utf8.count) bytes: at most 80")
        }
        guard (1...100).contains(settings.allowance) else {
            throw .badInput(
                .allowance,
                "is \(settings.allowance)%: give a percentage of the Course Handicap from 1 to 100 (95 for individual "
                    + "stroke play and Stableford)")
        }
        let divisions = settings.divisions
        guard divisions == divisions.sorted(), Set(divisions).count == divisions.count,
            divisions.allSatisfy({ (-10...54).contains($0) }), divisions.count <= 8
        else {
            throw .badInput(
                .divisions,
                "must be up to 8 Playing Handicaps from -10 to 54, ascending, each the highest of its division "
                    + "(12,20 makes up to 12, 13-20 and 21+)")
        }
        // The id names the creator (as a space's names its owner): every node then counts the record's writes of
        // the creator and the members they name only (Materializer+Committee.swift).
        guard let creator = keys.user?.publicKey else {
            throw .refused(
                "this device does not hold your user key, which a competition's id is made from: create it on the "
                    + "device you made your user on")
        }
        let salt = SecureRandom.bytes(16)
        let id = CompetitionID(Membership.ownedCompetitionID(owner: creator, salt: salt))
        let fields = CompetitionRecord.fields(
            owner: creator, ownerSalt: salt, name: trimmed, createdAt: Home.now(), scoring: settings.scoring.rawValue,
            countback: settings.countback.rawValue, allowance: settings.allowance, divisions: divisions,
            twosByDivision: settings.twosByDivision)
        try append(space: space, keys: keys, changes: [.set(id, fields: fields)])
        return id
    }

    /// Makes games groups of a competition (`add`), or takes them out of it: one op.
    func setGroups(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, games: [GameID], add: Bool
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        try refuseIfClosed(record)
        guard !games.isEmpty else {
            throw .badInput(.games, "are missing: name at least one game")
        }
        var changes: [Change] = []
        for id in Set(games).sorted() {
            let game = try rounds.game(space, id)
            if add {
                if let other = game.competition, other != competition {
                    let name = (try? self.competition(space, other).name) ?? other.short
                    throw .conflict(
                        "game \(id.short) is a group of competition \(name): take it out of that one first "
                            + "(`caddie competition remove`)")
                }
                changes.append(.set(id, fields: ["competition": .bytes(competition.bytes)]))
            } else {
                guard game.competition == competition else {
                    throw .conflict("game \(id.short) is not a group of competition \(record.name)")
                }
                changes.append(.set(id, fields: ["competition": .null]))
            }
        }
        return try append(space: space, keys: keys, changes: changes).id
    }

    /// The committee closes the competition: every group's game finished (so each card enters its player's
    /// handicap record, as any finished game does) and the competition marked closed, in one op; or reopens it
    /// (the games stay finished: `caddie game reopen` reopens one to correct it).
    func setClosed(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, closed: Bool
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        guard record.closed != closed else {
            throw .conflict("\(record.name) is \(closed ? "closed" : "open") already")
        }
        var changes: [Change] = [.set(competition, fields: ["closed": .integer(closed ? 1 : 0)])]
        if closed {
            let groups = try rounds.games(space).filter { $0.competition == competition }
            guard !groups.isEmpty else {
                throw .conflict("\(record.name) has no groups: there is nothing to close")
            }
            for game in groups where !game.finished { changes.append(.set(game.id, fields: ["finished": .integer(1)])) }
        }
        return try append(space: space, keys: keys, changes: changes).id
    }

    /// Refuses a change to the field or the draw of a closed competition.
    func refuseIfClosed(_ record: CompetitionRecord) throws(NodeError) {
        guard !record.closed else {
            throw .conflict(
                "\(record.name) is closed: reopen it first (`caddie competition close \(record.id.short) --reopen`)")
        }
    }

    /// The committee marks a player of the competition no return or disqualified, or clears the mark (nil).
    func setStatus(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, player: PlayerID, status: Competition.Status?
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        let groups = try rounds.games(space).filter { $0.competition == competition }
        var entered = false
        for game in groups {
            if try run({ try store.roster(space, game: game.id) }).contains(player) { entered = true }
        }
        guard entered else {
            let name = (try? rounds.player(space, player).name) ?? player.short
            throw .conflict(
                "\(name) plays in none of the groups of competition \(record.name): add their game "
                    + "(`caddie competition add`)")
        }
        return try append(
            space: space, keys: keys,
            changes: [
                .set(competition, fields: [CompetitionRecord.statusField(player): .text(status?.rawValue ?? "")])
            ]
        ).id
    }

    /// The longest reason a correction takes.
    public static let maxReason = 200

    /// The committee corrects a player's score on a hole, with its reason: the score, superseding every value the
    /// cell shows (a dispute is settled by it), and the reason on the competition's record, in two ops committed
    /// together, the audit showing both. The committee may correct a card of a closed competition or a finished game: verifying
    /// cards after the round is its work.
    func correct(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, player: PlayerID, hole: Int, entry: ScoreEntry,
        reason: String
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty, reason.count <= Self.maxReason, !reason.contains(where: \.isNewline) else {
            throw .badInput(
                .reason,
                reason.isEmpty
                    ? "is missing: a committee's correction says why, e.g. --reason \"marker's card: 5, not 4\""
                    : "must be one line of at most \(Self.maxReason) characters")
        }
        let named = try rounds.player(space, player)
        var group: GameRecord?
        for game in try rounds.games(space) where game.competition == competition {
            if try run({ try store.roster(space, game: game.id) }).contains(player) { group = game }
        }
        guard let group else {
            throw .conflict(
                "\(named.name) plays in none of the groups of competition \(record.name): add their game "
                    + "(`caddie competition add`)")
        }
        try rounds.checkHole(hole, of: group, space: space)
        let shown = try rounds.shownValues(space: space, game: group.id, player: player, hole: hole)
        // A score travels alone in its op (Protocol/op-format.md): the score, then the reason, two ops of this device
        // committed together, so no peer holds the one without the other.
        let ops = try home.appendEdits(
            space: space, keys: keys,
            edits: [
                .init(changes: [.score(game: group.id, player: player, hole: hole, entry: entry)], pred: shown),
                .init(
                    changes: [
                        .set(
                            competition,
                            fields: [
                                CompetitionRecord.correctionField(game: group.id, player: player, hole: hole): .text(reason)
                            ])
                    ], pred: []),
            ])
        guard let score = ops.first else { throw .conflict("the correction wrote no op; nothing was changed") }
        return score.id
    }

    /// What importing an entry list did.
    public struct Imported: Sendable, Equatable {
        /// Entrants on the list.
        public let entries: Int
        /// Players new to the space (the others were matched by name).
        public let newPlayers: Int
        /// The op.
        public let op: OpID
    }

    /// Imports the entry list: each entrant matched to the space's player of that name (any case) or added as a
    /// new player, and their index, tee, division and club id kept in the competition; entrants of an earlier list
    /// not on this one are taken off. One op; refused once the draw is made.
    func importEntries(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, list: EntryList
    ) throws(NodeError) -> Imported {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        try refuseIfClosed(record)
        let groups = try rounds.games(space).filter { $0.competition == competition }
        guard groups.isEmpty else {
            throw .conflict(
                "the draw of \(record.name) is made (\(groups.count) groups): the entry list can no longer change; "
                    + "take the groups out first (`caddie competition remove`)")
        }
        let players = try rounds.players(space)
        var changes: [Change] = []
        var fields: [String: FieldValue] = [:]
        var newPlayers = 0
        var entered: Set<PlayerID> = []
        for (order, entry) in list.entries.enumerated() {
            let same = players.filter { $0.name.caseInsensitiveCompare(entry.name) == .orderedSame }
            guard same.count <= 1 else {
                throw .conflict(
                    "the space has \(same.count) players named \(entry.name): rename one (`caddie player edit`) so "
                        + "the list names one player")
            }
            let id: PlayerID
            if let player = same.first {
                id = player.id
            } else {
                id = PlayerID(SecureRandom.entityID())
                changes.append(.set(id, fields: PlayerRecord.fields(name: entry.name, user: nil, handicapIndex: entry.index)))
                newPlayers += 1
            }
            entered.insert(id)
            fields[CompetitionRecord.entryField(id)] = .text(
                CompetitionRecord.Entry(
                    order: order + 1, index: entry.index, tee: entry.tee, division: entry.division, club: entry.club
                ).text)
        }
        for earlier in record.entries.keys where !entered.contains(earlier) {
            fields[CompetitionRecord.entryField(earlier)] = .text("")
        }
        changes.append(.set(competition, fields: fields))
        try Self.fitsOneOp(changes, what: "the entry list")
        let op = try append(space: space, keys: keys, changes: changes).id
        return Imported(entries: list.entries.count, newPlayers: newPlayers, op: op)
    }

    /// The draw made: its groups, each a new game of the competition, with its start and tee time.
    public struct Drawn: Sendable, Equatable {
        /// The group's game, label, start hole and tee time ("08:10", nil in a shotgun), and its players in order.
        public struct Group: Sendable, Equatable {
            public let game: GameID
            public let label: String
            public let startHole: Int
            public let teeTime: String?
            public let players: [PlayerID]
        }
        public let groups: [Group]
        public let op: OpID
    }

    /// Makes the draw: the entrants (in the list's order, or shuffled) in groups of at most `size`, each a game on
    /// `course` from each entrant's tee, started as `start` says, each player marked by the next in the group. One
    /// op for the whole draw; refused when there is no entry list, when a group exists already, or when an
    /// entrant's tee is not one of the course's.
    func draw(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, course courseID: CourseID, size: Int,
        start: Draw.Start, shuffled: Bool
    ) throws(NodeError) -> Drawn {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        try refuseIfClosed(record)
        guard (2...4).contains(size) else {
            throw .badInput(.size, "is \(size): groups are of 2, 3 or 4 players")
        }
        if case .teeTimes(let first, let interval, _) = start {
            guard (0..<24 * 60).contains(first), (1...60).contains(interval) else {
                throw .badInput(
                    .interval,
                    "is \(interval) minutes: give 1 to 60 minutes between groups")
            }
        }
        guard !record.entries.isEmpty else {
            throw .conflict(
                "\(record.name) has no entry list yet: import one first (`caddie competition entries \(record.name) FILE.csv`)")
        }
        let existing = try rounds.games(space).filter { $0.competition == competition }
        guard existing.isEmpty else {
            throw .conflict(
                "the draw of \(record.name) is made already (\(existing.count) groups): take them out first to draw again "
                    + "(`caddie competition remove`)")
        }
        let course = try courses.course(space, courseID)
        if case .teeTimes(_, _, true) = start, course.holes.count < 18 {
            throw .badInput(
                .twoTees,
                "cannot start groups from the 10th: \(course.name) has \(course.holes.count) holes")
        }
        var field = record.entries.sorted { ($0.value.order, $0.key) < ($1.value.order, $1.key) }
        for (player, entry) in field where course.tee(named: entry.tee) == nil {
            let name = (try? rounds.player(space, player).name) ?? player.short
            throw .conflict(
                "\(name)'s tee '\(entry.tee)' is not a tee of \(course.name): its tees are "
                    + course.tees.map(\.name).joined(separator: ", ") + "; correct the entry list and import it again")
        }
        if shuffled { field.shuffle() }
        if case .shotgun = start, field.count > course.holes.count * 3 * size {
            throw .conflict("a shotgun on \(course.holes.count) holes takes at most three groups a hole")
        }
        var changes: [Change] = []
        var groups: [Drawn.Group] = []
        for group in Draw.groups(count: field.count, size: size, start: start, holes: course.holes.count) {
            let members = group.members.map { field[$0] }
            let tee = members[0].value.tee
            var setup = GameSetup<PlayerID>()
            setup.start = group.startHole
            setup.playerTees = members.filter { $0.value.tee != tee }.map { (player: $0.key, tee: $0.value.tee) }
            let (id, made) = try rounds.newGameChanges(
                space: space, course: courseID, tee: tee, players: members.map(\.key),
                markers: group.markers.map { (player: field[$0.player].key, marker: field[$0.marker].key) }, setup: setup)
            var extra: [String: FieldValue] = ["competition": .bytes(competition.bytes), "group": .text(group.label)]
            if let time = group.teeTime { extra["teeTime"] = .text(Draw.clock(time)) }
            changes += made + [.set(id, fields: extra)]
            groups.append(
                Drawn.Group(
                    game: id, label: group.label, startHole: group.startHole, teeTime: group.teeTime.map(Draw.clock),
                    players: members.map(\.key)))
        }
        try Self.fitsOneOp(changes, what: "the draw")
        return Drawn(groups: groups, op: try append(space: space, keys: keys, changes: changes).id)
    }

    /// The draw as a sheet shows it: each group in order of start, with its players and who marks whom.
    public func sheet(space: SpaceID, competition id: CompetitionID) throws(NodeError) -> DrawSheet {
        let record = try competition(space, id)
        var groups: [DrawSheet.Group] = []
        for game in try rounds.games(space).filter({ $0.competition == id }) {
            let fields = try run { try store.record(space, game.id) } ?? [:]
            let roster = try run { try store.roster(space, game: game.id) }
            var players: [DrawSheet.Player] = []
            for player in roster {
                let person = try rounds.player(space, player)
                players.append(
                    DrawSheet.Player(
                        player: person, tee: game.tee(of: player),
                        index: record.entries[player]?.index ?? person.handicapIndex,
                        marker: try game.markers[player].map { marker throws(NodeError) in try rounds.player(space, marker).name }
                    ))
            }
            // In the draw's order (the entry list's place), which is also the markers' rotation.
            players.sort {
                (record.entries[$0.player.id]?.order ?? Int.max, $0.player.name) < (
                    record.entries[$1.player.id]?.order ?? Int.max, $1.player.name
                )
            }
            groups.append(
                DrawSheet.Group(
                    game: game.id, label: fields["group"]?.text ?? game.id.short, startHole: game.startHole,
                    teeTime: fields["teeTime"]?.text, players: players))
        }
        groups.sort { ($0.teeTime ?? "", $0.startHole, $0.label) < ($1.teeTime ?? "", $1.startHole, $1.label) }
        let members = try rounds.members(space: space)
        let creator = try self.creator(of: record, space: space)
        let named = members.filter { record.committee.contains($0.user) && $0.user != creator }.map(\.shown).sorted()
        return DrawSheet(
            competition: record, entries: record.entries.count,
            committee: (members.first { $0.user == creator }.map { [$0.shown] } ?? []) + named, groups: groups)
    }

    /// Refuses changes that one op cannot carry (its payload is at most 64 KiB), before anything is signed.
    static func fitsOneOp(_ changes: [Change], what: String) throws(NodeError) {
        let bytes = Payload.encode(changes).count
        guard bytes <= SignedOp.maxPayloadBytes else {
            throw .conflict(
                "\(what) takes \(bytes) bytes, more than one op carries (\(SignedOp.maxPayloadBytes)): split the field "
                    + "into two competitions")
        }
    }

}
