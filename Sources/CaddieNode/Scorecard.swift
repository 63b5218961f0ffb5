import CaddieCore
import CaddieStore

/// A game's card from the merged state: players down, holes across, every cell with its standing values.
public struct Scorecard: Sendable {
    /// The game.
    public let game: GameRecord
    /// The course, when its record has arrived.
    public let course: CourseRecord?
    /// The players on the roster, in name order.
    public let players: [PlayerRecord]
    /// Cells by player and hole.
    public let cells: [PlayerID: [Int: ScoreCell]]
    /// Attestations of players' cards.
    public let attestations: [AttestationRecord]

    /// How many holes the card has.
    public var holeCount: Int { course?.holes.count ?? max(18, cells.values.flatMap(\.keys).max() ?? 18) }

    /// The cell of a player on a hole.
    public func cell(_ player: PlayerID, _ hole: Int) -> ScoreCell? { cells[player]?[hole] }

    /// Cells with concurrent values that nobody has settled yet.
    public var conflicts: [ScoreCell] {
        cells.values.flatMap(\.values).filter(\.isConflict).sorted { ($0.player, $0.hole) < ($1.player, $1.hole) }
    }

    /// Sum of shown strokes over a range of holes, nil if none is entered.
    public func total(_ player: PlayerID, holes: ClosedRange<Int>) -> Int? {
        let values = holes.compactMap { cell(player, $0)?.winner?.entry.strokes }
        return values.isEmpty ? nil : values.reduce(0, +)
    }

    /// The player's name.
    public func name(_ player: PlayerID) -> String { players.first { $0.id == player }?.name ?? player.short }
}
