import Foundation
import Testing

@testable import CaddieCore

@Suite("Course records")
struct CourseRecordTests {
    static let id = CourseID(unchecked: [UInt8](repeating: 7, count: 8))

    static func point(_ lat: Double, _ lon: Double) -> CoursePoint {
        CoursePoint(latitude: lat, longitude: lon) ?? CoursePoint(e7Latitude: 0, e7Longitude: 0)
    }

    /// A course using every part of the model.
    static func full() -> CourseRecord {
        let p = point
        let outline = CourseShape(
            kind: .polygon,
            points: [p(52.0032, 3.99985), p(52.0032, 4.00015), p(52.0034, 4.00015)]
        )
        let white = CourseRecord.Tee(
            name: "White",
            rating: 71.2,
            slope: 131,
            par: 72,
            gender: "M",
            colour: "white",
            yards: 6512,
            front: .init(rating: 35.4, slope: 128, par: 36),
            back: .init(rating: 35.8, slope: 134, par: 36),
            source: "card at the first tee",
            asOf: "2026-05"
        )
        let red = CourseRecord.Tee(name: "Red", rating: 72.9, slope: 127, gender: "F")
        var holes = (1...18).map { CourseRecord.Hole(number: $0, par: 4, strokeIndex: $0) }
        holes[0] = CourseRecord.Hole(
            number: 1,
            par: 4,
            strokeIndex: 1,
            yards: ["White": 400, "Red": 350],
            name: "Burn",
            pars: ["Red": 5],
            strokeIndexes: ["Red": 2],
            teePositions: [p(52.0, 4.0)],
            teePositionsByTee: ["White": [p(51.99995, 4.0)], "Red": [p(52.0003, 4.0)]],
            line: CourseShape(kind: .line, points: [p(52.0, 4.0), p(52.002, 4.0), p(52.0033, 4.0)]),
            green: .init(outline: outline, front: p(52.0032, 4.0), centre: p(52.0033, 4.0), back: p(52.0034, 4.0)),
            hazards: [
                .init(name: "Greenside bunker right", kind: .bunker, shape: .init(point: p(52.0033, 4.00025))),
                .init(
                    name: "Burn",
                    kind: .lateralWater,
                    shape: CourseShape(kind: .polygon, points: [p(52.001, 3.999), p(52.001, 4.001), p(52.0011, 4.0)])
                        ?? .init(point: p(52.001, 4.0))
                ),
                .init(name: "Fence", kind: .outOfBounds, shape: .init(point: p(52.001, 3.998))),
            ],
            layups: [.init(name: "150", point: p(52.0019, 4.0)), .init(name: "100", point: p(52.0024, 4.0))]
        )
        holes[1].strokeIndexes = ["Red": 1]
        return CourseRecord(
            id: id,
            name: "Test Links",
            club: "Test Club",
            city: "Testdorp",
            country: "NL",
            latitude: 52.0025,
            longitude: 4.002,
            source: "scorecard",
            asOf: "2026-05-01",
            geometrySource: "OpenStreetMap",
            geometryAsOf: "2026-05-11",
            attribution: "© OpenStreetMap contributors, ODbL 1.0",
            tees: [white, red],
            holes: holes
        )
    }

    @Test("a course with tees, nines, per-tee values and geometry survives its stored fields")
    func fieldsRoundTrip() {
        let course = Self.full()
        #expect(CourseRecord(id: course.id, fields: course.fields) == course)
    }

    @Test("a course survives export to a course file and import of it")
    func fileRoundTrip() throws {
        let course = Self.full()
        let file = try CourseFile(data: CourseFile.data(for: course))
        #expect(file.id == course.id)
        #expect(file.record(id: course.id) == course)
        #expect(try CourseFile(data: CourseFile.data(for: course, includeID: false)).id == nil)
    }

    @Test("fields written by the first format still read back unchanged")
    func oldFields() {
        let fields: [String: FieldValue] = [
            "name": .text("Old"), "holes": .integer(9), "tee/White/order": .integer(0),
            "tee/White/rating": .number(35.1),
            "tee/White/slope": .integer(120), "hole/1/par": .integer(4), "hole/1/si": .integer(3),
            "hole/1/yards/White": .integer(312), "hole/2/par": .null,
        ]
        let course = CourseRecord(id: Self.id, fields: fields)
        #expect(course.tees == [CourseRecord.Tee(name: "White", rating: 35.1, slope: 120)])
        #expect(course.holes.count == 9)
        #expect(course.holes[0] == CourseRecord.Hole(number: 1, par: 4, strokeIndex: 3, yards: ["White": 312]))
        #expect(course.holes[1] == CourseRecord.Hole(number: 2))
        #expect(course.fields == fields.filter { $0.value != .null })
    }

    @Test("field names of the longest tee, hazard and layup names stay within 64 bytes")
    func fieldNameLengths() throws {
        let tee = String(repeating: "t", count: 24)
        let name = String(repeating: "n", count: 32)
        var course = Self.full()
        course.tees = [CourseRecord.Tee(name: tee, front: .init(rating: 35), back: .init(slope: 120))]
        course.holes[17].pars = [tee: 5]
        course.holes[17].teePositionsByTee = [tee: [Self.point(1, 1)]]
        course.holes[17].hazards = [
            .init(name: name, kind: .outOfBounds, shape: .init(point: Self.point(1, 1))),
            .init(name: name, kind: .lateralWater, shape: .init(point: Self.point(1, 1))),
        ]
        course.holes[17].layups = [.init(name: name, point: Self.point(1, 1))]
        let longest = try #require(course.fields.keys.map(\.utf8.count).max())
        #expect(longest <= Payload.maxFieldName)
    }

    @Test("par and stroke index from a tee fall back to the hole's, and tee names match ignoring case")
    func perTee() {
        let hole = Self.full().holes[0]
        #expect(hole.par(tee: "Red") == 5)
        #expect(hole.par(tee: "red") == 5)
        #expect(hole.par(tee: "White") == 4)
        #expect(hole.par(tee: nil) == 4)
        #expect(hole.strokeIndex(tee: "Red") == 2)
        #expect(hole.strokeIndex(tee: "White") == 1)
        #expect(hole.yards(tee: "white") == 400)
    }

    @Test("geometry bytes that do not decode, or have the wrong kind, are skipped")
    func badGeometryIgnored() {
        let line = CourseShape(kind: .line, points: [Self.point(1, 1), Self.point(1, 2)])?.encoded ?? []
        let fields: [String: FieldValue] = [
            "name": .text("X"), "holes": .integer(9), "hole/1/green": .bytes([9, 9, 9]), "hole/1/line": .bytes([1, 0]),
            "hole/1/green/centre": .bytes(line), "hole/1/bunker/B": .bytes(line), "hole/1/layup/L": .text("no"),
            "hole/1/tee": .integer(3), "hole/1/sand/X": .bytes(CourseShape(point: Self.point(1, 1)).encoded),
        ]
        let hole = CourseRecord(id: Self.id, fields: fields).holes[0]
        #expect(!hole.hasGeometry)
    }

    @Test("payload batches each fit one op and together hold every field")
    func batches() {
        var fields: [String: FieldValue] = [:]
        for index in 0..<400 { fields["hole/1/bunker/B\(index)"] = .bytes([UInt8](repeating: 1, count: 500)) }
        let batches = CourseRecord.payloadBatches(fields)
        #expect(batches.count > 1)
        #expect(batches.reduce(0) { $0 + $1.count } == fields.count)
        for batch in batches {
            let payload = Payload.encode([.set(Self.id, fields: batch)])
            #expect(payload.count <= 65_536)
        }
        #expect(CourseRecord.payloadBatches(Self.full().fields).count == 1)
    }

    @Test("merging an import keeps the card and takes the geometry")
    func merge() {
        var card = Self.full()
        for index in card.holes.indices {
            card.holes[index] = CourseRecord.Hole(
                number: index + 1,
                par: card.holes[index].par,
                strokeIndex: card.holes[index].strokeIndex
            )
        }
        card.geometrySource = nil
        card.attribution = nil
        var imported = Self.full()
        imported.name = "OSM name"
        imported.holes[0].par = 3
        imported.holes[1].par = nil
        imported.tees = [CourseRecord.Tee(name: "white", rating: 60, colour: "white"), CourseRecord.Tee(name: "Blue")]
        let merged = card.merged(with: imported)
        #expect(merged.id == card.id)
        #expect(merged.name == card.name)
        #expect(merged.holes[0].par == 4)
        #expect(merged.holes[1].par == 4)
        #expect(merged.holes[0].green == imported.holes[0].green)
        #expect(merged.holes[0].hazards == imported.holes[0].hazards)
        #expect(merged.holes[0].yards == ["White": 400, "Red": 350])
        #expect(merged.tees.map(\.name) == ["White", "Red", "Blue"])
        #expect(merged.tees[0].rating == 71.2)
        #expect(merged.geometrySource == "OpenStreetMap")
        #expect(merged.attribution == imported.attribution)
        // Holes the import has no geometry for keep their own.
        let again = merged.merged(with: card)
        #expect(again.holes[0].green == imported.holes[0].green)
    }
}
