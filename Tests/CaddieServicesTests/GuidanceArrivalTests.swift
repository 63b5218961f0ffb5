import Testing

@testable import CaddieServices

/// Positions around a green centre near St Andrews, and a 60 m by 20 m green outline (long side east-west).
struct ArrivalFixture {
    let centre: GeoPoint
    let green: GeoPolygon

    init() throws {
        centre = try GeodesyFixtures.point(56.3440, -2.8010)
        // Corners at (±30 m east, ±10 m north): bearing atan(30/10) = 71.565° from north, 31.623 m away.
        let corner = (30.0 * 30 + 10 * 10).squareRoot()
        let angle = 71.565_051_177_077_99
        green = try GeoPolygon(vertices: [
            try Geodesy.destination(from: centre, initialBearing: angle, distance: corner).point,
            try Geodesy.destination(from: centre, initialBearing: 180 - angle, distance: corner).point,
            try Geodesy.destination(from: centre, initialBearing: 180 + angle, distance: corner).point,
            try Geodesy.destination(from: centre, initialBearing: 360 - angle, distance: corner).point,
        ])
    }

    /// The point `distance` metres from the centre on `bearing`.
    func at(_ distance: Double, bearing: Double = 180) throws -> GeoPoint {
        try Geodesy.destination(from: centre, initialBearing: bearing, distance: distance).point
    }
}

@Suite("Guidance: arrival with hysteresis")
struct GuidanceArrivalTests {
    @Test("Soundscape's radii: arrive within 15 m, leave at 30 m, keep state between")
    func hysteresisAroundAPoint() throws {
        // BEACON.md section 2: EnterImmediateVicinityDistance 15 m, LeaveImmediateVicinityDistance 30 m.
        let fixture = try ArrivalFixture()
        var machine = ArrivalStateMachine(target: fixture.centre)
        #expect(machine.settings == .standard)
        #expect(machine.settings.enterRadius == 15 && machine.settings.leaveRadius == 30)
        #expect(machine.state == .away)
        #expect(machine.receive(.position(try fixture.at(40))) == ArrivalStateMachine.Action.none)
        #expect(machine.receive(.position(try fixture.at(15.01))) == ArrivalStateMachine.Action.none)
        #expect(machine.receive(.position(try fixture.at(14.99))) == .announceArrival)
        #expect(machine.state == .arrived)
        #expect(machine.receive(.position(try fixture.at(5))) == ArrivalStateMachine.Action.none)
        #expect(machine.receive(.position(try fixture.at(29.99))) == ArrivalStateMachine.Action.none)
        #expect(machine.state == .arrived)
        #expect(machine.receive(.position(try fixture.at(30.01))) == .announceDeparture)
        #expect(machine.state == .away)
        #expect(machine.receive(.position(try fixture.at(20))) == ArrivalStateMachine.Action.none)
        #expect(machine.receive(.position(try fixture.at(10))) == .announceArrival)
    }

    @Test("reset starts over as away without an announcement")
    func reset() throws {
        let fixture = try ArrivalFixture()
        var machine = ArrivalStateMachine(target: fixture.centre)
        #expect(machine.receive(.position(fixture.centre)) == .announceArrival)
        #expect(machine.receive(.reset) == ArrivalStateMachine.Action.none)
        #expect(machine.state == .away)
        #expect(machine.receive(.position(fixture.centre)) == .announceArrival)
    }

    @Test("inside the green counts as arrived even 25 m from its centre")
    func insideTheGreen() throws {
        let fixture = try ArrivalFixture()
        let inside = try fixture.at(25, bearing: 90)
        var pointOnly = ArrivalStateMachine(target: fixture.centre)
        #expect(pointOnly.receive(.position(inside)) == ArrivalStateMachine.Action.none)
        var withGreen = ArrivalStateMachine(target: fixture.centre, area: fixture.green)
        #expect(withGreen.receive(.position(inside)) == .announceArrival)
    }

    @Test("with an outline, the radii are measured from its nearest edge")
    func radiiFromTheEdge() throws {
        let fixture = try ArrivalFixture()
        var machine = ArrivalStateMachine(target: fixture.centre, area: fixture.green)
        // The east edge is 30 m east of the centre.
        #expect(machine.receive(.position(try fixture.at(50, bearing: 90))) == ArrivalStateMachine.Action.none)
        #expect(machine.receive(.position(try fixture.at(44, bearing: 90))) == .announceArrival)
        #expect(machine.receive(.position(try fixture.at(55, bearing: 90))) == ArrivalStateMachine.Action.none)
        #expect(machine.receive(.position(try fixture.at(61, bearing: 90))) == .announceDeparture)
    }

    @Test("outline containment and edge distance in the local plane")
    func polygonGeometry() throws {
        let fixture = try ArrivalFixture()
        #expect(fixture.green.contains(fixture.centre))
        #expect(fixture.green.contains(try fixture.at(29, bearing: 90)))
        #expect(fixture.green.contains(try fixture.at(9, bearing: 0)))
        #expect(!fixture.green.contains(try fixture.at(11, bearing: 0)))
        #expect(!fixture.green.contains(try fixture.at(31, bearing: 270)))
        #expect(fixture.green.distance(from: fixture.centre) == 0)
        #expect(abs(fixture.green.distance(from: try fixture.at(40, bearing: 90)) - 10) < 0.005)
        #expect(abs(fixture.green.distance(from: try fixture.at(25, bearing: 180)) - 15) < 0.005)
    }

    @Test("an outline needs three corners; a repeated closing corner is dropped")
    func polygonValidation() throws {
        let a = try GeodesyFixtures.point(0, 0)
        let b = try GeodesyFixtures.point(0, 0.001)
        let c = try GeodesyFixtures.point(0.001, 0)
        #expect(throws: GuidanceError.polygonTooSmall(vertexCount: 2)) { try GeoPolygon(vertices: [a, b, a]) }
        #expect(try GeoPolygon(vertices: [a, b, c, a]).vertices == [a, b, c])
    }

    @Test("arrival radii must be positive with leave at least enter")
    func settingsValidation() throws {
        #expect(throws: GuidanceError.invalidArrivalRadii(enter: 0, leave: 30)) {
            try ArrivalSettings(enterRadius: 0, leaveRadius: 30)
        }
        #expect(throws: GuidanceError.invalidArrivalRadii(enter: 20, leave: 10)) {
            try ArrivalSettings(enterRadius: 20, leaveRadius: 10)
        }
        let custom = try ArrivalSettings(enterRadius: 5, leaveRadius: 5)
        #expect(custom.enterRadius == 5 && custom.leaveRadius == 5)
        #expect(try ArrivalSettings() == .standard)
    }
}
