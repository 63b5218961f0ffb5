import Foundation

extension Handicap {
    /// The most a hole may count for handicap purposes (Rule 3.1), and which limit set it.
    public struct MaximumHoleScore: Sendable, Equatable {
        /// Which part of Rule 3.1 applies.
        public enum Limit: String, Sendable, Equatable {
            /// A player without a Handicap Index: par + 5 (Rule 3.1a).
            case parPlusFive
            /// Net double bogey: par + 2 + strokes received (Rule 3.1b).
            case netDoubleBogey
            /// A Course Handicap over 54 receiving 4 or more strokes on the hole: par + 5 (Rule 3.1b).
            case parPlusFiveForHighHandicap
        }

        /// The maximum hole score.
        public let value: Int
        /// The Course Handicap strokes received on the hole (negative: given back); nil without a Course Handicap.
        public let strokesReceived: Int?
        /// The limit that set `value`.
        public let limit: Limit

        /// The CLI's output: `{"max": 8}`.
        public var json: String {
            HandicapJSON.object(["max": .int(value)])
        }
    }

    /// The maximum score for a hole for handicap purposes (Rule 3.1).
    ///
    /// With a Course Handicap it is net double bogey, par + 2 + strokes received (fewer for a plus handicap that gives
    /// strokes back), using the full Course Handicap rounded to a whole number, never a Playing Handicap. When the
    /// player receives 4 or more strokes on the hole (a Course Handicap over 54) it is par + 5, as it is for a player
    /// with no Handicap Index (`courseHandicap` nil).
    /// - Parameters:
    ///   - courseHandicap: the player's Course Handicap for the round (9-hole Course Handicap for 9 holes), or nil.
    ///   - par: the par of the hole.
    ///   - strokeIndex: the hole's stroke index, ranked within the round (1...holes).
    ///   - holes: 9 or 18.
    public static func maximumHoleScore(
        courseHandicap: Int?,
        par: Int,
        strokeIndex: Int,
        holes: Int = 18
    ) throws(HandicapError) -> MaximumHoleScore {
        try validateHolePar(par)
        try validateStrokeIndex(strokeIndex, holes: holes)
        guard let courseHandicap else {
            return MaximumHoleScore(value: par + 5, strokesReceived: nil, limit: .parPlusFive)
        }
        let strokes = try strokesReceived(handicap: courseHandicap, strokeIndex: strokeIndex, holes: holes)
        if strokes >= 4 {
            return MaximumHoleScore(value: par + 5, strokesReceived: strokes, limit: .parPlusFiveForHighHandicap)
        }
        return MaximumHoleScore(value: par + 2 + strokes, strokesReceived: strokes, limit: .netDoubleBogey)
    }
}
