/// The player's choices for guidance: the unit spoken, competition mode, how directions are worded and the
/// in-bounds window.
public struct GuidanceSettings: Sendable, Hashable, Codable {
    /// The unit for spoken distances (whole yards or whole metres).
    public var unit: DistanceUnit
    /// Competition mode (Rules of Golf, Rule 4.3a): only distance and direction. It turns off everything else
    /// this module can compute: the elevation change and the plays-like (slope-adjusted) distance. The module gives
    /// no club or line-of-play advice in any mode.
    public var competitionMode: Bool
    /// How callouts word the direction.
    public var directionStyle: DirectionStyle
    /// The full width in degrees of the window in which the heading counts as pointing at the target
    /// (Soundscape's `isBeaconInBounds` uses 45, that is within 22.5 degrees either side).
    public private(set) var inBoundsWindow: Double

    /// Soundscape's in-bounds window: 45 degrees, 22.5 either side of the target's bearing.
    public static let defaultInBoundsWindow = 45.0

    /// Makes settings; by default yards, competition mode off, eight-way directions, a 45-degree window.
    public init(
        unit: DistanceUnit = .yards,
        competitionMode: Bool = false,
        directionStyle: DirectionStyle = .eightWay
    ) {
        self.unit = unit
        self.competitionMode = competitionMode
        self.directionStyle = directionStyle
        self.inBoundsWindow = Self.defaultInBoundsWindow
    }

    /// The same settings with another in-bounds window (full width, 0...360 degrees).
    public func withInBoundsWindow(_ degrees: Double) throws(GuidanceError) -> GuidanceSettings {
        guard degrees.isFinite, (0...360).contains(degrees) else { throw .invalidInBoundsWindow(degrees) }
        var copy = self
        copy.inBoundsWindow = degrees
        return copy
    }

    /// Decodes the settings and checks the in-bounds window.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            unit: try container.decode(DistanceUnit.self, forKey: .unit),
            competitionMode: try container.decode(Bool.self, forKey: .competitionMode),
            directionStyle: try container.decode(DirectionStyle.self, forKey: .directionStyle)
        )
        let settings = self
        self = try container.checked(at: .inBoundsWindow) {
            try settings.withInBoundsWindow(container.decode(Double.self, forKey: .inBoundsWindow))
        }
    }
}
