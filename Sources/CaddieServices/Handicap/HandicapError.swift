import Foundation

/// What is wrong with an input to a handicap calculation; `description` says it in one line with what to do.
public enum HandicapError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A Slope Rating outside 55...155.
    case slopeRatingOutOfRange(Int)
    /// A Course Rating that is not a plausible rating for a round of `holes` holes.
    case courseRatingOutOfRange(Double, holes: Int)
    /// A round par that is not 3 to 6 a hole for `holes` holes.
    case parOutOfRange(Int, holes: Int)
    /// A hole par outside 3...6.
    case holeParOutOfRange(Int)
    /// An adjusted gross score below one stroke a hole or above 15 a hole.
    case adjustedGrossScoreOutOfRange(Int, holes: Int)
    /// A gross hole score outside 1...99.
    case holeStrokesOutOfRange(Int)
    /// A playing conditions calculation adjustment outside -1.0...+3.0.
    case pccOutOfRange(Double)
    /// A Handicap Index above 54.0, below +20.0 or not a number.
    case handicapIndexOutOfRange(Double)
    /// A Low Handicap Index above 54.0, below +20.0 or not a number.
    case lowHandicapIndexOutOfRange(Double)
    /// A score differential that is not a number or outside -100...300.
    case differentialOutOfRange(Double)
    /// A stroke index outside 1...holes.
    case strokeIndexOutOfRange(Int, holes: Int)
    /// Stroke indexes that do not give each hole its own rank.
    case strokeIndexRepeated(Int)
    /// A round length other than 9 or 18 holes.
    case unsupportedHoleCount(Int)
    /// Fewer holes played than the Rules accept for a score of this length.
    case tooFewHolesPlayed(played: Int, required: Int)
    /// More holes played than the round has.
    case tooManyHolesPlayed(played: Int, holes: Int)
    /// Holes not played need a Handicap Index (for expected score or net par) and the player has none yet.
    case holesNotPlayedWithoutIndex(played: Int)
    /// Net par for a hole not played needs the player's Course Handicap.
    case netParWithoutCourseHandicap
    /// A handicap allowance outside 1...100 percent.
    case allowanceOutOfRange(Int)
    /// A course or playing handicap outside -54...108, the range strokes can be allocated for.
    case strokeHandicapOutOfRange(Int)
    /// A Course Handicap that is not a number or is far outside any real one.
    case courseHandicapOutOfRange(Double)
    /// A team format given the wrong number of players.
    case teamSizeOutOfRange(format: String, players: Int, allowed: ClosedRange<Int>)
    /// A minimum number of differentials for a Handicap Index outside 3...20.
    case minimumDifferentialsOutOfRange(Int)

    /// One line: what is wrong, and what to do about it.
    public var description: String {
        switch self {
        case .slopeRatingOutOfRange(let slope):
            return "slope rating \(slope) is outside 55...155: use the slope rating printed for the tees played"
        case .courseRatingOutOfRange(let rating, let holes):
            return "course rating \(rating) is not a \(holes)-hole rating: use the \(holes)-hole course rating of the "
                + "tees played (e.g. 72.1 for 18 holes, 36.1 for 9)"
        case .parOutOfRange(let par, let holes):
            return "par \(par) is not possible for \(holes) holes: give the par of the \(holes) holes played "
                + "(\(holes * 3)...\(holes * 6))"
        case .holeParOutOfRange(let par):
            return "hole par \(par) is outside 3...6: give the par printed on the scorecard for that hole"
        case .adjustedGrossScoreOutOfRange(let score, let holes):
            return "adjusted gross score \(score) is not possible for \(holes) holes: give a total between "
                + "\(holes) and \(holes * 15)"
        case .holeStrokesOutOfRange(let strokes):
            return "hole score \(strokes) is outside 1...99: enter the strokes taken, or leave the hole empty if "
                + "it was not played"
        case .pccOutOfRange(let pcc):
            return "playing conditions adjustment \(pcc) is outside -1.0...+3.0: use the PCC published for the day, "
                + "or 0"
        case .handicapIndexOutOfRange(let index):
            return "handicap index \(index) is outside +20.0...54.0: give the index as a number up to 54.0 "
                + "(a plus index as a negative number, e.g. -1.5 for +1.5)"
        case .lowHandicapIndexOutOfRange(let index):
            return "low handicap index \(index) is outside +20.0...54.0: give the lowest index of the last 365 days, "
                + "or leave it out"
        case .differentialOutOfRange(let differential):
            return "score differential \(differential) is not a real differential: give each differential as a "
                + "number such as 12.4"
        case .strokeIndexOutOfRange(let strokeIndex, let holes):
            return "stroke index \(strokeIndex) is outside 1...\(holes): use the stroke index printed on the "
                + "scorecard"
        case .strokeIndexRepeated(let strokeIndex):
            return "stroke index \(strokeIndex) is given to more than one hole: each hole needs its own stroke index"
        case .unsupportedHoleCount(let holes):
            return "\(holes) holes is not a rated round: use 9 or 18"
        case .tooFewHolesPlayed(let played, let required):
            return "\(played) holes played is too few: a score for handicap needs at least \(required) holes"
        case .tooManyHolesPlayed(let played, let holes):
            return "\(played) holes played is more than the \(holes) holes of the round: check the holes played"
        case .holesNotPlayedWithoutIndex(let played):
            return "only \(played) of 18 holes played and no handicap index yet: play all 18 holes, or post a "
                + "completed nine as a 9-hole score"
        case .netParWithoutCourseHandicap:
            return "net par for a hole not played needs a course handicap: give the player's course handicap"
        case .allowanceOutOfRange(let percent):
            return "handicap allowance \(percent)% is outside 1...100: give a percentage such as 95"
        case .strokeHandicapOutOfRange(let handicap):
            return "handicap \(handicap) is outside -54...108: give the course or playing handicap as a whole "
                + "number (a plus handicap as a negative number)"
        case .courseHandicapOutOfRange(let handicap):
            return "course handicap \(handicap) is not a real course handicap: give each player's unrounded course "
                + "handicap, e.g. 12.4"
        case .teamSizeOutOfRange(let format, let players, let allowed):
            let count = allowed.count == 1 ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
            return "\(format) is played by \(count) players, not \(players): give one course handicap per player"
        case .minimumDifferentialsOutOfRange(let minimum):
            return "minimum of \(minimum) differentials is outside 3...20: the Rules' table starts at 3 scores"
        }
    }
}
