import Foundation
import Testing

@testable import CaddieServices

@Suite("Handicap: course and playing handicaps (Rules 6.1, 6.2, Appendix C)")
struct HandicapCourseTests {
    @Test("index 27.7 on 71.1/129, par 72, at 85%: 30.72 unrounded, course 31, playing 26")
    func courseAndPlayingHandicap() throws {
        // USGA RoH 6.1a: 27.7 x 129/113 + (71.1 - 72) = 30.722 -> 31; Appendix C: 85% of the unrounded value,
        // 26.11 -> 26 (the Caddie CLI's documented example).
        let result = try Handicap.courseHandicap(
            handicapIndex: 27.7, slopeRating: 129, courseRating: 71.1, par: 72, allowancePercent: 85
        )
        #expect(abs(result.unrounded - 30.7221) < 1e-4)
        #expect(result.courseHandicap == 31)
        #expect(result.playingHandicap == 26)
    }

    @Test("9-hole course handicap: index 8.7 on 35.3/121, par 36, gives 4")
    func nineHoleWorkedExample() throws {
        // USGA Local Guidance for Rule 6: 8.7 / 2 = 4.35 -> 4.4; 4.4 x 121/113 + (35.3 - 36) = 4.011 -> 4.
        let result = try Handicap.courseHandicap(
            handicapIndex: 8.7, slopeRating: 121, courseRating: 35.3, par: 36, holes: 9
        )
        #expect(result.indexUsed == 4.4)
        #expect(abs(result.unrounded - 4.0115) < 1e-4)
        #expect(result.courseHandicap == 4)
    }

    @Test("the allowance is applied to the unrounded course handicap")
    func allowanceBeforeRounding() throws {
        // USGA Appendix C: "Handicap allowances are applied to the unrounded Course Handicap as the final step";
        // HANDICAP.md pitfall 2. 12.4 x 85% = 10.54 -> 11, where the rounded 12 x 85% = 10.2 would give 10.
        let result = try Handicap.courseHandicap(
            handicapIndex: 12.4, slopeRating: 113, courseRating: 72.0, par: 72,
            allowancePercent: Handicap.Format.fourBallStrokePlay.allowancePercent
        )
        #expect(result.courseHandicap == 12)
        #expect(result.playingHandicap == 11)
    }

    @Test("a plus handicap moves up towards zero, including rounding")
    func plusHandicapRounding() throws {
        // R&A Appendix C: "a player with a plus Playing Handicap moves up towards zero including rounding".
        // +5.0 at 90% is +4.5, which rounds to +4 (not +5); +2.4 is a course handicap of +2 and at 95% +2.28 -> +2.
        let five = try Handicap.courseHandicap(
            handicapIndex: -5.0, slopeRating: 113, courseRating: 72.0, par: 72, allowancePercent: 90
        )
        #expect(five.courseHandicap == -5)
        #expect(five.playingHandicap == -4)
        let two = try Handicap.courseHandicap(
            handicapIndex: -2.4, slopeRating: 113, courseRating: 72.0, par: 72, allowancePercent: 95
        )
        #expect(two.courseHandicap == -2)
        #expect(two.playingHandicap == -2)
    }

    @Test("the (Course Rating - Par) term can be switched off for a jurisdiction")
    func courseRatingMinusParFlag() throws {
        // HANDICAP.md §6: GB&I launched with HI x Slope / 113 only. 27.7 x 129/113 = 31.62 -> 32.
        let result = try Handicap.courseHandicap(
            handicapIndex: 27.7, slopeRating: 129, courseRating: 71.1, par: 72, includeCourseRatingMinusPar: false
        )
        #expect(result.courseHandicap == 32)
    }

    @Test("recommended allowances by format")
    func recommendedAllowances() {
        // USGA / R&A Appendix C table (HANDICAP.md §7).
        #expect(Handicap.Format.individualStrokePlay.allowancePercent == 95)
        #expect(Handicap.Format.individualStableford.allowancePercent == 95)
        #expect(Handicap.Format.individualMatchPlay.allowancePercent == 100)
        #expect(Handicap.Format.fourBallStrokePlay.allowancePercent == 85)
        #expect(Handicap.Format.fourBallParBogey.allowancePercent == 90)
        #expect(Handicap.Format.fourBallMatchPlay.allowancePercent == 90)
        #expect(Handicap.Format.bestOneOfFourStrokePlay.allowancePercent == 75)
        #expect(Handicap.Format.bestTwoOfFourStrokePlay.allowancePercent == 85)
        #expect(Handicap.Format.bestThreeOfFourStrokePlay.allowancePercent == 100)
        #expect(Handicap.Format.bestTwoOfFourParBogey.allowancePercent == 80)
    }

    @Test("foursomes: 50% of the combined unrounded course handicaps")
    func foursomes() throws {
        // Appendix C: foursomes 50% of the combined team handicap. (10.4 + 20.3) x 50% = 15.35 -> 15.
        let team = try Handicap.teamHandicap(format: .foursomes, courseHandicaps: [10.4, 20.3])
        #expect(team.playingHandicap == 15)
        #expect(team.percents == [50, 50])
        // Rounded once, at the end (allowances apply to unrounded Course Handicaps as the final step): (10.6 + 20.6)
        // x 50% = 15.6 -> 16, where rounding each player's half first would give 5 + 10 = 15.
        #expect(try Handicap.teamHandicap(format: .foursomes, courseHandicaps: [10.6, 20.6]).playingHandicap == 16)
    }

    @Test("Chapman and greensomes: 60% of the lower, 40% of the higher")
    func chapmanAndGreensomes() throws {
        // Appendix C: Pinehurst/Chapman and greensomes 60% low / 40% high. 60% x 8.0 + 40% x 20.0 = 12.8 -> 13.
        let chapman = try Handicap.teamHandicap(format: .chapman, courseHandicaps: [20.0, 8.0])
        #expect(chapman.percents == [40, 60])
        #expect(chapman.playingHandicap == 13)
        let greensomes = try Handicap.teamHandicap(format: .greensomes, courseHandicaps: [8.0, 20.0])
        #expect(greensomes.percents == [60, 40])
        #expect(greensomes.playingHandicap == 13)
    }

    @Test("scrambles: 25/20/15/10, 30/20/10, 35/15 from the lowest handicap")
    func scrambles() throws {
        // Appendix C scramble allowances. Four players 10.0, 2.0, 20.0, 30.0: 25% x 2 + 20% x 10 + 15% x 20 +
        // 10% x 30 = 0.5 + 2 + 3 + 3 = 8.5 -> 9.
        let four = try Handicap.teamHandicap(format: .scramble, courseHandicaps: [10.0, 2.0, 20.0, 30.0])
        #expect(four.percents == [20, 25, 15, 10])
        #expect(four.playingHandicap == 9)
        // Three players 6.0, 12.0, 18.0: 1.8 + 2.4 + 1.8 = 6.0.
        #expect(try Handicap.teamHandicap(format: .scramble, courseHandicaps: [6.0, 12.0, 18.0]).playingHandicap == 6)
        // Two players 10.0 and 20.0: 3.5 + 3.0 = 6.5 -> 7.
        #expect(try Handicap.teamHandicap(format: .scramble, courseHandicaps: [20.0, 10.0]).playingHandicap == 7)
    }

    @Test("match play: the lowest plays off zero, the others get the difference")
    func matchPlayDifference() {
        // Appendix C: "the player with the lowest Playing Handicap plays off zero ... the other player(s) receive(s)
        // the difference".
        #expect(Handicap.matchPlayStrokes(playingHandicaps: [10, 4, 15]) == [6, 0, 11])
        #expect(Handicap.matchPlayStrokes(playingHandicaps: [-2, 3]) == [0, 5])
        #expect(Handicap.matchPlayStrokes(playingHandicaps: []) == [])
    }
}
