/// The answer to the direct geodesic problem: where a path of a given length and initial bearing ends.
public struct GeodesicDestination: Sendable, Equatable {
    /// The end point.
    public let point: GeoPoint
    /// The direction of travel at the end point, degrees clockwise from true north in `0..<360`.
    public let finalBearing: Double

    /// Makes a destination from its parts; the bearing is normalised into `0..<360`.
    public init(point: GeoPoint, finalBearing: Double) {
        self.point = point
        self.finalBearing = Degrees.normalized(finalBearing)
    }
}
