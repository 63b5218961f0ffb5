/// A position on a course in WGS84 degrees, rounded to 1e-7 degree (about 1 cm, the precision OpenStreetMap
/// stores), so that a point read back from its stored bytes equals the point that was written.
public struct CoursePoint: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north, -90...90.
    public let latitude: Double
    /// Degrees east, -180...180.
    public let longitude: Double

    /// Units of 1e-7 degree per degree.
    static let scale = 10_000_000.0

    /// Makes a point, or nil when a coordinate is not finite or out of range.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.init(
            e7Latitude: Int64((latitude * Self.scale).rounded()),
            e7Longitude: Int64((longitude * Self.scale).rounded())
        )
    }

    /// Makes a point from whole units of 1e-7 degree; the caller has checked the range.
    package init(e7Latitude: Int64, e7Longitude: Int64) {
        latitude = Double(e7Latitude) / Self.scale
        longitude = Double(e7Longitude) / Self.scale
    }

    /// The latitude in units of 1e-7 degree.
    var e7Latitude: Int64 { Int64((latitude * Self.scale).rounded()) }
    /// The longitude in units of 1e-7 degree.
    var e7Longitude: Int64 { Int64((longitude * Self.scale).rounded()) }

    /// `latitude, longitude` in decimal degrees.
    public var description: String { "\(latitude), \(longitude)" }
}
