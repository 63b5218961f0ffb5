import Foundation
import Testing

@testable import CaddieServices

@Suite("Handicap: Handicap Index, caps and exceptional scores (Rules 5.2, 5.3, 5.7-5.9)")
struct HandicapIndexTests {
    /// Twenty differentials whose lowest 8 are `lowest` and the rest 25.0 or more, oldest first, lows spread out.
    static func record(lowest: [Double]) -> [Double] {
        var values = (0..<(20 - lowest.count)).map { 25.0 + Double($0) / 10 }
        for (offset, low) in lowest.enumerated() {
            values.insert(low, at: min(values.count, offset * 2))
        }
        return values
    }

    @Test("20 differentials: the average of the lowest 8")
    func lowestEightOfTwenty() throws {
        // USGA RoH 5.2b: average of the lowest 8 of the most recent 20. 9.0 + 9.5 + 10.2 + 10.8 + 11.0 + 11.4 +
        // 11.6 + 12.9 = 86.4, / 8 = 10.8.
        let lows = [9.0, 9.5, 10.2, 10.8, 11.0, 11.4, 11.6, 12.9]
        let calculation = try Handicap.handicapIndex(differentials: Self.record(lowest: lows))
        #expect(calculation.index == 10.8)
        #expect(calculation.used == lows)
        #expect(calculation.adjustment == 0)
        #expect(calculation.cap == .none)
        #expect(calculation.considered.count(where: \.isUsed) == 8)
    }

    @Test("only the most recent 20 count")
    func olderThanTwentyIsIgnored() throws {
        // USGA RoH 5.2b: "the most recent 20". A 1.0 posted 21 scores ago must not pull the index down.
        let lows = [9.0, 9.5, 10.2, 10.8, 11.0, 11.4, 11.6, 12.9]
        let calculation = try Handicap.handicapIndex(differentials: [1.0] + Self.record(lowest: lows))
        #expect(calculation.index == 10.8)
        #expect(calculation.considered.first?.position == 1)
        #expect(!calculation.usedPositions.contains(0))
    }

    @Test("the table for 3 to 19 differentials")
    func fewerThanTwentyTable() throws {
        // Rule 5.2a table (PATT and East Ham Lodge, HANDICAP.md §2): 3 -> lowest 1 - 2.0; 4 -> lowest 1 - 1.0;
        // 5 -> lowest 1; 6 -> lowest 2 - 1.0; 7-8 -> lowest 2; 9-11 -> 3; 12-14 -> 4; 15-16 -> 5; 17-18 -> 6; 19 -> 7.
        let three = try Handicap.handicapIndex(differentials: [15.2, 12.0, 18.3])
        #expect(three.index == 10.0)
        #expect(three.adjustment == -2)
        #expect(three.used == [12.0])
        #expect(three.usedPositions == [1])

        #expect(try Handicap.handicapIndex(differentials: [15.2, 12.0, 18.3, 14.0]).index == 11.0)
        #expect(try Handicap.handicapIndex(differentials: [15.2, 12.0, 18.3, 14.0, 16.0]).index == 12.0)
        // 6: lowest two 12.1 and 13.3 average 12.7, less 1.0.
        #expect(try Handicap.handicapIndex(differentials: [14.0, 12.1, 13.3, 20.0, 18.5, 16.2]).index == 11.7)

        let expectations: [(count: Int, used: Int)] = [
            (7, 2), (8, 2), (9, 3), (11, 3), (12, 4), (14, 4), (15, 5), (16, 5), (17, 6), (18, 6), (19, 7), (20, 8),
        ]
        for (count, used) in expectations {
            // Differentials 10.0, 11.0, 12.0, ...: the average of the lowest n is 10.0 + (n - 1) / 2.
            let values = (0..<count).map { 10.0 + Double($0) }.reversed()
            let calculation = try Handicap.handicapIndex(differentials: Array(values))
            #expect(calculation.used.count == used, "\(count) differentials")
            #expect(calculation.index == HandicapRounding.toTenth(10.0 + Double(used - 1) / 2), "\(count)")
            #expect(calculation.adjustment == 0)
        }
    }

    @Test("fewer than 3 differentials give no index")
    func noIndexBelowThree() throws {
        // HANDICAP.md §2: an initial index needs 54 holes (3 x 18).
        let calculation = try Handicap.handicapIndex(differentials: [12.0, 14.0])
        #expect(calculation.index == nil)
        #expect(calculation.used.isEmpty)
        #expect(calculation.json == #"{"index": null, "used": [], "adjustment": 0, "cap": "none"}"#)
    }

    @Test("a jurisdiction may require more differentials")
    func configurableMinimum() throws {
        // HANDICAP.md §2: "make the minimum a configuration value".
        #expect(try Handicap.handicapIndex(differentials: [12.0, 14.0, 16.0], minimumDifferentials: 5).index == nil)
        #expect(throws: HandicapError.minimumDifferentialsOutOfRange(2)) {
            try Handicap.handicapIndex(differentials: [12.0, 14.0, 16.0], minimumDifferentials: 2)
        }
    }

    @Test("an index above 54.0 is set to 54.0")
    func maximumIndex() throws {
        // R&A RoH Rule 5.3 / 5.2a note: maximum Handicap Index 54.0. 58.0 - 2.0 = 56.0 -> 54.0.
        let calculation = try Handicap.handicapIndex(differentials: [60.0, 58.0, 62.0])
        #expect(calculation.index == 54.0)
        #expect(calculation.limitedToMaximum)
    }

    @Test("soft cap: average 11.6 against a low index of 6.5 gives 10.6")
    func softCapWorkedExample() throws {
        // USGA committee guidance on Rule 5.8 (soft cap example): 11.6 - 6.5 = 5.1; 5.1 - 3.0 = 2.1; 11.6 - 1.05 =
        // 10.55, rounded to 10.6.
        let lows = [10.0, 10.5, 11.0, 11.5, 11.8, 12.0, 12.5, 13.5]
        let calculation = try Handicap.handicapIndex(differentials: Self.record(lowest: lows), lowHandicapIndex: 6.5)
        #expect(calculation.averageOfUsed == 11.6)
        #expect(calculation.index == 10.6)
        #expect(calculation.cap == .soft)
    }

    @Test("hard cap: average 18.2 against a low index of 10.2 gives 15.2")
    func hardCapWorkedExample() throws {
        // USGA committee guidance on Rule 5.8 (hard cap example): 18.2 - 10.2 = 8.0; soft cap gives 18.2 - 2.5 =
        // 15.7, which is 5.5 above the low index, so the hard cap holds it at 10.2 + 5.0 = 15.2.
        let lows = [16.0, 17.0, 17.5, 18.0, 18.5, 19.0, 19.6, 20.0]
        let calculation = try Handicap.handicapIndex(differentials: Self.record(lowest: lows), lowHandicapIndex: 10.2)
        #expect(calculation.averageOfUsed == 18.2)
        #expect(calculation.index == 15.2)
        #expect(calculation.cap == .hard)
    }

    @Test("soft cap: England Golf's low index 14.8 and average 19.71 give 18.8")
    func softCapEnglandGolfExample() throws {
        // England Golf help centre "What is a soft cap?": low index 14.8, best-8 average 19.71, handicap index
        // 18.8. Lowest 8 summing 157.7 average 19.7125 -> 19.7; 19.7 - 0.5 x (4.9 - 3.0) = 18.75 -> 18.8.
        let lows = [18.0, 18.5, 19.0, 19.5, 20.0, 20.2, 21.0, 21.5]
        let calculation = try Handicap.handicapIndex(differentials: Self.record(lowest: lows), lowHandicapIndex: 14.8)
        #expect(calculation.index == 18.8)
        #expect(calculation.cap == .soft)
    }

    @Test("no cap within 3.0 of the low index, and no limit downwards")
    func noCapWithinThree() throws {
        // USGA FAQ on caps: the upward movement is unrestricted up to 3.0 above the low index; no limit downwards.
        let lows = [9.0, 9.5, 10.2, 10.8, 11.0, 11.4, 11.6, 12.9]
        let within = try Handicap.handicapIndex(differentials: Self.record(lowest: lows), lowHandicapIndex: 7.8)
        #expect(within.index == 10.8)
        #expect(within.cap == .none)
        let below = try Handicap.handicapIndex(differentials: Self.record(lowest: lows), lowHandicapIndex: 20.0)
        #expect(below.index == 10.8)
        #expect(below.cap == .none)
    }

    @Test("exceptional score reduction from the unrounded differential")
    func exceptionalScoreReductionTable() {
        // USGA RoH 5.9: 7.0-9.9 below the index in effect -> -1.0; 10.0 or more -> -2.0; based on the unrounded
        // Score Differential.
        #expect(Handicap.exceptionalScoreReduction(unroundedDifferential: 8.1, handicapIndexWhenPlayed: 15.0) == 0)
        #expect(Handicap.exceptionalScoreReduction(unroundedDifferential: 8.0, handicapIndexWhenPlayed: 15.0) == -1)
        #expect(Handicap.exceptionalScoreReduction(unroundedDifferential: 5.1, handicapIndexWhenPlayed: 15.0) == -1)
        #expect(Handicap.exceptionalScoreReduction(unroundedDifferential: 5.0, handicapIndexWhenPlayed: 15.0) == -2)
        // 5.04 rounds to 5.0 (10.0 below), but the unrounded 9.96 below is what counts: -1.0.
        #expect(Handicap.exceptionalScoreReduction(unroundedDifferential: 5.04, handicapIndexWhenPlayed: 15.0) == -1)
        #expect(Handicap.exceptionalScoreReduction(unroundedDifferential: 2.0, handicapIndexWhenPlayed: nil) == 0)
    }

    @Test("the reduction adjusts the most recent 20 differentials, the exceptional one included, cumulatively")
    func exceptionalScoreReductionAppliesToTwenty() throws {
        // USGA RoH 5.9: applied by adjusting each of the most recent 20 differentials, which includes the
        // exceptional score; reductions for several exceptional scores are cumulative.
        let record = (0..<22).map { Handicap.RecordedDifferential(differential: 10.0 + Double($0)) }
        let once = Handicap.applyingExceptionalScoreReduction(-1.0, to: record)
        #expect(once[0].exceptionalReduction == 0)
        #expect(once[1].exceptionalReduction == 0)
        #expect(once[2].exceptionalReduction == -1.0)
        #expect(once[21].exceptionalReduction == -1.0)
        let twice = Handicap.applyingExceptionalScoreReduction(-2.0, to: once)
        #expect(twice[21].exceptionalReduction == -3.0)
        #expect(twice[21].adjusted == 28.0)
    }

    @Test("a -1.0 reduction on all 20 lowers the index by exactly 1.0")
    func exceptionalScoreLowersIndex() throws {
        // USGA exceptional score FAQ: a -1 adjustment on each of the most recent 20 "has a net impact of reducing
        // the Handicap Index by 1 stroke".
        let lows = [9.0, 9.5, 10.2, 10.8, 11.0, 11.4, 11.6, 12.9]
        let plain = Self.record(lowest: lows).map { Handicap.RecordedDifferential(differential: $0) }
        let reduced = Handicap.applyingExceptionalScoreReduction(-1.0, to: plain)
        let calculation = try Handicap.handicapIndex(record: reduced)
        #expect(calculation.index == 9.8)
        #expect(calculation.exceptionalScoreReductionApplied)
        #expect(calculation.used.first == 8.0)
    }
}
