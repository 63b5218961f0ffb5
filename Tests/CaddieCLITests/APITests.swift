import Foundation
import Testing

@Suite("the HTTP API of caddie serve --http, over real sockets", .serialized)
struct APITests {
    static func token(_ home: CLI) throws -> String {
        let text = try String(contentsOf: home.home.appendingPathComponent("api-token"), encoding: .utf8)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The foursome's game with Ana's node serving the API: her homes, the game, the node, a client and the space.
    struct Served {
        let homes: [CLI]
        let game: String
        let node: NodeProcess
        let api: HTTPClient
        let space: String

        init() throws {
            let (homes, game, _) = try RoundTests.foursome()
            self.homes = homes
            self.game = game
            node = try NodeProcess(homes[0], http: true)
            api = HTTPClient(port: node.httpPort, token: try APITests.token(homes[0]))
            space = try #require(try api.get("/v1/spaces").array().first?["space"] as? String)
        }

        func close() {
            node.stop()
            homes.forEach { $0.remove() }
        }
    }

    @Test(
        "every resource answers, without a token or with a wrong one a request gets 401, bad input gets 4xx and changes nothing")
    func everyResource() throws {
        let (homes, game, players) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        try ana.ok(["course", "import", "--sample"])
        let node = try NodeProcess(ana, http: true)
        defer { node.stop() }
        let token = try Self.token(ana)
        #expect(token.count == 64)
        let mode =
            try FileManager.default.attributesOfItem(atPath: ana.home.appendingPathComponent("api-token").path)[.posixPermissions]
            as? NSNumber
        #expect(mode?.intValue == 0o600)

        // Access.
        let anonymous = HTTPClient(port: node.httpPort, token: nil)
        let missing = try anonymous.get("/v1/whoami")
        #expect(missing.status == 401)
        #expect(try missing.object()["code"] as? String == "token_missing")
        #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try HTTPClient(port: node.httpPort, token: String(repeating: "0", count: 64)).get("/v1/spaces").status == 401)
        #expect(try anonymous.post("/v1/spaces/x/games/y/scores", #"{"player":"Ana","hole":1,"strokes":4}"#).status == 401)

        let api = HTTPClient(port: node.httpPort, token: token)
        #expect(try api.get("/v1/whoami").object()["name"] as? String == "Ana")
        let spaces = try api.get("/v1/spaces").array()
        let space = try #require(spaces.first?["space"] as? String)
        let base = "/v1/spaces/\(space)"
        #expect(try api.get("/v1/spaces/\(space.prefix(6))/players").array().count == 4)

        // Players.
        let added = try api.post("\(base)/players", #"{"name":"Eve","index":9.4}"#)
        #expect(added.status == 201)
        #expect(try added.object()["index"] as? Double == 9.4)
        #expect(try api.get("\(base)/players").array().contains { $0["name"] as? String == "Eve" })
        let handicap = try api.get("\(base)/players/Ana/handicap").object()
        #expect(handicap["name"] as? String == "Ana")
        #expect(handicap["rounds"] is [Any])

        // Courses.
        let courses = try api.get("\(base)/courses").array()
        #expect(courses.count >= 6)
        let found = try api.get("\(base)/courses/search?q=pebble%20beach").array()
        let pebble = try #require(found.first?["course"] as? String)
        #expect(found.first?["name"] as? String == "Pebble Beach Golf Links")
        let near = try api.get("\(base)/courses/nearby?lat=36.5686&lon=-121.9499&radiusKm=5").array()
        #expect(near.first?["course"] as? String == pebble)
        let card = try api.get("\(base)/courses/\(pebble)").object()
        #expect((card["tees"] as? [Any])?.isEmpty == false)

        // Games, scores and the card with its conflict.
        let current = try api.get("\(base)/games/current").object()
        #expect(current["game"] as? String == game)
        #expect(try api.get("\(base)/games").array().count == 1)
        #expect(try api.get("\(base)/games/\(game)").object()["finished"] as? Bool == false)
        try homes[1].ok(["score", game, "Ben", "3", "6"])
        try RoundTests.merge(Array(homes.prefix(2)))
        let entered = try api.post("\(base)/games/\(game)/scores", #"{"player":"Ben","hole":3,"strokes":5}"#)
        #expect(entered.status == 201)
        let op = try #require(try entered.object()["op"] as? String)
        // Ana's 5 superseded Ben's 6 (she saw it), so no conflict yet; an offline edit by Ben makes one.
        try homes[1].ok(["score", game, "Ben", "4", "4"])
        #expect(try api.post("\(base)/games/\(game)/scores", #"{"player":"Ben","hole":4,"strokes":5}"#).status == 201)
        try RoundTests.merge(Array(homes.prefix(2)))
        let scorecard = try api.get("\(base)/games/\(game)/card").object()
        let conflicts = try #require(scorecard["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1)
        #expect(conflicts.first?["hole"] as? Int == 4)
        let ben = try #require((scorecard["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Ben" })
        #expect((ben["handicap"] as? [String: Any])?["playingHandicap"] as? Int != nil)
        let handicaps = try api.get("\(base)/games/\(game)/handicaps?allowance=100").array()
        #expect(handicaps.count == 4)
        #expect(handicaps.allSatisfy { $0["courseHandicap"] as? Int != nil && $0["allowance"] as? Int == 100 })
        let history = try api.get("\(base)/games/\(game)/history?player=Ben&hole=3").array()
        #expect(history.count == 2)
        #expect(history.contains { $0["op"] as? String == op && $0["standing"] as? Bool == true })
        let log = try api.get("\(base)/log?game=\(game)").array()
        #expect(log.contains { $0["op"] as? String == op && $0["verified"] as? Bool == true })
        // An entry kept on a phone while no node answered names the values it replaces as the phone saw them:
        // Ben's own 4 on hole 5, entered meanwhile, is not among them, so the cell shows a dispute, not the
        // late entry alone. Sent again with the same view (its answer was lost), it signs nothing.
        try homes[1].ok(["score", game, "Ben", "5", "4"])
        try RoundTests.merge(Array(homes.prefix(2)))
        let late = #"{"player":"Ben","hole":5,"strokes":6,"seen":[]}"#
        let kept = try api.post("\(base)/games/\(game)/scores", late)
        #expect(kept.status == 201)
        #expect(try kept.object()["replay"] as? Bool == false)
        let hashAfterLate = try ana.stateHash()
        let again = try api.post("\(base)/games/\(game)/scores", late)
        #expect(again.status == 200)
        #expect(try again.object()["replay"] as? Bool == true)
        #expect(try again.object()["op"] as? String == kept.object()["op"] as? String)
        #expect(try ana.stateHash() == hashAfterLate)
        let disputes = try #require(try api.get("\(base)/games/\(game)/card").object()["conflicts"] as? [[String: Any]])
        #expect(disputes.map { $0["hole"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [4, 5])
        // Without `seen`, an entry replaces what the cell shows when it arrives: it settles the dispute.
        #expect(try api.post("\(base)/games/\(game)/scores", #"{"player":"Ben","hole":5,"strokes":6}"#).status == 201)
        let settled = try #require(try api.get("\(base)/games/\(game)/card").object()["conflicts"] as? [[String: Any]])
        #expect(settled.map { $0["hole"] as? Int } == [4])
        let attested = try api.post("\(base)/games/\(game)/attestations", #"{"player":"Cleo"}"#)
        #expect(attested.status == 201)

        // Guidance: to a point, and to a hole's green of a real course.
        let toPoint = try api.post(
            "\(base)/guidance", #"{"latitude":36.5686,"longitude":-121.9499,"to":{"latitude":36.5696,"longitude":-121.9499}}"#
        ).object()
        #expect(abs((toPoint["distanceMeters"] as? Double ?? 0) - 111.0) < 2)
        let toGreen = try api.post(
            "\(base)/guidance", #"{"latitude":36.5686,"longitude":-121.9499,"heading":0,"course":"\#(pebble)","hole":1}"#)
        #expect(toGreen.status == 200)
        #expect((try toGreen.object()["callout"] as? String)?.isEmpty == false)
        // The pack a phone guides from in a dead zone: every hole, its green's centre where the course data has one,
        // at the point POST .../guidance aims at.
        let tee = try #require(((card["tees"] as? [[String: Any]])?.compactMap { $0["tee"] as? String })?.first)
        let pebbleGame = try api.post(
            "\(base)/games", #"{"course":"\#(pebble)","tee":"\#(tee)","players":["Ana"]}"#)
        #expect(pebbleGame.status == 201, "\(pebbleGame.text)")
        let pebbleID = try #require(try pebbleGame.object()["game"] as? String)
        let pack = try api.get("\(base)/games/\(pebbleID)/guidance-pack").object()
        let holes = try #require(pack["holes"] as? [[String: Any]])
        #expect(pack["course"] as? String == "Pebble Beach Golf Links" && holes.count == 18)
        let first = try #require(holes.first { $0["hole"] as? Int == 1 }?["targets"] as? [[String: Any]])
        let centre = try #require(first.first { $0["kind"] as? String == "greenCentre" })
        let aimed = try api.post(
            "\(base)/guidance",
            #"{"latitude":36.5686,"longitude":-121.9499,"to":{"latitude":\#(centre["latitude"] as? Double ?? 0),"longitude":\#(centre["longitude"] as? Double ?? 0)}}"#
        ).object()
        #expect(aimed["distanceMeters"] as? Double == (try toGreen.object()["distanceMeters"] as? Double))
        #expect(try api.get("\(base)/games/nothing/guidance-pack").status == 404)
        #expect(try api.post("\(base)/games/\(pebbleID)/finish", "").status == 200)  // the foursome's game stays the current one

        // Sync status and peers.
        let sync = try api.get("/v1/sync").object()
        #expect((sync["spaces"] as? [[String: Any]])?.first?["stateHash"] as? String == (try ana.stateHash()))
        #expect(try api.get("/v1/peers").status == 200)

        // Bad input: a clear 4xx, and the state does not move.
        let before = try ana.stateHash()
        let bad: [(String, String, String?, Int, String)] = [
            ("POST", "\(base)/games/\(game)/scores", #"{"player":"Ben","hole":99,"strokes":4}"#, 400, "hole 99"),
            ("POST", "\(base)/games/\(game)/scores", #"{"player":"Ben","hole":1,"strokes":0}"#, 400, "strokes"),
            ("POST", "\(base)/games/\(game)/scores", #"{"player":"Ben","hole":1,"strokes":"four"}"#, 400, "'strokes'"),
            ("POST", "\(base)/games/\(game)/scores", #"{"hole":1,"strokes":4}"#, 400, "'player' is missing"),
            ("POST", "\(base)/games/\(game)/scores", "not json", 400, "JSON"),
            ("POST", "\(base)/games/\(game)/scores", #"{"player":"Ben","hole":1,"strokes":4,"seen":["ab:1"]}"#, 400, "seen"),
            ("POST", "\(base)/games/\(game)/scores", "", 400, "JSON body"),
            (
                "POST", "\(base)/games/\(game)/scores", #"{"player":"Zed","hole":1,"strokes":4}"#, 404,
                "no player 'Zed' in this space: GET /v1/spaces/{space}/players lists them"
            ),
            ("POST", "\(base)/games/ffffffffffffffff/scores", #"{"player":"Ben","hole":1,"strokes":4}"#, 404, "game"),
            ("POST", "/v1/spaces/nosuchspace/players", #"{"name":"X"}"#, 404, "space"),
            ("POST", "\(base)/games", #"{"course":"\#(pebble)","tee":"Purple","players":["Ana"]}"#, 400, "no tee"),
            ("POST", "\(base)/guidance", #"{"latitude":123,"longitude":0,"to":{"latitude":0,"longitude":0}}"#, 400, "Latitude"),
            ("GET", "\(base)/courses/search", nil, 400, "?q="),
            ("GET", "\(base)/courses/nearby?lat=north&lon=3", nil, 400, "lat"),
            ("GET", "\(base)/games/\(game)/history?player=Ben&hole=x", nil, 400, "hole"),
            ("GET", "\(base)/games/\(game)/card?allowance=500", nil, 400, "allowance"),
            ("GET", "/v1/nothing/here", nil, 404, "not part of the Caddie API"),
            // A bad field is named as the API spells it, never as the CLI's option.
            ("PATCH", "\(base)/games/\(game)", #"{"holesPlayed":7}"#, 400, "holesPlayed must be 9 or 18, got 7"),
            ("PATCH", "\(base)/games/\(game)", #"{"stake":-1}"#, 400, "stake must be between 0"),
            ("PATCH", "\(base)/games/\(game)", #"{"skins":"best"}"#, 400, "skins must be net or gross"),
            ("PATCH", "\(base)/games/\(game)", #"{"teams":[["Ana","Ben"],["Ana"]]}"#, 400, "teams takes sides of equal size"),
            (
                "POST", "\(base)/games",
                #"{"course":"\#(pebble)","tee":"\#(try Self.firstTee(api, base, pebble))","players":[]}"#, 400,
                "players names nobody"
            ),
        ]
        for (method, path, body, status, words) in bad {
            let reply = try api.request(method, path, body: body)
            #expect(reply.status == status, "\(method) \(path) \(body ?? ""): \(reply.status) \(reply.text)")
            #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
            let message = (try? reply.object()["message"] as? String) ?? ""
            #expect(message.contains(words), "\(method) \(path): \(message)")
            #expect(!message.contains("--") && !message.contains("`caddie"), "no CLI words in an HTTP answer: \(message)")
        }
        #expect(try ana.stateHash() == before)
        #expect(try api.post("\(base)/games/\(game)/scores", String(repeating: " ", count: 70_000)).status == 413)

        // A finished game refuses scores until reopened.
        #expect(try api.post("\(base)/games/\(game)/finish", "").object()["finished"] as? Bool == true)
        let closed = try api.post("\(base)/games/\(game)/scores", #"{"player":"Ben","hole":1,"strokes":4}"#)
        let refusal = try closed.object()
        #expect(closed.status == 409)
        #expect(refusal["code"] as? String == "conflict")
        #expect((refusal["message"] as? String)?.contains("caddie") == false, "no CLI words in an HTTP answer")
        #expect(try api.get("\(base)/games/current").status == 404)
        #expect(try api.post("\(base)/games/\(game)/reopen", "").object()["finished"] as? Bool == false)
        let game2 = try api.post(
            "\(base)/games", #"{"course":"\#(pebble)","tee":"\#(try Self.firstTee(api, base, pebble))","players":["Ana","Eve"]}"#)
        #expect(game2.status == 201)
        _ = players
    }

    static func firstTee(_ api: HTTPClient, _ base: String, _ course: String) throws -> String {
        let courses = try api.get("\(base)/courses").array()
        let tees = courses.first { $0["course"] as? String == course }?["tees"] as? [String]
        return tees?.first ?? "?"
    }

    @Test("a live-events client sees a score entered on another node, a conflict appear and be settled, and peers come and go")
    func liveEvents() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let (ana, ben) = (homes[0], homes[1])
        let node = try NodeProcess(ana, http: true)
        defer { node.stop() }
        let token = try Self.token(ana)
        let events = try EventStream(port: node.httpPort, token: token)
        #expect(events.status == 200)
        var benNode: NodeProcess? = try NodeProcess(ben, peers: [node.port])
        #expect(try events.next(within: 60) { $0.type == "peer-connected" } != nil)

        // Ben scores on his own device; Ana's stream reports it as merged from a peer.
        try ben.ok(["score", game, "Ben", "1", "5"])
        let score = try #require(try events.next(within: 60) { $0.type == "score" && $0.data["hole"] as? Int == 1 })
        #expect(score["origin"] as? String == "peer")
        #expect(score["name"] as? String == "Ben")
        #expect(score["strokes"] as? Int == 5)

        // Ben's phone dies; both enter hole 2 differently; when it comes back, the conflict appears.
        benNode?.kill()
        benNode = nil
        #expect(try events.next(within: 60) { $0.type == "peer-lost" } != nil)
        try ben.ok(["score", game, "Ben", "2", "4"])
        let api = HTTPClient(port: node.httpPort, token: token)
        let space = try #require(try api.get("/v1/spaces").array().first?["space"] as? String)
        #expect(try api.post("/v1/spaces/\(space)/games/\(game)/scores", #"{"player":"Ben","hole":2,"strokes":6}"#).status == 201)
        let local = try #require(try events.next(within: 60) { $0.type == "score" && $0.data["hole"] as? Int == 2 })
        #expect(local["origin"] as? String == "local")
        benNode = try NodeProcess(ben, peers: [node.port])
        let conflict = try #require(try events.next(within: 60) { $0.type == "conflict" && $0.data["hole"] as? Int == 2 })
        #expect(Set(((conflict["values"] as? [[String: Any]]) ?? []).compactMap { $0["strokes"] as? Int }) == [4, 6])

        // Settled on Ben's device: the stream reports the resolution.
        try ben.ok(["score", game, "Ben", "2", "5"])
        let resolved = try #require(
            try events.next(within: 60) { $0.type == "conflict-resolved" && $0.data["hole"] as? Int == 2 })
        #expect((resolved["value"] as? [String: Any])?["strokes"] as? Int == 5)
        benNode?.stop()
    }

    @Test("the API binds to loopback unless told otherwise, and a node without --http has no API")
    func bindingIsExplicit() throws {
        let home = try CLI(name: "bind")
        defer { home.remove() }
        try home.ok(["login", "--name", "Ana"])
        try home.ok(["space", "create", "Solo"])
        try home.fails(["serve", "--no-mdns", "--listen", "127.0.0.1:0", "--http", "0.0.0.0:7480"], saying: "--http-any-address")
        try home.fails(["serve", "--no-mdns", "--listen", "127.0.0.1:0", "--http", "nonsense"], saying: "HOST:PORT")
        let node = try NodeProcess(home)
        defer { node.stop() }
        #expect(!FileManager.default.fileExists(atPath: home.home.appendingPathComponent("api-token").path))
    }
}

@Suite("the API's documented error codes")
struct APIErrorCodeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A client switches on `code`; a code the server sends that openapi.yaml does not list is a broken contract
    /// (schemathesis finds it only when its random inputs happen to reach that branch).
    @Test("every code the API sources send is in openapi.yaml's Error enum")
    func everyCodeDocumented() throws {
        let spec = try String(contentsOf: Self.repository.appendingPathComponent("Protocol/openapi.yaml"), encoding: .utf8)
        guard let start = spec.range(of: "    Error:\n"),
            let enumStart = spec.range(of: "enum: [", range: start.upperBound..<spec.endIndex),
            let enumEnd = spec.range(of: "]", range: enumStart.upperBound..<spec.endIndex)
        else {
            Issue.record("openapi.yaml has no Error schema with a code enum")
            return
        }
        let documented = Set(
            spec[enumStart.upperBound..<enumEnd.lowerBound].split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(documented.contains("bad_request"))

        let folder = Self.repository.appendingPathComponent("Sources/CaddieAPI")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let pattern = try Regex(#"code: "([a-z_]+)""#)
        var sent: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let name = match.output[1].substring { sent.insert(String(name)) }
            }
        }
        #expect(sent.count >= 10, "the scan found only \(sent.sorted()): has APIError's shape changed?")
        #expect(sent.subtracting(documented).isEmpty, "sent but not in openapi.yaml: \(sent.subtracting(documented).sorted())")
    }
}
