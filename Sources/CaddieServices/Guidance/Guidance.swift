/// Guidance from the player to one target at one moment: distance, bearing, the direction relative to the
/// player's heading, the beacon band, and a short callout to speak.
///
/// Computing it is pure and immediate, so an explicit "what's my distance?" request should call
/// `Guidance(from:to:settings:)` directly; `CalloutThrottle` decides when automatic callouts are spoken.
public struct Guidance: Sendable, Equatable {
    /// The target guided to.
    public let target: GuidanceTarget
    /// The settings used, which decide the callout's unit and wording and what competition mode turns off.
    public let settings: GuidanceSettings
    /// The geodesic distance to the target in metres.
    public let distance: Double
    /// The initial bearing from the player to the target, degrees clockwise from true north in `0..<360`.
    public let bearing: Double
    /// The heading used (the preferred of those given), or nil when none was given.
    public let heading: HeadingReading?
    /// The target's direction relative to the heading in degrees, in `-180...180` with negative to the left and
    /// exactly behind as +180; nil without a heading.
    public let relativeAngle: Double?
    /// The beacon component to play: `.dimmed` without a heading.
    public let band: BeaconBand
    /// Whether the heading is within half the in-bounds window of the target (22.5 degrees by default); nil without
    /// a heading.
    public let isInBounds: Bool?
    /// The eight-way sector of the target relative to the heading; nil without a heading.
    public let direction: RelativeDirection?
    /// The clock hour of the target relative to the heading (12 ahead, 3 right); nil without a heading.
    public let clockHour: Int?
    /// For a green-centre target with a known front: the distance to the front in metres.
    public let frontDistance: Double?
    /// For a green-centre target with a known back: the distance to the back in metres.
    public let backDistance: Double?
    /// The target's altitude less the player's, in metres; nil when either is unknown or in competition mode.
    public let elevationChange: Double?
    /// The distance plus the elevation change, in metres: a rule of thumb for how long the shot plays (uphill
    /// longer, downhill shorter). Nil when the elevation change is nil, so always nil in competition mode.
    public let playsLikeDistance: Double?

    /// The distance in yards.
    public var distanceInYards: Double {
        DistanceUnit.yards.value(fromMetres: distance)
    }

    /// Computes guidance from `input` to `target` on `ellipsoid` (WGS84 by default).
    public init(
        from input: GuidanceInput,
        to target: GuidanceTarget,
        settings: GuidanceSettings = GuidanceSettings(),
        ellipsoid: Ellipsoid = .wgs84
    ) {
        let solution = Geodesy.inverse(from: input.position, to: target.point, on: ellipsoid)
        self.target = target
        self.settings = settings
        self.distance = solution.distance
        self.bearing = solution.initialBearing

        let heading = HeadingReading.preferred(from: input.headings)
        self.heading = heading
        if let heading {
            let relative = Degrees.signed(solution.initialBearing - heading.degrees)
            self.relativeAngle = relative
            self.band = BeaconBand(relativeAngle: relative)
            self.isInBounds = abs(relative) <= settings.inBoundsWindow / 2
            self.direction = RelativeDirection(relativeAngle: relative)
            self.clockHour = RelativeDirection.clockHour(relativeAngle: relative)
        } else {
            self.relativeAngle = nil
            self.band = .dimmed
            self.isInBounds = nil
            self.direction = nil
            self.clockHour = nil
        }

        let isGreenCentre = target.kind == .greenCentre
        self.frontDistance =
            isGreenCentre
            ? target.greenFront.map { Geodesy.distance(from: input.position, to: $0, on: ellipsoid) } : nil
        self.backDistance =
            isGreenCentre
            ? target.greenBack.map { Geodesy.distance(from: input.position, to: $0, on: ellipsoid) } : nil

        // Rule 4.3a forbids measuring elevation changes in competition, so neither is computed there.
        if !settings.competitionMode, let targetAltitude = target.altitude, let playerAltitude = input.altitude {
            let change = targetAltitude - playerAltitude
            self.elevationChange = change
            self.playsLikeDistance = max(0, solution.distance + change)
        } else {
            self.elevationChange = nil
            self.playsLikeDistance = nil
        }
    }
}
