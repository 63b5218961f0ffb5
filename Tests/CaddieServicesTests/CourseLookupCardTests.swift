import CaddieCore
import Testing

@testable import CaddieServices

@Suite("Course lookup: the card")
struct CourseLookupCardTests {
    static let id = CourseID(unchecked: [UInt8](repeating: 4, count: 8))

    static func course(holes: Int = 18) -> CourseRecord {
        let pars = [4, 5, 4, 4, 3, 5, 3, 4, 4, 4, 4, 3, 4, 5, 4, 4, 3, 5]
        let yards = [380, 502, 404, 331, 195, 523, 109, 428, 505, 495, 390, 202, 445, 580, 397, 403, 208, 543]
        let list = (1...holes).map { n in
            CourseRecord.Hole(
                number: n,
                par: pars[n - 1],
                strokeIndex: n,
                yards: ["Blue": yards[n - 1], "Red": yards[n - 1] - 50]
            )
        }
        var course = CourseRecord(
            id: id,
            name: "Card Links",
            club: "Card Club",
            source: "scorecard",
            asOf: "2026",
            tees: [
                CourseRecord.Tee(name: "Blue", rating: 74.7, slope: 143, yards: 6828, front: .init(par: 36)),
                CourseRecord.Tee(name: "Red", rating: 71.8, slope: 129, gender: "F"),
            ],
            holes: list
        )
        course.holes[0].pars = ["Red": 5]
        course.holes[0].strokeIndexes = ["Red": 2]
        course.holes[1].strokeIndexes = ["Red": 1]
        course.holes[0].name = "Burn"
        return course
    }

    @Test("each tee's card has its pars, stroke indexes and yards, with Out, In and Total")
    func totals() throws {
        let card = try CourseCard(course: Self.course())
        #expect(card.tees.map { $0.tee?.name } == ["Blue", "Red"])
        let blue = card.tees[0]
        #expect(blue.rows.count == 18)
        #expect(blue.front == .init(par: 36, yards: 3377))
        #expect(blue.back == .init(par: 36, yards: 3663))
        #expect(blue.total == .init(par: 72, yards: 7040))
        #expect(blue.rows[0] == .init(hole: 1, name: "Burn", par: 4, strokeIndex: 1, yards: 380))
        let red = card.tees[1]
        #expect(red.rows[0].par == 5 && red.rows[0].strokeIndex == 2 && red.rows[1].strokeIndex == 1)
        #expect(red.front.par == 37 && red.total.par == 73)
        #expect(red.total.yards == 7040 - 18 * 50)
    }

    @Test("one tee by name, ignoring case; an unknown tee lists the course's tees")
    func oneTee() throws {
        let card = try CourseCard(course: Self.course(), tee: "red")
        #expect(card.tees.map { $0.tee?.name } == ["Red"])
        #expect(throws: CourseLookupError.unknownTee("Gold", available: ["Blue", "Red"])) {
            try CourseCard(course: Self.course(), tee: "Gold")
        }
        #expect(CourseLookupError.unknownTee("Gold", available: ["Blue", "Red"]).description.contains("Blue, Red"))
    }

    @Test("a total is left out when a hole lacks the value, rather than summing part of the holes")
    func partial() throws {
        var course = Self.course()
        course.holes[10].yards = [:]
        course.holes[3].par = nil
        let blue = try CourseCard(course: course, tee: "Blue").tees[0]
        #expect(blue.front.par == nil && blue.front.yards == 3377)
        #expect(blue.back?.par == 36 && blue.back?.yards == nil)
        #expect(blue.total == .init(par: nil, yards: nil))
        #expect(blue.rows[10].yards == nil)
    }

    @Test("a 9-hole course has Out and Total but no In; a course without tees gives one card of hole pars")
    func nineHolesAndNoTees() throws {
        let nine = try CourseCard(course: Self.course(holes: 9), tee: "Blue").tees[0]
        #expect(nine.back == nil)
        #expect(nine.total == nine.front)
        var bare = Self.course(holes: 9)
        bare.tees = []
        let card = try CourseCard(course: bare)
        #expect(card.tees.count == 1 && card.tees[0].tee == nil)
        #expect(card.tees[0].total.par == 36 && card.tees[0].total.yards == nil)
    }

    @Test("the text card prints holes across with Out, In and Tot, and the tee's rating and source")
    func text() throws {
        var course = Self.course()
        course.tees[0].source = "2013 scorecard"
        let text = try CourseCard(course: course, tee: "Blue").text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Card Links · Card Club")
        #expect(
            lines.contains {
                $0.hasPrefix("Tee Blue · CR 74.7 · Slope 143 · 6828 yd · front nine par 36  [2013 scorecard]")
            }
        )
        #expect(
            lines.contains {
                $0.hasPrefix("Hole") && $0.hasSuffix("   Out  10  11  12  13  14  15  16  17  18    In   Tot")
            }
        )
        #expect(lines.contains { $0.hasPrefix("Par ") && $0.hasSuffix("36    72") })
        #expect(lines.contains { $0.hasPrefix("Yards") && $0.hasSuffix("3663  7040") })
        #expect(lines.contains("1 Burn"))
        #expect(lines.contains("Source: scorecard (2026)"))
    }
}
