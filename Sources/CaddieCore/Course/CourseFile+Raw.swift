/// The Caddie course JSON format as plain Codable values, before any check (docs/course-format.md,
/// Protocol/course.schema.json). Lists of positions are `[latitude, longitude]` pairs; single positions are
/// `{"lat": …, "lon": …}` objects.
struct RawCourse: Codable {
    struct Location: Codable {
        var lat: Double
        var lon: Double
    }

    struct Nine: Codable {
        var rating: Double?
        var slope: Int?
        var par: Int?
    }

    struct Tee: Codable {
        var name: String
        var colour: String?
        var gender: String?
        var rating: Double?
        var slope: Int?
        var par: Int?
        var yards: Int?
        var front: Nine?
        var back: Nine?
        var source: String?
        var asOf: String?
    }

    struct TeePosition: Codable {
        var tee: String?
        var lat: Double
        var lon: Double
    }

    struct Green: Codable {
        var outline: [[Double]]?
        var front: Location?
        var centre: Location?
        var back: Location?
    }

    struct Hazard: Codable {
        var name: String
        var kind: String
        var outline: [[Double]]?
        var points: [[Double]]?
    }

    struct Layup: Codable {
        var name: String
        var lat: Double
        var lon: Double
    }

    struct Hole: Codable {
        var number: Int
        var name: String?
        var par: Int?
        var strokeIndex: Int?
        var yards: [String: Int]?
        var pars: [String: Int]?
        var strokeIndexes: [String: Int]?
        var teePositions: [TeePosition]?
        var line: [[Double]]?
        var green: Green?
        var hazards: [Hazard]?
        var layups: [Layup]?
    }

    var id: String?
    var name: String
    var club: String?
    var city: String?
    var country: String?
    var location: Location?
    var source: String?
    var asOf: String?
    var geometrySource: String?
    var geometryAsOf: String?
    var attribution: String?
    var tees: [Tee]?
    var holes: [Hole]
}
