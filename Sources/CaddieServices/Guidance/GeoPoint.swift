/// A position on the WGS84 ellipsoid in decimal degrees: latitude north positive, longitude east positive.
///
/// Values are checked when the point is made, so code that holds a `GeoPoint` never sees NaN or an out-of-range
/// coordinate.
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// The accepted latitudes in degrees.
    public static let latitudeRange = -90.0...90.0
    /// The accepted longitudes in degrees.
    public static let longitudeRange = -180.0...180.0

    /// Makes a point, throwing `GuidanceError.invalidLatitude` or `.invalidLongitude` for a value that is not finite
    /// or out of range.
    public init(latitude: Double, longitude: Double) throws(GuidanceError) {
        guard latitude.isFinite, Self.latitudeRange.contains(latitude) else {
            throw .invalidLatitude(latitude)
        }
        guard longitude.isFinite, Self.longitudeRange.contains(longitude) else {
            throw .invalidLongitude(longitude)
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Makes a point from computed values: latitude clamped to -90...90, longitude wrapped into -180..<180, and
    /// non-finite values replaced by 0. Only for results of this module's own arithmetic.
    init(computedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude.isFinite ? min(90, max(-90, latitude)) : 0
        self.longitude = Degrees.longitude(longitude)
    }

    /// Decodes `{"latitude": …, "longitude": …}` and checks the ranges.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self = try values.checked(at: { error in if case .invalidLatitude = error { .latitude } else { .longitude } }) {
            try GeoPoint(
                latitude: values.decode(Double.self, forKey: .latitude),
                longitude: values.decode(Double.self, forKey: .longitude))
        }
    }

    /// The point as `latitude, longitude` in decimal degrees.
    public var description: String {
        "\(latitude), \(longitude)"
    }
}
