import Foundation
import Testing

@testable import CaddieServices

@Suite("Handicap: bad input is refused with a one-line error")
struct HandicapInputTests {
    @Test("slope outside 55...155")
    func slopeOutOfRange() {
        // USGA RoH 5.1 / Appendix G: Slope Ratings run from 55 to 155.
        #expect(throws: HandicapError.slopeRatingOutOfRange(160)) {
            try Handicap.scoreDifferential(adjustedGrossScore: 90, courseRating: 72.0, slopeRating: 160)
        }
        #expect(throws: HandicapError.slopeRatingOutOfRange(54)) {
            try Handicap.courseHandicap(handicapIndex: 10.0, slopeRating: 54, courseRating: 72.0, par: 72)
        }
    }

    @Test("negative or impossible adjusted gross score")
    func adjustedGrossOutOfRange() {
        #expect(throws: HandicapError.adjustedGrossScoreOutOfRange(-5, holes: 18)) {
            try Handicap.scoreDifferential(adjustedGrossScore: -5, courseRating: 72.0, slopeRating: 113)
        }
        #expect(throws: HandicapError.adjustedGrossScoreOutOfRange(300, holes: 18)) {
            try Handicap.scoreDifferential(adjustedGrossScore: 300, courseRating: 72.0, slopeRating: 113)
        }
    }

    @Test("index over 54.0")
    func indexOverMaximum() {
        // R&A RoH Rule 5.3: the maximum Handicap Index is 54.0.
        #expect(throws: HandicapError.handicapIndexOutOfRange(54.1)) {
            try Handicap.courseHandicap(handicapIndex: 54.1, slopeRating: 113, courseRating: 72.0, par: 72)
        }
        #expect(throws: HandicapError.lowHandicapIndexOutOfRange(60.0)) {
            try Handicap.handicapIndex(differentials: [10.0, 11.0, 12.0], lowHandicapIndex: 60.0)
        }
        #expect(throws: HandicapError.differentialOutOfRange(.infinity)) {
            try Handicap.handicapIndex(differentials: [10.0, .infinity, 12.0])
        }
    }

    @Test("stroke index out of range or repeated")
    func strokeIndexErrors() {
        #expect(throws: HandicapError.strokeIndexOutOfRange(19, holes: 18)) {
            try Handicap.maximumHoleScore(courseHandicap: 10, par: 4, strokeIndex: 19)
        }
        #expect(throws: HandicapError.strokeIndexOutOfRange(0, holes: 18)) {
            try Handicap.netHole(playingHandicap: 10, par: 4, strokeIndex: 0, gross: 5)
        }
        #expect(throws: HandicapError.strokeIndexOutOfRange(10, holes: 9)) {
            try Handicap.strokesReceived(handicap: 5, strokeIndex: 10, holes: 9)
        }
        #expect(throws: HandicapError.strokeIndexRepeated(3)) {
            try Handicap.rankedStrokeIndexes([1, 3, 5, 7, 9, 11, 13, 15, 3])
        }
    }

    @Test("other out-of-range values")
    func otherRanges() {
        #expect(throws: HandicapError.pccOutOfRange(3.5)) {
            try Handicap.scoreDifferential(adjustedGrossScore: 90, courseRating: 72.0, slopeRating: 113, pcc: 3.5)
        }
        #expect(throws: HandicapError.unsupportedHoleCount(12)) {
            try Handicap.strokeAllocation(playingHandicap: 10, holes: 12)
        }
        #expect(throws: HandicapError.courseRatingOutOfRange(36.0, holes: 18)) {
            try Handicap.scoreDifferential(adjustedGrossScore: 90, courseRating: 36.0, slopeRating: 113)
        }
        #expect(throws: HandicapError.allowanceOutOfRange(0)) {
            try Handicap.courseHandicap(
                handicapIndex: 10.0, slopeRating: 113, courseRating: 72.0, par: 72, allowancePercent: 0
            )
        }
        #expect(throws: HandicapError.holeParOutOfRange(2)) {
            try Handicap.maximumHoleScore(courseHandicap: 10, par: 2, strokeIndex: 1)
        }
        #expect(throws: HandicapError.teamSizeOutOfRange(format: "foursomes", players: 3, allowed: 2...2)) {
            try Handicap.teamHandicap(format: .foursomes, courseHandicaps: [1.0, 2.0, 3.0])
        }
        #expect(throws: HandicapError.strokeHandicapOutOfRange(200)) {
            try Handicap.strokeAllocation(playingHandicap: 200)
        }
    }

    @Test("every error says what is wrong and what to do, on one line")
    func descriptionsAreOneActionableLine() {
        let errors: [HandicapError] = [
            .slopeRatingOutOfRange(160), .courseRatingOutOfRange(36.0, holes: 18), .parOutOfRange(20, holes: 18),
            .holeParOutOfRange(2), .adjustedGrossScoreOutOfRange(-5, holes: 18), .holeStrokesOutOfRange(0),
            .pccOutOfRange(3.5), .handicapIndexOutOfRange(54.1), .lowHandicapIndexOutOfRange(60),
            .differentialOutOfRange(.infinity), .strokeIndexOutOfRange(19, holes: 18), .strokeIndexRepeated(3),
            .unsupportedHoleCount(12), .tooFewHolesPlayed(played: 8, required: 10),
            .tooManyHolesPlayed(played: 19, holes: 18), .holesNotPlayedWithoutIndex(played: 12),
            .netParWithoutCourseHandicap, .allowanceOutOfRange(0), .strokeHandicapOutOfRange(200),
            .courseHandicapOutOfRange(.nan), .teamSizeOutOfRange(format: "scramble", players: 5, allowed: 2...4),
            .minimumDifferentialsOutOfRange(2),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"), "\(error)")
            #expect(error.description.contains(": "), "\(error) names the problem, then the fix")
        }
        #expect(
            HandicapError.slopeRatingOutOfRange(160).description
                == "slope rating 160 is outside 55...155: use the slope rating printed for the tees played"
        )
    }
}
