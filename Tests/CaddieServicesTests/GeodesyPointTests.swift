import Foundation
import Testing

@testable import CaddieServices

@Suite("Geodesy: points, ellipsoids and angle helpers")
struct GeodesyPointTests {
    @Test("points accept the full ranges, ends included")
    func acceptsRanges() throws {
        for (latitude, longitude) in [(-90.0, -180.0), (90, 180), (0, 0), (56.343, -2.803)] {
            let point = try GeoPoint(latitude: latitude, longitude: longitude)
            #expect(point.latitude == latitude && point.longitude == longitude)
        }
    }

    @Test("points reject out-of-range and non-finite coordinates")
    func rejectsBadCoordinates() {
        #expect(throws: GuidanceError.invalidLatitude(90.0001)) { try GeoPoint(latitude: 90.0001, longitude: 0) }
        #expect(throws: GuidanceError.invalidLatitude(-91)) { try GeoPoint(latitude: -91, longitude: 0) }
        #expect(throws: GuidanceError.invalidLongitude(180.5)) { try GeoPoint(latitude: 0, longitude: 180.5) }
        #expect(throws: GuidanceError.invalidLongitude(-.infinity)) {
            try GeoPoint(latitude: 0, longitude: -.infinity)
        }
        let error = #expect(throws: GuidanceError.self) { try GeoPoint(latitude: .nan, longitude: 0) }
        if case .invalidLatitude(let value) = error {
            #expect(value.isNaN)
        } else {
            Issue.record("expected invalidLatitude, got \(String(describing: error))")
        }
    }

    @Test("JSON round-trips a point and refuses an out-of-range one")
    func codable() throws {
        let point = try GeoPoint(latitude: 56.343, longitude: -2.803)
        let data = try JSONEncoder().encode(point)
        #expect(try JSONDecoder().decode(GeoPoint.self, from: data) == point)
        let bad = Data(#"{"latitude": 123, "longitude": 0}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GeoPoint.self, from: bad) }
    }

    @Test("ellipsoids need a positive axis and an Earth-like flattening")
    func ellipsoidValidation() throws {
        #expect(Ellipsoid.wgs84.semiMajorAxis == 6_378_137)
        #expect(abs(Ellipsoid.wgs84.semiMinorAxis - 6_356_752.314_245) < 1e-6)
        #expect(throws: GuidanceError.invalidEllipsoid(semiMajorAxis: 0, flattening: 0)) {
            try Ellipsoid(semiMajorAxis: 0, flattening: 0)
        }
        #expect(throws: GuidanceError.invalidEllipsoid(semiMajorAxis: 1, flattening: 0.5)) {
            try Ellipsoid(semiMajorAxis: 1, flattening: 0.5)
        }
        let sphere = try Ellipsoid(semiMajorAxis: 6_371_000, flattening: 0)
        let quarter = Geodesy.distance(
            from: try GeodesyFixtures.point(0, 0),
            to: try GeodesyFixtures.point(90, 0),
            on: sphere
        )
        #expect(abs(quarter - 6_371_000 * Double.pi / 2) < 1e-6)
    }

    @Test("angles normalise into 0..<360 and -180...180")
    func angleHelpers() {
        #expect(Degrees.normalized(-90) == 270)
        #expect(Degrees.normalized(720) == 0)
        #expect(Degrees.normalized(-1e-20) == 0)
        #expect(Degrees.normalized(.nan) == 0)
        #expect(Degrees.signed(270) == -90)
        #expect(Degrees.signed(-180) == 180)
        #expect(Degrees.longitude(180) == -180)
        #expect(Degrees.longitude(181) == -179)
    }

    @Test("yards convert at exactly 0.9144 m")
    func yards() {
        #expect(DistanceUnit.yards.value(fromMetres: 0.9144) == 1)
        #expect(DistanceUnit.yards.metres(from: 100) == 91.44)
        #expect(DistanceUnit.metres.value(fromMetres: 12.5) == 12.5)
    }
}
