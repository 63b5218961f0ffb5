import Foundation
import Testing

@testable import CaddieServices

@Suite("Handicap: an index from a player's rounds, with the working")
struct HandicapRecordTests {
    static func day(_ number: Int) -> Date {
        Date(timeIntervalSince1970: 1_704_067_200 + Double(number) * 86_400)
    }

    /// An 18-hole round on a par-72 course rated 72.0/113, where the differential equals AGS - 72.
    static func eighteen(_ day: Int, _ adjustedGross: Int) -> Handicap.Round {
        Handicap.Round(
            date: Self.day(day), score: .adjustedGross(adjustedGross, holesPlayed: 18), courseRating: 72.0,
            slopeRating: 113, par: 72
        )
    }

    /// A 9-hole round on a par-36 nine rated 36.0/113.
    static func nine(_ day: Int, _ adjustedGross: Int) -> Handicap.Round {
        Handicap.Round(
            date: Self.day(day), holes: 9, score: .adjustedGross(adjustedGross, holesPlayed: 9), courseRating: 36.0,
            slopeRating: 113, par: 36
        )
    }

    @Test("a new player's first three rounds: par + 5 caps, then lowest 1 less 2.0")
    func newPlayer() throws {
        // R&A Rule 3.1a: par + 5 per hole without an index (an 11 on a par 4 counts 9). Rule 5.2a table: 3 scores ->
        // lowest 1 - 2.0. Differentials 22.0, 18.0, 20.0 give 16.0; given out of order, "most recent" is by date.
        var strokes: [Int?] = Array(repeating: 5, count: 18)
        strokes[0] = 11
        let holes = HandicapStrokesTests.parFourCard(strokes: strokes)
        let first = Handicap.Round(
            date: Self.day(1), score: .holeByHole(holes), courseRating: 72.0, slopeRating: 113, par: 72
        )
        let result = try Handicap.handicapIndex(rounds: [Self.eighteen(3, 92), first, Self.eighteen(2, 90)])
        #expect(result.rounds.map(\.position) == [1, 2, 0])
        #expect(result.rounds[0].adjustedGrossScore == 94)
        #expect(result.rounds.map { $0.differential?.value } == [22.0, 18.0, 20.0])
        #expect(result.rounds.map(\.indexAfter) == [nil, nil, 16.0])
        #expect(result.index == 16.0)
        #expect(result.calculation.adjustment == -2)
        #expect(result.rounds.map(\.counts) == [false, true, false])
    }

    @Test("an exceptional round reduces every differential in the record")
    func exceptionalRoundInRecord() throws {
        // USGA RoH 5.9: index 16.0 when played, differential 8.0 is 8.0 below -> -1.0 on all differentials. Record
        // 21, 17, 19, 7 (4 scores) -> lowest 7.0 - 1.0 = 6.0.
        let rounds = [Self.eighteen(1, 94), Self.eighteen(2, 90), Self.eighteen(3, 92), Self.eighteen(10, 80)]
        let result = try Handicap.handicapIndex(rounds: rounds)
        #expect(result.rounds[3].indexWhenPlayed == 16.0)
        #expect(result.rounds[3].exceptionalReductionTriggered == -1.0)
        #expect(result.rounds.map(\.exceptionalReductionCarried) == [-1.0, -1.0, -1.0, -1.0])
        #expect(result.index == 6.0)
        #expect(result.calculation.exceptionalScoreReductionApplied)
    }

    @Test("9-hole scores: paired before the player has an index, then combined with the expected score")
    func nineHoleScores() throws {
        // USGA new-player FAQ: expected score is not used until 54 holes are posted; the two nines before that are
        // combined (2020 Rule 5.1b) [inferred]. After that, USGA 2024 FAQ: each 9-hole score plus the expected 9-hole
        // differential from the current index. Test model: (index + 4.0) x holes / 18.
        let model = Handicap.ExpectedDifferential(name: "test") { index, holes in (index + 4.0) * Double(holes) / 18 }
        let rounds = [
            Self.nine(1, 45), Self.nine(2, 47), Self.eighteen(3, 90), Self.eighteen(4, 94), Self.nine(10, 44),
        ]
        let result = try Handicap.handicapIndex(
            rounds: rounds, configuration: Handicap.Configuration(expectedDifferential: model)
        )
        #expect(result.rounds[0].treatment == .nineHolesCombined)
        #expect(result.rounds[0].combinedWithPosition == 1)
        #expect(result.rounds[1].differential?.value == 20.0)
        #expect(result.rounds[1].treatment == .nineHolesCombined)
        // Differentials 20.0, 18.0, 22.0 -> 16.0; then 8.0 + (16.0 + 4.0) / 2 = 18.0.
        #expect(result.rounds[3].indexAfter == 16.0)
        #expect(result.rounds[4].treatment == .nineHolesWithExpectedScore)
        #expect(result.rounds[4].differential?.value == 18.0)
        #expect(result.expectedScoreModel == "test")
        // 20.0, 18.0, 22.0, 18.0: 4 scores -> lowest 18.0 - 1.0.
        #expect(result.index == 17.0)
    }

    @Test("holes not played: net par where authorised, too few holes and no index are reported")
    func holesNotPlayed() throws {
        // USGA RoH 3.2 / 2024 revision: 10-17 holes need the index for expected score or net par; fewer than 10 of
        // 18 are not acceptable. Index 16.0 on 72.0/113 par 72 is course handicap 16, so holes 15 and 16 (SI 15, 16)
        // get a stroke: net pars 5, 5, 4, 4; fourteen 5s = 70; AGS 88 -> 16.0.
        let strokes: [Int?] = Array(repeating: 5, count: 14) + [nil, nil, nil, nil]
        let holes = HandicapStrokesTests.parFourCard(strokes: strokes)
        let partial = Handicap.Round(
            date: Self.day(10), score: .holeByHole(holes), courseRating: 72.0, slopeRating: 113, par: 72
        )
        let early = Handicap.Round(
            date: Self.day(0), score: .adjustedGross(60, holesPlayed: 12), courseRating: 72.0, slopeRating: 113,
            par: 72
        )
        let short = Handicap.Round(
            date: Self.day(11), score: .adjustedGross(40, holesPlayed: 8), courseRating: 72.0, slopeRating: 113,
            par: 72
        )
        let rounds = [early, Self.eighteen(1, 94), Self.eighteen(2, 90), Self.eighteen(3, 92), partial, short]
        let result = try Handicap.handicapIndex(
            rounds: rounds, configuration: Handicap.Configuration(netParForHolesNotPlayed: true)
        )
        #expect(result.rounds[0].notAcceptableBecause == .holesNotPlayedWithoutIndex(played: 12))
        #expect(result.rounds[4].treatment == .partialRoundWithNetPar)
        #expect(result.rounds[4].courseHandicapWhenPlayed == 16)
        #expect(result.rounds[4].adjustedGrossScore == 88)
        #expect(result.rounds[4].differential?.value == 16.0)
        #expect(result.rounds[5].notAcceptableBecause == .tooFewHolesPlayed(played: 8, required: 10))
        // 22.0, 18.0, 20.0, 16.0 -> lowest 16.0 - 1.0.
        #expect(result.index == 15.0)
    }

    @Test("holes not played by default: expected score for the rest; a lone nine waits for a partner")
    func expectedScoreForHolesNotPlayed() throws {
        // USGA/Golf Canada 2024 treatment of holes not played: the differential of the holes played plus the expected
        // differential of those not played, by default. Index 16.0 when played; 14 holes in 64 on 72.0/113 rate
        // 72.0 x 14/18 = 56.0 [inferred pro rata], giving 8.0; test model (16.0 + 2.0) x 4/18 = 4.0: 12.0.
        let model = Handicap.ExpectedDifferential(name: "test") { index, holes in (index + 2.0) * Double(holes) / 18 }
        let partial = Handicap.Round(
            date: Self.day(10), score: .adjustedGross(64, holesPlayed: 14), courseRating: 72.0, slopeRating: 113,
            par: 72
        )
        let rounds = [Self.nine(0, 45), Self.eighteen(1, 94), Self.eighteen(2, 90), Self.eighteen(3, 92), partial]
        let result = try Handicap.handicapIndex(
            rounds: rounds, configuration: Handicap.Configuration(expectedDifferential: model)
        )
        #expect(result.rounds[0].treatment == .awaitingSecondNine)
        #expect(result.rounds[0].differential?.holes == 9)
        #expect(result.rounds[4].treatment == .partialRoundWithExpectedScore)
        #expect(result.rounds[4].differential?.value == 12.0)
        #expect(result.rounds[4].differential?.usesExpectedScore == true)
        // 22.0, 18.0, 20.0, 12.0: lowest 12.0 - 1.0; 12.0 is 4.0 below 16.0, not exceptional.
        #expect(result.rounds[4].exceptionalReductionTriggered == 0)
        #expect(result.index == 11.0)
    }

    @Test("caps against the lowest index of the last 365 days")
    func capsInRecord() throws {
        // USGA RoH 5.7/5.8 and committee guidance: twenty 10.0 differentials (the lowest index on the way is 8.0,
        // from 3 scores, 10.0 - 2.0), then twenty 14.0s: average 14.0, 6.0 above 8.0, soft cap 14.0 - 1.5 = 12.5.
        let soft = (0..<20).map { Self.eighteen($0, 82) } + (20..<40).map { Self.eighteen($0, 86) }
        let softResult = try Handicap.handicapIndex(rounds: soft)
        #expect(softResult.lowHandicapIndex == 8.0)
        #expect(softResult.calculation.averageOfUsed == 14.0)
        #expect(softResult.index == 12.5)
        #expect(softResult.calculation.cap == .soft)

        // Twenty 20.0s instead: 20.0 - 0.5 x 9.0 = 15.5 is 7.5 above 8.0, so the hard cap holds it at 13.0.
        let hard = (0..<20).map { Self.eighteen($0, 82) } + (20..<40).map { Self.eighteen($0, 92) }
        let hardResult = try Handicap.handicapIndex(rounds: hard)
        #expect(hardResult.index == 13.0)
        #expect(hardResult.calculation.cap == .hard)

        // The same twenty 20.0s played 500 days later: the 8.0 is out of the window; the low index is the 10.0 in
        // effect when the window opened, and the hard cap is 15.0.
        let later = (0..<20).map { Self.eighteen($0, 82) } + (500..<520).map { Self.eighteen($0, 92) }
        let laterResult = try Handicap.handicapIndex(rounds: later)
        #expect(laterResult.lowHandicapIndex == 10.0)
        #expect(laterResult.index == 15.0)
        #expect(laterResult.calculation.cap == .hard)
    }

    @Test("bad rounds throw before anything is computed")
    func badRoundThrows() {
        // Bad input gets a clear error (DESIGN.md operating properties); slope range from USGA RoH 5.1.
        let bad = Handicap.Round(
            date: Self.day(0), score: .adjustedGross(90, holesPlayed: 18), courseRating: 72.0, slopeRating: 160,
            par: 72
        )
        #expect(throws: HandicapError.slopeRatingOutOfRange(160)) {
            try Handicap.handicapIndex(rounds: [Self.eighteen(1, 90), bad])
        }
    }
}
