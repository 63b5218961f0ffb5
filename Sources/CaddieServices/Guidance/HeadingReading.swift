/// One heading measurement: a direction in degrees clockwise from true north, and where it came from.
public struct HeadingReading: Sendable, Hashable, Codable {
    /// Degrees clockwise from true north, in `0..<360`.
    public let degrees: Double
    /// The sensor or computation that produced it.
    public let source: HeadingSource

    /// Makes a reading; any finite angle is accepted and normalised into `0..<360`, and a non-finite one throws
    /// `GuidanceError.invalidBearing`.
    public init(degrees: Double, source: HeadingSource) throws(GuidanceError) {
        guard degrees.isFinite else { throw .invalidBearing(degrees) }
        self.degrees = Degrees.normalized(degrees)
        self.source = source
    }

    /// Decodes `{"degrees": …, "source": …}` and checks the angle.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self = try values.checked(at: .degrees) {
            try HeadingReading(
                degrees: values.decode(Double.self, forKey: .degrees),
                source: values.decode(HeadingSource.self, forKey: .source))
        }
    }

    /// The reading guidance should use from `readings`: the one whose source comes first in
    /// `HeadingSource.preferenceOrder` (the first given, among readings from the same source); nil when empty.
    public static func preferred(from readings: [HeadingReading]) -> HeadingReading? {
        var best: HeadingReading?
        for reading in readings {
            if let current = best, current.source.rank <= reading.source.rank { continue }
            best = reading
        }
        return best
    }
}
