import CaddieCore

/// What course lookup needs to know about a course: names, place and size. Made from a stored
/// ``CaddieCore/CourseRecord`` or directly (for tests and benchmarks).
public struct CourseSummary: Sendable, Hashable, Identifiable {
    /// The course's id.
    public let id: CourseID
    /// Course name.
    public let name: String
    /// The club or facility.
    public let club: String?
    /// Town or city.
    public let city: String?
    /// Country code.
    public let country: String?
    /// Latitude of the clubhouse or centre, degrees.
    public let latitude: Double?
    /// Longitude, degrees.
    public let longitude: Double?
    /// Number of holes.
    public let holes: Int
    /// Tee names in card order.
    public let tees: [String]

    /// Makes a summary from its parts.
    public init(
        id: CourseID,
        name: String,
        club: String? = nil,
        city: String? = nil,
        country: String? = nil,
        latitude: Double? = nil,
        longitude: Double? = nil,
        holes: Int = 18,
        tees: [String] = []
    ) {
        self.id = id
        self.name = name
        self.club = club
        self.city = city
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.holes = holes
        self.tees = tees
    }

    /// The summary of a stored course.
    public init(_ course: CourseRecord) {
        self.init(
            id: course.id,
            name: course.name,
            club: course.club,
            city: course.city,
            country: course.country,
            latitude: course.latitude,
            longitude: course.longitude,
            holes: course.holes.count,
            tees: course.tees.map(\.name)
        )
    }
}
