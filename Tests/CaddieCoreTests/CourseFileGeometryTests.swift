import Foundation
import Testing

@testable import CaddieCore

@Suite("Course files with ratings per nine, per-tee values and geometry")
struct CourseFileGeometryTests {
    /// An 18-hole file; `hole1` replaces the first hole's JSON, `tee` the first tee's extra keys.
    static func json(hole1: String = "{\"number\": 1, \"par\": 4}", tee: String = "", top: String = "") -> String {
        let rest = (2...18).map { "{\"number\": \($0), \"par\": 4, \"strokeIndex\": \($0)}" }
        return """
            {"name": "Geo Links", \(top)
             "tees": [{"name": "White"\(tee)}, {"name": "Red"}],
             "holes": [\(hole1), \(rest.joined(separator: ","))]}
            """
    }

    static func parse(_ text: String) throws -> CourseRecord {
        try CourseFile(data: Data(text.utf8)).record(id: CourseID(unchecked: [UInt8](repeating: 3, count: 8)))
    }

    @Test("a hole with every kind of geometry is read into the record")
    func full() throws {
        let hole = """
            {"number": 1, "name": "Burn", "par": 4, "pars": {"red": 5}, "strokeIndexes": {"RED": 1},
             "teePositions": [{"tee": "white", "lat": 52.0, "lon": 4.0}, {"lat": 52.0003, "lon": 4.0}],
             "line": [[52.0, 4.0], [52.0033, 4.0]],
             "green": {"outline": [[52.0032, 3.99985], [52.0032, 4.00015], [52.0034, 4.00015], [52.0032, 3.99985]],
                       "front": {"lat": 52.0032, "lon": 4.0}, "centre": {"lat": 52.0033, "lon": 4.0}},
             "hazards": [{"name": "Pot", "kind": "bunker", "points": [[52.0031, 4.0002]]},
                         {"name": "Lake", "kind": "water", "outline": [[52.001, 3.999], [52.001, 4.001], [52.0011, 4.0]]}],
             "layups": [{"name": "100", "lat": 52.0024, "lon": 4.0}]}
            """
        let course = try Self.parse(
            Self.json(
                hole1: hole,
                tee:
                    ", \"colour\": \"white\", \"yards\": 6500, \"front\": {\"rating\": 35.2, \"slope\": 125, \"par\": 36}, \"source\": \"card\", \"asOf\": \"2026\"",
                top: "\"geometrySource\": \"survey\", \"attribution\": \"© OpenStreetMap contributors\","
            )
        )
        let first = course.holes[0]
        #expect(first.pars == ["Red": 5])
        #expect(first.strokeIndexes == ["Red": 1])
        #expect(first.strokeIndex(tee: "White") == nil)
        #expect(first.teePositionsByTee["White"]?.count == 1)
        #expect(first.teePositions.count == 1)
        #expect(first.green.outline?.points.count == 3)
        #expect(first.green.back == nil)
        #expect(first.hazards.map(\.name) == ["Pot", "Lake"])
        #expect(first.hazards.map(\.kind) == [.bunker, .water])
        #expect(first.layups.first?.name == "100")
        #expect(course.tees[0].front == CourseRecord.Rating(rating: 35.2, slope: 125, par: 36))
        #expect(course.tees[0].yards == 6500)
        #expect(course.tees[0].source == "card")
        #expect(course.attribution == "© OpenStreetMap contributors")
    }

    @Test("a course without tees is accepted (geometry-only courses)")
    func noTees() throws {
        let text =
            "{\"name\": \"Map only\", \"holes\": [" + (1...9).map { "{\"number\": \($0)}" }.joined(separator: ",")
            + "]}"
        #expect(try Self.parse(text).tees.isEmpty)
    }

    @Test(
        "bad values are refused with the field at fault",
        arguments: [
            (json(tee: ", \"front\": {\"slope\": 40}"), "tee White: front nine slope 40 is outside 55...155"),
            (json(tee: ", \"back\": {\"rating\": 60}"), "back nine course rating 60.0 is outside 10...50"),
            (json(tee: ", \"yards\": 20000"), "length 20000 yards"),
            (
                json(tee: ", \"colour\": \"" + String(repeating: "x", count: 40) + "\""),
                "colour is longer than 32 bytes"
            ),
            (json(top: "\"attribution\": \"" + String(repeating: "x", count: 1001) + "\","), "attribution is longer"),
            (json(hole1: "{\"number\": 1, \"pars\": {\"Blue\": 4}}"), "hole 1: par for unknown tee \"Blue\""),
            (json(hole1: "{\"number\": 1, \"pars\": {\"Red\": 9}}"), "par 9 from Red is outside 3...6"),
            (
                json(hole1: "{\"number\": 1, \"strokeIndexes\": {\"Red\": 2}}"),
                "stroke indexes from tee Red must be distinct"
            ),
            (json(hole1: "{\"number\": 1, \"line\": [[52.0, 4.0]]}"), "hole 1: line needs at least 2 points"),
            (
                json(hole1: "{\"number\": 1, \"line\": [[52.0, 4.0, 9], [1, 1]]}"),
                "line point 0 is not a [lat, lon] pair"
            ),
            (
                json(hole1: "{\"number\": 1, \"line\": [[95.0, 4.0], [1, 1]]}"),
                "line point 0 95.0,4.0 is not a latitude,longitude"
            ),
            (
                json(hole1: "{\"number\": 1, \"green\": {\"outline\": [[1, 1], [1, 2], [1, 1]]}}"),
                "green outline needs at least 3 distinct"
            ),
            (
                json(hole1: "{\"number\": 1, \"green\": {\"centre\": {\"lat\": 1, \"lon\": 200}}}"),
                "green centre 1.0,200.0"
            ),
            (
                json(hole1: "{\"number\": 1, \"teePositions\": [{\"tee\": \"Gold\", \"lat\": 1, \"lon\": 1}]}"),
                "tee position for unknown tee \"Gold\""
            ),
            (
                json(
                    hole1: "{\"number\": 1, \"hazards\": [{\"name\": \"A\", \"kind\": \"lava\", \"points\": [[1, 1]]}]}"
                ), "unknown kind \"lava\""
            ),
            (
                json(hole1: "{\"number\": 1, \"hazards\": [{\"name\": \"A\", \"kind\": \"bunker\"}]}"),
                "needs either \"outline\" or \"points\""
            ),
            (
                json(
                    hole1:
                        "{\"number\": 1, \"hazards\": [{\"name\": \"A\", \"kind\": \"bunker\", \"points\": [[1, 1]]}, {\"name\": \"a\", \"kind\": \"water\", \"points\": [[1, 1]]}]}"
                ), "hazard \"a\" appears twice"
            ),
            (
                json(
                    hole1:
                        "{\"number\": 1, \"hazards\": [{\"name\": \"A/B\", \"kind\": \"bunker\", \"points\": [[1, 1]]}]}"
                ), "hazard name \"A/B\" must be 1...32 bytes without '/'"
            ),
            (
                json(hole1: "{\"number\": 1, \"layups\": [{\"name\": \"\", \"lat\": 1, \"lon\": 1}]}"),
                "layup name \"\" must be"
            ),
            (json(hole1: "{\"number\": 1, \"name\": \"\"}"), "hole 1: name must be 1...64 bytes"),
        ]
    )
    func refused(text: String, expected: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted a bad course file")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
