import Foundation
import Testing

@testable import CaddieServices

/// A straight walk at 1.4 m/s (Soundscape's average walking speed), one fix a second, towards the green of
/// `GreenFixture` from 250 m short of it.
struct WalkFixture {
    let green: GreenFixture
    let start: GeoPoint
    let startTime = Date(timeIntervalSince1970: 1_714_552_200)

    init() throws {
        green = try GreenFixture()
        start = try Geodesy.destination(
            from: green.target.point,
            initialBearing: green.bearing + 180,
            distance: 250
        ).point
    }

    /// Fixes every `step` metres along the line, `interval` seconds apart (no times when nil).
    func walk(fixes: Int, step: Double = 1.4, interval: Double? = 1) throws -> [TrackPoint] {
        try (0..<fixes).map { index in
            let point = try Geodesy.destination(
                from: start,
                initialBearing: green.bearing,
                distance: Double(index) * step
            ).point
            return TrackPoint(point: point, time: interval.map { startTime.addingTimeInterval(Double(index) * $0) })
        }
    }
}

@Suite("Guidance: callout throttling for replay")
struct GuidanceThrottleTests {
    @Test(
        "movement needed between callouts: 25 m from 100 m out, linear to 10 m at 12 m, none nearer",
        arguments: [(250.0, 25.0), (100, 25), (99.99, 24.998_295), (56, 17.5), (12, 10), (11.99, 0), (0, 0)]
    )
    func requiredMovement(distance: Double, movement: Double) {
        // BEACON.md section 2, Soundscape's BeaconUpdateFilter: bound = (25 - 10) / (100 - 12) x (d - 12) + 10.
        #expect(abs(CalloutThrottle.requiredMovement(atDistance: distance) - movement) < 1e-6)
    }

    @Test("walking in: callouts come more often as the green nears, then one arrival")
    func walkingIn() throws {
        let walk = try WalkFixture()
        let callouts = CalloutThrottle.replay(try walk.walk(fixes: 200), to: walk.green.target)
        // Fix i is 250 - 1.4 i metres from the green. After the first, a callout needs the movement above and 5 s:
        // 18 fixes (25.2 m) while 100 m or more away, then 16, 13, 11, 10, 8 as the needed movement shrinks;
        // fix 168 is 14.8 m out, inside the 15 m arrival radius.
        #expect(callouts.map(\.fixIndex) == [0, 18, 36, 54, 72, 90, 108, 124, 137, 148, 158, 166, 168])
        #expect(callouts.map(\.kind) == Array(repeating: .distance, count: 12) + [.arrival])
        // No course yet on the first fix; after that the course comes from the previous fix and points at the green.
        #expect(callouts[0].text == "Green, 273 yards. Front 262, back 286. No heading: direction unknown.")
        #expect(callouts[1].text == "Green, 246 yards, ahead. Front 235, back 259.")
        #expect(callouts[1].guidance.heading?.source == .courseOverGround)
        #expect(callouts.last?.text == "Green, arrived.")
        #expect(callouts[1].time == walk.startTime.addingTimeInterval(18))
        for (previous, next) in zip(callouts, callouts.dropFirst()) {
            #expect(previous.text != next.text)
        }
    }

    @Test("fast movement is held to one callout every 5 seconds")
    func minimumInterval() throws {
        let walk = try WalkFixture()
        // 30 m a second (far more than the 25 m needed) from 250 m out: fixes 0, 5 and the arrival at fix 8 (10 m).
        let callouts = CalloutThrottle.replay(try walk.walk(fixes: 9, step: 30), to: walk.green.target)
        #expect(callouts.map(\.fixIndex) == [0, 5, 8])
        #expect(callouts.map(\.kind) == [.distance, .distance, .arrival])
    }

    @Test("without times only movement counts")
    func withoutTimes() throws {
        let walk = try WalkFixture()
        let callouts = CalloutThrottle.replay(try walk.walk(fixes: 9, step: 30, interval: nil), to: walk.green.target)
        #expect(callouts.map(\.fixIndex) == [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(callouts.allSatisfy { $0.time == nil })
    }

    @Test("standing still gives one callout")
    func standingStill() throws {
        let walk = try WalkFixture()
        let fix = TrackPoint(point: walk.start, time: walk.startTime)
        var throttle = CalloutThrottle(target: walk.green.target)
        #expect(throttle.receive(fix) != nil)
        for _ in 0..<20 {
            #expect(throttle.receive(fix) == nil)
        }
    }

    @Test("the same words are never spoken twice in a row")
    func noRepeats() throws {
        // Walk round the green on a 200 m circle, phone pointed at it: far enough and long enough apart for a
        // callout every fix, but every callout would say "Green, 219 yards, ahead."
        let walk = try WalkFixture()
        let centre = walk.green.target.point
        let track = try stride(from: 0.0, to: 360, by: 10).enumerated().map { index, angle in
            let point = try Geodesy.destination(from: centre, initialBearing: angle, distance: 200).point
            let towards = Geodesy.initialBearing(from: point, to: centre)
            return TrackPoint(
                point: point,
                time: walk.startTime.addingTimeInterval(Double(index) * 30),
                deviceHeading: towards
            )
        }
        let callouts = CalloutThrottle.replay(track, to: GuidanceTarget(kind: .greenCentre, point: centre))
        #expect(callouts.map(\.text) == ["Green, 219 yards, ahead."])
    }

    @Test("leaving after arrival resumes guidance at once")
    func departure() throws {
        let walk = try WalkFixture()
        let centre = walk.green.target.point
        let target = GuidanceTarget(kind: .greenCentre, point: centre)
        let distances: [Double] = [40, 10, 20, 29, 31, 33]
        let track = try distances.enumerated().map { index, distance in
            TrackPoint(
                point: try Geodesy.destination(from: centre, initialBearing: 0, distance: distance).point,
                time: walk.startTime.addingTimeInterval(Double(index) * 10)
            )
        }
        let callouts = CalloutThrottle.replay(track, to: target)
        #expect(callouts.map(\.kind) == [.distance, .arrival, .departure])
        #expect(callouts.map(\.fixIndex) == [0, 1, 4])
        // Walking north away from a green to the south: 31 m = 33.9 yd, behind.
        #expect(callouts.last?.text == "Green, 34 yards, behind.")
    }

    @Test("inside the green outline counts as arrived")
    func arrivalInsideOutline() throws {
        let fixture = try ArrivalFixture()
        let target = GuidanceTarget(kind: .greenCentre, point: fixture.centre)
        let track = [TrackPoint(point: try fixture.at(25, bearing: 90))]
        #expect(CalloutThrottle.replay(track, to: target).map(\.kind) == [.distance])
        #expect(CalloutThrottle.replay(track, to: target, area: fixture.green).map(\.kind) == [.arrival])
    }

    @Test("competition mode callouts carry no plays-like distance")
    func competitionModeReplay() throws {
        let walk = try WalkFixture()
        let target = GuidanceTarget(kind: .greenCentre, point: walk.green.target.point, altitude: 20)
        let track = [
            TrackPoint(point: walk.start, time: walk.startTime, elevation: 10, deviceHeading: walk.green.bearing)
        ]
        let open = CalloutThrottle.replay(track, to: target)
        #expect(open.first?.text == "Green, 273 yards, ahead. Plays like 284.")
        let competition = CalloutThrottle.replay(track, to: target, settings: GuidanceSettings(competitionMode: true))
        #expect(competition.first?.text == "Green, 273 yards, ahead.")
    }
}
