import Foundation
import Testing

@Suite("caddie CLI: course lookup", .serialized)
struct CourseCLITests {
    static func home() throws -> CLI {
        let cli = try CLI(name: "courses")
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Club"])
        return cli
    }

    /// Great-circle distance on a sphere of radius 6371 km, computed independently of caddie.
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * rad / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin((lon2 - lon1) * rad / 2), 2)
        return 2 * 6371 * asin(min(1, sqrt(a)))
    }

    @Test("the shipped sample imports, and search forgives typos and accents and ranks the name first")
    func sampleAndSearch() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let imported = try #require(try cli.ok(["course", "import", "--sample", "--json"]).json() as? [String: Any])
        let courses = try #require(imported["courses"] as? [[String: Any]])
        #expect(courses.count >= 4)
        let first = try #require(try cli.ok(["course", "search", "peble bech", "--json"]).json() as? [[String: Any]])
        #expect(first.first?["name"] as? String == "Pebble Beach Golf Links")
        let zoute = try #require(try cli.ok(["course", "search", "ZOUTÉ", "--json"]).json() as? [[String: Any]])
        #expect(zoute.first?["name"] as? String == "Royal Zoute Golf Club")
        #expect(try cli.ok(["course", "search", "qqqqxxzz"]).stdout.contains("No course"))
        // Importing the same sample again merges by id rather than duplicating.
        let again = try #require(try cli.ok(["course", "import", "--sample", "--json"]).json() as? [String: Any])
        #expect((again["courses"] as? [[String: Any]])?.allSatisfy { $0["merged"] as? Bool == true } == true)
        let list = try #require(try cli.ok(["course", "list", "--json"]).json() as? [[String: Any]])
        #expect(list.count == courses.count)
    }

    @Test("nearby lists courses nearest first, with distances that agree with an independent computation")
    func nearby() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        try cli.ok(["course", "import", "--sample"])
        let (lat, lon) = (36.5, -121.9)
        let rows = try #require(
            try cli.ok([
                "course", "nearby", "--lat", "\(lat)", "--lon", "\(lon)", "--radius-km", "20000",
                "--json",
            ]).json() as? [[String: Any]])
        let distances = rows.compactMap { $0["km"] as? Double }
        #expect(distances.count >= 4)
        #expect(distances == distances.sorted())
        #expect(rows.first?["name"] as? String == "Pebble Beach Golf Links")
        // Pebble Beach is at about 36.5697, -121.9498 (COURSES.md): the sphere and the ellipsoid agree within 0.5%.
        let expected = Self.haversine(lat, lon, 36.5696553, -121.9497555)
        let km = try #require(distances.first)
        #expect(abs(km - expected) < max(0.5, expected * 0.01), "\(km) vs \(expected)")
        let near = try #require(
            try cli.ok(["course", "nearby", "--lat", "\(lat)", "--lon", "\(lon)", "--json"]).json() as? [[String: Any]])
        #expect(near.count == 1)
        try cli.fails(["course", "nearby", "--lat", "95", "--lon", "0"], saying: "latitude")
    }

    @Test("show prints the card of a tee with totals; OpenStreetMap import merges geometry; bad files import nothing")
    func showAndOSM() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        try cli.ok(["course", "import", "--sample"])
        let card = try cli.ok(["course", "show", "Haagsche 18 holes", "--tee", "1"]).stdout
        #expect(card.contains("Par") && card.contains("72") && card.contains("Slope 133"))
        let json = try #require(
            try cli.ok(["course", "show", "Haagsche 18 holes", "--tee", "1", "--json"]).json() as? [String: Any])
        let tees = try #require(json["tees"] as? [[String: Any]])
        #expect(tees.first?["par"] as? Int == 72)
        let osm = CLI.repository.appendingPathComponent("Data/osm/royal-zoute.osm.geojson")
        let merged = try cli.ok(["course", "import", osm.path, "--json"])
        #expect(try merged.field("merged") == "1" || merged.stdout.contains("\"merged\": true"))
        let before = try cli.stateHash()
        let bad = cli.home.appendingPathComponent("bad.geojson")
        try Data("{\"type\": \"FeatureCollection\", \"features\": []}".utf8).write(to: bad)
        try cli.fails(["course", "import", bad.path], saying: "hole")
        try Data("{\"type\": \"FeatureCollection\", \"features\": [".utf8).write(to: bad)
        try cli.fails(["course", "import", bad.path], saying: "not valid JSON")
        #expect(try cli.stateHash() == before)
    }

    @Test("a course added on one home appears on another after sync")
    func courseTravels() throws {
        let ana = try Self.home()
        let ben = try CLI(name: "ben")
        defer {
            ana.remove()
            ben.remove()
        }
        try ben.ok(["login", "--name", "Ben"])
        try ben.ok(["space", "join", try ana.createSpace("Pair").field("invite")])
        try ana.ok(["course", "import", "--sample", "--space", "Pair"])
        let node = try NodeProcess(ana)
        defer { node.stop() }
        try ben.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        let found = try #require(try ben.ok(["course", "search", "old course", "--json"]).json() as? [[String: Any]])
        #expect(found.first?["name"] as? String == "The Old Course")
    }
}
