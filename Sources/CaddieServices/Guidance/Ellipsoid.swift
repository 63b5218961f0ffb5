/// An ellipsoid of revolution that models the Earth's shape for geodesic distances and bearings.
public struct Ellipsoid: Sendable, Hashable {
    /// The equatorial radius `a` in metres.
    public let semiMajorAxis: Double
    /// The flattening `f = (a - b) / a`.
    public let flattening: Double

    /// The polar radius `b = a (1 - f)` in metres.
    public var semiMinorAxis: Double {
        semiMajorAxis * (1 - flattening)
    }

    /// The WGS84 ellipsoid used by GPS: a = 6378137 m, 1/f = 298.257223563 (NIMA TR8350.2, 3rd edition, table 3.1).
    public static let wgs84 = Ellipsoid(checkedSemiMajorAxis: 6_378_137, flattening: 1 / 298.257_223_563)

    /// Makes an ellipsoid from `a` in metres and the flattening `f`. The formulas here are for Earth-like,
    /// slightly oblate shapes, so `f` must be in `0..<0.1` (0 is a sphere).
    public init(semiMajorAxis: Double, flattening: Double) throws(GuidanceError) {
        guard semiMajorAxis.isFinite, semiMajorAxis > 0, flattening.isFinite, flattening >= 0, flattening < 0.1 else {
            throw .invalidEllipsoid(semiMajorAxis: semiMajorAxis, flattening: flattening)
        }
        self.init(checkedSemiMajorAxis: semiMajorAxis, flattening: flattening)
    }

    private init(checkedSemiMajorAxis semiMajorAxis: Double, flattening: Double) {
        self.semiMajorAxis = semiMajorAxis
        self.flattening = flattening
    }
}
