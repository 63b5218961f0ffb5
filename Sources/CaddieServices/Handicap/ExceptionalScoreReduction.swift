import Foundation

extension Handicap {
    /// The exceptional score reduction a new score triggers (Rule 5.9): -1.0 when its unrounded Score Differential is
    /// 7.0 to 9.9 below the Handicap Index in effect when it was played, -2.0 when 10.0 or more below, else 0.
    /// - Parameters:
    ///   - unroundedDifferential: the new score's differential before rounding.
    ///   - handicapIndexWhenPlayed: the index in effect when the round was played; nil (no index yet) gives 0.
    public static func exceptionalScoreReduction(
        unroundedDifferential: Double,
        handicapIndexWhenPlayed: Double?
    ) -> Double {
        guard let index = handicapIndexWhenPlayed, unroundedDifferential.isFinite else { return 0 }
        let below = index - unroundedDifferential
        if HandicapRounding.isAtLeast(below, 10.0) { return -2.0 }
        if HandicapRounding.isAtLeast(below, 7.0) { return -1.0 }
        return 0
    }

    /// `record` after an exceptional score reduction: the reduction is added to each of the most recent 20
    /// differentials, the exceptional one (the last) included, or to all of them when there are fewer (Rule 5.9).
    /// Reductions add up when several scores are exceptional.
    public static func applyingExceptionalScoreReduction(
        _ reduction: Double,
        to record: [RecordedDifferential]
    ) -> [RecordedDifferential] {
        guard reduction != 0 else { return record }
        let first = max(0, record.count - scoringRecordSize)
        return record.enumerated().map { position, entry in
            guard position >= first else { return entry }
            return RecordedDifferential(
                differential: entry.differential,
                exceptionalReduction: entry.exceptionalReduction + reduction
            )
        }
    }
}
