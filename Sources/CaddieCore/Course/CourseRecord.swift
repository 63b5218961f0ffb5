import Foundation

/// A course with its tees and holes, as stored in last-writer-wins fields
/// (`name`, `tee/White/rating`, `hole/7/par`, `hole/7/yards/White`, ...).
public struct CourseRecord: Hashable, Sendable {
    /// A set of tees: where a player starts each hole, with its rating.
    public struct Tee: Hashable, Sendable {
        /// The tee's name as on the card ("White", "Yellow", "1").
        public var name: String
        /// Course Rating (18 holes).
        public var rating: Double?
        /// Slope Rating, 55...155.
        public var slope: Int?
        /// Par from this tee.
        public var par: Int?
        /// "M", "F" or absent.
        public var gender: String?

        /// Creates a tee.
        public init(name: String, rating: Double? = nil, slope: Int? = nil, par: Int? = nil, gender: String? = nil) {
            self.name = name
            self.rating = rating
            self.slope = slope
            self.par = par
            self.gender = gender
        }
    }

    /// One hole.
    public struct Hole: Hashable, Sendable {
        /// 1...18.
        public var number: Int
        /// Par.
        public var par: Int?
        /// Stroke index, 1...18.
        public var strokeIndex: Int?
        /// Length per tee name, in yards.
        public var yards: [String: Int]

        /// Creates a hole.
        public init(number: Int, par: Int? = nil, strokeIndex: Int? = nil, yards: [String: Int] = [:]) {
            self.number = number
            self.par = par
            self.strokeIndex = strokeIndex
            self.yards = yards
        }
    }

    /// The course's id.
    public var id: EntityID
    /// Course name.
    public var name: String
    /// The club or facility.
    public var club: String?
    /// Town or city.
    public var city: String?
    /// ISO country code.
    public var country: String?
    /// Latitude of the clubhouse or centre, degrees.
    public var latitude: Double?
    /// Longitude, degrees.
    public var longitude: Double?
    /// Where the data came from.
    public var source: String?
    /// The date the source was read, ISO 8601.
    public var asOf: String?
    /// Tees, by name order of the file.
    public var tees: [Tee]
    /// Holes 1...n.
    public var holes: [Hole]

    /// Creates a course record.
    public init(id: EntityID, name: String, club: String? = nil, city: String? = nil, country: String? = nil,
                latitude: Double? = nil, longitude: Double? = nil, source: String? = nil, asOf: String? = nil,
                tees: [Tee], holes: [Hole]) {
        self.id = id
        self.name = name
        self.club = club
        self.city = city
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.source = source
        self.asOf = asOf
        self.tees = tees
        self.holes = holes
    }

    /// The tee with this name (case-insensitive).
    public func tee(named name: String) -> Tee? {
        tees.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The hole with this number.
    public func hole(_ number: Int) -> Hole? { holes.first { $0.number == number } }

    /// The fields that store this course.
    public var fields: [String: FieldValue] {
        var fields: [String: FieldValue] = ["name": .text(name), "holes": .integer(Int64(holes.count))]
        let optionalText: [(String, String?)] = [("club", club), ("city", city), ("country", country),
                                                  ("source", source), ("asOf", asOf)]
        for (key, value) in optionalText { if let value { fields[key] = .text(value) } }
        if let latitude { fields["lat"] = .number(latitude) }
        if let longitude { fields["lon"] = .number(longitude) }
        for (order, tee) in tees.enumerated() {
            let base = "tee/\(tee.name)/"
            fields[base + "order"] = .integer(Int64(order))
            if let rating = tee.rating { fields[base + "rating"] = .number(rating) }
            if let slope = tee.slope { fields[base + "slope"] = .integer(Int64(slope)) }
            if let par = tee.par { fields[base + "par"] = .integer(Int64(par)) }
            if let gender = tee.gender { fields[base + "gender"] = .text(gender) }
        }
        for hole in holes {
            let base = "hole/\(hole.number)/"
            if let par = hole.par { fields[base + "par"] = .integer(Int64(par)) }
            if let si = hole.strokeIndex { fields[base + "si"] = .integer(Int64(si)) }
            for (tee, yards) in hole.yards { fields[base + "yards/\(tee)"] = .integer(Int64(yards)) }
        }
        return fields
    }

    /// Reads a course back from its fields; fields it does not know are ignored.
    public init(id: EntityID, fields: [String: FieldValue]) {
        self.id = id
        name = fields["name"]?.text ?? "course \(id.short)"
        club = fields["club"]?.text
        city = fields["city"]?.text
        country = fields["country"]?.text
        source = fields["source"]?.text
        asOf = fields["asOf"]?.text
        latitude = fields["lat"]?.number
        longitude = fields["lon"]?.number
        var tees: [String: (order: Int64, tee: Tee)] = [:]
        var holes: [Int: Hole] = [:]
        for (key, value) in fields where value != .null {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 3, parts[0] == "tee" {
                var entry = tees[parts[1]] ?? (Int64.max, Tee(name: parts[1]))
                switch parts[2] {
                case "order": entry.order = value.integer ?? Int64.max
                case "rating": entry.tee.rating = value.number
                case "slope": entry.tee.slope = value.integer.map { Int($0) }
                case "par": entry.tee.par = value.integer.map { Int($0) }
                case "gender": entry.tee.gender = value.text
                default: break
                }
                tees[parts[1]] = entry
            } else if parts.count >= 3, parts[0] == "hole", let number = Int(parts[1]) {
                var hole = holes[number] ?? Hole(number: number)
                switch (parts[2], parts.count) {
                case ("par", 3): hole.par = value.integer.map { Int($0) }
                case ("si", 3): hole.strokeIndex = value.integer.map { Int($0) }
                case ("yards", 4): if let yards = value.integer { hole.yards[parts[3]] = Int(yards) }
                default: break
                }
                holes[number] = hole
            }
        }
        self.tees = tees.values.sorted { ($0.order, $0.tee.name) < ($1.order, $1.tee.name) }.map(\.tee)
        // A course has 9 or 18 holes; a stored count outside 1...36 (a bad or hostile edit) is not trusted.
        let stored = fields["holes"]?.integer ?? Int64(holes.count)
        let count = (1...36).contains(stored) ? Int(stored) : min(36, max(1, holes.keys.filter { (1...36).contains($0) }.max() ?? 18))
        self.holes = (1...count).map { holes[$0] ?? Hole(number: $0) }
    }
}
