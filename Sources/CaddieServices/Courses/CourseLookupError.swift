/// Why a course lookup could not be answered, in words a user can act on.
public enum CourseLookupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The search text has no letters or digits.
    case emptyQuery
    /// A latitude that is not a number in -90...90.
    case invalidLatitude(Double)
    /// A longitude that is not a number in -180...180.
    case invalidLongitude(Double)
    /// A search radius that is not a positive number of kilometres.
    case invalidRadius(Double)
    /// The course has no tee with this name; the course's tees follow.
    case unknownTee(String, available: [String])

    /// One line for a person.
    public var description: String {
        switch self {
        case .emptyQuery:
            "the search text has no letters or digits: give part of a course, club or city name"
        case .invalidLatitude(let value):
            "latitude \(value) is not a number in -90...90 (degrees north, e.g. 51.34)"
        case .invalidLongitude(let value):
            "longitude \(value) is not a number in -180...180 (degrees east, e.g. 3.30; west is negative)"
        case .invalidRadius(let value):
            "radius \(value) km is not a positive number of kilometres"
        case .unknownTee(let tee, let available):
            available.isEmpty
                ? "the course has no tee '\(tee)' (no tees are known for it); leave out the tee"
                : "the course has no tee '\(tee)'; its tees: " + available.joined(separator: ", ")
        }
    }
}
