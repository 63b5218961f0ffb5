import Testing

@testable import CaddieServices

@Suite("Geodesy: direct problem (destination point)")
struct GeodesyDirectTests {
    @Test("Flinders Peak on 306°52'05.37\" for 54,972.271 m reaches Buninyong")
    func flindersPeakDirect() throws {
        // Geoscience Australia's worked example of Vincenty's direct formula: Buninyong at 37°39'10.15610"S,
        // 143°55'35.38390"E, reverse azimuth 127°10'25.07". The bearing is published to 0.01", which moves the end
        // by up to 1.3 mm (0.00005"), hence the tolerance.
        let dms = GeodesyFixtures.dms
        let flinders = try GeodesyFixtures.point(dms(37, 57, 3.72030, true), dms(144, 25, 29.52440, false))
        let end = try Geodesy.destination(
            from: flinders,
            initialBearing: dms(306, 52, 5.37, false),
            distance: 54_972.271
        )
        #expect(abs(end.point.latitude - dms(37, 39, 10.15610, true)) * 3600 < 2e-4)
        #expect(abs(end.point.longitude - dms(143, 55, 35.38390, false)) * 3600 < 2e-4)
        #expect(GeodesyFixtures.arcsecondsBetween(end.finalBearing, dms(127, 10, 25.07, false) + 180) < 0.006)
    }

    @Test("Vincenty (1975) test lines, direct: end point and azimuth to 0.0001\"", arguments: VincentyLine.all)
    func vincentyLinesDirect(line: VincentyLine) throws {
        let start = try GeodesyFixtures.point(line.latitude1, 0)
        let end = try Geodesy.destination(
            from: start,
            initialBearing: line.azimuth1,
            distance: line.distance,
            on: try line.ellipsoid()
        )
        #expect(abs(end.point.latitude - line.latitude2) * 3600 < 1e-4)
        #expect(GeodesyFixtures.arcsecondsBetween(end.point.longitude, line.longitudeDifference) < 1e-4)
        #expect(GeodesyFixtures.arcsecondsBetween(end.finalBearing, line.azimuth2) < 1e-4)
    }

    @Test("JFK on 51° for 5,500 km matches GeographicLib: 51.884565, -1.141173, 107.189397")
    func jfkDirect() throws {
        // GeographicLib Geodesic.Direct(40.6, -73.8, 51, 5.5e6), as printed in its documentation and ports.
        let end = try Geodesy.destination(
            from: try GeodesyFixtures.point(40.6, -73.8),
            initialBearing: 51,
            distance: 5_500_000
        )
        #expect(abs(end.point.latitude - 51.884_565) < 1e-6)
        #expect(abs(end.point.longitude - -1.141_173) < 1e-6)
        #expect(abs(end.finalBearing - 107.189_397) < 1e-6)
    }

    @Test("a zero distance stays put, keeping the bearing")
    func zeroDistance() throws {
        let start = try GeodesyFixtures.point(56.343, -2.803)
        let end = try Geodesy.destination(from: start, initialBearing: 47.9, distance: 0)
        #expect(Geodesy.distance(from: start, to: end.point) < 1e-9)
        #expect(abs(end.finalBearing - 47.9) < 1e-9)
    }

    @Test("east along the equator past 180° wraps to a negative longitude")
    func wrapsLongitude() throws {
        let oneDegree = 6_378_137 * Double.pi / 180
        let end = try Geodesy.destination(
            from: try GeodesyFixtures.point(0, 179.9),
            initialBearing: 90,
            distance: oneDegree
        )
        #expect(abs(end.point.longitude - -179.1) < 1e-9)
        #expect(abs(end.point.latitude) < 1e-12)
    }

    @Test("direct and inverse undo each other at golf distances")
    func roundTripAtGolfDistances() throws {
        let tee = try GeodesyFixtures.point(56.343, -2.803)
        for bearing in stride(from: 0.0, to: 360, by: 22.5) {
            for distance in [1.0, 50, 137.16, 400] {
                let end = try Geodesy.destination(from: tee, initialBearing: bearing, distance: distance)
                let back = Geodesy.inverse(from: tee, to: end.point)
                #expect(abs(back.distance - distance) < 1e-6)
                #expect(GeodesyFixtures.arcsecondsBetween(back.initialBearing, bearing) < 1e-3)
            }
        }
    }

    @Test("a bad bearing or distance throws")
    func rejectsBadInput() throws {
        let start = try GeodesyFixtures.point(0, 0)
        #expect(throws: GuidanceError.invalidDistance(-1)) {
            try Geodesy.destination(from: start, initialBearing: 0, distance: -1)
        }
        #expect(throws: GuidanceError.invalidDistance(.infinity)) {
            try Geodesy.destination(from: start, initialBearing: 0, distance: .infinity)
        }
        let error = #expect(throws: GuidanceError.self) {
            try Geodesy.destination(from: start, initialBearing: .nan, distance: 1)
        }
        if case .invalidBearing(let value) = error {
            #expect(value.isNaN)
        } else {
            Issue.record("expected invalidBearing, got \(String(describing: error))")
        }
    }
}
