import Foundation

extension Handicap {
    /// Formats in which a side plays one ball or one score from a combined handicap (Appendix C).
    public enum TeamFormat: String, Sendable, Equatable, CaseIterable {
        /// Foursomes (alternate shot): 50% of the side's combined Course Handicaps.
        case foursomes
        /// Greensomes: 60% of the lower Course Handicap plus 40% of the higher.
        case greensomes
        /// Pinehurst or Chapman: 60% of the lower Course Handicap plus 40% of the higher.
        case chapman
        /// Scramble: 35/15% for 2 players, 30/20/10% for 3, 25/20/15/10% for 4, lowest Course Handicap first.
        case scramble

        /// How many players the format takes.
        public var players: ClosedRange<Int> {
            self == .scramble ? 2...4 : 2...2
        }

        /// The percentages for a side of `count` players, lowest Course Handicap first.
        func percents(players count: Int) -> [Int] {
            switch self {
            case .foursomes: [50, 50]
            case .greensomes, .chapman: [60, 40]
            case .scramble: count == 2 ? [35, 15] : count == 3 ? [30, 20, 10] : [25, 20, 15, 10]
            }
        }
    }

    /// A side's Playing Handicap in a team format.
    public struct TeamHandicap: Sendable, Equatable {
        /// The format.
        public let format: TeamFormat
        /// The percentage applied to each player's Course Handicap, in the order the players were given.
        public let percents: [Int]
        /// The side's handicap before rounding: the sum of each unrounded Course Handicap times its percentage.
        public let unrounded: Double
        /// The side's Playing Handicap, rounded .5 upwards.
        public let playingHandicap: Int
    }

    /// The Playing Handicap of a side in a team format (Appendix C). The allowances are applied to the players'
    /// unrounded Course Handicaps and the sum is rounded once, at the end.
    /// - Parameter courseHandicaps: each player's unrounded Course Handicap (`CourseHandicap.unrounded`).
    public static func teamHandicap(
        format: TeamFormat, courseHandicaps: [Double]
    ) throws(HandicapError)
        -> TeamHandicap
    {
        guard format.players.contains(courseHandicaps.count) else {
            throw .teamSizeOutOfRange(format: format.rawValue, players: courseHandicaps.count, allowed: format.players)
        }
        for handicap in courseHandicaps where !handicap.isFinite || !(-60.0...120.0).contains(handicap) {
            throw .courseHandicapOutOfRange(handicap)
        }
        let byHandicap = courseHandicaps.indices.sorted { (courseHandicaps[$0], $0) < (courseHandicaps[$1], $1) }
        var percents = Array(repeating: 0, count: courseHandicaps.count)
        for (rank, position) in byHandicap.enumerated() {
            percents[position] = format.percents(players: courseHandicaps.count)[rank]
        }
        let unrounded = zip(courseHandicaps, percents).reduce(0.0) { $0 + $1.0 * Double($1.1) / 100 }
        return TeamHandicap(
            format: format, percents: percents, unrounded: unrounded,
            playingHandicap: HandicapRounding.toWhole(unrounded)
        )
    }
}
