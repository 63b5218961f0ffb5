import Foundation

extension Handicap {
    /// A Course Handicap and the Playing Handicap derived from it (Rules 6.1 and 6.2).
    public struct CourseHandicap: Sendable, Equatable {
        /// The Handicap Index used: the player's index for 18 holes; half of it rounded to the tenth for 9 holes.
        public let indexUsed: Double
        /// 9 or 18.
        public let holes: Int
        /// The Course Handicap before rounding; allowances are applied to this value (Appendix C).
        public let unrounded: Double
        /// The Course Handicap rounded to a whole number, .5 upwards: the one for net double bogey and net par.
        public let courseHandicap: Int
        /// The handicap allowance applied, in percent.
        public let allowancePercent: Int
        /// The Playing Handicap: the unrounded Course Handicap times the allowance, then rounded, .5 upwards (a plus
        /// handicap moves up towards zero).
        public let playingHandicap: Int

        /// The CLI's output: `{"courseHandicap": 31, "playingHandicap": 26, "unrounded": 30.72}`.
        public var json: String {
            HandicapJSON.object([
                "courseHandicap": .int(courseHandicap),
                "playingHandicap": .int(playingHandicap),
                "unrounded": .number(unrounded, places: 2),
            ])
        }
    }

    /// The Course Handicap (Rule 6.1) and Playing Handicap (Rule 6.2) for a Handicap Index on a set of tees.
    ///
    /// `Course Handicap = Handicap Index x (Slope Rating / 113) + (Course Rating - Par)`. For 9 holes the index is
    /// first halved and rounded to the tenth, then the 9-hole ratings and par are used (Rule 6.1b). The allowance is
    /// applied to the unrounded value and rounded last (Appendix C); rounding first can change the answer.
    /// - Parameters:
    ///   - handicapIndex: the player's index (a plus index is negative).
    ///   - slopeRating: the Slope Rating of the tees for the holes played.
    ///   - courseRating: the Course Rating of the tees for the holes played.
    ///   - par: the par of the holes played.
    ///   - holes: 9 or 18.
    ///   - allowancePercent: the handicap allowance of the format, 1...100 (see `Format`).
    ///   - includeCourseRatingMinusPar: whether the (Course Rating - Par) term is part of the Course Handicap; on by
    ///     default as the Rules now require, off for jurisdictions that still apply it elsewhere.
    public static func courseHandicap(
        handicapIndex: Double,
        slopeRating: Int,
        courseRating: Double,
        par: Int,
        holes: Int = 18,
        allowancePercent: Int = 100,
        includeCourseRatingMinusPar: Bool = true
    ) throws(HandicapError) -> CourseHandicap {
        try validateIndex(handicapIndex)
        try validateHoles(holes)
        try validateSlope(slopeRating)
        try validateCourseRating(courseRating, holes: holes)
        try validatePar(par, holes: holes)
        guard (1...100).contains(allowancePercent) else { throw .allowanceOutOfRange(allowancePercent) }

        let index = holes == 9 ? HandicapRounding.toTenth(handicapIndex / 2) : handicapIndex
        let ratingTerm = includeCourseRatingMinusPar ? courseRating - Double(par) : 0
        let unrounded = index * Double(slopeRating) / Double(standardSlopeRating) + ratingTerm
        return CourseHandicap(
            indexUsed: index,
            holes: holes,
            unrounded: unrounded,
            courseHandicap: HandicapRounding.toWhole(unrounded),
            allowancePercent: allowancePercent,
            playingHandicap: playingHandicap(unroundedCourseHandicap: unrounded, allowancePercent: allowancePercent)
        )
    }

    /// The Playing Handicap for an unrounded Course Handicap and an allowance: `round(unrounded x percent / 100)`,
    /// .5 upwards (Rule 6.2, Appendix C).
    static func playingHandicap(unroundedCourseHandicap: Double, allowancePercent: Int) -> Int {
        HandicapRounding.toWhole(unroundedCourseHandicap * Double(allowancePercent) / 100)
    }

    /// Match play strokes (Appendix C): the lowest Playing Handicap plays off zero and each other player receives the
    /// difference between their Playing Handicap and the lowest.
    public static func matchPlayStrokes(playingHandicaps: [Int]) -> [Int] {
        guard let lowest = playingHandicaps.min() else { return [] }
        return playingHandicaps.map { $0 - lowest }
    }
}
