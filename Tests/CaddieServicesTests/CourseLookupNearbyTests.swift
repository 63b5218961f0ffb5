import CaddieCore
import Foundation
import Testing

@testable import CaddieServices

@Suite("Course lookup: nearby")
struct CourseLookupNearbyTests {
    static func id(_ n: UInt8) -> CourseID { CourseID(unchecked: [UInt8](repeating: n, count: 8)) }

    /// Real course locations (from the sample set and COURSES.md) plus two without a location.
    static let courses: [CourseSummary] = [
        CourseSummary(id: id(1), name: "Pebble Beach Golf Links", latitude: 36.5696553, longitude: -121.9497555),
        CourseSummary(id: id(2), name: "The Old Course", latitude: 56.343, longitude: -2.803),
        CourseSummary(id: id(3), name: "Praia D'El Rey", latitude: 39.3889822, longitude: -9.2812968),
        CourseSummary(id: id(4), name: "Royal Zoute Golf Club", latitude: 51.3441801, longitude: 3.3018871),
        CourseSummary(id: id(5), name: "Torrey Pines South", latitude: 32.9045, longitude: -117.2454),
        CourseSummary(id: id(6), name: "Haagsche 18 holes"),
        CourseSummary(id: id(7), name: "Broken", latitude: 95, longitude: 0),
        CourseSummary(id: id(8), name: "Spyglass-like neighbour", latitude: 36.5800, longitude: -121.9400),
    ]

    /// Great-circle distance on a sphere of radius 6371.0088 km, computed here independently of the library.
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (lat2 - lat1) * toRadians
        let dLon = (lon2 - lon1) * toRadians
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * toRadians) * cos(lat2 * toRadians) * sin(dLon / 2)
            * sin(dLon / 2)
        return 2 * 6371.0088 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    @Test("without a radius every located course comes, nearest first, at the independently computed distance")
    func ordering() throws {
        let here = (lat: 50.8503, lon: 4.3517)  // Brussels
        let found = try CourseNearby.nearby(
            latitude: here.lat,
            longitude: here.lon,
            in: Self.courses,
            radiusKilometres: nil
        )
        let expected = Self.courses.filter { $0.latitude != nil && $0.latitude ?? 0 <= 90 }.sorted {
            Self.haversine(here.lat, here.lon, $0.latitude ?? 0, $0.longitude ?? 0)
                < Self.haversine(here.lat, here.lon, $1.latitude ?? 0, $1.longitude ?? 0)
        }
        #expect(found.map(\.course.name) == expected.map(\.name))
        for result in found {
            let sphere = Self.haversine(here.lat, here.lon, result.course.latitude ?? 0, result.course.longitude ?? 0)
            // The ellipsoid and the sphere differ by well under 0.6 %.
            #expect(abs(result.kilometres - sphere) / sphere < 0.006, "\(result.course.name)")
        }
        #expect(found.first?.course.name == "Royal Zoute Golf Club")
        // Brussels to Knokke: about 55 km north and 73 km west.
        #expect((88.0...95.0).contains(found.first?.kilometres ?? 0))
    }

    @Test("the radius keeps only courses within it")
    func radius() throws {
        let found = try CourseNearby.nearby(latitude: 36.57, longitude: -121.95, in: Self.courses)
        #expect(found.map(\.course.name) == ["Pebble Beach Golf Links", "Spyglass-like neighbour"])
        #expect(found[0].kilometres < 0.1)
        let sphere = Self.haversine(36.57, -121.95, 36.58, -121.94)
        #expect(abs(found[1].kilometres - sphere) < 0.01)
        #expect(found[1].bearing > 0 && found[1].bearing < 90)
        let wide = try CourseNearby.nearby(latitude: 36.57, longitude: -121.95, in: Self.courses, radiusKilometres: 600)
        #expect(
            wide.map(\.course.name) == ["Pebble Beach Golf Links", "Spyglass-like neighbour", "Torrey Pines South"]
        )
        let tight = try CourseNearby.nearby(
            latitude: 36.57,
            longitude: -121.95,
            in: Self.courses,
            radiusKilometres: 0.5
        )
        #expect(tight.map(\.course.name) == ["Pebble Beach Golf Links"])
        #expect(try CourseNearby.nearby(latitude: 0, longitude: 0, in: Self.courses).isEmpty)
        #expect(
            try CourseNearby.nearby(
                latitude: 36.57,
                longitude: -121.95,
                in: Self.courses,
                radiusKilometres: nil,
                limit: 1
            ).count == 1
        )
    }

    @Test("courses near the antimeridian are found across it")
    func antimeridian() throws {
        let fiji = [
            CourseSummary(id: Self.id(1), name: "East", latitude: -17.0, longitude: 179.99),
            CourseSummary(id: Self.id(2), name: "West", latitude: -17.0, longitude: -179.99),
        ]
        let found = try CourseNearby.nearby(latitude: -17.0, longitude: 179.999, in: fiji, radiusKilometres: 5)
        #expect(found.map(\.course.name) == ["East", "West"])
    }

    @Test(
        "bad positions and radii are refused with the value at fault",
        arguments: [
            (91.0, 0.0, 25.0 as Double?, CourseLookupError.invalidLatitude(91)),
            (0.0, -181.0, 25.0, .invalidLongitude(-181)),
            (0.0, 0.0, -1.0, .invalidRadius(-1)),
            (0.0, 0.0, 0.0, .invalidRadius(0)),
        ]
    )
    func refused(latitude: Double, longitude: Double, radius: Double?, expected: CourseLookupError) {
        #expect(throws: expected) {
            try CourseNearby.nearby(
                latitude: latitude,
                longitude: longitude,
                in: Self.courses,
                radiusKilometres: radius
            )
        }
        #expect(!expected.description.isEmpty)
    }

    @Test("NaN is refused too")
    func notANumber() {
        #expect(throws: CourseLookupError.self) {
            try CourseNearby.nearby(latitude: .nan, longitude: 0, in: Self.courses)
        }
        #expect(throws: CourseLookupError.self) {
            try CourseNearby.nearby(latitude: 0, longitude: 0, in: Self.courses, radiusKilometres: .infinity)
        }
    }
}

@Suite("Course lookup: where a course without a clubhouse point is")
struct CourseSummaryPlaceTests {
    @Test("a course with no clubhouse point is found from its first tee, at the tee's own position")
    func placedAtItsFirstTee() throws {
        let tee = try #require(CoursePoint(latitude: 52.0931, longitude: 4.3520))
        let green = try #require(CoursePoint(latitude: 52.0960, longitude: 4.3541))
        var first = CourseRecord.Hole(number: 1, par: 4, teePositions: [tee])
        first.green.centre = green
        let course = CourseRecord(
            id: CourseID(unchecked: [UInt8](repeating: 9, count: 8)), name: "No Clubhouse", tees: [], holes: [first])
        let summary = CourseSummary(course)
        #expect(summary.latitude == tee.latitude && summary.longitude == tee.longitude)
        let found = try CourseNearby.nearby(latitude: tee.latitude, longitude: tee.longitude, in: [summary], radiusKilometres: 1)
        #expect(found.map(\.course.name) == ["No Clubhouse"])
        #expect(found[0].kilometres < 0.001)
        // Only a green: the green's centre.
        let greenOnly = CourseRecord(
            id: CourseID(unchecked: [UInt8](repeating: 10, count: 8)), name: "Green only", tees: [],
            holes: [CourseRecord.Hole(number: 1, par: 3, green: .init(centre: green))])
        #expect(CourseSummary(greenOnly).latitude == green.latitude)
        // A clubhouse point wins over the geometry.
        let placed = CourseRecord(
            id: CourseID(unchecked: [UInt8](repeating: 11, count: 8)), name: "Clubhouse", latitude: 52.1, longitude: 4.4,
            tees: [],
            holes: [first])
        #expect(CourseSummary(placed).latitude == 52.1)
    }
}
