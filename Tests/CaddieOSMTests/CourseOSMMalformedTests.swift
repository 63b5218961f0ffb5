import CaddieCore
import Foundation
import Testing

@testable import CaddieOSM

@Suite("OpenStreetMap import of bad files")
struct CourseOSMMalformedTests {
    static let noHoles = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"golf": "green"},
           "geometry": {"type": "Polygon", "coordinates": [[[4.0, 52.0], [4.001, 52.0], [4.001, 52.001], [4.0, 52.0]]]}}]}
        """

    @Test(
        "bad files are refused with one line saying what is wrong and what to do",
        arguments: [
            ("", "is empty"),
            ("   \n ", "is empty"),
            ("hello", "neither GeoJSON nor OSM XML"),
            ("{\"type\": \"FeatureCollection\", \"features\": [", "not valid JSON"),
            ("{\"type\": \"Topology\"}", "neither a GeoJSON FeatureCollection nor an Overpass JSON export"),
            ("{\"type\": \"FeatureCollection\"}", "has no \"features\" array"),
            (noHoles, "no golf=hole way with a hole number"),
            ("{\"elements\": []}", "no golf=hole way"),
            ("<html><body>404</body></html>", "no <osm> element"),
            ("<osm><node id=\"1\" lat=\"52\" lon=\"4\"/>", "ends before </osm>"),
            (
                "<osm><node id=\"1\" lat=52 lon=\"4\"/></osm>",
                "malformed at line 1: the value of lat in <node> is not quoted"
            ),
            ("<osm>\n<way id=\"1\"\n", "the tag <way> is never closed"),
            ("<osm><!-- never closed", "a comment is never closed"),
            ("<osm><tag k=\"a\" v=\"b></osm>", "is never closed"),
            ("<osm>< /osm>", "not followed by an element name"),
            ("<osm></osm>", "no golf=hole way"),
            (
                "<osm><way id=\"1\"><tag k=\"golf\" v=\"hole\"/><tag k=\"ref\" v=\"1\"/><nd ref=\"7\"/></way></osm>",
                "no golf=hole way"
            ),
        ]
    )
    func refused(text: String, expected: String) {
        do {
            _ = try OSMCourseImport.courses(from: Data(text.utf8))
            Issue.record("imported a bad file")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a file over the size limit is refused before it is read")
    func tooLarge() {
        let data = Data(count: OSMCourseImport.maxInputBytes + 1)
        #expect(throws: CoreError.self) { try OSMCourseImport.courses(from: data) }
    }

    @Test("holes without a usable number are ignored with a warning")
    func unnumbered() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"golf": "hole", "ref": "27"},
               "geometry": {"type": "LineString", "coordinates": [[4.0, 52.0], [4.0, 52.002]]}},
              {"type": "Feature", "properties": {"golf": "hole", "ref": "2"},
               "geometry": {"type": "LineString", "coordinates": [[4.0, 52.0], [4.0, 52.002]]}},
              {"type": "Feature", "properties": {"golf": "hole", "ref": "3"},
               "geometry": {"type": "LineString", "coordinates": [[4.0, 52.0]]}},
              {"type": "Feature", "properties": {"golf": "hole", "ref": "4"}, "geometry": null},
              {"type": "Feature", "properties": {"golf": "hole", "ref": "5"},
               "geometry": {"type": "LineString", "coordinates": [[400.0, 52.0], ["x", 52.1], [4.0]]}}]}
            """
        let courses = try OSMCourseImport.courses(from: Data(text.utf8))
        #expect(courses.count == 1)
        #expect(courses[0].warnings.contains { $0.contains("number 27") })
        let course = courses[0].record(id: CourseID(unchecked: [UInt8](repeating: 1, count: 8)))
        #expect(course.holes.filter { $0.line != nil }.map(\.number) == [2])
    }

    @Test("truncated and corrupted copies of real files never crash the import")
    func garbage() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        // A fixed linear congruential sequence, so the garbage repeats exactly.
        var state: UInt64 = 7
        func random() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 29
        }
        for name in ["osm-small.geojson", "osm-small.osm"] {
            let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            for cut in stride(from: 0, to: original.count, by: max(1, original.count / 150)) {
                _ = try? OSMCourseImport.courses(from: Data(original.prefix(cut)))
            }
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<(1 + Int(random() % 8)) {
                    let index = Int(random() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random())
                }
                if let courses = try? OSMCourseImport.courses(from: Data(bytes)) {
                    for course in courses {
                        let record = course.record(id: CourseID(unchecked: [UInt8](repeating: 1, count: 8)))
                        #expect(CourseRecord(id: record.id, fields: record.fields) == record)
                    }
                }
            }
        }
    }

    @Test("XML entities and character references in names are decoded")
    func entities() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE osm [ <!ENTITY x "y"> ]>
            <osm>
              <node id="1" lat="52.0" lon="4.0"/><node id="2" lat="52.002" lon="4.0"/>
              <way id="10"><nd ref="1"/><nd ref="2"/>
                <tag k="golf" v="hole"/><tag k="ref" v="1"/><tag k="name" v="Tom &amp; Jerry&#39;s &#x2764;"/>
              </way>
              <![CDATA[ <way id="11"> ]]>
            </osm>
            """
        let courses = try OSMCourseImport.courses(from: Data(text.utf8))
        let hole = courses[0].record(id: CourseID(unchecked: [UInt8](repeating: 1, count: 8))).holes[0]
        #expect(hole.name == "Tom & Jerry's ❤")
    }
}
