import Foundation
import Testing

@testable import CaddieServices

@Suite("Handicap: the JSON the caddie CLI prints")
struct HandicapOutputTests {
    @Test("differential --ags 94 --rating 73.0 --slope 125")
    func differentialOutput() throws {
        // Worked example: Pecan Grove WGA, 113/125 x (94 - 73.0) = 19.0.
        let differential = try Handicap.scoreDifferential(adjustedGrossScore: 94, courseRating: 73.0, slopeRating: 125)
        #expect(differential.json == #"{"differential": 19.0}"#)
    }

    @Test("index --differentials ... --low-index 6.5")
    func indexOutput() throws {
        // USGA committee guidance on Rule 5.8 (soft cap example): average 11.6, low index 6.5 -> 10.6, soft.
        let lows = [10.0, 10.5, 11.0, 11.5, 11.8, 12.0, 12.5, 13.5]
        let calculation = try Handicap.handicapIndex(
            differentials: HandicapIndexTests.record(lowest: lows), lowHandicapIndex: 6.5
        )
        let used = "[10.0, 10.5, 11.0, 11.5, 11.8, 12.0, 12.5, 13.5]"
        #expect(calculation.json == #"{"index": 10.6, "used": "# + used + #", "adjustment": 0, "cap": "soft"}"#)
        // Rule 5.2a: three differentials, lowest less 2.0.
        #expect(
            try Handicap.handicapIndex(differentials: [15.2, 12.0, 18.3]).json
                == #"{"index": 10.0, "used": [12.0], "adjustment": -2, "cap": "none"}"#
        )
    }

    @Test("course --index 27.7 --slope 129 --rating 71.1 --par 72 --allowance 85")
    func courseOutput() throws {
        // USGA RoH 6.1a and Appendix C: 30.722 -> 31; 85% -> 26.11 -> 26.
        let result = try Handicap.courseHandicap(
            handicapIndex: 27.7, slopeRating: 129, courseRating: 71.1, par: 72, allowancePercent: 85
        )
        #expect(result.json == #"{"courseHandicap": 31, "playingHandicap": 26, "unrounded": 30.72}"#)
    }

    @Test("strokes --playing-handicap 24")
    func strokesOutput() throws {
        // Rivermont WGA: 24 gives 2 strokes on stroke indexes 1-6 and 1 elsewhere.
        #expect(
            try Handicap.strokeAllocation(playingHandicap: 24).json
                == #"{"strokes": [2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}"#
        )
    }

    @Test("max-hole --course-handicap 24 --par 4 --stroke-index 5")
    func maximumHoleOutput() throws {
        // Rivermont WGA: net double bogey 4 + 2 + 2 = 8.
        #expect(try Handicap.maximumHoleScore(courseHandicap: 24, par: 4, strokeIndex: 5).json == #"{"max": 8}"#)
    }

    @Test("stableford --playing-handicap 23 --par 4 --stroke-index 1 --gross 5")
    func stablefordOutput() throws {
        // Rules of Golf 21.1: net 3 on a par 4 is a net birdie, 3 points.
        #expect(
            try Handicap.netHole(playingHandicap: 23, par: 4, strokeIndex: 1, gross: 5).json == #"{"points": 3}"#
        )
    }

    @Test("negative and zero values print as the Rules round them")
    func numberFormatting() {
        #expect(HandicapJSON.fixed(-5.65, places: 1) == "-5.6")
        #expect(HandicapJSON.fixed(-0.04, places: 1) == "0.0")
        #expect(HandicapJSON.fixed(30.7221, places: 2) == "30.72")
        #expect(HandicapJSON.fixed(4.05, places: 2) == "4.05")
    }
}
