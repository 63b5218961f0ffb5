import Foundation

extension Handicap {
    /// One score differential in a scoring record, with any exceptional score reductions applied to it (Rule 5.9).
    public struct RecordedDifferential: Sendable, Equatable {
        /// The Score Differential as posted, rounded to the tenth.
        public let differential: Double
        /// The sum of the exceptional score reductions applied to it: 0, -1.0, -2.0, or less when several add up.
        public let exceptionalReduction: Double

        /// A recorded differential; `exceptionalReduction` is 0 unless an exceptional score reduced it.
        public init(differential: Double, exceptionalReduction: Double = 0) {
            self.differential = differential
            self.exceptionalReduction = exceptionalReduction
        }

        /// The value the Handicap Index calculation uses: the differential plus its reductions.
        public var adjusted: Double { HandicapRounding.toTenth(differential + exceptionalReduction) }
    }

    /// One of the most recent 20 differentials, and whether it counted.
    public struct ConsideredDifferential: Sendable, Equatable {
        /// Its position in the list the calculation was given (0 is the oldest).
        public let position: Int
        /// The differential with its exceptional score reductions.
        public let recorded: RecordedDifferential
        /// Whether it is one of the lowest differentials averaged.
        public let isUsed: Bool
    }

    /// A Handicap Index and how it was reached (Rules 5.2, 5.3, 5.7, 5.8, 5.9).
    public struct IndexCalculation: Sendable, Equatable {
        /// The Handicap Index, or nil while the record has fewer differentials than the minimum (3 by default).
        public let index: Double?
        /// The most recent differentials the calculation looked at (up to 20), oldest first.
        public let considered: [ConsideredDifferential]
        /// The differentials averaged (with reductions applied), lowest first.
        public let used: [Double]
        /// Where the differentials in `used` are in the list given, in the same order.
        public let usedPositions: [Int]
        /// The average of `used`, rounded to the tenth, before adjustment and caps.
        public let averageOfUsed: Double?
        /// The adjustment from the table for fewer than 20 differentials: -2, -1 or 0 (Rule 5.2a).
        public let adjustment: Int
        /// The Low Handicap Index the caps were measured against, if there was one (Rule 5.7).
        public let lowHandicapIndex: Double?
        /// Which cap limited the index (Rule 5.8).
        public let cap: Cap
        /// Whether any considered differential carries an exceptional score reduction (Rule 5.9).
        public let exceptionalScoreReductionApplied: Bool
        /// Whether the index was brought down to 54.0 (Rule 5.3).
        public let limitedToMaximum: Bool

        /// The CLI's output: `{"index": 10.8, "used": [...], "adjustment": 0, "cap": "none"}`.
        public var json: String {
            HandicapJSON.object([
                "index": .number(index, places: 1),
                "used": .array(used.map { .number($0, places: 1) }),
                "adjustment": .int(adjustment),
                "cap": .string(cap.rawValue),
            ])
        }
    }

    /// The Handicap Index from plain differentials, oldest first (the most recent 20 are the last 20).
    /// - Parameters:
    ///   - differentials: Score Differentials in the order they were played, oldest first.
    ///   - lowHandicapIndex: the lowest index of the 365 days before the most recent score; the caps apply only
    ///     when one is given (it exists once the record holds 20 scores, Rule 5.7).
    ///   - minimumDifferentials: how many differentials an index needs, 3...20 (54 holes by default).
    public static func handicapIndex(
        differentials: [Double],
        lowHandicapIndex: Double? = nil,
        minimumDifferentials: Int = 3
    ) throws(HandicapError) -> IndexCalculation {
        try handicapIndex(
            record: differentials.map { RecordedDifferential(differential: $0) },
            lowHandicapIndex: lowHandicapIndex,
            minimumDifferentials: minimumDifferentials
        )
    }

    /// The Handicap Index from a scoring record whose differentials may carry exceptional score reductions.
    ///
    /// The most recent 20 are considered; the lowest of them per the Rule 5.2 table are averaged and rounded to the
    /// tenth; the table's adjustment is added; the soft and hard caps are applied against `lowHandicapIndex`; the
    /// result is at most 54.0.
    public static func handicapIndex(
        record: [RecordedDifferential],
        lowHandicapIndex: Double? = nil,
        minimumDifferentials: Int = 3
    ) throws(HandicapError) -> IndexCalculation {
        guard (3...scoringRecordSize).contains(minimumDifferentials) else {
            throw .minimumDifferentialsOutOfRange(minimumDifferentials)
        }
        for entry in record {
            for value in [entry.differential, entry.exceptionalReduction] {
                guard value.isFinite, (-100.0...300.0).contains(value) else { throw .differentialOutOfRange(value) }
            }
        }
        if let low = lowHandicapIndex {
            guard low.isFinite, handicapIndexRange.contains(low) else { throw .lowHandicapIndexOutOfRange(low) }
        }

        let firstPosition = max(0, record.count - scoringRecordSize)
        let recent = Array(record[firstPosition...])
        let row = recent.count >= minimumDifferentials ? IndexTableRow.forRecord(of: recent.count) : nil
        // Lowest first; among equal values the older one counts first, so the choice is deterministic.
        let lowest = recent.indices
            .sorted { (recent[$0].adjusted, $0) < (recent[$1].adjusted, $1) }
            .prefix(row?.used ?? 0)
        let usedSet = Set(lowest)
        let considered = recent.indices.map {
            ConsideredDifferential(position: firstPosition + $0, recorded: recent[$0], isUsed: usedSet.contains($0))
        }
        let reduced = recent.contains { $0.exceptionalReduction != 0 }

        guard let row else {
            return IndexCalculation(
                index: nil, considered: considered, used: [], usedPositions: [], averageOfUsed: nil, adjustment: 0,
                lowHandicapIndex: lowHandicapIndex, cap: .none, exceptionalScoreReductionApplied: reduced,
                limitedToMaximum: false
            )
        }
        let used = lowest.map { recent[$0].adjusted }
        let average = HandicapRounding.toTenth(used.reduce(0, +) / Double(used.count))
        let adjusted = HandicapRounding.toTenth(average + Double(row.adjustment))
        let capped = Cap.apply(average: adjusted, lowHandicapIndex: lowHandicapIndex)
        let limited = capped.index > maximumHandicapIndex
        return IndexCalculation(
            index: limited ? maximumHandicapIndex : capped.index,
            considered: considered,
            used: used,
            usedPositions: lowest.map { firstPosition + $0 },
            averageOfUsed: average,
            adjustment: row.adjustment,
            lowHandicapIndex: lowHandicapIndex,
            cap: capped.cap,
            exceptionalScoreReductionApplied: reduced,
            limitedToMaximum: limited
        )
    }
}
