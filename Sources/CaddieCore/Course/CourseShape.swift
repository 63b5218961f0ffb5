/// A piece of course geometry: one or more positions, a line or an outline, with its compact byte encoding.
///
/// Stored in a course field as a `bytes` value (docs/course-format.md, "Geometry encoding"):
///
///     kind (u8: 1 points, 2 line, 3 polygon) ‖ count (varint) ‖ count × (Δlatitude, Δlongitude)
///
/// Each coordinate is in units of 1e-7 degree, written as the difference from the previous point (the first
/// from 0) as a zigzag LEB128 varint. Neighbouring corners of a green lie a few metres apart, so a point usually
/// takes 3 to 5 bytes.
public struct CourseShape: Hashable, Sendable {
    /// What the positions describe.
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// Separate positions, such as the tee boxes of one tee or a single green centre (one or more).
        case points = 1
        /// An open line in order, such as the line of play (two or more).
        case line = 2
        /// A closed outline without its closing corner, such as a green or a bunker (three or more, not all equal).
        case polygon = 3
    }

    /// The kind of shape.
    public let kind: Kind
    /// The positions in order.
    public let points: [CoursePoint]

    /// The most positions one shape may hold, which bounds the work of decoding a field from a peer.
    public static let maxPoints = 4096

    /// Makes a shape, or nil when there are too few or too many positions for its kind. A polygon's closing
    /// corner (equal to the first) is dropped.
    public init?(kind: Kind, points: [CoursePoint]) {
        var corners = points
        if kind == .polygon, corners.count > 1, corners.first == corners.last { corners.removeLast() }
        guard corners.count <= Self.maxPoints else { return nil }
        switch kind {
        case .points: guard !corners.isEmpty else { return nil }
        case .line: guard corners.count >= 2 else { return nil }
        case .polygon: guard corners.count >= 3, Set(corners).count >= 3 else { return nil }
        }
        self.kind = kind
        self.points = corners
    }

    /// One position.
    public init(point: CoursePoint) {
        kind = .points
        points = [point]
    }

    /// The compact encoding described above.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = [kind.rawValue]
        bytes.reserveCapacity(2 + points.count * 5)
        Self.appendVarint(UInt64(points.count), to: &bytes)
        var previous = (latitude: Int64(0), longitude: Int64(0))
        for point in points {
            let latitude = point.e7Latitude
            let longitude = point.e7Longitude
            Self.appendVarint(Self.zigzag(latitude - previous.latitude), to: &bytes)
            Self.appendVarint(Self.zigzag(longitude - previous.longitude), to: &bytes)
            previous = (latitude, longitude)
        }
        return bytes
    }

    /// Decodes the encoding, or nil for bytes that are not exactly one valid shape (unknown kind, a count over
    /// ``maxPoints``, a coordinate out of range, a truncated varint, trailing bytes).
    public init?(encoded bytes: [UInt8]) {
        guard let first = bytes.first, let kind = Kind(rawValue: first) else { return nil }
        var index = 1
        guard let count = Self.readVarint(bytes, &index), count <= UInt64(Self.maxPoints) else { return nil }
        var points: [CoursePoint] = []
        points.reserveCapacity(Int(count))
        var latitude = Int64(0)
        var longitude = Int64(0)
        let latitudeLimit = Int64(90 * CoursePoint.scale)
        let longitudeLimit = Int64(180 * CoursePoint.scale)
        for _ in 0..<Int(count) {
            guard let dLatitude = Self.readVarint(bytes, &index), let dLongitude = Self.readVarint(bytes, &index)
            else { return nil }
            // Deltas are bounded by twice the coordinate range, so the sums below cannot overflow.
            let stepLatitude = Self.unzigzag(dLatitude)
            let stepLongitude = Self.unzigzag(dLongitude)
            guard stepLatitude.magnitude <= UInt64(2 * latitudeLimit),
                stepLongitude.magnitude <= UInt64(2 * longitudeLimit)
            else { return nil }
            latitude += stepLatitude
            longitude += stepLongitude
            guard latitude.magnitude <= UInt64(latitudeLimit), longitude.magnitude <= UInt64(longitudeLimit) else {
                return nil
            }
            points.append(CoursePoint(e7Latitude: latitude, e7Longitude: longitude))
        }
        guard index == bytes.count else { return nil }
        self.init(kind: kind, points: points)
    }

    // MARK: - Varints

    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// Reads a varint of at most 10 bytes; nil when truncated or longer than 64 bits.
    static func readVarint(_ bytes: [UInt8], _ index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let byte = bytes[index]
            index += 1
            if shift == 63, byte > 1 { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
