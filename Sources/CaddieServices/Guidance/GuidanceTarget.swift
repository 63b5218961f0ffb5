/// A point to guide the player to: a name to speak, what kind of point it is, and for a green centre the front
/// and back of the green when the course data has them.
public struct GuidanceTarget: Sendable, Hashable, Codable {
    /// The name spoken first in a callout, such as "Green" or "Bunker left".
    public let name: String
    /// What the point is.
    public let kind: TargetKind
    /// Where it is.
    public let point: GeoPoint
    /// The front of the green, read out with a green-centre target.
    public let greenFront: GeoPoint?
    /// The back of the green, read out with a green-centre target.
    public let greenBack: GeoPoint?
    /// Height above sea level in metres, used only for the plays-like distance outside competition mode.
    public let altitude: Double?

    /// Makes a target. A nil or blank `name` becomes the kind's spoken name ("Green", "Layup", ...); a non-finite
    /// altitude counts as unknown.
    public init(
        name: String? = nil,
        kind: TargetKind,
        point: GeoPoint,
        greenFront: GeoPoint? = nil,
        greenBack: GeoPoint? = nil,
        altitude: Double? = nil
    ) {
        let trimmed = (name ?? "").trimmingWhitespace()
        self.name = trimmed.isEmpty ? kind.spokenName : trimmed
        self.kind = kind
        self.point = point
        self.greenFront = greenFront
        self.greenBack = greenBack
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }
}
