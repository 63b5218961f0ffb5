/// Where a target lies relative to the player's heading, in Soundscape's eight "combined" sectors (BEACON.md
/// section 3, `Direction.swift`).
public enum RelativeDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Clockwise angle in (345, 15].
    case ahead
    /// In (15, 75].
    case aheadRight
    /// In (75, 105].
    case right
    /// In (105, 165].
    case behindRight
    /// In (165, 195].
    case behind
    /// In (195, 255].
    case behindLeft
    /// In (255, 285].
    case left
    /// In (285, 345].
    case aheadLeft

    /// The sector for an angle in degrees measured clockwise from the heading to the target (either sign; it is
    /// wrapped into 0..<360). Each sector excludes its lower bound and includes its upper one.
    public init(relativeAngle: Double) {
        let clockwise = Degrees.normalized(relativeAngle)
        switch clockwise {
        case let angle where angle > 345 || angle <= 15: self = .ahead
        case let angle where angle <= 75: self = .aheadRight
        case let angle where angle <= 105: self = .right
        case let angle where angle <= 165: self = .behindRight
        case let angle where angle <= 195: self = .behind
        case let angle where angle <= 255: self = .behindLeft
        case let angle where angle <= 285: self = .left
        default: self = .aheadLeft
        }
    }

    /// The words spoken for the sector, as in Soundscape's en-US strings: "ahead to the left", "to the right", ...
    public var phrase: String {
        switch self {
        case .ahead: "ahead"
        case .aheadRight: "ahead to the right"
        case .right: "to the right"
        case .behindRight: "behind to the right"
        case .behind: "behind"
        case .behindLeft: "behind to the left"
        case .left: "to the left"
        case .aheadLeft: "ahead to the left"
        }
    }

    /// The hour on a clock face with 12 straight ahead and 3 to the right; each hour covers the 30 degrees centred
    /// on it, including its lower edge (so 15 degrees is 1 o'clock).
    public static func clockHour(relativeAngle: Double) -> Int {
        let clockwise = Degrees.normalized(relativeAngle)
        let hour = Int((clockwise + 15) / 30) % 12
        return hour == 0 ? 12 : hour
    }
}
