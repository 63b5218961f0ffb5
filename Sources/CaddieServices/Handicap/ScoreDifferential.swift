import Foundation

extension Handicap {
    /// A Score Differential (Rule 5.1): how a round compares with the course's difficulty, in strokes on a course of
    /// standard difficulty.
    public struct ScoreDifferential: Sendable, Equatable {
        /// The differential rounded to the nearest tenth, .5 upwards (Rule 5.1).
        public let value: Double
        /// The differential before rounding; exceptional score reduction compares this with the index (Rule 5.9).
        public let unrounded: Double
        /// 18 for an 18-hole differential (or the 18-hole equivalent of a shorter round); 9 for a 9-hole differential
        /// that has not been combined (Rule 5.1b note 1: it stays unrounded until combined; `value` is for display).
        public let holes: Int
        /// The expected differential added for holes not played, when one was; such a differential is unofficial
        /// unless the expected score came from the association.
        public let expectedDifferential: Double?

        /// Builds a differential from its unrounded value.
        init(unrounded: Double, holes: Int, expectedDifferential: Double? = nil) {
            self.value = HandicapRounding.toTenth(unrounded)
            self.unrounded = unrounded
            self.holes = holes
            self.expectedDifferential = expectedDifferential
        }

        /// Whether an expected score stood in for holes not played.
        public var usesExpectedScore: Bool { expectedDifferential != nil }

        /// The CLI's output: `{"differential": 19.0}`.
        public var json: String {
            HandicapJSON.object(["differential": .number(value, places: 1)])
        }
    }

    /// The Score Differential of a 9- or 18-hole score (Rule 5.1):
    /// `(113 / Slope Rating) x (adjusted gross score - Course Rating - PCC)`, with half the PCC for 9 holes.
    ///
    /// For 9 holes with a `handicapIndex`, the 9-hole differential is combined with the player's expected 9-hole
    /// differential into an 18-hole differential (2024 revision, Rule 5.1b). Without one, the result is the 9-hole
    /// differential itself (`holes == 9`), as for a player who has not yet posted 54 holes.
    /// - Parameters:
    ///   - adjustedGrossScore: the score after hole scores were capped at net double bogey (Rule 3.1).
    ///   - courseRating: the Course Rating of the tees played, for the holes played (9-hole rating for 9 holes).
    ///   - slopeRating: the Slope Rating of the tees played, 55...155.
    ///   - pcc: the day's playing conditions calculation adjustment, -1.0...+3.0; 0 when not known.
    ///   - holes: 9 or 18.
    ///   - handicapIndex: the player's index when the 9 holes were played; ignored for 18 holes.
    ///   - expected: the expected-differential model for the 9 holes not played.
    public static func scoreDifferential(
        adjustedGrossScore: Int,
        courseRating: Double,
        slopeRating: Int,
        pcc: Double = 0,
        holes: Int = 18,
        handicapIndex: Double? = nil,
        expected: ExpectedDifferential = .approximation
    ) throws(HandicapError) -> ScoreDifferential {
        try validateHoles(holes)
        try validateScoreInputs(
            adjustedGrossScore: adjustedGrossScore, holesPlayed: holes, courseRating: courseRating, ratedHoles: holes,
            slopeRating: slopeRating, pcc: pcc
        )
        let pccShare = holes == 9 ? 0.5 * pcc : pcc
        let played =
            Double(standardSlopeRating) / Double(slopeRating)
            * (Double(adjustedGrossScore) - courseRating - pccShare)
        guard holes == 9, let handicapIndex else {
            return ScoreDifferential(unrounded: played, holes: holes)
        }
        try validateIndex(handicapIndex)
        let expectedNine = expected(handicapIndex: handicapIndex, holes: 9)
        return ScoreDifferential(unrounded: played + expectedNine, holes: 18, expectedDifferential: expectedNine)
    }

    /// The 18-hole Score Differential of an 18-hole round of which only 10 to 17 holes were played for a valid reason
    /// (2024 revision, Rule 3.2): the differential of the holes played plus the expected differential of the rest.
    ///
    /// The Rules use "the rating value of the holes played", which is not published per hole; this takes the
    /// 18-hole Course Rating and PCC pro rata to the holes played and keeps the 18-hole Slope Rating. [inferred]
    /// - Parameters:
    ///   - adjustedGrossScore: the adjusted gross score of the holes played only.
    ///   - holesPlayed: 10...18; 18 gives the ordinary 18-hole differential.
    ///   - courseRating: the 18-hole Course Rating.
    ///   - slopeRating: the 18-hole Slope Rating.
    ///   - pcc: the day's playing conditions calculation adjustment.
    ///   - handicapIndex: the player's index when the round was played.
    ///   - expected: the expected-differential model for the holes not played.
    public static func partialRoundDifferential(
        adjustedGrossScore: Int,
        holesPlayed: Int,
        courseRating: Double,
        slopeRating: Int,
        pcc: Double = 0,
        handicapIndex: Double,
        expected: ExpectedDifferential = .approximation
    ) throws(HandicapError) -> ScoreDifferential {
        guard holesPlayed >= 10 else { throw .tooFewHolesPlayed(played: holesPlayed, required: 10) }
        guard holesPlayed <= 18 else { throw .tooManyHolesPlayed(played: holesPlayed, holes: 18) }
        try validateScoreInputs(
            adjustedGrossScore: adjustedGrossScore, holesPlayed: holesPlayed, courseRating: courseRating,
            ratedHoles: 18, slopeRating: slopeRating, pcc: pcc
        )
        try validateIndex(handicapIndex)
        let share = Double(holesPlayed) / 18
        let played =
            Double(standardSlopeRating) / Double(slopeRating)
            * (Double(adjustedGrossScore) - (courseRating + pcc) * share)
        guard holesPlayed < 18 else { return ScoreDifferential(unrounded: played, holes: 18) }
        let expectedRest = expected(handicapIndex: handicapIndex, holes: 18 - holesPlayed)
        return ScoreDifferential(unrounded: played + expectedRest, holes: 18, expectedDifferential: expectedRest)
    }

    /// Two uncombined 9-hole differentials made into one 18-hole differential (the 2020 Rule 5.1b, kept here for a
    /// player who has no index yet and so no expected score). [inferred]
    static func combiningNines(_ first: ScoreDifferential, _ second: ScoreDifferential) -> ScoreDifferential {
        ScoreDifferential(unrounded: first.unrounded + second.unrounded, holes: 18)
    }

    /// Checks the inputs every differential shares.
    static func validateScoreInputs(
        adjustedGrossScore: Int,
        holesPlayed: Int,
        courseRating: Double,
        ratedHoles: Int,
        slopeRating: Int,
        pcc: Double
    ) throws(HandicapError) {
        guard (holesPlayed...holesPlayed * 15).contains(adjustedGrossScore) else {
            throw .adjustedGrossScoreOutOfRange(adjustedGrossScore, holes: holesPlayed)
        }
        try validateCourseRating(courseRating, holes: ratedHoles)
        try validateSlope(slopeRating)
        try validatePCC(pcc)
    }
}
