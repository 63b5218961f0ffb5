/// What guidance knows about the player at one moment: where they are, any headings, and optionally their altitude.
public struct GuidanceInput: Sendable, Hashable {
    /// The player's position.
    public let position: GeoPoint
    /// Headings from any sources; guidance uses the preferred one (`HeadingReading.preferred(from:)`).
    public let headings: [HeadingReading]
    /// Height above sea level in metres, used only for the plays-like distance outside competition mode.
    public let altitude: Double?

    /// Makes an input; a non-finite altitude counts as unknown.
    public init(position: GeoPoint, headings: [HeadingReading] = [], altitude: Double? = nil) {
        self.position = position
        self.headings = headings
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }

    /// Makes an input with at most one heading.
    public init(position: GeoPoint, heading: HeadingReading?, altitude: Double? = nil) {
        self.init(position: position, headings: heading.map { [$0] } ?? [], altitude: altitude)
    }
}
