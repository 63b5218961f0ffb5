import Foundation

/// A course with its tees, holes and geometry, as stored in last-writer-wins fields
/// (`name`, `tee/White/rating`, `hole/7/par`, `hole/7/yards/White`, `hole/7/green`, ...; docs/data-model.md).
///
/// A facility (club) with several courses is several records with the same `club`. Every value is optional
/// because sources are partial: a value that is not known is absent, never guessed.
public struct CourseRecord: Hashable, Sendable {
    /// Course Rating, Slope Rating and par over some holes (a whole round, or one nine).
    public struct Rating: Hashable, Sendable {
        /// Course Rating.
        public var rating: Double?
        /// Slope Rating, 55...155.
        public var slope: Int?
        /// Par over these holes.
        public var par: Int?

        /// Creates a rating.
        public init(rating: Double? = nil, slope: Int? = nil, par: Int? = nil) {
            self.rating = rating
            self.slope = slope
            self.par = par
        }

        /// Whether no value is known.
        public var isEmpty: Bool { rating == nil && slope == nil && par == nil }
    }

    /// A set of tees: where a player starts each hole, with its rating and where that rating came from.
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
        /// The colour of the tee markers ("white", "gold"), when the source names it.
        public var colour: String?
        /// The published length of the course from this tee, in yards (may differ from the sum of the holes).
        public var yards: Int?
        /// Rating, slope and par of holes 1...9 (for 9-hole Course Handicaps).
        public var front: Rating?
        /// Rating, slope and par of holes 10...18.
        public var back: Rating?
        /// Where the rating and length came from.
        public var source: String?
        /// When that source published or was read, ISO 8601 (a year, a month or a day).
        public var asOf: String?

        /// Creates a tee.
        public init(
            name: String,
            rating: Double? = nil,
            slope: Int? = nil,
            par: Int? = nil,
            gender: String? = nil,
            colour: String? = nil,
            yards: Int? = nil,
            front: Rating? = nil,
            back: Rating? = nil,
            source: String? = nil,
            asOf: String? = nil
        ) {
            self.name = name
            self.rating = rating
            self.slope = slope
            self.par = par
            self.gender = gender
            self.colour = colour
            self.yards = yards
            self.front = front.flatMap { $0.isEmpty ? nil : $0 }
            self.back = back.flatMap { $0.isEmpty ? nil : $0 }
            self.source = source
            self.asOf = asOf
        }
    }

    /// What a hazard is.
    public enum HazardKind: String, Hashable, Sendable, CaseIterable {
        /// A bunker.
        case bunker
        /// A penalty area with yellow stakes (the old "water hazard").
        case water
        /// A penalty area with red stakes (the old "lateral water hazard").
        case lateralWater
        /// Out of bounds.
        case outOfBounds
    }

    /// A named hazard of a hole: an outline, or one or more positions.
    public struct Hazard: Hashable, Sendable {
        /// A name unique within the hole, 1...32 bytes without '/' ("Greenside bunker left").
        public var name: String
        /// What it is.
        public var kind: HazardKind
        /// Its outline (`.polygon`) or position(s) (`.points`).
        public var shape: CourseShape

        /// Creates a hazard.
        public init(name: String, kind: HazardKind, shape: CourseShape) {
            self.name = name
            self.kind = kind
            self.shape = shape
        }
    }

    /// A named position to play to, such as a 100-yard marker.
    public struct Layup: Hashable, Sendable {
        /// A name unique within the hole, 1...32 bytes without '/'.
        public var name: String
        /// Where it is.
        public var point: CoursePoint

        /// Creates a layup point.
        public init(name: String, point: CoursePoint) {
            self.name = name
            self.point = point
        }
    }

    /// The putting green of a hole: its outline and/or the front, centre and back on the line of play.
    public struct Green: Hashable, Sendable {
        /// The outline (a `.polygon`).
        public var outline: CourseShape?
        /// Where the line of play enters the green.
        public var front: CoursePoint?
        /// The middle of the green.
        public var centre: CoursePoint?
        /// Where the line of play leaves the green.
        public var back: CoursePoint?

        /// Creates a green.
        public init(
            outline: CourseShape? = nil,
            front: CoursePoint? = nil,
            centre: CoursePoint? = nil,
            back: CoursePoint? = nil
        ) {
            self.outline = outline
            self.front = front
            self.centre = centre
            self.back = back
        }

        /// Whether nothing is known about the green.
        public var isEmpty: Bool { outline == nil && front == nil && centre == nil && back == nil }
    }

    /// One hole.
    public struct Hole: Hashable, Sendable {
        /// 1...18.
        public var number: Int
        /// The hole's own name ("Road", "Tea Olive"), when it has one.
        public var name: String?
        /// Par, for every tee that has no par of its own in ``pars``.
        public var par: Int?
        /// Stroke index, 1...18, for every tee that has none of its own in ``strokeIndexes``.
        public var strokeIndex: Int?
        /// Par per tee name, only where it differs from ``par``.
        public var pars: [String: Int]
        /// Stroke index per tee name, only where it differs from ``strokeIndex``.
        public var strokeIndexes: [String: Int]
        /// Length per tee name, in yards.
        public var yards: [String: Int]
        /// Teeing areas not tied to a named tee, back to front.
        public var teePositions: [CoursePoint]
        /// Teeing areas per tee name.
        public var teePositionsByTee: [String: [CoursePoint]]
        /// The line of play from tee to green (OpenStreetMap's `golf=hole` way), as a `.line`.
        public var line: CourseShape?
        /// The green.
        public var green: Green
        /// Hazards, by kind then name.
        public var hazards: [Hazard]
        /// Layup points, by name.
        public var layups: [Layup]

        /// Creates a hole.
        public init(
            number: Int,
            par: Int? = nil,
            strokeIndex: Int? = nil,
            yards: [String: Int] = [:],
            name: String? = nil,
            pars: [String: Int] = [:],
            strokeIndexes: [String: Int] = [:],
            teePositions: [CoursePoint] = [],
            teePositionsByTee: [String: [CoursePoint]] = [:],
            line: CourseShape? = nil,
            green: Green = Green(),
            hazards: [Hazard] = [],
            layups: [Layup] = []
        ) {
            self.number = number
            self.name = name
            self.par = par
            self.strokeIndex = strokeIndex
            self.pars = pars
            self.strokeIndexes = strokeIndexes
            self.yards = yards
            self.teePositions = teePositions
            self.teePositionsByTee = teePositionsByTee
            self.line = line
            self.green = green
            self.hazards = Self.ordered(hazards)
            self.layups = layups.sorted { $0.name < $1.name }
        }

        /// The par played from `tee` (its own par if it has one, else the hole's).
        public func par(tee: String?) -> Int? { Self.value(pars, tee) ?? par }
        /// The stroke index from `tee` (its own if it has one, else the hole's).
        public func strokeIndex(tee: String?) -> Int? { Self.value(strokeIndexes, tee) ?? strokeIndex }
        /// The length from `tee` in yards.
        public func yards(tee: String?) -> Int? { Self.value(yards, tee) }

        /// Whether the hole has any geometry (line, green, tees, hazards or layups).
        public var hasGeometry: Bool {
            line != nil || !green.isEmpty || !teePositions.isEmpty || !teePositionsByTee.isEmpty
                || !hazards.isEmpty || !layups.isEmpty
        }

        /// Hazards in their canonical order: kind (as declared), then name.
        static func ordered(_ hazards: [Hazard]) -> [Hazard] {
            let rank = Dictionary(uniqueKeysWithValues: HazardKind.allCases.enumerated().map { ($1, $0) })
            return hazards.sorted { (rank[$0.kind] ?? 0, $0.name) < (rank[$1.kind] ?? 0, $1.name) }
        }

        private static func value(_ values: [String: Int], _ tee: String?) -> Int? {
            guard let tee else { return nil }
            if let exact = values[tee] { return exact }
            return values.first { $0.key.caseInsensitiveCompare(tee) == .orderedSame }?.value
        }
    }

    /// The course's id.
    public var id: CourseID
    /// Course name.
    public var name: String
    /// The club or facility; courses with the same club belong to one facility.
    public var club: String?
    /// Town or city.
    public var city: String?
    /// ISO country code.
    public var country: String?
    /// Latitude of the clubhouse or centre, degrees.
    public var latitude: Double?
    /// Longitude, degrees.
    public var longitude: Double?
    /// Where the card data (names, pars, stroke indexes, yardages) came from.
    public var source: String?
    /// The date the source was read, ISO 8601.
    public var asOf: String?
    /// Where the geometry came from (for example an OpenStreetMap export).
    public var geometrySource: String?
    /// When the geometry was extracted, ISO 8601.
    public var geometryAsOf: String?
    /// Credit the data's licence requires, such as "© OpenStreetMap contributors, ODbL 1.0".
    public var attribution: String?
    /// Tees, by name order of the file.
    public var tees: [Tee]
    /// Holes 1...n.
    public var holes: [Hole]

    /// Creates a course record.
    public init(
        id: CourseID,
        name: String,
        club: String? = nil,
        city: String? = nil,
        country: String? = nil,
        latitude: Double? = nil,
        longitude: Double? = nil,
        source: String? = nil,
        asOf: String? = nil,
        geometrySource: String? = nil,
        geometryAsOf: String? = nil,
        attribution: String? = nil,
        tees: [Tee],
        holes: [Hole]
    ) {
        self.id = id
        self.name = name
        self.club = club
        self.city = city
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.source = source
        self.asOf = asOf
        self.geometrySource = geometrySource
        self.geometryAsOf = geometryAsOf
        self.attribution = attribution
        self.tees = tees
        self.holes = holes
    }

    /// The tee with this name (case-insensitive).
    public func tee(named name: String) -> Tee? {
        tees.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The hole with this number.
    public func hole(_ number: Int) -> Hole? { holes.first { $0.number == number } }
}
