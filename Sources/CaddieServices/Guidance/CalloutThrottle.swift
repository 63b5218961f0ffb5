#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides which fixes of a walk get a spoken callout, so that automatic updates come more often as the target
/// nears without chattering. Explicit requests for the distance should not go through it.
///
/// The rules, after Soundscape's route guidance (`BeaconUpdateFilter`, beacon callout filter and geofence;
/// BEACON.md section 2):
/// - The first fix always gets a callout.
/// - Arrival (`ArrivalStateMachine`, 15 m in / 30 m out by default) gets "Green, arrived." once; while arrived no
///   distance callouts are made; leaving gets a distance callout at once.
/// - Otherwise a distance callout is due when the player has moved `requiredMovement(atDistance:)` metres since the
///   last callout (25 m when the target is 100 m or more away, down to 10 m at 12 m, nothing nearer) and, when both
///   fixes have times, at least `minimumInterval` seconds have passed.
/// - A callout whose words equal the previous callout's is never spoken.
///
/// Fixes without a course get one from the previous fix when the player has moved at least
/// `minimumMovementForCourse` metres, as Soundscape's GPX simulator does.
public struct CalloutThrottle: Sendable {
    /// The shortest time between two distance callouts, in seconds (Soundscape's beacon callout filter, 5 s).
    public static let minimumInterval: TimeInterval = 5
    /// At or beyond this distance to the target, in metres, the movement needed is `farMovement`.
    public static let farDistance = 100.0
    /// Below this distance to the target, in metres, no movement is needed.
    public static let nearDistance = 12.0
    /// The movement in metres needed between callouts when the target is far.
    public static let farMovement = 25.0
    /// The movement in metres needed between callouts at `nearDistance`.
    public static let nearMovement = 10.0
    /// The least movement in metres between two fixes from which a course over ground is computed.
    public static let minimumMovementForCourse = 1.0

    /// The target.
    public let target: GuidanceTarget
    /// The guidance settings.
    public let settings: GuidanceSettings
    /// The arrival detector, as it stands after the fixes seen so far.
    public private(set) var arrival: ArrivalStateMachine

    private var fixCount = 0
    private var previousPoint: GeoPoint?
    private var lastCalloutPoint: GeoPoint?
    private var lastCalloutTime: Date?
    private var lastText: String?

    /// Makes a throttle for `target`; `area` (such as the green's outline) counts as arrived when inside it.
    public init(
        target: GuidanceTarget,
        settings: GuidanceSettings = GuidanceSettings(),
        arrivalSettings: ArrivalSettings = .standard,
        area: GeoPolygon? = nil
    ) {
        self.target = target
        self.settings = settings
        self.arrival = ArrivalStateMachine(target: target.point, area: area, settings: arrivalSettings)
    }

    /// The movement in metres since the last callout needed before the next one, for a target `distance` metres
    /// away: 25 m from 100 m out, falling linearly to 10 m at 12 m, and 0 nearer than 12 m.
    public static func requiredMovement(atDistance distance: Double) -> Double {
        if distance >= farDistance { return farMovement }
        if distance < nearDistance { return 0 }
        let slope = (farMovement - nearMovement) / (farDistance - nearDistance)
        return nearMovement + slope * (distance - nearDistance)
    }

    /// Takes the next fix and returns the callout to speak for it, if any.
    public mutating func receive(_ fix: TrackPoint) -> Callout? {
        let index = fixCount
        fixCount += 1
        var headings = fix.headings
        if fix.course == nil, let previous = previousPoint {
            let step = Geodesy.inverse(from: previous, to: fix.point)
            if step.distance >= Self.minimumMovementForCourse,
                let course = try? HeadingReading(degrees: step.initialBearing, source: .courseOverGround)
            {
                headings.append(course)
            }
        }
        previousPoint = fix.point

        let input = GuidanceInput(position: fix.point, headings: headings, altitude: fix.elevation)
        let guidance = Guidance(from: input, to: target, settings: settings)

        switch arrival.receive(.position(fix.point)) {
        case .announceArrival:
            return speak(.arrival, guidance.arrivalCallout, guidance: guidance, fix: fix, index: index)
        case .announceDeparture:
            return speak(.departure, guidance.callout, guidance: guidance, fix: fix, index: index)
        case .none:
            break
        }
        guard arrival.state == .away else { return nil }

        if let lastPoint = lastCalloutPoint {
            let moved = Geodesy.distance(from: lastPoint, to: fix.point)
            guard moved >= Self.requiredMovement(atDistance: guidance.distance) else { return nil }
            if let lastTime = lastCalloutTime, let time = fix.time {
                guard time.timeIntervalSince(lastTime) >= Self.minimumInterval else { return nil }
            }
        }
        return speak(.distance, guidance.callout, guidance: guidance, fix: fix, index: index)
    }

    private mutating func speak(
        _ kind: Callout.Kind,
        _ text: String,
        guidance: Guidance,
        fix: TrackPoint,
        index: Int
    ) -> Callout? {
        guard text != lastText else { return nil }
        lastText = text
        lastCalloutPoint = fix.point
        lastCalloutTime = fix.time
        return Callout(kind: kind, text: text, fixIndex: index, time: fix.time, guidance: guidance)
    }
}
