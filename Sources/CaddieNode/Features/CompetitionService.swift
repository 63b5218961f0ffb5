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

/// A competition's board as the node computes it from the merged state.
public struct CompetitionBoard: Sendable {
    /// The competition.
    public let competition: CompetitionRecord
    /// Its settings as read.
    public let settings: Competition.Settings
    /// The entrants, in the order the board's lines name them (by name).
    public let entrants: [BoardEntrant]
    /// The board.
    public let board: Competition.Board
    /// How many groups (games) it has.
    public let groups: Int
    /// When the last entry shown was made (ms since 1970), nil before the first.
    public let lastEntry: UInt64?
    /// What the committee should know: a group that cannot be scored yet, open disputes.
    public let notes: [String]
}

extension CompetitionService {
    /// The competitions of a space, newest first.
    public func competitions(_ space: SpaceID) throws(NodeError) -> [CompetitionRecord] {
        try run { try store.all(space, CompetitionRecord.self) }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    /// The competition meant by `text`: an id, an id prefix or a name.
    public func resolveCompetition(_ space: SpaceID, _ text: String) throws(NodeError) -> CompetitionRecord {
        try resolve(
            text, in: try competitions(space), what: "competition", list: "caddie competition list", id: \.id,
            name: \.name)
    }

    /// The competition with this id.
    public func competition(_ space: SpaceID, _ id: CompetitionID) throws(NodeError) -> CompetitionRecord {
        guard let record: CompetitionRecord = try run({ try store.one(space, id) }) else {
            throw .notFound(
                "no competition \(id.short) in this space", .list("competitions", command: "caddie competition list"))
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
    public func newCompetition(
        space: SpaceID, keys: UnlockedKeys, name: String, settings: Competition.Settings
    ) throws(NodeError) -> CompetitionID {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw .badInput(.init(option: "the competition's name", field: "name"), "is blank: give the competition a name")
        }
        guard trimmed.utf8.count <= 80 else {
            throw .badInput(
                .init(option: "the competition's name", field: "name"), "is \(trimmed.utf8.count) bytes: at most 80")
        }
        guard (1...100).contains(settings.allowance) else {
            throw .badInput(
                .init(option: "--allowance", field: "allowance"),
                "is \(settings.allowance)%: give a percentage of the Course Handicap from 1 to 100 (95 for individual "
                    + "stroke play and Stableford)")
        }
        let divisions = settings.divisions
        guard divisions == divisions.sorted(), Set(divisions).count == divisions.count,
            divisions.allSatisfy({ (-10...54).contains($0) }), divisions.count <= 8
        else {
            throw .badInput(
                .init(option: "--divisions", field: "divisions"),
                "must be up to 8 Playing Handicaps from -10 to 54, ascending, each the highest of its division "
                    + "(12,20 makes up to 12, 13-20 and 21+)")
        }
        let id = CompetitionID(SecureRandom.entityID())
        let fields = CompetitionRecord.fields(
            name: trimmed, createdAt: Home.now(), scoring: settings.scoring.rawValue,
            countback: settings.countback.rawValue, allowance: settings.allowance, divisions: divisions,
            twosByDivision: settings.twosByDivision)
        try append(space: space, keys: keys, changes: [.set(id, fields: fields)])
        return id
    }

    /// Makes games groups of a competition (`add`), or takes them out of it: one op.
    public func setGroups(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, games: [GameID], add: Bool
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        guard !games.isEmpty else {
            throw .badInput(.init(option: "the games", field: "games"), "are missing: name at least one game")
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

    /// The committee marks a player of the competition no return or disqualified, or clears the mark (nil).
    public func setStatus(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, player: PlayerID, status: Competition.Status?
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
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

    /// The board: every group's cards, ranked by the competition's scoring per division, ties counted back.
    public func board(space: SpaceID, competition id: CompetitionID) throws(NodeError) -> CompetitionBoard {
        let record = try competition(space, id)
        let settings = try Self.settings(of: record)
        let groups = try rounds.games(space).filter { $0.competition == id }.sorted {
            ($0.startHole, $0.id) < ($1.startHole, $1.id)
        }
        var lines: [(entrant: BoardEntrant, card: Competition.Entrant)] = []
        var notes: [String] = []
        var lastEntry: UInt64?
        var length: Int?
        for game in groups {
            let standings: GameStandings
            do {
                standings = try handicaps.standings(space: space, game: game.id)
            } catch {
                notes.append("group \(game.id.short) is left off the board: \(error.description)")
                continue
            }
            if let length, length != standings.holes.count {
                notes.append(
                    "group \(game.id.short) plays \(standings.holes.count) holes, the others \(length): it is left "
                        + "off the board (set its holes with `caddie game setup`)")
                continue
            }
            length = standings.holes.count
            if !standings.disputes.isEmpty {
                notes.append(
                    "group \(game.id.short) has \(standings.disputes.count) open dispute"
                        + "\(standings.disputes.count == 1 ? "" : "s"): the board shows one value of each until it is "
                        + "settled (`caddie standings \(game.id.short)`)")
            }
            for (index, player) in standings.players.enumerated() {
                let status = record.statuses[player.id].flatMap(Competition.Status.init(rawValue:))
                lines.append(
                    (
                        BoardEntrant(player: player, game: game.id, startHole: game.startHole),
                        Competition.Entrant(card: standings.cards[index], holes: standings.holes, status: status)
                    ))
                for hole in standings.holes {
                    guard let shown = standings.card.cell(player.id, hole)?.winner else { continue }
                    lastEntry = max(lastEntry ?? 0, shown.hlc.milliseconds)
                }
            }
        }
        lines.sort {
            ($0.entrant.player.name.lowercased(), $0.entrant.player.id) < (
                $1.entrant.player.name.lowercased(), $1.entrant.player.id
            )
        }
        return CompetitionBoard(
            competition: record, settings: settings, entrants: lines.map(\.entrant),
            board: Competition.board(lines.map(\.card), settings: settings), groups: groups.count, lastEntry: lastEntry,
            notes: notes)
    }
}
