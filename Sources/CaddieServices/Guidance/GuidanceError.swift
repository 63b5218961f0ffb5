/// What is wrong with an input to beacon guidance (a position, a setting or a GPX track); `description` says it in
/// one line with what to do about it.
public enum GuidanceError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A latitude that is not a finite number of degrees in -90...90.
    case invalidLatitude(Double)
    /// A longitude that is not a finite number of degrees in -180...180.
    case invalidLongitude(Double)
    /// A bearing or heading that is not a finite number of degrees.
    case invalidBearing(Double)
    /// A distance that is negative or not a finite number of metres.
    case invalidDistance(Double)
    /// An ellipsoid whose semi-major axis is not positive or whose flattening is outside 0..<0.1.
    case invalidEllipsoid(semiMajorAxis: Double, flattening: Double)
    /// Arrival radii that are not positive, or a leave radius smaller than the enter radius.
    case invalidArrivalRadii(enter: Double, leave: Double)
    /// An in-bounds window that is not in 0...360 degrees.
    case invalidInBoundsWindow(Double)
    /// A polygon with fewer than three corners.
    case polygonTooSmall(vertexCount: Int)
    /// A GPX document larger than the parser accepts.
    case gpxTooLarge(byteCount: Int, limit: Int)
    /// A GPX document that is not UTF-8 text (for example UTF-16).
    case gpxNotUTF8
    /// A GPX document that is not well-formed XML at `line`.
    case gpxMalformed(line: Int, reason: String)
    /// A well-formed XML document whose root element is not `<gpx>`.
    case gpxNotGPX(rootElement: String)
    /// Elements nested deeper than the parser accepts.
    case gpxTooDeep(line: Int, limit: Int)
    /// More track points than the parser accepts.
    case gpxTooManyPoints(limit: Int)
    /// A required attribute (such as `lat` on `<trkpt>`) is missing.
    case gpxMissingAttribute(element: String, attribute: String, line: Int)
    /// A field that should hold a decimal number holds something else.
    case gpxInvalidNumber(field: String, text: String, line: Int)
    /// A number that is out of range for its field (such as a latitude of 123).
    case gpxValueOutOfRange(field: String, value: Double, line: Int)
    /// A `<time>` that is not an ISO 8601 UTC timestamp.
    case gpxInvalidTime(text: String, line: Int)
    /// A GPX document with no `<trkpt>` elements.
    case gpxNoTrackPoints

    /// One line: what is wrong and what to do.
    public var description: String {
        switch self {
        case .invalidLatitude(let value):
            return "Latitude \(value) is not valid: give decimal degrees from -90 to 90."
        case .invalidLongitude(let value):
            return "Longitude \(value) is not valid: give decimal degrees from -180 to 180."
        case .invalidBearing(let value):
            return "Bearing \(value) is not valid: give a finite number of degrees clockwise from true north."
        case .invalidDistance(let value):
            return "Distance \(value) is not valid: give a finite number of metres, zero or more."
        case .invalidEllipsoid(let semiMajorAxis, let flattening):
            return "Ellipsoid a=\(semiMajorAxis) m, f=\(flattening) is not valid: a must be positive and f in 0..<0.1."
        case .invalidArrivalRadii(let enter, let leave):
            return "Arrival radii enter \(enter) m, leave \(leave) m are not valid: both must be positive metres and "
                + "leave at least enter."
        case .invalidInBoundsWindow(let value):
            return "In-bounds window \(value) is not valid: give the full window width in degrees, 0 to 360."
        case .polygonTooSmall(let count):
            return "An outline needs at least 3 corners, this one has \(count): give the green's outline in order."
        case .gpxTooLarge(let byteCount, let limit):
            return "GPX document is \(byteCount) bytes, over the \(limit)-byte limit: split the track into smaller "
                + "files."
        case .gpxNotUTF8:
            return "GPX document is not UTF-8 text: save it as UTF-8 and try again."
        case .gpxMalformed(let line, let reason):
            return "GPX line \(line): \(Self.oneLine(reason, limit: 300)); fix the XML there (xmllint shows the "
                + "problem)."
        case .gpxNotGPX(let root):
            return "Document root is <\(Self.oneLine(root))>, not <gpx>: give a GPX 1.1 file with a recorded track."
        case .gpxTooDeep(let line, let limit):
            return "GPX line \(line): elements nest deeper than \(limit) levels; this is not a GPX track file."
        case .gpxTooManyPoints(let limit):
            return "GPX document has more than \(limit) track points: split the track into smaller files."
        case .gpxMissingAttribute(let element, let attribute, let line):
            return "GPX line \(line): <\(element)> has no \(attribute) attribute; every track point needs lat and lon."
        case .gpxInvalidNumber(let field, let text, let line):
            return "GPX line \(line): \(field) \"\(Self.oneLine(text))\" is not a decimal number; write it like "
                + "56.3430."
        case .gpxValueOutOfRange(let field, let value, let line):
            return "GPX line \(line): \(field) \(value) is out of range; latitude is -90...90, longitude -180...180."
        case .gpxInvalidTime(let text, let line):
            return "GPX line \(line): time \"\(Self.oneLine(text))\" is not ISO 8601; write it like "
                + "2024-05-01T08:30:00Z."
        case .gpxNoTrackPoints:
            return "GPX document has no <trkpt> track points: give a recorded track, not only waypoints or a route."
        }
    }

    /// Text from a document, cut short and without line breaks, so the message stays on one line.
    static func oneLine(_ text: String, limit: Int = 40) -> String {
        var cleaned = ""
        for character in text {
            if cleaned.count >= limit {
                cleaned += "..."
                break
            }
            cleaned.append(character.isNewline || character == "\t" ? " " : character)
        }
        return cleaned
    }
}

extension KeyedDecodingContainer {
    /// Decodes a value whose initialiser checks what was decoded: a `GuidanceError` it throws becomes a decoding
    /// error at the field `key` names, so a document with an impossible value is refused like a malformed one.
    func checked<Value>(at key: (GuidanceError) -> Key, _ make: () throws -> Value) throws -> Value {
        do {
            return try make()
        } catch let error as GuidanceError {
            throw DecodingError.dataCorruptedError(forKey: key(error), in: self, debugDescription: error.description)
        }
    }

    /// ``checked(at:_:)`` where one field is at fault whatever the error.
    func checked<Value>(at key: Key, _ make: () throws -> Value) throws -> Value {
        try checked(at: { _ in key }, make)
    }
}
