import CaddieCore
import Foundation
import Testing

@testable import CaddieOSM

/// The real data: the OpenStreetMap extracts in Data/osm and the sample courses
/// shipped in Sources/CaddieNode/Resources/SampleCourses.
@Suite("OpenStreetMap data and the shipped sample courses")
struct CourseSampleDataTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let osm = repository.appendingPathComponent("Data/osm")
    static let samples = repository.appendingPathComponent("Sources/CaddieNode/Resources/SampleCourses")
    static let id = CourseID(unchecked: [UInt8](repeating: 9, count: 8))

    static func imported(_ name: String) throws -> OSMImportedCourse {
        let courses = try OSMCourseImport.courses(from: Data(contentsOf: osm.appendingPathComponent(name)))
        try #require(courses.count == 1)
        return courses[0]
    }

    static func sample(_ name: String) throws -> CourseRecord {
        try CourseFile(data: Data(contentsOf: samples.appendingPathComponent(name + ".json"))).record(id: id)
    }

    @Test("Royal Zoute imports with 18 holes, each with a green, front and back, and tees")
    func royalZoute() throws {
        let imported = try Self.imported("royal-zoute.osm.geojson")
        let course = imported.record(id: Self.id)
        #expect(imported.suggestedName == "Royal Zoute Golf Club")
        #expect(course.country == "BE")
        #expect(course.asOf == "2026-05-11")
        #expect(course.holes.count == 18)
        #expect(course.holes.allSatisfy { $0.green.outline != nil && $0.green.front != nil && $0.green.back != nil })
        #expect(course.holes.allSatisfy { !$0.teePositions.isEmpty })
        #expect(course.holes.reduce(0) { $0 + $1.hazards.count } > 50)
        #expect(course.holes.allSatisfy { $0.par == nil && $0.strokeIndex == nil })
        // The two unnumbered hole ways of the file are reported, not guessed at.
        #expect(imported.warnings.filter { $0.contains("ignored golf=hole") }.count == 2)
        // The location is inside the course's bounding box given in Data/osm/README.md.
        #expect((51.3400...51.3497).contains(course.latitude ?? 0) && (3.2910...3.3142).contains(course.longitude ?? 0))
    }

    @Test("Praia D'El Rey imports with its hole 10 joined from three ways and hole 11 named \"11th\"")
    func praiaDelRey() throws {
        let imported = try Self.imported("praia-del-rey.osm.geojson")
        let course = imported.record(id: Self.id)
        #expect(course.holes.count == 18)
        #expect(course.holes[9].line?.points.count == 6)
        #expect(course.holes[10].line != nil)
        #expect(course.holes.filter { $0.green.outline != nil }.count == 17)
        #expect(imported.warnings == ["hole 16: no golf=green near the end of its way"])
        #expect(course.holes.flatMap(\.hazards).contains { $0.kind == .water })
    }

    @Test("Pebble Beach has no golf=hole ways, so its import is refused and nothing is made up")
    func pebbleBeach() {
        do {
            _ = try OSMCourseImport.courses(
                from: Data(contentsOf: Self.osm.appendingPathComponent("pebble-beach.osm-derived.geojson"))
            )
            Issue.record("imported a file without holes")
        } catch let error as CoreError {
            #expect(error.description.contains("no golf=hole way"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("the shipped OSM-based samples equal a fresh import of the same extract (Python and Swift agree)")
    func samplesMatchImport() throws {
        for (file, sample) in [
            ("royal-zoute.osm.geojson", "royal-zoute"), ("praia-del-rey.osm.geojson", "praia-del-rey"),
        ] {
            let imported = try Self.imported(file).record(id: Self.id)
            let shipped = try Self.sample(sample)
            #expect(shipped.holes == imported.holes, "\(sample)")
            #expect(abs((shipped.latitude ?? 0) - (imported.latitude ?? 1)) < 1e-6)
        }
    }

    @Test("every sample course loads, credits OpenStreetMap when it uses its geometry, and sources every rating")
    func allSamples() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.samples.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(names.count >= 4)
        var ids = Set<String>()
        for name in names {
            let course = try Self.sample(name)
            #expect(course.source != nil && course.asOf != nil, "\(name)")
            #expect(ids.insert(course.name.lowercased() + "|" + (course.club ?? "").lowercased()).inserted)
            if course.holes.contains(where: \.hasGeometry) {
                #expect(course.attribution?.contains("OpenStreetMap contributors") == true, "\(name)")
                #expect(course.attribution?.contains("ODbL") == true, "\(name)")
                #expect(course.geometrySource != nil && course.geometryAsOf != nil, "\(name)")
            }
            for tee in course.tees where tee.rating != nil || tee.slope != nil {
                #expect(tee.source != nil && tee.asOf != nil, "\(name) tee \(tee.name)")
            }
            let batches = CourseRecord.payloadBatches(course.fields)
            #expect(batches.count == 1, "\(name) needs \(batches.count) ops")
        }
    }

    @Test("the sample cards add up to the totals their sources publish")
    func sampleTotals() throws {
        let pebble = try Self.sample("pebble-beach")
        #expect(pebble.holes.compactMap(\.par).reduce(0, +) == 72)
        #expect(pebble.holes.compactMap { $0.yards(tee: "Championship") }.reduce(0, +) == 7040)
        #expect(pebble.tee(named: "Championship")?.yards == 7040)
        #expect(pebble.holes.allSatisfy { $0.strokeIndex == nil })
        #expect(pebble.holes[6].green.isEmpty)
        let old = try Self.sample("old-course-st-andrews")
        #expect(old.holes.map { $0.par ?? 0 } == [4, 4, 4, 4, 5, 4, 4, 3, 4, 4, 3, 4, 4, 5, 4, 4, 4, 4])
        #expect(old.holes[0...8].compactMap { $0.yards(tee: "Championship") }.reduce(0, +) == 3584)
        #expect(old.holes[9].yards.isEmpty && old.holes[10].yards.isEmpty)
        #expect(old.holes[16].name == "Road")
        let haagsche = try Self.sample("haagsche")
        #expect(Set(haagsche.holes.compactMap(\.strokeIndex)) == Set(1...18))
        let torrey = try Self.sample("torrey-pines-south")
        #expect(torrey.tee(named: "Black")?.rating == 78.8 && torrey.tee(named: "Black")?.slope == 148)
        #expect(torrey.tee(named: "Black")?.front?.par == 36)
    }
}
