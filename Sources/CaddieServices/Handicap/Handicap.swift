import Foundation

/// The World Handicap System (Rules of Handicapping, 2024 edition): score differentials, Handicap Index, adjusted
/// gross score, course and playing handicaps, stroke allocation, net scores and Stableford points.
///
/// Every function is pure: values in, values out, no I/O. Inputs are checked and bad ones throw `HandicapError`.
/// Each function names the Rule of Handicapping (USGA/R&A, 2024 edition) it implements; docs/handicap.md lists them.
public enum Handicap {
    /// The Slope Rating of a course of standard playing difficulty (Rule 5.1).
    public static let standardSlopeRating = 113

    /// The Slope Ratings a rated set of tees can have (Rule 5.1, Appendix G).
    public static let slopeRatingRange = 55...155

    /// The highest Handicap Index the Rules allow (Rule 5.3).
    public static let maximumHandicapIndex = 54.0

    /// The Handicap Indexes this module accepts. The upper end is Rule 5.3; the Rules set no lower end, and +20.0 is
    /// a sanity bound well past the best players in the world so that a typing error is caught.
    public static let handicapIndexRange = -20.0...54.0

    /// The playing conditions calculation adjustments the Rules allow (Rule 5.6 note to 5.1a).
    public static let pccRange = -1.0...3.0

    /// How many of the most recent score differentials a Handicap Index is calculated from (Rule 5.2).
    public static let scoringRecordSize = 20

    /// The course and playing handicaps accepted for stroke allocation: at most 6 strokes a hole received and at most
    /// +54 given back. A sanity bound, not a Rule: a real Course Handicap stays far inside it.
    public static let strokeHandicapRange = -54...108

    /// The par a single hole may have.
    public static let holeParRange = 3...6

    /// The gross strokes a single hole may record.
    public static let holeStrokesRange = 1...99

    /// Checks that a round length is 9 or 18 holes, the two lengths the Rules rate.
    static func validateHoles(_ holes: Int) throws(HandicapError) {
        guard holes == 9 || holes == 18 else { throw .unsupportedHoleCount(holes) }
    }

    /// Checks a Slope Rating.
    static func validateSlope(_ slope: Int) throws(HandicapError) {
        guard slopeRatingRange.contains(slope) else { throw .slopeRatingOutOfRange(slope) }
    }

    /// Checks a Course Rating for a round of `holes` holes. The Rules give no range; these bounds catch a 9-hole
    /// rating entered for 18 holes and the reverse.
    static func validateCourseRating(_ rating: Double, holes: Int) throws(HandicapError) {
        let range = holes == 9 ? 22.5...45.0 : 45.0...90.0
        guard rating.isFinite, range.contains(rating) else {
            throw .courseRatingOutOfRange(rating, holes: holes)
        }
    }

    /// Checks the par of a 9- or 18-hole round.
    static func validatePar(_ par: Int, holes: Int) throws(HandicapError) {
        guard (holes * holeParRange.lowerBound...holes * holeParRange.upperBound).contains(par) else {
            throw .parOutOfRange(par, holes: holes)
        }
    }

    /// Checks a playing conditions calculation adjustment.
    static func validatePCC(_ pcc: Double) throws(HandicapError) {
        guard pcc.isFinite, pccRange.contains(pcc) else { throw .pccOutOfRange(pcc) }
    }

    /// Checks a Handicap Index.
    static func validateIndex(_ index: Double) throws(HandicapError) {
        guard index.isFinite, handicapIndexRange.contains(index) else { throw .handicapIndexOutOfRange(index) }
    }

    /// Checks a course or playing handicap used to allocate strokes.
    static func validateStrokeHandicap(_ handicap: Int) throws(HandicapError) {
        guard strokeHandicapRange.contains(handicap) else { throw .strokeHandicapOutOfRange(handicap) }
    }

    /// Checks the par of one hole.
    static func validateHolePar(_ par: Int) throws(HandicapError) {
        guard holeParRange.contains(par) else { throw .holeParOutOfRange(par) }
    }

    /// Checks a stroke index against the number of holes it ranks.
    static func validateStrokeIndex(_ strokeIndex: Int, holes: Int) throws(HandicapError) {
        try validateHoles(holes)
        guard (1...holes).contains(strokeIndex) else { throw .strokeIndexOutOfRange(strokeIndex, holes: holes) }
    }
}
