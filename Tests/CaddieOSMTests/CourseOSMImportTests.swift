import CaddieCore
import Foundation
import Testing

@testable import CaddieOSM

/// Fixtures/osm-small.geojson and Fixtures/osm-small.osm hold the same made-up course in two formats: holes 1-3 of
/// "Test Golf Club", with per-colour tags, greens, tees, bunkers and water, a hole mapped in two ways, a hole
/// without a green and a hole way without a number.
@Suite("OpenStreetMap import")
struct CourseOSMImportTests {
    static let id = CourseID(unchecked: [UInt8](repeating: 5, count: 8))

    static func fixture(_ name: String) throws -> Data {
        try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures").appendingPathComponent(name)
        )
    }

    static func only(_ data: Data) throws -> (course: CourseRecord, warnings: [String]) {
        let courses = try OSMCourseImport.courses(from: data)
        try #require(courses.count == 1)
        return (courses[0].record(id: id), courses[0].warnings)
    }

    /// Metres between two points (equirectangular; exact enough over a green).
    static func metres(_ a: CoursePoint?, _ b: CoursePoint) -> Double {
        guard let a else { return .infinity }
        let north = (a.latitude - b.latitude) * 111_250
        let east = (a.longitude - b.longitude) * 111_250 * cos(b.latitude * .pi / 180)
        return (north * north + east * east).squareRoot()
    }

    static func point(_ lat: Double, _ lon: Double) -> CoursePoint {
        CoursePoint(latitude: lat, longitude: lon) ?? CoursePoint(e7Latitude: 0, e7Longitude: 0)
    }

    @Test("the GeoJSON fixture gives the course, its tees and the hole data from the tags")
    func geoJSONCard() throws {
        let (course, warnings) = try Self.only(Self.fixture("osm-small.geojson"))
        #expect(course.name == "Test Golf Club")
        #expect(course.club == "Test Golf Club")
        #expect(course.city == "Testdorp")
        #expect(course.country == "NL")
        #expect(course.asOf == "2026-05-01")
        #expect(course.attribution == OSMCourseImport.attribution)
        #expect(abs((course.latitude ?? 0) - 52.0025) < 1e-6 && abs((course.longitude ?? 0) - 4.002) < 1e-6)
        #expect(course.holes.count == 9)
        #expect(course.tees.map(\.name) == ["White", "Red"])
        #expect(course.tees.allSatisfy { $0.rating == nil && $0.slope == nil })
        let first = course.holes[0]
        #expect(first.par == 4 && first.strokeIndex == 5)
        #expect(first.pars == ["Red": 5] && first.strokeIndexes == ["Red": 3])
        #expect(first.yards == ["White": 400, "Red": 350])
        #expect(course.holes[1].par == 3 && course.holes[1].strokeIndex == 9)
        #expect(course.holes[2].name == "Long Acre" && course.holes[2].par == 5)
        #expect(course.holes[3] == CourseRecord.Hole(number: 4))
        #expect(warnings.contains { $0.contains("way/90") })
        #expect(warnings.contains { $0.contains("holes 4, 5, 6, 7, 8, 9") })
        #expect(warnings.contains { $0.contains("hole 3: no golf=green") })
    }

    @Test("greens: centroid as centre, front and back where the line of play crosses the outline")
    func greens() throws {
        let (course, _) = try Self.only(Self.fixture("osm-small.geojson"))
        let first = course.holes[0].green
        #expect(first.outline?.points.count == 4)
        #expect(Self.metres(first.centre, Self.point(52.0033, 4.0)) < 0.05)
        #expect(Self.metres(first.front, Self.point(52.0032, 4.0)) < 0.05)
        #expect(Self.metres(first.back, Self.point(52.0034, 4.0)) < 0.05)
        // Hole 2 is played southwards from its tee: the front is the northern edge.
        let second = course.holes[1].green
        #expect(Self.metres(second.front, Self.point(52.0016, 4.0022)) < 0.05)
        #expect(Self.metres(second.back, Self.point(52.0014, 4.0022)) < 0.05)
        // Hole 3 has no green polygon: the centre is the end of its way, with no front or back.
        let third = course.holes[2].green
        #expect(third.outline == nil && third.front == nil && third.back == nil)
        #expect(third.centre == Self.point(52.0045, 4.004))
    }

    @Test("holes mapped in pieces are joined, and tees go to their hole by colour")
    func linesAndTees() throws {
        let (course, _) = try Self.only(Self.fixture("osm-small.geojson"))
        #expect(
            course.holes[2].line?.points == [
                Self.point(52.001, 4.004), Self.point(52.003, 4.004), Self.point(52.0045, 4.004),
            ]
        )
        let first = course.holes[0]
        #expect(first.teePositions.isEmpty)
        #expect(Self.metres(first.teePositionsByTee["White"]?.first, Self.point(51.99995, 4.0)) < 0.05)
        #expect(first.teePositionsByTee["Red"] == [Self.point(52.0003, 4.0)])
        // No tee feature on hole 2: its way's first node stands in.
        #expect(course.holes[1].teePositions == [Self.point(52.003, 4.0022)])
    }

    @Test("hazards near the line of play are assigned and named by side and position")
    func hazards() throws {
        let (course, _) = try Self.only(Self.fixture("osm-small.geojson"))
        #expect(course.holes[0].hazards.map(\.name) == ["Bunker left", "Greenside bunker right"])
        #expect(course.holes[0].hazards.allSatisfy { $0.kind == .bunker && $0.shape.kind == .polygon })
        #expect(course.holes[1].hazards.isEmpty)
        #expect(course.holes[2].hazards.map(\.name) == ["Mill Pond", "Water right"])
        #expect(course.holes[2].hazards.allSatisfy { $0.kind == .water })
    }

    @Test("the OSM XML of the same course imports to the same course")
    func xmlMatchesGeoJSON() throws {
        let (fromJSON, jsonWarnings) = try Self.only(Self.fixture("osm-small.geojson"))
        var (fromXML, xmlWarnings) = try Self.only(Self.fixture("osm-small.osm"))
        #expect(fromXML.source?.hasPrefix("OpenStreetMap (OSM XML)") == true)
        fromXML.source = fromJSON.source
        fromXML.geometrySource = fromJSON.geometrySource
        #expect(fromXML == fromJSON)
        #expect(xmlWarnings == jsonWarnings)
    }

    @Test("Overpass JSON with inline geometry (out geom) and with node lists both import")
    func overpassJSON() throws {
        let text = """
            {"version": 0.6, "osm3s": {"timestamp_osm_base": "2026-04-02T00:00:00Z"}, "elements": [
              {"type": "node", "id": 1, "lat": 52.0, "lon": 4.0},
              {"type": "node", "id": 2, "lat": 52.0033, "lon": 4.0},
              {"type": "way", "id": 10, "nodes": [1, 2], "tags": {"golf": "hole", "ref": "1", "par": "3"}},
              {"type": "way", "id": 11, "tags": {"golf": "green"}, "geometry": [
                {"lat": 52.0032, "lon": 3.99985}, {"lat": 52.0032, "lon": 4.00015}, {"lat": 52.0034, "lon": 4.00015},
                {"lat": 52.0034, "lon": 3.99985}, {"lat": 52.0032, "lon": 3.99985}]},
              {"type": "relation", "id": 12, "tags": {"type": "multipolygon", "natural": "water"}, "members": [
                {"type": "way", "ref": 13, "role": "outer", "geometry": [{"lat": 52.001, "lon": 3.9997}, {"lat": 52.001, "lon": 3.9998}]},
                {"type": "way", "ref": 14, "role": "outer", "geometry": [{"lat": 52.001, "lon": 3.9998}, {"lat": 52.0012, "lon": 3.9998},
                  {"lat": 52.001, "lon": 3.9997}]}]}
            ]}
            """
        let (course, _) = try Self.only(Data(text.utf8))
        #expect(course.asOf == "2026-04-02")
        #expect(course.holes[0].par == 3)
        #expect(Self.metres(course.holes[0].green.front, Self.point(52.0032, 4.0)) < 0.05)
        #expect(course.holes[0].hazards.map(\.name) == ["Water left"])
    }

    @Test("holes with different golf:course:name become separate courses")
    func severalCourses() throws {
        func hole(_ course: String, _ ref: Int, _ lon: Double) -> String {
            """
            {"type": "Feature", "properties": {"golf": "hole", "ref": "\(ref)", "golf:course:name": "\(course)"},
             "geometry": {"type": "LineString", "coordinates": [[\(lon), 52.0], [\(lon), 52.002]]}}
            """
        }
        let text =
            "{\"type\": \"FeatureCollection\", \"features\": ["
            + [
                hole("Blue", 1, 4.0), hole("Blue", 2, 4.003), hole("Red", 1, 4.01), hole("Red", 12, 4.013),
            ].joined(separator: ",") + "]}"
        let courses = try OSMCourseImport.courses(from: Data(text.utf8), asOf: "2026-01-01")
        #expect(courses.map(\.suggestedName) == ["Blue", "Red"])
        #expect(courses.map { $0.record(id: Self.id).holes.count } == [9, 18])
        #expect(courses[0].record(id: Self.id).asOf == "2026-01-01")
        #expect(courses[0].record(id: Self.id).name == "Blue")
    }

    @Test("colour-only tags that agree become the hole's value; colours that differ stay per tee")
    func colourTags() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"golf": "hole", "name": "Hole 1", "par:white": "4", "par:red": "4",
                "handicap:white": "7", "handicap:red": "9", "dist:white": "400 yd"},
               "geometry": {"type": "LineString", "coordinates": [[4.0, 52.0], [4.0, 52.003]]}}]}
            """
        let (course, _) = try Self.only(Data(text.utf8))
        let hole = course.holes[0]
        #expect(hole.name == nil)
        #expect(hole.par == 4 && hole.pars.isEmpty)
        #expect(hole.strokeIndex == nil && hole.strokeIndexes == ["White": 7, "Red": 9])
        #expect(hole.yards == ["White": 400])
    }
}
