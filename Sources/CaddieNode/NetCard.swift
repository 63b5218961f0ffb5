import CaddieCore

/// One player's card scored net of their Playing Handicap, with Stableford points.
///
/// Built by `HandicapService.playingHandicap(card:space:allowancePercent:)` for a player who has a Handicap Index, computed from the merged
/// state or entered by hand; a player without either has no net card.
public struct NetCard: Sendable, Equatable {
    /// Where the Handicap Index behind the card came from.
    public enum IndexSource: String, Sendable, Equatable {
        /// Recomputed from the player's finished games in every space this home holds.
        case computed
        /// The `index` field entered with `caddie player add --index`, used until finished games give one.
        case entered
    }

    /// The player.
    public let player: PlayerID
    /// The Handicap Index used (a plus index is negative).
    public let indexUsed: Double
    /// Whether `indexUsed` was computed or entered.
    public let indexSource: IndexSource
    /// The Course Handicap before rounding (Rule 6.1).
    public let unroundedCourseHandicap: Double
    /// The Course Handicap, rounded .5 upwards.
    public let courseHandicap: Int
    /// The handicap allowance applied to the unrounded Course Handicap, in percent (Rule 6.2, Appendix C).
    public let allowancePercent: Int
    /// The Playing Handicap the net scores and points use (negative: a plus handicap).
    public let playingHandicap: Int
    /// Playing Handicap strokes received on each hole, by hole number (negative: strokes given back).
    public let strokesReceived: [Int: Int]
    /// Net strokes by hole number, for the holes with a score.
    public let net: [Int: Int]
    /// Stableford points by hole number, for the holes with a score.
    public let points: [Int: Int]
    /// The net strokes of the holes with a score.
    public let netTotal: Int
    /// The Stableford points of the round.
    public let pointsTotal: Int
}
