import CaddieCore
import CaddieCrypto
import CaddieServices
import Foundation

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

/// One group's part of a board, as read from its game (``CompetitionService/board(space:competition:publicView:kept:)``).
public struct BoardGroup: Sendable {
    /// The game's record as it was read: a new record reads the group again.
    let game: GameRecord
    /// The holes it plays; nil when it is left off the board.
    let holes: Int?
    let lines: [(entrant: BoardEntrant, card: Competition.Entrant)]
    let notes: [String]
    let lastEntry: UInt64?
}

/// The groups a board read, kept by a reader that computes the board again and again, with the record and view they
/// were read under.
public struct BoardGroups: Sendable {
    var groups: [GameID: BoardGroup] = [:]
    var record: CompetitionRecord?
    var hidden = 0

    public init() {}

    /// Forgets the groups of these games (their cards changed): the next board reads them again.
    public mutating func forget<Games: Sequence>(_ games: Games) where Games.Element == GameID {
        for game in games { groups[game] = nil }
    }

    /// Forgets every group (a player's record changed: a name, an index).
    public mutating func forgetAll() { groups = [:] }
}

extension CompetitionService {
    /// What a public board's reader hears of a competition that is not public, or not there: the same words, so
    /// that a stranger learns nothing of which competitions exist.
    public static let notPublic = NodeError.notFound(
        "no public board here: the committee makes a competition's board public with "
            + "`caddie competition public COMPETITION on`")

    /// The committee opens the board to anyone who reaches a node of the space (the clubhouse TV, spectators'
    /// phones), hiding each card's last `hiddenHoles` holes there, or closes it again.
    func setBoardAccess(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, isPublic: Bool, hiddenHoles: Int
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        try requireCommittee(record, space: space)
        guard (0...CompetitionRecord.maxHiddenHoles).contains(hiddenHoles) else {
            throw .badInput(
                .hideLast,
                "\(hiddenHoles) is not a number of holes to hide: give 0 to \(CompetitionRecord.maxHiddenHoles)")
        }
        guard record.publicBoard != isPublic || (isPublic && record.hiddenHoles != hiddenHoles) else {
            throw .conflict("the board of \(record.name) is \(isPublic ? "public" : "not public") already")
        }
        var fields: [String: FieldValue] = ["public": .integer(isPublic ? 1 : 0)]
        if isPublic { fields["hide"] = .integer(Int64(hiddenHoles)) }
        return try append(space: space, keys: keys, changes: [.set(competition, fields: fields)]).id
    }

    /// The board: every group's cards, ranked by the competition's scoring per division, ties counted back. The
    /// public board (`publicView`) leaves out each card's last holes as the committee chose, and is refused while the
    /// committee has not made the board public.
    public func board(
        space: SpaceID, competition id: CompetitionID, publicView: Bool = false
    ) throws(NodeError) -> CompetitionBoard {
        var fresh = BoardGroups()
        return try board(space: space, competition: id, publicView: publicView, kept: &fresh)
    }

    /// The board, reading again only the groups `kept` does not hold: a reader that computes one board again and again
    /// (the event hub, for a public board's streams) keeps what each group gave, and forgets a group when its game
    /// changes (``BoardGroups/forget(_:)``). A new competition record (marks, the list, the access), a group's new
    /// game record (its setup, its finish) or another view reads the groups concerned again by itself.
    public func board(
        space: SpaceID, competition id: CompetitionID, publicView: Bool, kept: inout BoardGroups
    ) throws(NodeError) -> CompetitionBoard {
        let record = try competition(space, id)
        if publicView, !record.publicBoard { throw Self.notPublic }
        let hidden = publicView ? record.hiddenHoles : 0
        let settings = try Self.settings(of: record)
        let groups = try rounds.games(space).filter { $0.competition == id }.sorted {
            ($0.startHole, $0.id) < ($1.startHole, $1.id)
        }
        if kept.record != record || kept.hidden != hidden {
            kept = BoardGroups()
            (kept.record, kept.hidden) = (record, hidden)
        }
        var lines: [(entrant: BoardEntrant, card: Competition.Entrant)] = []
        var notes: [String] = []
        var lastEntry: UInt64?
        var length: Int?
        var read: [GameID: BoardGroup] = [:]
        for game in groups {
            let group: BoardGroup
            if let known = kept.groups[game.id], known.game == game {
                group = known
            } else {
                group = boardGroup(space: space, record: record, game: game, hidden: hidden)
            }
            read[game.id] = group
            notes += group.notes
            guard let holes = group.holes else { continue }
            if let length, length != holes {
                notes.append(
                    "group \(game.id.short) plays \(holes) holes, the others \(length): it is left "
                        + "off the board (set its holes with `caddie game setup`)")
                continue
            }
            length = holes
            lines += group.lines
            if let last = group.lastEntry { lastEntry = max(lastEntry ?? 0, last) }
        }
        kept.groups = read
        if !publicView {
            let names = Dictionary(lines.map { ($0.entrant.player.id, $0.entrant.player.name) }, uniquingKeysWith: { a, _ in a })
            for correction in record.corrections {
                notes.append(
                    "the committee corrected \(names[correction.player] ?? correction.player.short)'s "
                        + "\(Dispute.ordinal(correction.hole)): \(correction.reason)")
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

    /// One group's part of the board, read from its game's standings: each player's line (the index the entry list
    /// froze, their status and division, the last `hidden` holes left out), what the committee should know of it,
    /// and its last entry shown. A group that cannot be scored yet is a note, with no holes and no lines.
    func boardGroup(space: SpaceID, record: CompetitionRecord, game: GameRecord, hidden: Int) -> BoardGroup {
        let standings: GameStandings
        do {
            // The index each entrant plays off is the one the entry list gave (frozen), else their own.
            standings = try handicaps.standings(space: space, game: game.id, frozen: record.entries.mapValues(\.index))
        } catch {
            return BoardGroup(
                game: game, holes: nil, lines: [], notes: ["group \(game.id.short) is left off the board: \(error.description)"],
                lastEntry: nil)
        }
        var notes: [String] = []
        if !standings.disputes.isEmpty {
            notes.append(
                "group \(game.id.short) has \(standings.disputes.count) open dispute"
                    + "\(standings.disputes.count == 1 ? "" : "s"): the board shows one value of each until it is "
                    + "settled (`caddie standings \(game.id.short)`)")
        }
        var lines: [(entrant: BoardEntrant, card: Competition.Entrant)] = []
        var lastEntry: UInt64?
        for (index, player) in standings.players.enumerated() {
            let status = record.statuses[player.id].flatMap(Competition.Status.init(rawValue:))
            lines.append(
                (
                    BoardEntrant(player: player, game: game.id, startHole: game.startHole),
                    Competition.Entrant(
                        card: standings.cards[index], holes: standings.holes, status: status,
                        division: record.entries[player.id]?.division
                    ).hidingLast(hidden)
                ))
            for hole in standings.holes.dropLast(hidden) {
                guard let shown = standings.card.cell(player.id, hole)?.winner else { continue }
                lastEntry = max(lastEntry ?? 0, shown.hlc.milliseconds)
            }
        }
        return BoardGroup(game: game, holes: standings.holes.count, lines: lines, notes: notes, lastEntry: lastEntry)
    }
}
