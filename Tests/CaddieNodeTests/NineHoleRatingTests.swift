import CaddieCore
import Testing

@testable import CaddieNode

/// A nine-hole game's Course Handicap uses the ratings of the nine being played when the tee has them (Rules of
/// Handicapping, Rule 6.1b and Clarification 6.1b/1), and half the 18-hole Course Rating only when it has not.
@Suite("nine-hole Course Handicaps")
struct NineHoleRatingTests {
    /// An 18-hole tee rated 72.0/113, par 72, with a back nine rated 37.0/113 par 36 and a front nine 35.4/121 par 36.
    let tee = CourseRecord.Tee(
        name: "White", rating: 72.0, slope: 113, par: 72,
        front: CourseRecord.Rating(rating: 35.4, slope: 121, par: 36),
        back: CourseRecord.Rating(rating: 37.0, slope: 113, par: 36))
    let pars = [Int](repeating: 4, count: 9)

    @Test("index 16.0 on a back nine rated 37.0, slope 113, par 36 gets 9.0, not the 8.0 of half the 18-hole rating")
    func backNine() {
        let backNine = Array(10...18)
        let withRatings = HandicapService.courseHandicap(
            index: 16.0, tee: tee, courseHoles: 18, holes: backNine, pars: pars)
        #expect(withRatings == 9.0)
        var bare = tee
        bare.back = nil
        let halved = HandicapService.courseHandicap(index: 16.0, tee: bare, courseHoles: 18, holes: backNine, pars: pars)
        #expect(halved == 8.0, "without back-nine ratings: 8.0 x 113/113 + (36.0 - 36)")
    }

    @Test("the front nine uses its own slope and rating; a nine that wraps round the turn uses half the 18")
    func frontNineAndWrapped() throws {
        let front = try #require(
            HandicapService.courseHandicap(index: 16.0, tee: tee, courseHoles: 18, holes: Array(1...9), pars: pars))
        // 8.0 x 121/113 + (35.4 - 36) = 7.966...
        #expect(abs(front - (8.0 * 121 / 113 - 0.6)) < 1e-9)
        let wrapped = try #require(
            HandicapService.courseHandicap(
                index: 16.0, tee: tee, courseHoles: 18, holes: Array(14...18) + Array(1...4), pars: pars))
        #expect(wrapped == 8.0)
        let eighteen = HandicapService.courseHandicap(
            index: 16.0, tee: tee, courseHoles: 18, holes: Array(1...18), pars: pars + pars)
        #expect(eighteen == 16.0)
    }
}
