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

    /// The summary of a stored course. A course without a clubhouse point is placed at the first point of its own
    /// geometry (a tee, else a green), so "nearby" finds it from its first tee.
    public init(_ course: CourseRecord) {
        let place: (latitude: Double, longitude: Double)? =
            if let latitude = course.latitude, let longitude = course.longitude {
                (latitude, longitude)
            } else {
                course.holes.lazy.compactMap { hole in
                    (hole.teePositions.first ?? hole.teePositionsByTee.values.first?.first ?? hole.green.centre)
                        .map { ($0.latitude, $0.longitude) }
                }.first
            }
        self.init(
            id: course.id,
            name: course.name,
            club: course.club,
            city: course.city,
            country: course.country,
            latitude: place?.latitude,
            longitude: place?.longitude,
            holes: course.holes.count,
            tees: course.tees.map(\.name)
        )
    }
}
