import Foundation

extension Handicap {
    /// What happened to one round of a scoring record.
    public struct RoundWorking: Sendable, Equatable {
        /// How the round became (or did not become) an 18-hole Score Differential.
        public enum Treatment: String, Sendable, Equatable {
            /// 18 holes played.
            case eighteenHoles
            /// 9 holes combined with the expected differential of the other nine (2024 revision, Rule 5.1b).
            case nineHolesWithExpectedScore
            /// 9 holes combined with another 9-hole score, for a player with no index yet. [inferred]
            case nineHolesCombined
            /// 9 holes waiting for a second 9-hole score to combine with.
            case awaitingSecondNine
            /// 10-17 holes plus the expected differential of the holes not played (2024 revision, Rule 3.2).
            case partialRoundWithExpectedScore
            /// 10-17 holes with net par on the holes not played (Rule 3.2, where authorised).
            case partialRoundWithNetPar
            /// Not acceptable for handicap purposes; `notAcceptableBecause` says why.
            case notAcceptable
        }

        /// The round's position in the list given.
        public let position: Int
        /// When it was played.
        public let date: Date
        /// The length it was rated for, 9 or 18.
        public let holes: Int
        /// How many holes were played.
        public let holesPlayed: Int
        /// The Handicap Index in effect when it was played (after the last round on an earlier date).
        public let indexWhenPlayed: Double?
        /// The Course Handicap the maximum hole scores used, when there was an index.
        public let courseHandicapWhenPlayed: Int?
        /// The adjusted gross score of the holes played (with net pars, when used).
        public let adjustedGrossScore: Int
        /// How the round was treated.
        public internal(set) var treatment: Treatment
        /// The differential it produced: 18-hole, or 9-hole while awaiting a second nine.
        public internal(set) var differential: ScoreDifferential?
        /// The other 9-hole round it was combined with.
        public internal(set) var combinedWithPosition: Int?
        /// The exceptional score reduction it triggered: 0, -1.0 or -2.0 (Rule 5.9).
        public internal(set) var exceptionalReductionTriggered: Double = 0
        /// The reductions its differential carries at the end, its own and later exceptional scores'.
        public internal(set) var exceptionalReductionCarried: Double = 0
        /// Whether its differential is one of those averaged for the current index.
        public internal(set) var counts = false
        /// The Handicap Index after it was posted.
        public internal(set) var indexAfter: Double?
        /// Why it is not acceptable, when it is not.
        public internal(set) var notAcceptableBecause: HandicapError?
    }

    /// A player's Handicap Index computed from their rounds, with the working.
    public struct RecordCalculation: Sendable, Equatable {
        /// Every round, oldest first, with what it contributed.
        public let rounds: [RoundWorking]
        /// The calculation of the current index over the scoring record's differentials (positions in it are the
        /// order of the differentials, not of the rounds; `RoundWorking.counts` maps them back).
        public let calculation: IndexCalculation
        /// The Low Handicap Index the current index was capped against, once the record holds 20 differentials.
        public let lowHandicapIndex: Double?
        /// The name of the expected-differential model, when any round needed one (such an index is unofficial
        /// unless the model is the association's).
        public let expectedScoreModel: String?

        /// The current Handicap Index, or nil before there are enough scores.
        public var index: Double? { calculation.index }
    }

    /// A player's Handicap Index from their rounds, replayed in date order so that each round sees the index in
    /// effect when it was played: for its maximum hole scores, the expected score and exceptional score reduction.
    ///
    /// After each round the index is recalculated (Rule 5.2) from the most recent 20 differentials with exceptional
    /// score reductions (Rule 5.9), and, once 20 differentials exist, capped against the lowest index of the 365
    /// days before that round (Rules 5.7, 5.8). Rounds on the same date see the index from before that date.
    /// Structurally bad rounds throw; rounds the Rules do not accept (too few holes) are kept in the working as
    /// `notAcceptable`.
    public static func handicapIndex(
        rounds: [Round],
        configuration: Configuration = .standard
    ) throws(HandicapError) -> RecordCalculation {
        guard (3...scoringRecordSize).contains(configuration.minimumDifferentials) else {
            throw .minimumDifferentialsOutOfRange(configuration.minimumDifferentials)
        }
        for round in rounds { try round.validate() }
        let order = rounds.indices.sorted { (rounds[$0].date, $0) < (rounds[$1].date, $1) }

        var record: [RecordedDifferential] = []
        var workingOfEntry: [Int] = []
        var history: [(date: Date, index: Double)] = []
        var workings: [RoundWorking] = []
        var pendingNine: Int?
        var usedExpected = false
        var lowIndex: Double?
        var current = try handicapIndex(record: [], minimumDifferentials: configuration.minimumDifferentials)

        for position in order {
            let round = rounds[position]
            let indexWhenPlayed = history.last(where: { $0.date < round.date })?.index
            var working = try assess(round, position: position, indexWhenPlayed: indexWhenPlayed, configuration)

            if working.treatment == .awaitingSecondNine, let differential = working.differential {
                if let pending = pendingNine, let first = workings[pending].differential {
                    // A nine waiting from before the player had an index pairs with the next nine. [inferred]
                    working.differential = combiningNines(first, differential)
                    working.treatment = .nineHolesCombined
                    working.combinedWithPosition = workings[pending].position
                    workings[pending].combinedWithPosition = position
                    workings[pending].treatment = .nineHolesCombined
                    pendingNine = nil
                } else if let index = indexWhenPlayed {
                    working.differential = try scoreDifferential(
                        adjustedGrossScore: working.adjustedGrossScore, courseRating: round.courseRating,
                        slopeRating: round.slopeRating, pcc: round.pcc, holes: 9, handicapIndex: index,
                        expected: configuration.expectedDifferential
                    )
                    working.treatment = .nineHolesWithExpectedScore
                } else {
                    pendingNine = workings.count
                    workings.append(working)
                    continue
                }
            }
            guard let differential = working.differential else {
                workings.append(working)
                continue
            }
            usedExpected = usedExpected || differential.usesExpectedScore

            let reduction = exceptionalScoreReduction(
                unroundedDifferential: differential.unrounded, handicapIndexWhenPlayed: indexWhenPlayed
            )
            working.exceptionalReductionTriggered = reduction
            record = applyingExceptionalScoreReduction(
                reduction, to: record + [RecordedDifferential(differential: differential.value)]
            )
            workingOfEntry.append(workings.count)
            lowIndex = record.count >= scoringRecordSize ? lowestIndex(in: history, before: round.date) : nil
            current = try handicapIndex(
                record: record, lowHandicapIndex: lowIndex, minimumDifferentials: configuration.minimumDifferentials
            )
            if let index = current.index { history.append((round.date, index)) }
            working.indexAfter = current.index
            workings.append(working)
        }

        for (entry, recorded) in record.enumerated() {
            workings[workingOfEntry[entry]].exceptionalReductionCarried = recorded.exceptionalReduction
        }
        for entry in current.usedPositions {
            workings[workingOfEntry[entry]].counts = true
        }
        return RecordCalculation(
            rounds: workings,
            calculation: current,
            lowHandicapIndex: lowIndex,
            expectedScoreModel: usedExpected ? configuration.expectedDifferential.name : nil
        )
    }

    /// The lowest index in effect during the 365 days before `date`: those set in the window and the one already in
    /// effect when the window opened (Rule 5.7).
    static func lowestIndex(in history: [(date: Date, index: Double)], before date: Date) -> Double? {
        let windowStart = date.addingTimeInterval(-365 * 24 * 60 * 60)
        let inWindow = history.filter { $0.date >= windowStart && $0.date < date }.map(\.index)
        let inEffectAtStart = history.last(where: { $0.date < windowStart }).map { [$0.index] } ?? []
        return (inWindow + inEffectAtStart).min()
    }

    /// Adjusts a round's score and works out its differential, except for the pairing of 9-hole scores, which
    /// depends on the rest of the record: a 9-hole round comes back `awaitingSecondNine` with its 9-hole differential.
    static func assess(
        _ round: Round,
        position: Int,
        indexWhenPlayed: Double?,
        _ configuration: Configuration
    ) throws(HandicapError) -> RoundWorking {
        let courseHandicap = try indexWhenPlayed.map { index throws(HandicapError) in
            try Handicap.courseHandicap(
                handicapIndex: index, slopeRating: round.slopeRating, courseRating: round.courseRating,
                par: round.par, holes: round.holes,
                includeCourseRatingMinusPar: configuration.includeCourseRatingMinusPar
            ).courseHandicap
        }
        let played = round.holesPlayed
        // Net par stands in for holes not played only where authorised, with a Course Handicap and hole scores.
        let partial = round.holes == 18 && (10...17).contains(played)
        var netParFilled = false
        let adjustedGross: Int
        switch round.score {
        case .adjustedGross(let total, _):
            adjustedGross = total
        case .holeByHole(let holes):
            netParFilled = partial && configuration.netParForHolesNotPlayed && courseHandicap != nil
            adjustedGross = try adjustedGrossScore(
                holes: holes, courseHandicap: courseHandicap, netParForHolesNotPlayed: netParFilled
            ).total
        }
        var working = RoundWorking(
            position: position, date: round.date, holes: round.holes, holesPlayed: played,
            indexWhenPlayed: indexWhenPlayed, courseHandicapWhenPlayed: courseHandicap,
            adjustedGrossScore: adjustedGross, treatment: .notAcceptable
        )

        switch (round.holes, played) {
        case (9, 9):
            working.treatment = .awaitingSecondNine
            working.differential = try scoreDifferential(
                adjustedGrossScore: adjustedGross, courseRating: round.courseRating, slopeRating: round.slopeRating,
                pcc: round.pcc, holes: 9
            )
        case (9, _):
            working.notAcceptableBecause = .tooFewHolesPlayed(played: played, required: 9)
        case (_, 18):
            working.treatment = .eighteenHoles
            working.differential = try scoreDifferential(
                adjustedGrossScore: adjustedGross, courseRating: round.courseRating, slopeRating: round.slopeRating,
                pcc: round.pcc
            )
        case (_, ..<10):
            working.notAcceptableBecause = .tooFewHolesPlayed(played: played, required: 10)
        default:
            guard let index = indexWhenPlayed else {
                working.notAcceptableBecause = .holesNotPlayedWithoutIndex(played: played)
                break
            }
            if netParFilled {
                working.treatment = .partialRoundWithNetPar
                working.differential = try scoreDifferential(
                    adjustedGrossScore: adjustedGross, courseRating: round.courseRating,
                    slopeRating: round.slopeRating, pcc: round.pcc
                )
            } else {
                working.treatment = .partialRoundWithExpectedScore
                working.differential = try partialRoundDifferential(
                    adjustedGrossScore: adjustedGross, holesPlayed: played, courseRating: round.courseRating,
                    slopeRating: round.slopeRating, pcc: round.pcc, handicapIndex: index,
                    expected: configuration.expectedDifferential
                )
            }
        }
        return working
    }
}
