#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One fix of a recorded track: a position, and whatever else the GPX file gave for it.
public struct TrackPoint: Sendable, Hashable {
    /// The position.
    public let point: GeoPoint
    /// When it was recorded, if known.
    public let time: Date?
    /// Height above sea level in metres (`<ele>`), if known.
    public let elevation: Double?
    /// Direction of travel in degrees from true north (Garmin's `course` extension), if known.
    public let course: Double?
    /// Speed in metres per second (Garmin's `speed` extension), if known.
    public let speed: Double?
    /// The phone's compass heading in degrees (Soundscape's `deviceHeading` extension), if known.
    public let deviceHeading: Double?

    /// Makes a fix. Non-finite optional values count as unknown; angles are normalised into `0..<360`.
    public init(
        point: GeoPoint,
        time: Date? = nil,
        elevation: Double? = nil,
        course: Double? = nil,
        speed: Double? = nil,
        deviceHeading: Double? = nil
    ) {
        self.point = point
        self.time = time
        self.elevation = elevation.flatMap { $0.isFinite ? $0 : nil }
        self.course = course.flatMap { $0.isFinite ? Degrees.normalized($0) : nil }
        self.speed = speed.flatMap { $0.isFinite ? $0 : nil }
        self.deviceHeading = deviceHeading.flatMap { $0.isFinite ? Degrees.normalized($0) : nil }
    }

    /// The headings this fix carries: the compass heading and the course over ground, when present.
    public var headings: [HeadingReading] {
        var readings: [HeadingReading] = []
        if let deviceHeading, let reading = try? HeadingReading(degrees: deviceHeading, source: .compass) {
            readings.append(reading)
        }
        if let course, let reading = try? HeadingReading(degrees: course, source: .courseOverGround) {
            readings.append(reading)
        }
        return readings
    }
}
