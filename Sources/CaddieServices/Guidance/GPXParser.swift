#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the track points of a GPX 1.1 document, so that guidance can be replayed from a recorded walk.
///
/// Every `<trkpt>` of every track and segment is returned in document order with its `lat` and `lon`, and `<ele>`
/// and `<time>` when present. Also read, at any depth inside the point (so inside `<extensions>` too), by local
/// name: `course` and `speed` (Garmin's TrackPointExtension, as Soundscape records them) and `deviceHeading`
/// (Soundscape's own extension). Negative course, speed or heading values are CoreLocation's "invalid" marker and
/// count as unknown; so does a time of exactly 1970-01-01T00:00:00Z, which is how Soundscape writes a missing one.
/// Namespace prefixes are ignored; other elements are skipped.
///
/// The parser is a hand-written tokenizer (`GPXTokenizer`), because Foundation's `XMLParser` needs FoundationXML
/// on Linux. It never expands DOCTYPE entities, and the limits below bound its work on hostile input.
public enum GPXParser: Sendable {
    /// The largest document accepted, in bytes (64 MiB, about half a million track points with extensions).
    public static let maximumDocumentSize = 64 * 1024 * 1024
    /// The deepest element nesting accepted; GPX needs about six levels.
    public static let maximumDepth = 64
    /// The most track points accepted.
    public static let maximumTrackPoints = 1_000_000

    /// The elements read inside a track point.
    private enum Field: String {
        case ele
        case time
        case course
        case speed
        case deviceHeading = "deviceheading"
    }

    /// Parses GPX from raw bytes, which must be UTF-8 (with or without a byte order mark).
    public static func parse(_ data: Data) throws(GuidanceError) -> [TrackPoint] {
        guard data.count <= maximumDocumentSize else {
            throw .gpxTooLarge(byteCount: data.count, limit: maximumDocumentSize)
        }
        return try parse(bytes: [UInt8](data))
    }

    /// Parses GPX from a string.
    public static func parse(_ text: String) throws(GuidanceError) -> [TrackPoint] {
        let count = text.utf8.count
        guard count <= maximumDocumentSize else {
            throw .gpxTooLarge(byteCount: count, limit: maximumDocumentSize)
        }
        return try parse(bytes: Array(text.utf8))
    }

    static func parse(bytes: [UInt8]) throws(GuidanceError) -> [TrackPoint] {
        // UTF-16 (with or without a byte order mark) has NUL bytes in it; XML allows none in UTF-8.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0) {
            throw .gpxNotUTF8
        }
        var tokenizer = GPXTokenizer(bytes: bytes)
        var stack: [String] = []
        var sawRoot = false
        var points: [TrackPoint] = []
        var current: PendingPoint?
        // The field whose text is being collected, and the depth of its element.
        var capture: (field: Field, depth: Int, text: String)?

        while let token = try tokenizer.next() {
            switch token {
            case .startTag(let rawName, let attributes, let selfClosing, let line):
                let name = localName(rawName)
                if stack.isEmpty {
                    guard !sawRoot else {
                        throw .gpxMalformed(
                            line: line,
                            reason: "an element <\(rawName.clipped)> follows the root element"
                        )
                    }
                    sawRoot = true
                    guard name == "gpx" else { throw .gpxNotGPX(rootElement: rawName) }
                }
                guard stack.count < maximumDepth else { throw .gpxTooDeep(line: line, limit: maximumDepth) }
                if name == "trkpt" {
                    guard current == nil else {
                        throw .gpxMalformed(line: line, reason: "a <trkpt> starts inside another <trkpt>")
                    }
                    current = try PendingPoint(attributes: attributes, line: line)
                } else if current != nil, capture == nil, let field = Field(rawValue: name.lowercased()) {
                    capture = (field, stack.count + 1, "")
                }
                if selfClosing {
                    if name == "trkpt", let pending = current {
                        try append(pending, to: &points)
                        current = nil
                    }
                    if let open = capture, open.depth == stack.count + 1 {
                        try current?.set(open.field, to: open.text, line: line)
                        capture = nil
                    }
                } else {
                    stack.append(rawName)
                }

            case .endTag(let rawName, let line):
                guard let open = stack.last else {
                    throw .gpxMalformed(
                        line: line,
                        reason: "the end tag </\(rawName.clipped)> has no matching start tag"
                    )
                }
                guard open == rawName else {
                    throw .gpxMalformed(
                        line: line,
                        reason: "the end tag </\(rawName.clipped)> does not close <\(open.clipped)>"
                    )
                }
                if let field = capture, field.depth == stack.count {
                    try current?.set(field.field, to: field.text, line: line)
                    capture = nil
                }
                if localName(rawName) == "trkpt", let pending = current {
                    try append(pending, to: &points)
                    current = nil
                }
                stack.removeLast()

            case .text(let text, let line):
                if capture != nil {
                    capture?.text += text
                } else if stack.isEmpty, !text.trimmingWhitespace().isEmpty {
                    throw .gpxMalformed(line: line, reason: "text appears outside the root element")
                }
            }
        }

        guard sawRoot else { throw .gpxMalformed(line: tokenizer.line, reason: "the document has no elements") }
        if let open = stack.last {
            throw .gpxMalformed(
                line: tokenizer.line,
                reason: "the document ends inside <\(open.clipped)>; the file may be cut short"
            )
        }
        guard !points.isEmpty else { throw .gpxNoTrackPoints }
        return points
    }

    private static func append(_ pending: PendingPoint, to points: inout [TrackPoint]) throws(GuidanceError) {
        guard points.count < maximumTrackPoints else { throw .gpxTooManyPoints(limit: maximumTrackPoints) }
        points.append(pending.trackPoint)
    }

    /// The name without its namespace prefix: `gpxtpx:course` is `course`.
    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// A track point whose child elements are still being read.
    private struct PendingPoint {
        var point: GeoPoint
        var time: Date?
        var elevation: Double?
        var course: Double?
        var speed: Double?
        var deviceHeading: Double?

        init(attributes: [GPXTokenizer.Attribute], line: Int) throws(GuidanceError) {
            var latitudeText: String?
            var longitudeText: String?
            for attribute in attributes {
                switch GPXParser.localName(attribute.name) {
                case "lat": latitudeText = attribute.value
                case "lon": longitudeText = attribute.value
                default: break
                }
            }
            guard let latitudeText else {
                throw .gpxMissingAttribute(element: "trkpt", attribute: "lat", line: line)
            }
            guard let longitudeText else {
                throw .gpxMissingAttribute(element: "trkpt", attribute: "lon", line: line)
            }
            let latitude = try GPXParser.number(latitudeText, field: "lat", line: line)
            let longitude = try GPXParser.number(longitudeText, field: "lon", line: line)
            guard GeoPoint.latitudeRange.contains(latitude) else {
                throw .gpxValueOutOfRange(field: "lat", value: latitude, line: line)
            }
            guard GeoPoint.longitudeRange.contains(longitude) else {
                throw .gpxValueOutOfRange(field: "lon", value: longitude, line: line)
            }
            do {
                point = try GeoPoint(latitude: latitude, longitude: longitude)
            } catch {
                throw .gpxValueOutOfRange(field: "lat", value: latitude, line: line)
            }
        }

        mutating func set(_ field: Field, to text: String, line: Int) throws(GuidanceError) {
            // An empty element such as <time/> says nothing.
            guard !text.trimmingWhitespace().isEmpty else { return }
            switch field {
            case .time:
                guard let date = ISO8601Timestamp.parse(text) else {
                    throw .gpxInvalidTime(text: text, line: line)
                }
                time = date.timeIntervalSince1970 == 0 ? nil : date
            case .ele:
                elevation = try GPXParser.number(text, field: "ele", line: line)
            case .course:
                let value = try GPXParser.number(text, field: "course", line: line)
                course = value < 0 ? nil : value
            case .speed:
                let value = try GPXParser.number(text, field: "speed", line: line)
                speed = value < 0 ? nil : value
            case .deviceHeading:
                let value = try GPXParser.number(text, field: "deviceHeading", line: line)
                deviceHeading = value < 0 ? nil : value
            }
        }

        var trackPoint: TrackPoint {
            TrackPoint(
                point: point,
                time: time,
                elevation: elevation,
                course: course,
                speed: speed,
                deviceHeading: deviceHeading
            )
        }
    }

    /// A finite decimal number such as `56.3430`, `-2.8`, `1e3`; hexadecimal, `inf` and `nan` are refused.
    private static func number(_ text: String, field: String, line: Int) throws(GuidanceError) -> Double {
        let trimmed = text.trimmingWhitespace()
        let allowed = trimmed.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        }
        guard allowed, trimmed.utf8.count <= 64, let value = Double(trimmed), value.isFinite else {
            throw .gpxInvalidNumber(field: field, text: text, line: line)
        }
        return value
    }
}
