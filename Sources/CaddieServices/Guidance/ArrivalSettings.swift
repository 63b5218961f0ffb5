/// The radii of arrival detection with hysteresis: the player arrives within `enterRadius` of the target and
/// leaves again only beyond `leaveRadius`, so GPS jitter at one edge does not flap between the two.
public struct ArrivalSettings: Sendable, Hashable, Codable {
    /// Distance in metres at or within which the player has arrived.
    public let enterRadius: Double
    /// Distance in metres at or beyond which an arrived player has left.
    public let leaveRadius: Double

    /// Soundscape's values: enter within 15 m, leave at 30 m (`DestinationManager`
    /// `EnterImmediateVicinityDistance` and `LeaveImmediateVicinityDistance`, BEACON.md section 2).
    public static let standard = ArrivalSettings(checkedEnterRadius: 15, leaveRadius: 30)

    /// Makes settings; both radii must be positive and finite, and the leave radius at least the enter radius.
    public init(enterRadius: Double = 15, leaveRadius: Double = 30) throws(GuidanceError) {
        guard enterRadius.isFinite, leaveRadius.isFinite, enterRadius > 0, leaveRadius >= enterRadius else {
            throw .invalidArrivalRadii(enter: enterRadius, leave: leaveRadius)
        }
        self.init(checkedEnterRadius: enterRadius, leaveRadius: leaveRadius)
    }

    private init(checkedEnterRadius enterRadius: Double, leaveRadius: Double) {
        self.enterRadius = enterRadius
        self.leaveRadius = leaveRadius
    }

    /// Decodes the radii and checks them.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self = try values.checked(at: .enterRadius) {
            try ArrivalSettings(
                enterRadius: values.decode(Double.self, forKey: .enterRadius),
                leaveRadius: values.decode(Double.self, forKey: .leaveRadius))
        }
    }
}
