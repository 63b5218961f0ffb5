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

    private enum CodingKeys: String, CodingKey {
        case enterRadius
        case leaveRadius
    }

    /// Decodes the radii and checks them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let enter = try container.decode(Double.self, forKey: .enterRadius)
        let leave = try container.decode(Double.self, forKey: .leaveRadius)
        do {
            try self.init(enterRadius: enter, leaveRadius: leave)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .enterRadius,
                in: container,
                debugDescription: error.description
            )
        }
    }

    /// Encodes the radii.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enterRadius, forKey: .enterRadius)
        try container.encode(leaveRadius, forKey: .leaveRadius)
    }
}
