/// Side games scored from the merged card: match play, four-ball better ball, skins, Nassau, stroke play and
/// Stableford standings, and the settlement between players.
///
/// Every function is pure: values in, values out, no I/O, no clock. The node layer turns a game's card into these
/// inputs, so every device that holds the same ops computes the same standings. docs/games.md explains each format
/// as Caddie scores it and names the rule or published example each test checks.
public enum Games {}

extension Games {
    /// Who won a hole of a match between two sides.
    public enum HoleResult: String, Sendable, Equatable {
        /// Side A had the lower score.
        case a
        /// Side B had the lower score.
        case b
        /// Both sides had the same score (Rules of Golf 3.2a(1): the hole is halved).
        case halved
        /// A side has no score yet.
        case unplayed

        /// The result of a hole from each side's score for it (lower wins); unplayed while either is missing.
        public static func compare(_ a: Int?, _ b: Int?) -> HoleResult {
            guard let a, let b else { return .unplayed }
            return a < b ? .a : b < a ? .b : .halved
        }
    }

    /// Where a match stands (Rules of Golf 3.2a).
    public struct MatchStatus: Sendable, Equatable {
        /// Each hole's result in the order of play, including holes played after the match was decided (they do
        /// not count).
        public let results: [HoleResult]
        /// Holes up: positive when side A leads, negative when side B leads, counted until the match was decided.
        public let up: Int
        /// Holes that count and have a result.
        public let played: Int
        /// Holes of the match still without a result, while it is undecided; 0 once decided.
        public let toPlay: Int
        /// How many holes had been played when the match was decided (a side led by more holes than remained,
        /// Rule 3.2a(3)), or nil while it is open or when it ended all square.
        public let decidedAfter: Int?
        /// A side leads by exactly as many holes as remain (it cannot lose).
        public let dormie: Bool

        /// Whether every hole has a result or a side has won.
        public var isOver: Bool { decidedAfter != nil || toPlay == 0 }

        /// The leading side, or nil when all square.
        public var leader: HoleResult? { up > 0 ? .a : up < 0 ? .b : nil }

        /// The match result as golfers write it: "3&2" (3 up with 2 to play), "1 up", "all square"; while it is
        /// open, "2 up thru 7" or "all square thru 7", with "dormie" when it applies.
        public var summary: String {
            let margin = abs(up)
            if let decidedAfter {
                let remaining = results.count - decidedAfter
                return remaining > 0 ? "\(margin)&\(remaining)" : "\(margin) up"
            }
            if toPlay == 0 { return margin == 0 ? "all square" : "\(margin) up" }
            let base = margin == 0 ? "all square" : "\(margin) up"
            return played == 0 ? "not started" : "\(base) thru \(played)" + (dormie ? " (dormie)" : "")
        }
    }

    /// The status of a match from its hole results in order of play.
    ///
    /// A match is won when a side leads by more holes than remain to be played (Rules of Golf 3.2a(3)); holes
    /// after that do not count. A hole without a result (a score missing) counts as still to play, wherever it
    /// lies, so a card filled out of order still gives the right margin.
    public static func match(_ results: [HoleResult]) -> MatchStatus {
        var up = 0
        var played = 0
        var decidedAfter: Int?
        for (index, result) in results.enumerated() {
            switch result {
            case .a: up += 1
            case .b: up -= 1
            case .halved: break
            case .unplayed: continue
            }
            played += 1
            // Holes still to play at this point: every hole after this one, and any skipped before it.
            let open = results.count - index - 1 + results[..<index].count { $0 == .unplayed }
            if abs(up) > open {
                decidedAfter = index + 1
                break
            }
        }
        let toPlay = decidedAfter == nil ? results.count { $0 == .unplayed } : 0
        return MatchStatus(
            results: results, up: up, played: played, toPlay: toPlay, decidedAfter: decidedAfter,
            dormie: decidedAfter == nil && toPlay > 0 && abs(up) == toPlay
        )
    }

    /// One side's score for each hole in four-ball: the lower of the partners' scores, or the one partner's score
    /// when only one has one (Rules of Golf 23.2a); nil while neither has.
    public static func betterBall(_ partners: [[Int?]]) -> [Int?] {
        guard let count = partners.map(\.count).max() else { return [] }
        return (0..<count).map { hole in
            partners.compactMap { hole < $0.count ? $0[hole] : nil }.min()
        }
    }
}
