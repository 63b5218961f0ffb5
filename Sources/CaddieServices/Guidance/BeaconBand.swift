/// Which of the four components of Soundscape's default beacon plays for a relative angle
/// (`standardFourRegionSelector`, BEACON.md section 1.2), or the dimmed beacon when there is no heading.
///
/// A boundary angle belongs to the more central band, as in Soundscape's code: exactly 15 degrees is on axis,
/// 55 near axis, 125 off axis.
public enum BeaconBand: String, Sendable, Hashable, Codable, CaseIterable {
    /// Within 15 degrees either side of the target ("A+").
    case onAxis
    /// More than 15 and up to 55 degrees either side ("A").
    case nearAxis
    /// More than 55 and up to 125 degrees either side ("B").
    case offAxis
    /// More than 125 degrees either side.
    case behind
    /// No heading is known: Soundscape then plays the behind component further away and quieter.
    case dimmed

    /// The half-width of the on-axis band in degrees.
    public static let onAxisLimit = 15.0
    /// The outer edge of the near-axis band in degrees.
    public static let nearAxisLimit = 55.0
    /// The outer edge of the off-axis band in degrees.
    public static let offAxisLimit = 125.0

    /// The band for a relative angle in degrees (either sign; values outside -180...180 are wrapped), or
    /// `.dimmed` for nil.
    public init(relativeAngle: Double?) {
        guard let relativeAngle, relativeAngle.isFinite else {
            self = .dimmed
            return
        }
        let offset = abs(Degrees.signed(relativeAngle))
        if offset <= Self.onAxisLimit {
            self = .onAxis
        } else if offset <= Self.nearAxisLimit {
            self = .nearAxis
        } else if offset <= Self.offAxisLimit {
            self = .offAxis
        } else {
            self = .behind
        }
    }
}
