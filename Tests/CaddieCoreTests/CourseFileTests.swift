import Foundation
import Testing

@testable import CaddieCore

@Suite("Course files")
struct CourseFileTests {
    static func json(holes: Int = 18, slope: Int = 133, extra: String = "") -> String {
        let holeList = (1...holes).map { "{\"number\": \($0), \"par\": 4, \"strokeIndex\": \($0), \"yards\": {\"White\": 350}}" }
        return """
            {"name": "Test Links", "club": "Test Club", \(extra)
             "tees": [{"name": "White", "rating": 71.2, "slope": \(slope), "par": \(holes * 4)}],
             "holes": [\(holeList.joined(separator: ","))]}
            """
    }

    @Test("the shipped example course parses into 18 holes with pars and stroke indexes")
    func example() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/examples/course.json")
        let file = try CourseFile(data: try Data(contentsOf: url))
        let course = file.record(id: CourseID(unchecked: [UInt8](repeating: 1, count: 8)))
        #expect(course.holes.count == 18)
        #expect(course.holes.compactMap(\.par).reduce(0, +) == 72)
        #expect(Set(course.holes.compactMap(\.strokeIndex)) == Set(1...18))
        #expect(course.tee(named: "1")?.slope == 133)
    }

    @Test("a course survives the round trip through its stored fields")
    func fieldsRoundTrip() throws {
        let course = try CourseFile(data: Data(Self.json().utf8)).record(id: CourseID(unchecked: [UInt8](repeating: 2, count: 8)))
        let back = CourseRecord(id: course.id, fields: course.fields)
        #expect(back == course)
    }

    @Test(
        "bad course files are refused with the field at fault",
        arguments: [
            (json(holes: 12), "9 or 18 holes"),
            (json(slope: 200), "slope 200"),
            (json().replacingOccurrences(of: "\"strokeIndex\": 2,", with: "\"strokeIndex\": 1,"), "stroke indexes"),
            (json().replacingOccurrences(of: "\"White\": 350}}]", with: "\"Blue\": 350}}]"), "unknown tee"),
            ("{\"name\": \"x\"", "not valid JSON"),
            ("{\"tees\": [], \"holes\": []}", "lacks \"name\""),
        ])
    func refused(text: String, expected: String) {
        do {
            _ = try CourseFile(data: Data(text.utf8))
            Issue.record("accepted a bad course file")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }
}
