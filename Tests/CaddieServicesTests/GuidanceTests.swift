import Testing

@testable import CaddieServices

/// A green 152 yards from a tee on a bearing of 47.94 degrees, with its front at 141 and back at 165 yards, on
/// the same line (the first row of BEACON.md's table, near St Andrews).
struct GreenFixture {
    let tee: GeoPoint
    let bearing = 47.94
    let target: GuidanceTarget

    init(altitude: Double? = nil) throws {
        tee = try GeodesyFixtures.point(56.3430, -2.8030)
        let yard = 0.9144
        let centre = try Geodesy.destination(from: tee, initialBearing: bearing, distance: 152 * yard).point
        let front = try Geodesy.destination(from: tee, initialBearing: bearing, distance: 141 * yard).point
        let back = try Geodesy.destination(from: tee, initialBearing: bearing, distance: 165 * yard).point
        target = GuidanceTarget(
            kind: .greenCentre,
            point: centre,
            greenFront: front,
            greenBack: back,
            altitude: altitude
        )
    }

    /// Input at the tee with a compass heading `offset` degrees clockwise of the green's bearing.
    func input(headingOffset offset: Double, altitude: Double? = nil) throws -> GuidanceInput {
        GuidanceInput(
            position: tee,
            heading: try HeadingReading(degrees: bearing + offset, source: .compass),
            altitude: altitude
        )
    }
}

@Suite("Guidance: distance, direction, band and callout")
struct GuidanceTests {
    @Test("the brief's example: \"Green, 152 yards, ahead to the left. Front 141, back 165.\"")
    func calloutWithHeading() throws {
        let fixture = try GreenFixture()
        // Facing 40 degrees right of the green puts it 40 degrees to the left.
        let guidance = Guidance(from: try fixture.input(headingOffset: 40), to: fixture.target)
        #expect(guidance.callout == "Green, 152 yards, ahead to the left. Front 141, back 165.")
        #expect(abs(guidance.distance - 152 * 0.9144) < 1e-6)
        #expect(abs(guidance.distanceInYards - 152) < 1e-6)
        #expect(abs(guidance.bearing - 47.94) < 1e-6)
        #expect(abs((guidance.relativeAngle ?? 0) - -40) < 1e-6)
        #expect(guidance.band == .nearAxis)
        #expect(guidance.isInBounds == false)
        #expect(guidance.direction == .aheadLeft)
        #expect(guidance.clockHour == 11)
        #expect(abs((guidance.frontDistance ?? 0) - 141 * 0.9144) < 1e-6)
        #expect(abs((guidance.backDistance ?? 0) - 165 * 0.9144) < 1e-6)
    }

    @Test("without a heading the callout says so and gives distance only; the beacon is dimmed")
    func calloutWithoutHeading() throws {
        let fixture = try GreenFixture()
        let guidance = Guidance(from: GuidanceInput(position: fixture.tee), to: fixture.target)
        #expect(guidance.callout == "Green, 152 yards. Front 141, back 165. No heading: direction unknown.")
        #expect(guidance.heading == nil)
        #expect(guidance.relativeAngle == nil)
        #expect(guidance.band == .dimmed)
        #expect(guidance.isInBounds == nil)
        #expect(guidance.direction == nil)
        #expect(guidance.clockHour == nil)
    }

    @Test("metres and clock-face settings change the words, not the numbers")
    func metresAndClockFace() throws {
        let fixture = try GreenFixture()
        let settings = GuidanceSettings(unit: .metres, directionStyle: .clockFace)
        let guidance = Guidance(from: try fixture.input(headingOffset: 40), to: fixture.target, settings: settings)
        // 152 yd = 138.99 m, 141 yd = 128.93 m, 165 yd = 150.88 m.
        #expect(guidance.callout == "Green, 139 metres, 11 o'clock. Front 129, back 151.")
    }

    @Test("outside competition mode known altitudes add a plays-like distance")
    func playsLike() throws {
        // 6 yards (5.4864 m) uphill: 152 plays like 158.
        let fixture = try GreenFixture(altitude: 15.4864)
        let guidance = Guidance(from: try fixture.input(headingOffset: 40, altitude: 10), to: fixture.target)
        #expect(abs((guidance.elevationChange ?? 0) - 5.4864) < 1e-9)
        #expect(abs((guidance.playsLikeDistance ?? 0) - 158 * 0.9144) < 1e-6)
        #expect(guidance.callout == "Green, 152 yards, ahead to the left. Plays like 158. Front 141, back 165.")
    }

    @Test("competition mode (Rule 4.3a) turns off elevation and plays-like, keeping distance and direction")
    func competitionMode() throws {
        let fixture = try GreenFixture(altitude: 15.4864)
        let settings = GuidanceSettings(competitionMode: true)
        let guidance = Guidance(
            from: try fixture.input(headingOffset: 40, altitude: 10),
            to: fixture.target,
            settings: settings
        )
        #expect(guidance.elevationChange == nil)
        #expect(guidance.playsLikeDistance == nil)
        #expect(guidance.callout == "Green, 152 yards, ahead to the left. Front 141, back 165.")
        #expect(!guidance.callout.contains("Plays like"))
    }

    @Test(
        "beacon bands follow Soundscape's four-region selector; boundaries go to the inner band",
        arguments: [
            (0.0, BeaconBand.onAxis), (15, .onAxis), (-15, .onAxis), (15.01, .nearAxis), (55, .nearAxis),
            (-55, .nearAxis), (55.01, .offAxis), (125, .offAxis), (-125, .offAxis), (125.01, .behind),
            (180, .behind), (-179, .behind), (345, .onAxis), (305, .nearAxis), (235, .offAxis),
        ]
    )
    func beaconBands(angle: Double, band: BeaconBand) {
        // BEACON.md section 1.2: A+ within 15°, A to 55°, B to 125°, behind beyond; 15, 55 and 125 are inner.
        #expect(BeaconBand(relativeAngle: angle) == band)
    }

    @Test("no relative angle gives the dimmed beacon")
    func dimmedBand() {
        #expect(BeaconBand(relativeAngle: nil) == .dimmed)
        #expect(BeaconBand(relativeAngle: .nan) == .dimmed)
    }

    @Test(
        "eight-way sectors follow Soundscape's combined directions, lower bound exclusive",
        arguments: [
            (0.0, RelativeDirection.ahead), (15, .ahead), (15.01, .aheadRight), (75, .aheadRight), (90, .right),
            (105, .right), (105.01, .behindRight), (165, .behindRight), (180, .behind), (195, .behind),
            (-90, .left), (-75, .left), (-74.9, .aheadLeft), (-15, .aheadLeft), (-14.99, .ahead),
            (-165, .behind), (-164.99, .behindLeft),
        ]
    )
    func eightWaySectors(angle: Double, direction: RelativeDirection) {
        // BEACON.md section 3: ahead (345, 15], ahead-right (15, 75], ..., ahead-left (285, 345].
        #expect(RelativeDirection(relativeAngle: angle) == direction)
    }

    @Test(
        "clock hours put 12 ahead and 3 to the right",
        arguments: [(0.0, 12), (14.99, 12), (15, 1), (90, 3), (-90, 9), (180, 6), (-40, 11), (-15, 12), (345, 12)]
    )
    func clockHours(angle: Double, hour: Int) {
        #expect(RelativeDirection.clockHour(relativeAngle: angle) == hour)
    }

    @Test("a target due west with the player facing north is 90 degrees to the left")
    func signOfRelativeAngle() throws {
        let target = GuidanceTarget(kind: .hazard, point: try GeodesyFixtures.point(0, -0.001))
        let north = try HeadingReading(degrees: 0, source: .compass)
        let guidance = Guidance(
            from: GuidanceInput(position: try GeodesyFixtures.point(0, 0), heading: north),
            to: target
        )
        #expect(abs(guidance.bearing - 270) < 1e-9)
        #expect(abs((guidance.relativeAngle ?? 0) - -90) < 1e-9)
        #expect(guidance.direction == .left)
        // a x 0.001° = 111.319 m = 121.74 yd.
        #expect(guidance.callout == "Hazard, 122 yards, to the left.")
    }

    @Test("exactly behind is +180 and says behind")
    func behind() throws {
        let fixture = try GreenFixture()
        let guidance = Guidance(from: try fixture.input(headingOffset: 180), to: fixture.target)
        // Rounding may land just either side of 180; -180 itself is never returned.
        #expect(abs(abs(guidance.relativeAngle ?? 0) - 180) < 1e-6)
        #expect(guidance.band == .behind)
        #expect(guidance.callout == "Green, 152 yards, behind. Front 141, back 165.")
    }

    @Test("in bounds within 22.5 degrees by default, and within half a custom window")
    func inBounds() throws {
        let fixture = try GreenFixture()
        #expect(Guidance(from: try fixture.input(headingOffset: 22.4), to: fixture.target).isInBounds == true)
        #expect(Guidance(from: try fixture.input(headingOffset: -22.4), to: fixture.target).isInBounds == true)
        #expect(Guidance(from: try fixture.input(headingOffset: 22.6), to: fixture.target).isInBounds == false)
        let wide = try GuidanceSettings().withInBoundsWindow(90)
        #expect(
            Guidance(from: try fixture.input(headingOffset: 44), to: fixture.target, settings: wide).isInBounds == true
        )
        #expect(throws: GuidanceError.invalidInBoundsWindow(400)) { try GuidanceSettings().withInBoundsWindow(400) }
    }

    @Test("head tracking beats compass beats course over ground; the first of a source wins")
    func headingPreference() throws {
        let course = try HeadingReading(degrees: 10, source: .courseOverGround)
        let compass = try HeadingReading(degrees: 20, source: .compass)
        let head = try HeadingReading(degrees: 30, source: .headTracking)
        let otherCompass = try HeadingReading(degrees: 25, source: .compass)
        #expect(HeadingReading.preferred(from: [course, compass, head]) == head)
        #expect(HeadingReading.preferred(from: [course, compass, otherCompass]) == compass)
        #expect(HeadingReading.preferred(from: [course]) == course)
        #expect(HeadingReading.preferred(from: []) == nil)
        #expect(HeadingSource.preferenceOrder == [.headTracking, .compass, .courseOverGround])
        // One reading of a source's name, for the CLI and the API alike.
        #expect(
            ["head", "Head-Tracking", "HEADTRACKING"].map { HeadingSource(name: $0) } == [
                .headTracking, .headTracking, .headTracking,
            ])
        #expect(
            ["course", "COG", "course-over-ground"].map { HeadingSource(name: $0) } == [
                .courseOverGround, .courseOverGround, .courseOverGround,
            ])
        #expect(HeadingSource(name: "Compass") == .compass)
        #expect(HeadingSource(name: "gps") == nil && HeadingSource(name: "") == nil)

        let fixture = try GreenFixture()
        let input = GuidanceInput(
            position: fixture.tee,
            headings: [
                try HeadingReading(degrees: fixture.bearing + 90, source: .courseOverGround),
                try HeadingReading(degrees: fixture.bearing, source: .headTracking),
            ]
        )
        let guidance = Guidance(from: input, to: fixture.target)
        #expect(guidance.heading?.source == .headTracking)
        #expect(guidance.direction == .ahead)
    }

    @Test("headings must be finite and are normalised")
    func headingValidation() throws {
        #expect(try HeadingReading(degrees: -90, source: .compass).degrees == 270)
        #expect(try HeadingReading(degrees: 720, source: .compass).degrees == 0)
        #expect(throws: GuidanceError.invalidBearing(.infinity)) {
            try HeadingReading(degrees: .infinity, source: .compass)
        }
    }

    @Test("names default to the kind; front and back are read only for a green centre; 1 is singular")
    func namesAndUnits() throws {
        let tee = try GeodesyFixtures.point(56.343, -2.803)
        let north = try HeadingReading(degrees: 0, source: .compass)
        let oneYard = try Geodesy.destination(from: tee, initialBearing: 0, distance: 0.9144).point
        let layup = GuidanceTarget(name: "  ", kind: .layup, point: oneYard, greenFront: oneYard)
        #expect(layup.name == "Layup")
        #expect(
            Guidance(from: GuidanceInput(position: tee, heading: north), to: layup).callout == "Layup, 1 yard, ahead."
        )

        let oneMetre = try Geodesy.destination(from: tee, initialBearing: 0, distance: 1).point
        let bunker = GuidanceTarget(name: " Bunker left\n", kind: .hazard, point: oneMetre)
        let metres = GuidanceSettings(unit: .metres)
        let guidance = Guidance(from: GuidanceInput(position: tee, heading: north), to: bunker, settings: metres)
        #expect(guidance.callout == "Bunker left, 1 metre, ahead.")
        #expect(guidance.frontDistance == nil)
    }

    @Test("error descriptions are one line and say what to do")
    func errorDescriptions() {
        let errors: [GuidanceError] = [
            .invalidLatitude(91), .invalidLongitude(.nan), .invalidBearing(.infinity), .invalidDistance(-1),
            .invalidEllipsoid(semiMajorAxis: 0, flattening: 2),
            .invalidArrivalRadii(enter: 30, leave: 15), .invalidInBoundsWindow(-1), .polygonTooSmall(vertexCount: 2),
            .gpxTooLarge(byteCount: 100, limit: 10), .gpxNotUTF8, .gpxMalformed(line: 3, reason: "bad\nthing"),
            .gpxNotGPX(rootElement: "kml"), .gpxTooDeep(line: 9, limit: 64), .gpxTooManyPoints(limit: 5),
            .gpxMissingAttribute(element: "trkpt", attribute: "lat", line: 4),
            .gpxInvalidNumber(field: "lat", text: String(repeating: "x", count: 500), line: 4),
            .gpxValueOutOfRange(field: "lat", value: 91, line: 4), .gpxInvalidTime(text: "noon", line: 5),
            .gpxNoTrackPoints,
        ]
        for error in errors {
            #expect(!error.description.contains("\n"), "\(error)")
            #expect(error.description.count < 200, "\(error)")
            #expect(error.description.contains(":"), "\(error)")
        }
        #expect(GuidanceError.invalidLatitude(91).description.contains("-90 to 90"))
        #expect(GuidanceError.gpxMalformed(line: 3, reason: "x").description.hasPrefix("GPX line 3: x;"))
    }
}
