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
    /// The cards their player and marker have both signed, in a competition's group (``CardLock``).
    public var locks: [CardLock] = []

    public init(
        game: GameRecord, course: CourseRecord?, players: [PlayerRecord], cells: [PlayerID: [Int: ScoreCell]],
        attestations: [AttestationRecord], locks: [CardLock] = []
    ) {
        self.game = game
        self.course = course
        self.players = players
        self.cells = cells
        self.attestations = attestations
        self.locks = locks
    }

    /// The lock of a player's card, if it is locked.
    public func lock(_ player: PlayerID) -> CardLock? { locks.first { $0.player == player } }

    /// Who signed a locked card, by the names their attestations show.
    public func signers(_ lock: CardLock) -> [String] {
        attestations.filter { lock.signatures.contains($0.op) }.map(\.marker)
    }

    /// How many holes the card has.
    public var holeCount: Int { course?.holes.count ?? max(18, cells.values.flatMap(\.keys).max() ?? 18) }

    /// The cell of a player on a hole.
    public func cell(_ player: PlayerID, _ hole: Int) -> ScoreCell? { cells[player]?[hole] }

    /// Cells with concurrent values that nobody has settled yet.
    public var conflicts: [ScoreCell] {
        cells.values.flatMap(\.values).filter(\.isConflict).sorted { ($0.player, $0.hole) < ($1.player, $1.hole) }
    }

    /// Sum of shown strokes over a range of holes, nil if none is entered or one of them is a pick-up (no total:
    /// ``pickedUp(_:holes:)`` says which).
    public func total(_ player: PlayerID, holes: some Sequence<Int>) -> Int? {
        let entries = holes.compactMap { cell(player, $0)?.winner?.entry }
        guard !entries.isEmpty, !entries.contains(where: \.pickedUp) else { return nil }
        return entries.map(\.strokes).reduce(0, +)
    }

    /// Whether the player picked up on one of these holes: their total over them is no return (NR).
    public func pickedUp(_ player: PlayerID, holes: some Sequence<Int>) -> Bool {
        holes.contains { cell(player, $0)?.winner?.entry.pickedUp == true }
    }

    /// A total as a card shows it: the strokes, "NR" where a hole was picked up, empty where none is entered.
    public func totalText(_ player: PlayerID, holes: some Sequence<Int>) -> String {
        pickedUp(player, holes: holes) ? "NR" : total(player, holes: holes).map(String.init) ?? ""
    }

    /// The player's name.
    public func name(_ player: PlayerID) -> String { players.first { $0.id == player }?.name ?? player.short }
}
