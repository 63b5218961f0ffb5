import Foundation

extension Handicap {
    /// A round posted to a player's scoring record.
    public struct Round: Sendable, Equatable {
        /// How the score of a round is given.
        public enum Score: Sendable, Equatable {
            /// The adjusted gross score of the holes played, already capped at the maximum hole scores.
            case adjustedGross(Int, holesPlayed: Int)
            /// Every hole of the round in playing order, a hole not played with `strokes` nil; the maximum hole
            /// scores are applied from the Handicap Index in effect when the round was played.
            case holeByHole([HoleScore])
        }

        /// When the round was played; "most recent" in the scoring record is by this date.
        public let date: Date
        /// The length the ratings are for: 9 (a 9-hole score on a rated nine) or 18.
        public let holes: Int
        /// The score.
        public let score: Score
        /// The Course Rating of the tees played for `holes` holes.
        public let courseRating: Double
        /// The Slope Rating of the tees played for `holes` holes.
        public let slopeRating: Int
        /// The par of the `holes` holes.
        public let par: Int
        /// The day's playing conditions calculation adjustment (0 when not known).
        public let pcc: Double

        /// A round for the scoring record.
        public init(
            date: Date,
            holes: Int = 18,
            score: Score,
            courseRating: Double,
            slopeRating: Int,
            par: Int,
            pcc: Double = 0
        ) {
            self.date = date
            self.holes = holes
            self.score = score
            self.courseRating = courseRating
            self.slopeRating = slopeRating
            self.par = par
            self.pcc = pcc
        }

        /// How many holes were played.
        public var holesPlayed: Int {
            switch score {
            case .adjustedGross(_, let holesPlayed): holesPlayed
            case .holeByHole(let holes): holes.count(where: \.played)
            }
        }

        /// Checks everything about the round that does not depend on the player's index.
        func validate() throws(HandicapError) {
            try validateHoles(holes)
            try validateSlope(slopeRating)
            try validateCourseRating(courseRating, holes: holes)
            try validatePar(par, holes: holes)
            try validatePCC(pcc)
            switch score {
            case .adjustedGross(let total, let played):
                guard played <= holes else { throw .tooManyHolesPlayed(played: played, holes: holes) }
                guard played >= 1 else { throw .tooFewHolesPlayed(played: played, required: holes == 9 ? 9 : 10) }
                guard (played...played * 15).contains(total) else {
                    throw .adjustedGrossScoreOutOfRange(total, holes: played)
                }
            case .holeByHole(let holeScores):
                guard holeScores.count == holes else { throw .unsupportedHoleCount(holeScores.count) }
                _ = try validatedStrokeIndexes(holeScores)
            }
        }
    }
}
