import Foundation
import Testing

@Suite("caddie CLI: guidance", .serialized)
struct GuideCLITests {
    @Test("guide --from --to needs no home and gives distance, bearing, band and callout")
    func pure() throws {
        let cli = try CLI(name: "guide")
        defer { cli.remove() }
        let result = try cli.ok([
            "guide", "--from", "36.5725,-121.9486", "--to", "36.5686,-121.9499", "--heading", "200", "--json",
        ])
        let json = try #require(try result.json() as? [String: Any])
        let metres = try #require(json["distanceMeters"] as? Double)
        // Independent check: a spherical great circle agrees with the ellipsoid within 0.5%.
        let expected = CourseCLITests.haversine(36.5725, -121.9486, 36.5686, -121.9499) * 1000
        #expect(abs(metres - expected) < expected * 0.005)
        #expect(abs((json["distanceYards"] as? Double ?? 0) - metres / 0.9144) < 0.2)
        #expect(json["band"] as? String == "onAxis")
        #expect(json["inBounds"] as? Bool == true)
        #expect((json["callout"] as? String)?.hasSuffix("yards, ahead.") == true)
        #expect(!FileManager.default.fileExists(atPath: cli.home.path))
        let behind = try #require(
            try cli.ok([
                "guide", "--from", "36.5725,-121.9486", "--to", "36.5686,-121.9499",
                "--heading", "20", "--json",
            ]).json() as? [String: Any])
        #expect(behind["band"] as? String == "behind")
        let blind = try cli.ok(["guide", "--from", "36.5725,-121.9486", "--to", "36.5686,-121.9499"]).stdout
        #expect(blind.contains("No heading"))
        try cli.fails(["guide", "--from", "95,0", "--to", "1,1"], saying: "--from latitude 95.0 is not valid")
        try cli.fails(["guide", "--from", "36.5", "--to", "1,1"], saying: "LAT,LON")
    }

    @Test("guide to a sample hole's green, its front, and a player's current hole; replay the shipped GPX track")
    func onTheCourse() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let cli = homes[0]
        try cli.ok(["course", "import", "--sample"])
        let green = try #require(
            try cli.ok([
                "guide", "--course", "Zoute", "--hole", "1", "--lat", "51.3432", "--lon", "3.3061",
                "--heading", "50", "--json",
            ]).json() as? [String: Any])
        let front = try #require(
            try cli.ok([
                "guide", "--course", "Zoute", "--hole", "1", "--lat", "51.3432", "--lon", "3.3061",
                "--target", "front", "--json",
            ]).json() as? [String: Any])
        #expect((front["distanceMeters"] as? Double ?? 0) < (green["distanceMeters"] as? Double ?? 0))
        #expect((green["callout"] as? String)?.contains("Front") == true)
        try cli.fails(
            ["guide", "--course", "Zoute", "--hole", "1", "--lat", "51.3432", "--lon", "3.3061", "--target", "pond"],
            saying: "no target 'pond'")
        try cli.fails(
            ["guide", "--course", "Zoute", "--hole", "19", "--lat", "51.3432", "--lon", "3.3061"], saying: "no hole 19")
        // The game's course (Haagsche) has no geometry: guidance says so instead of guessing.
        try cli.ok(["score", game, players[0], "1", "5"])
        try cli.fails(
            ["guide", "--game", game, "--player", players[0], "--lat", "52.1", "--lon", "4.3"],
            saying: "hole 2 of Haagsche 18 holes has no green position")
        let track = CLI.repository.appendingPathComponent("docs/examples/royal-zoute-hole1.gpx").path
        let callouts = try #require(
            try cli.ok(["guide", "--gpx", track, "--course", "Zoute", "--hole", "1", "--json"])
                .json() as? [[String: Any]])
        #expect(callouts.count >= 5)
        let texts = callouts.compactMap { $0["callout"] as? String }
        #expect(zip(texts, texts.dropFirst()).allSatisfy { $0 != $1 })
        let distances = callouts.compactMap { $0["distanceMeters"] as? Double }
        #expect(distances.first ?? 0 > distances.dropLast().last ?? 0)
        #expect(texts.last?.contains("arrived") == true)
        let bad = cli.home.appendingPathComponent("bad.gpx")
        try Data("<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>".utf8).write(to: bad)
        try cli.fails(["guide", "--gpx", bad.path, "--course", "Zoute", "--hole", "1"], saying: "lat")
    }
}

@Suite("caddie CLI: round tracking", .serialized)
struct TrackCLITests {
    @Test("shots and fixes are recorded per player and hole, merge to another home, and give walked distance and shot lengths")
    func track() throws {
        let (homes, _, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        try ana.ok(["course", "import", "--sample"])
        let game = try ana.ok([
            "game", "new", "--course", "Pebble Beach Golf Links", "--tee", "Blue", "--players",
            players[0], "--json",
        ]).field("game")
        let shots = [(36.5680, -121.9470), (36.5672, -121.9455), (36.5668, -121.9449)]
        for (lat, lon) in shots { try ana.ok(["track", "mark", game, players[0], "--lat", "\(lat)", "--lon", "\(lon)"]) }
        try ana.ok(["score", game, players[0], "1", "4"])
        let onTwo = try ana.ok(["track", "mark", game, players[0], "--lat", "36.5660", "--lon", "-121.9440", "--fix", "--json"])
        #expect(try onTwo.field("hole") == "2")
        // The marks travel like any other edit.
        let bundle = ana.home.appendingPathComponent("t.bundle").path
        try ana.ok(["export", "--out", bundle])
        try homes[1].ok(["import", bundle])
        let mine = try #require(try ana.ok(["track", "summary", game, "--json"]).json() as? [[String: Any]])
        let theirs = try homes[1].ok(["track", "summary", game, "--json"]).stdout
        #expect(try ana.ok(["track", "summary", game, "--json"]).stdout == theirs)
        let summary = try #require(mine.first)
        #expect(summary["marks"] as? Int == 4)
        let lengths = (summary["shots"] as? [[String: Any]] ?? []).compactMap { $0["meters"] as? Double }
        #expect(lengths.count == 2)
        let expected = CourseCLITests.haversine(shots[0].0, shots[0].1, shots[1].0, shots[1].1) * 1000
        #expect(abs((lengths.first ?? 0) - expected) < max(2, expected * 0.005))
        let walked = try #require(summary["walkedMeters"] as? Double)
        #expect(walked > lengths.reduce(0, +))
        let holes = (summary["secondsPerHole"] as? [[String: Any]] ?? []).compactMap { $0["hole"] as? Int }
        #expect(holes == [1])
        try ana.fails(
            ["track", "mark", game, players[0], "--lat", "91", "--lon", "0"], saying: "--lat 91.0 is not valid")
    }
}
