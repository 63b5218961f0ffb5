import Testing

@testable import CaddieServices

/// Shared helpers for the geodesy and guidance tests.
enum GeodesyFixtures {
    /// Degrees, minutes and seconds as decimal degrees; `negative` makes the whole angle negative (south, west).
    static func dms(_ degrees: Double, _ minutes: Double, _ seconds: Double, negative: Bool = false) -> Double {
        let value = degrees + minutes / 60 + seconds / 3600
        return negative ? -value : value
    }

    /// A point, throwing if the coordinates are out of range.
    static func point(_ latitude: Double, _ longitude: Double) throws -> GeoPoint {
        try GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The smallest difference between two directions in arc seconds.
    static func arcsecondsBetween(_ first: Double, _ second: Double) -> Double {
        abs(Degrees.signed(first - second)) * 3600
    }

    /// The Bessel 1841 ellipsoid of Vincenty's test line (a): a = 6377397.155 m, 1/f = 299.1528128.
    static func bessel1841() throws -> Ellipsoid {
        try Ellipsoid(semiMajorAxis: 6_377_397.155, flattening: 1 / 299.152_812_8)
    }

    /// The International 1924 (Hayford) ellipsoid of Vincenty's lines (b) to (e): a = 6378388 m, 1/f = 297.
    static func international1924() throws -> Ellipsoid {
        try Ellipsoid(semiMajorAxis: 6_378_388, flattening: 1 / 297)
    }
}

/// One of the five test lines of Vincenty (1975), Survey Review 23(176) p. 88-93, table on p. 92.
struct VincentyLine: Sendable, CustomTestStringConvertible {
    let name: String
    let bessel: Bool
    let latitude1: Double
    let latitude2: Double
    let longitudeDifference: Double
    let azimuth1: Double
    let azimuth2: Double
    let distance: Double
    /// Line (d) is nearly antipodal: its azimuths change by 0.001" for a change in the last digit of the input.
    let azimuthTolerance: Double

    var testDescription: String { "line (\(name))" }

    func ellipsoid() throws -> Ellipsoid {
        bessel ? try GeodesyFixtures.bessel1841() : try GeodesyFixtures.international1924()
    }

    static let all: [VincentyLine] = {
        let dms = GeodesyFixtures.dms
        return [
            VincentyLine(
                name: "a",
                bessel: true,
                latitude1: dms(55, 45, 0, false),
                latitude2: dms(33, 26, 0, true),
                longitudeDifference: dms(108, 13, 0, false),
                azimuth1: dms(96, 36, 8.79960, false),
                azimuth2: dms(137, 52, 22.01454, false),
                distance: 14_110_526.170,
                azimuthTolerance: 1e-4
            ),
            VincentyLine(
                name: "b",
                bessel: false,
                latitude1: dms(37, 19, 54.95367, false),
                latitude2: dms(26, 7, 42.83946, false),
                longitudeDifference: dms(41, 28, 35.50729, false),
                azimuth1: dms(95, 27, 59.63089, false),
                azimuth2: dms(118, 5, 58.96161, false),
                distance: 4_085_966.703,
                azimuthTolerance: 1e-4
            ),
            VincentyLine(
                name: "c",
                bessel: false,
                latitude1: dms(35, 16, 11.24862, false),
                latitude2: dms(67, 22, 14.77638, false),
                longitudeDifference: dms(137, 47, 28.31435, false),
                azimuth1: dms(15, 44, 23.74850, false),
                azimuth2: dms(144, 55, 39.92147, false),
                distance: 8_084_823.839,
                azimuthTolerance: 1e-4
            ),
            VincentyLine(
                name: "d",
                bessel: false,
                latitude1: dms(1, 0, 0, false),
                latitude2: dms(0, 59, 53.83076, true),
                longitudeDifference: dms(179, 17, 48.02997, false),
                azimuth1: dms(89, 0, 0, false),
                azimuth2: dms(91, 0, 6.11733, false),
                distance: 19_960_000.000,
                azimuthTolerance: 2e-3
            ),
            VincentyLine(
                name: "e",
                bessel: false,
                latitude1: dms(1, 0, 0, false),
                latitude2: dms(1, 1, 15.18952, false),
                longitudeDifference: dms(179, 46, 17.84244, false),
                azimuth1: dms(4, 59, 59.99995, false),
                azimuth2: dms(174, 59, 59.88481, false),
                distance: 19_780_006.558,
                azimuthTolerance: 1e-4
            ),
        ]
    }()
}

@Suite("Geodesy: inverse problem against published values")
struct GeodesyInverseTests {
    @Test("Flinders Peak to Buninyong: 54,972.271 m, 306°52'05.37\", reverse 127°10'25.07\"")
    func flindersPeakToBuninyong() throws {
        // Geoscience Australia's worked example of Vincenty's inverse formula on GRS80/WGS84 (the same values are
        // quoted in its Geodetic Calculations documentation and in many Vincenty test suites).
        let dms = GeodesyFixtures.dms
        let flinders = try GeodesyFixtures.point(dms(37, 57, 3.72030, true), dms(144, 25, 29.52440, false))
        let buninyong = try GeodesyFixtures.point(dms(37, 39, 10.15610, true), dms(143, 55, 35.38390, false))
        let solution = Geodesy.inverse(from: flinders, to: buninyong)
        #expect(abs(solution.distance - 54_972.271) < 0.0005, "distance \(solution.distance)")
        #expect(GeodesyFixtures.arcsecondsBetween(solution.initialBearing, dms(306, 52, 5.37, false)) < 0.006)
        // The published reverse azimuth is the final bearing turned round.
        #expect(GeodesyFixtures.arcsecondsBetween(solution.finalBearing, dms(127, 10, 25.07, false) + 180) < 0.006)
        // 1 yd = 0.9144 m exactly (international yard, 1959).
        #expect(abs(solution.distanceInYards - 54_972.271 / 0.9144) < 0.001)
        #expect(abs(Geodesy.distance(from: flinders, to: buninyong) - solution.distance) == 0)
    }

    @Test("Vincenty (1975) test lines: distance to 1 mm, azimuths to 0.0001\"", arguments: VincentyLine.all)
    func vincentyTestLines(line: VincentyLine) throws {
        let start = try GeodesyFixtures.point(line.latitude1, 0)
        let end = try GeodesyFixtures.point(line.latitude2, line.longitudeDifference)
        let solution = Geodesy.inverse(from: start, to: end, on: try line.ellipsoid())
        #expect(abs(solution.distance - line.distance) < 0.001, "distance \(solution.distance)")
        #expect(GeodesyFixtures.arcsecondsBetween(solution.initialBearing, line.azimuth1) < line.azimuthTolerance)
        #expect(GeodesyFixtures.arcsecondsBetween(solution.finalBearing, line.azimuth2) < line.azimuthTolerance)
    }

    @Test("the bisection fallback alone reproduces Vincenty's test lines")
    func bisectionReproducesVincentyLines() throws {
        for line in VincentyLine.all {
            let solution = try #require(
                Geodesy.bisectionInverse(
                    Geodesy.InverseProblem(
                        latitude1: Degrees.toRadians(line.latitude1),
                        latitude2: Degrees.toRadians(line.latitude2),
                        longitudeDifference: Degrees.toRadians(line.longitudeDifference),
                        on: try line.ellipsoid()
                    ))
            )
            #expect(abs(solution.distance - line.distance) < 0.001, "line (\(line.name)) \(solution.distance)")
            #expect(GeodesyFixtures.arcsecondsBetween(solution.initialBearing, line.azimuth1) < line.azimuthTolerance)
        }
    }

    @Test("JFK to Heathrow matches GeographicLib: 5,551,759.400319 m")
    func jfkToHeathrow() throws {
        // GeographicLib documentation example (GeodSolve, Geodesic.Inverse): 40.6 -73.8 to 51.6 -0.5 gives
        // s12 = 5551759.400319 m, azi1 = 51.198882845579824, azi2 = 107.821776735514248.
        let solution = Geodesy.inverse(
            from: try GeodesyFixtures.point(40.6, -73.8),
            to: try GeodesyFixtures.point(51.6, -0.5)
        )
        #expect(abs(solution.distance - 5_551_759.400_319) < 0.0005)
        #expect(abs(solution.initialBearing - 51.198_882_845_579_824) < 1e-7)
        #expect(abs(solution.finalBearing - 107.821_776_735_514_248) < 1e-7)
    }

    @Test("Karney's nearly antipodal example: Vincenty fails, the fallback gives 19,989,832.82761 m")
    func karneyNearlyAntipodal() throws {
        // C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013), worked inverse example:
        // (-30, 0) to (29.9, 179.8) on WGS84: s12 = 19989832.82761 m, alpha1 = 161.89052473633,
        // alpha2 = 18.09073724574.
        let vincenty = Geodesy.vincentyInverse(
            Geodesy.InverseProblem(
                latitude1: Degrees.toRadians(-30),
                latitude2: Degrees.toRadians(29.9),
                longitudeDifference: Degrees.toRadians(179.8),
                on: .wgs84
            ))
        #expect(vincenty == nil)
        let solution = Geodesy.inverse(
            from: try GeodesyFixtures.point(-30, 0),
            to: try GeodesyFixtures.point(29.9, 179.8)
        )
        #expect(abs(solution.distance - 19_989_832.827_61) < 0.001, "distance \(solution.distance)")
        #expect(abs(solution.initialBearing - 161.890_524_736_33) < 1e-6)
        #expect(abs(solution.finalBearing - 18.090_737_245_74) < 1e-6)
    }

    @Test(
        "nearly antipodal WGS84 distances match GeographicLib",
        arguments: [
            // GeographicLib (Karney) values as quoted by its ports' test suites; (0, 0) to (0.5, 179.7) is the case
            // Veness's Vincenty tests record as "antipodal convergence failure".
            (0.5, 179.5, 19_936_288.578_965_314),
            (0.5, 179.7, 19_944_127.420_750_458),
            (0.0, 179.5, 19_980_861.908_890_963),
            (0.0, 180.0, 20_003_931.458_625_447),
        ]
    )
    func nearlyAntipodal(latitude: Double, longitude: Double, expected: Double) throws {
        let solution = Geodesy.inverse(
            from: try GeodesyFixtures.point(0, 0),
            to: try GeodesyFixtures.point(latitude, longitude)
        )
        #expect(abs(solution.distance - expected) < 0.001, "distance \(solution.distance)")
    }

    @Test("(0, 0) to (0.5, 179.7): initial bearing 15.556883 as GeographicLib")
    func nearlyAntipodalBearing() throws {
        let solution = Geodesy.inverse(
            from: try GeodesyFixtures.point(0, 0),
            to: try GeodesyFixtures.point(0.5, 179.7)
        )
        #expect(abs(solution.initialBearing - 15.556_883) < 1e-6)
    }

    @Test("pole to pole is half a meridian, 20,003,931.4586 m, heading south")
    func poleToPole() throws {
        // GeographicLib: the meridian distance from pole to pole on WGS84 is 20003931.4586 m.
        let solution = Geodesy.inverse(
            from: try GeodesyFixtures.point(90, 0),
            to: try GeodesyFixtures.point(-90, 0)
        )
        #expect(abs(solution.distance - 20_003_931.4586) < 0.0001)
        #expect(abs(solution.initialBearing - 180) < 1e-9)
    }

    @Test("along the equator the distance is a times the longitude difference")
    func alongTheEquator() throws {
        // The equator is a circle of radius a = 6378137 m, so 90 degrees is 10,018,754.1714 m and 0.001 degrees
        // is 111.319491 m (121.74 yd); both also appear in BEACON.md's table.
        let quarter = Geodesy.inverse(from: try GeodesyFixtures.point(0, 0), to: try GeodesyFixtures.point(0, 90))
        #expect(abs(quarter.distance - 6_378_137 * Double.pi / 2) < 1e-6)
        #expect(abs(quarter.initialBearing - 90) < 1e-9)
        #expect(abs(quarter.finalBearing - 90) < 1e-9)

        let step = Geodesy.inverse(from: try GeodesyFixtures.point(0, 0), to: try GeodesyFixtures.point(0, 0.001))
        #expect(abs(step.distance - 6_378_137 * 0.001 * Double.pi / 180) < 1e-6)
        #expect(abs(step.distanceInYards - 121.740_4) < 0.000_1)
        let west = Geodesy.inverse(from: try GeodesyFixtures.point(0, 0), to: try GeodesyFixtures.point(0, -0.001))
        #expect(abs(west.initialBearing - 270) < 1e-9)
    }

    @Test(
        "golf-scale distances match BEACON.md's Vincenty column to 1 cm",
        arguments: [
            (56.3430, -2.8030, 56.3440, -2.8010, 166.42),
            (32.9045, -117.2454, 32.9060, -117.2440, 211.73),
            (36.5696553, -121.9497555, 36.5690, -121.9480, 173.15),
            (60.0, 0.0, 60.001, 0.0, 111.41),
        ]
    )
    func golfScaleDistances(lat1: Double, lon1: Double, lat2: Double, lon2: Double, expected: Double) throws {
        // BEACON.md section 6 (values computed by the research, given to 0.01 m): a cross-check, not a source.
        let solution = Geodesy.inverse(
            from: try GeodesyFixtures.point(lat1, lon1),
            to: try GeodesyFixtures.point(lat2, lon2)
        )
        #expect(abs(solution.distance - expected) <= 0.005 + 1e-9, "distance \(solution.distance)")
    }

    @Test("BEACON.md's bearing column is the spherical bearing; the ellipsoidal one differs by under 0.2°")
    func golfScaleBearings() throws {
        // BEACON.md gives 47.94° for (56.3430, -2.8030) -> (56.3440, -2.8010): Soundscape's spherical formula.
        let start = try GeodesyFixtures.point(56.3430, -2.8030)
        let end = try GeodesyFixtures.point(56.3440, -2.8010)
        let spherical = Geodesy.sphericalInverse(
            Geodesy.InverseProblem(
                latitude1: Degrees.toRadians(start.latitude),
                latitude2: Degrees.toRadians(end.latitude),
                longitudeDifference: Degrees.toRadians(end.longitude - start.longitude),
                on: .wgs84
            ))
        #expect(abs(spherical.initialBearing - 47.94) < 0.005)
        let ellipsoidal = Geodesy.initialBearing(from: start, to: end)
        #expect(abs(ellipsoidal - 48.0019) < 0.0001)
    }

    @Test("coincident points give zero distance and zero bearings")
    func coincidentPoints() throws {
        let point = try GeodesyFixtures.point(56.343, -2.803)
        #expect(
            Geodesy.inverse(from: point, to: point) == GeodesicSolution(distance: 0, initialBearing: 0, finalBearing: 0)
        )
    }

    @Test("the distance is the same both ways and across the antimeridian")
    func symmetryAndAntimeridian() throws {
        let first = try GeodesyFixtures.point(41, 29)
        let second = try GeodesyFixtures.point(-12, 77)
        let forward = Geodesy.inverse(from: first, to: second)
        let backward = Geodesy.inverse(from: second, to: first)
        #expect(abs(forward.distance - backward.distance) < 1e-6)
        #expect(GeodesyFixtures.arcsecondsBetween(backward.initialBearing, forward.finalBearing + 180) < 1e-6)

        let across = Geodesy.distance(
            from: try GeodesyFixtures.point(0.5, 179.5),
            to: try GeodesyFixtures.point(0.5, -179.5)
        )
        let middle = Geodesy.distance(
            from: try GeodesyFixtures.point(0.5, -0.5),
            to: try GeodesyFixtures.point(0.5, 0.5)
        )
        #expect(abs(across - middle) < 1e-6)
    }

    @Test("near and at antipodes every answer is finite and leads back to the target within 1 mm")
    func antipodalSweepNeverFails() throws {
        var checked = 0
        for latitude in stride(from: -85.0, through: 85.0, by: 8.5) {
            for latitudeOffset in [-0.9, -0.3, 0, 0.3, 0.9] {
                for longitude in [179.0, 179.5, 179.8, 179.95, 180.0] {
                    let start = try GeodesyFixtures.point(latitude, 0)
                    let end = try GeodesyFixtures.point(-latitude + latitudeOffset, longitude)
                    let solution = Geodesy.inverse(from: start, to: end)
                    #expect(solution.distance.isFinite && solution.distance > 19_800_000)
                    #expect(solution.initialBearing.isFinite && solution.finalBearing.isFinite)
                    let reached = try Geodesy.destination(
                        from: start,
                        initialBearing: solution.initialBearing,
                        distance: solution.distance
                    )
                    let miss = Geodesy.distance(from: reached.point, to: end)
                    #expect(miss < 0.001, "\(start) -> \(end) misses by \(miss) m")
                    checked += 1
                }
            }
        }
        #expect(checked == 21 * 5 * 5)
    }

    @Test("exact antipodes are half a meridian apart, over the pole")
    func exactAntipodes() throws {
        for latitude in [-60.0, -10, 0, 25, 89] {
            let solution = Geodesy.inverse(
                from: try GeodesyFixtures.point(latitude, 10),
                to: try GeodesyFixtures.point(-latitude, -170)
            )
            #expect(abs(solution.distance - 20_003_931.4586) < 0.0001, "latitude \(latitude)")
        }
    }
}
