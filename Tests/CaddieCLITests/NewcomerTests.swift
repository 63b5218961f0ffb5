import Foundation
import Testing

/// What a new user types and trips on: positions south of the equator and west of Greenwich, numbers that are not
/// plain decimals, short or partial ids, a second player of the same name, and HTTP requests that break the API's
/// contract. Each input is typed as a person or a client would; each must give the right result or a clear error
/// that changes nothing.
@Suite("what a new user trips on", .serialized)
struct NewcomerTests {
    /// Melbourne (Royal Melbourne) to Barwon Heads, typed in all four combinations of signs: the distance must be
    /// the same in every quadrant, and match an independent great-circle figure.
    @Test("guide --from/--to take a leading minus in all four sign combinations")
    func negativePositions() throws {
        let cli = try CLI(name: "south")
        defer { cli.remove() }
        let expected = CourseCLITests.haversine(37.9510, 144.4249, 37.6528, 143.9265) * 1000
        for (latSign, lonSign) in [("", ""), ("-", ""), ("", "-"), ("-", "-")] {
            let from = "\(latSign)37.9510,\(lonSign)144.4249"
            let to = "\(latSign)37.6528,\(lonSign)143.9265"
            let json = try #require(try cli.ok(["guide", "--from", from, "--to", to, "--json"]).json() as? [String: Any])
            let metres = try #require(json["distanceMeters"] as? Double)
            #expect(abs(metres - expected) < expected * 0.005, "from \(from) to \(to): \(metres) m")
        }
        // The = form and a negative heading work too.
        try cli.ok(["guide", "--from=-37.9510,144.4249", "--to", "-37.6528,143.9265", "--heading", "-20"])
        try cli.fails(
            ["guide", "--from", "-97.9510,144.4249", "--to", "-37.6528,143.9265"],
            saying: "--from latitude -97.951 is not valid")
        try cli.fails(
            ["guide", "--from", "-37.9510,-184.4249", "--to", "1,1"], saying: "--from longitude -184.4249 is not valid")
        try cli.fails(["guide", "--from", "-37.9510", "--to", "1,1"], saying: "LAT,LON in decimal degrees")
    }

    /// A course near Melbourne and one near Buenos Aires, found by `course nearby` typed with negative degrees.
    @Test("course nearby and track mark take negative latitudes and longitudes, and refuse out-of-range ones")
    func nearbyAndTrackSouthWest() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        for (name, lat, lon) in [
            ("Barwon Heads test course", -38.2830, 144.4870), ("Olivos test course", -34.5140, -58.5260),
            ("Reykjavik test course", 64.1190, -21.8420), ("Sapporo test course", 43.0600, 141.3500),
        ] {
            let file = ana.home.appendingPathComponent("\(lat).json")
            try Data(
                #"{"name": "\#(name)", "location": {"lat": \#(lat), "lon": \#(lon)}, "holes": [\#((1...9).map { "{\"number\": \($0), \"par\": 4}" }.joined(separator: ","))]}"#
                    .utf8
            )
            .write(to: file)
            try ana.ok(["course", "import", file.path])
            let near = try #require(
                try ana.ok([
                    "course", "nearby", "--lat", String(lat + 0.01), "--lon", String(lon - 0.01),
                    "--radius-km", "5", "--json",
                ]).json() as? [[String: Any]])
            #expect(near.count == 1 && near.first?["name"] as? String == name, "near \(lat),\(lon): \(near)")
        }
        let before = try ana.stateHash()
        try ana.fails(["course", "nearby", "--lat", "-90.5", "--lon", "1"], saying: "atitude")
        try ana.fails(["course", "nearby", "--lat", "0x10", "--lon", "1"], saying: "'0x10' is not a decimal number")
        try ana.fails(
            ["track", "mark", game, "Ana", "--lat", "-34.51", "--lon", "-181"], saying: "--lon -181.0 is not valid")
        #expect(try ana.stateHash() == before)
        try ana.ok(["track", "mark", game, "Ana", "--lat", "-34.5140", "--lon", "-58.5260"])
        #expect(try ana.stateHash() != before)
    }

    @Test("numbers are plain decimals: hexadecimal, exponents, nan and inf are refused, plus handicaps typed with a minus")
    func plainDecimals() throws {
        let cli = try CLI(name: "numbers")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        try cli.ok(["space", "create", "Saturday"])
        for bad in ["0x10", "1e1", "nan", "inf", "1,5", " 3", ""] {
            try cli.fails(["player", "add", "P\(bad.count)", "--index", bad], saying: "is not a decimal number")
            try cli.fails(["guide", "--from", "1,1", "--to", "1,1", "--heading", bad], saying: "is not a decimal number")
        }
        // A plus handicap is typed with a minus sign (+1.5 is -1.5).
        try cli.ok(["player", "add", "Scratch", "--index", "-1.5"])
        let listed = try #require(try cli.ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(listed.first { $0["name"] as? String == "Scratch" }?["index"] as? Double == -1.5)
        try cli.fails(["handicap", "index", "--differentials", "12.0,0x10,9.8"], saying: "'0x10' is not a number")
    }

    @Test("a game id matches by prefix only, a too-short prefix is refused, and an ambiguous name lists what it matches")
    func idsByPrefix() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        #expect(try ana.ok(["card", String(game.prefix(6)), "--json"]).field("game") == game)
        // Digits from the middle of the id are not a prefix: before, any run of 3 or more matched.
        let middle = String(game.dropFirst(3).prefix(6))
        try ana.fails(["card", middle], saying: "no game '\(middle)'")
        try ana.fails(["card", String(game.prefix(3))], saying: "too short")
        try ana.fails(["score", middle, "Ana", "1", "4"], saying: "no game '\(middle)'")

        // Two devices add a player named Eve offline; after the merge "Eve" names two players and the error says
        // which ids to choose from.
        try homes[0].ok(["player", "add", "Eve"])
        let second = try homes[1].ok(["player", "add", "Eve", "--json"]).field("player")
        try RoundTests.merge(Array(homes.prefix(2)))
        let result = try ana.fails(["game", "add-player", game, "Eve"], saying: "'Eve' matches 2 players")
        #expect(result.stderr.contains(second))
        try ana.ok(["game", "add-player", game, String(second.prefix(8))])
        let roster = try #require(try ana.ok(["card", game, "--json"]).json() as? [String: Any])
        #expect((roster["players"] as? [[String: Any]])?.contains { $0["player"] as? String == second } == true)
    }

    @Test("a second player of the same name is refused with how to tell them apart, and nothing is written")
    func duplicatePlayerNames() throws {
        let (homes, _, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let before = try ana.stateHash()
        let result = try ana.fails(["player", "add", "ana"], saying: "a player named Ana is already in this space")
        #expect(result.stderr.contains(players[0]))
        #expect(result.stderr.contains("tells the two apart"))
        try ana.fails(["player", "add", "  Ben "], saying: "a player named Ben")
        #expect(try ana.stateHash() == before)
        try ana.ok(["player", "add", "Ana B."])
    }

    @Test(
        "HTTP: a wrong method gets 405 with Allow, an oversized head gets a JSON error, ?lat=0x10 and a name added twice get 400")
    func httpContract() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (game, api, space) = (served.game, served.api, served.space)

        let wrong = try api.request("DELETE", "/v1/spaces/\(space)/players")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, POST")
        #expect(try wrong.object()["code"] as? String == "method_not_allowed")
        let finish = try api.request("GET", "/v1/spaces/\(space)/games/\(game)/finish")
        #expect(finish.status == 405 && finish.headers["allow"] == "POST")
        #expect(try api.get("/v1/nothing-here").status == 404)

        let huge = try api.request("GET", "/v1/whoami", extra: ["X-Padding": String(repeating: "a", count: 100 * 1024)])
        #expect(huge.status == 431)
        #expect(huge.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(try huge.object()["code"] as? String == "head_too_large")
        // The server is still there for the next request.
        #expect(try api.get("/v1/whoami").status == 200)

        let hex = try api.get("/v1/spaces/\(space)/courses/nearby?lat=0x10&lon=1")
        #expect(hex.status == 400)
        #expect((try hex.object()["message"] as? String)?.contains("not a decimal number") == true)
        #expect(try api.get("/v1/spaces/\(space)/courses/nearby?lat=-34.5&lon=-58.5").status == 200)
        let twice = try api.post("/v1/spaces/\(space)/players", #"{"name":"Cleo"}"#)
        #expect(twice.status == 400)
        #expect((try twice.object()["message"] as? String)?.contains("already in this space") == true)
        let middle = String(game.dropFirst(3).prefix(6))
        #expect(try api.get("/v1/spaces/\(space)/games/\(middle)").status == 404)
    }
}
