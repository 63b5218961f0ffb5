/// The answer to the inverse geodesic problem: how far apart two points are along the ellipsoid, and which way
/// the shortest path leaves the first point and arrives at the second.
public struct GeodesicSolution: Sendable, Equatable {
    /// The length of the shortest path in metres.
    public let distance: Double
    /// The direction of the path at the start, degrees clockwise from true north in `0..<360`.
    public let initialBearing: Double
    /// The direction of travel at the end, degrees clockwise from true north in `0..<360` (the reverse azimuth
    /// plus 180 degrees).
    public let finalBearing: Double

    /// The distance in international yards (1 yd = 0.9144 m exactly).
    public var distanceInYards: Double {
        DistanceUnit.yards.value(fromMetres: distance)
    }

    /// Makes a solution from its parts; bearings are normalised into `0..<360`.
    public init(distance: Double, initialBearing: Double, finalBearing: Double) {
        self.distance = distance
        self.initialBearing = Degrees.normalized(initialBearing)
        self.finalBearing = Degrees.normalized(finalBearing)
    }
}
