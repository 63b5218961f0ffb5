import CaddieCore

/// One OpenStreetMap element reduced to what the course import needs: its id, tags and geometry. All three input
/// formats (GeoJSON, Overpass JSON, OSM XML) are read into these.
struct OSMFeature: Sendable {
    /// Geometry of a feature.
    enum Geometry: Sendable {
        case point(CoursePoint)
        case line([CoursePoint])
        /// The outer ring without its closing corner.
        case polygon([CoursePoint])
    }

    /// "way/123", "node/5", or the file's own id when it has no OSM type.
    var id: String
    var tags: [String: String]
    var geometry: Geometry

    var points: [CoursePoint] {
        switch geometry {
        case .point(let point): [point]
        case .line(let points), .polygon(let points): points
        }
    }
}

/// What a reader found in a file.
struct OSMData: Sendable {
    var features: [OSMFeature]
    /// When the data was extracted from OpenStreetMap, as YYYY-MM-DD, when the file says.
    var date: String?
    /// "GeoJSON", "Overpass JSON" or "OSM XML".
    var format: String

    /// The most elements (features, nodes, ways, relations) a file may hold.
    static let maxElements = 1_000_000
    /// The most positions one element may have; longer ones are thinned, which keeps every loop bounded.
    static let maxPointsPerElement = CourseShape.maxPoints

    /// A date at the start of a timestamp such as "2026-05-11T05:42:14Z", or nil.
    static func date(from timestamp: String?) -> String? {
        guard let timestamp else { return nil }
        let head = Array(timestamp.utf8.prefix(10))
        guard head.count == 10 else { return nil }
        for (index, byte) in head.enumerated() {
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard index == 4 || index == 7 ? byte == UInt8(ascii: "-") : isDigit else { return nil }
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// At most `limit` points (evenly spaced), keeping the first and the last.
    static func thinned(_ points: [CoursePoint], limit: Int = maxPointsPerElement) -> [CoursePoint] {
        guard points.count > limit, limit >= 2 else { return points }
        let step = (points.count + limit - 2) / (limit - 1)
        var result = stride(from: 0, to: points.count - 1, by: step).map { points[$0] }
        if let last = points.last { result.append(last) }
        return result
    }

    /// Whether a closed way with these tags is an area rather than a closed line.
    static func isArea(_ tags: [String: String]) -> Bool {
        if tags["area"] == "yes" { return true }
        if tags["area"] == "no" || tags["highway"] != nil { return false }
        switch tags["golf"] {
        case "hole", "path", "cartpath": return false
        default: return true
        }
    }
}
