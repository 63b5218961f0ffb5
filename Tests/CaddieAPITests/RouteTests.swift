import CaddieCore
import CaddieNode
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CaddieAPI

/// The API's routes, middleware and error mapping through Hummingbird's test client (`app.test(.router)`: each request
/// handed straight to the router): a real home on disk, the node's own router, no socket and no process. `APITests` (CaddieCLITests) and Deploy/api-check.sh drive the same
/// routes over real HTTP; these check what each route decides, in milliseconds.
@Suite("The API's routes, without a socket", .timeLimit(.minutes(5)))
struct RouteTests {
    /// The node's router over `round`'s home (the test client's requests name the host `localhost`), and the bearer
    /// header that admits a request.
    static func application(
        _ round: EventHubTests.Round
    ) throws -> (some ApplicationProtocol, HTTPFields) {
        let (api, auth) = try Self.api(round)
        return (Application(router: api.router(boundHost: "localhost"), logger: Logger(label: "caddie-route-test")), auth)
    }

    /// The node's API over `round`'s home, and the bearer header that admits a request.
    static func api(_ round: EventHubTests.Round) throws -> (NodeAPI, HTTPFields) {
        let logger = Logger(label: "caddie-route-test")
        let node = try round.home.runtime(keys: round.keys, logger: logger)
        let token = try APIToken.load(home: round.home, rotate: false)
        let api = NodeAPI(
            home: round.home, keys: round.keys, node: node, hub: EventHub(home: round.home, logger: logger), token: token)
        return (api, [.authorization: "Bearer \(token.text)"])
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
    }

    static func body(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    /// POSTs `object` as JSON to `uri` with `auth`, and hands `check` the status and the JSON answer.
    static func post(
        _ client: some TestClientProtocol, _ auth: HTTPFields, _ uri: String, _ object: [String: Any],
        _ check: (HTTPResponse.Status, [String: Any]) -> Void
    ) async throws {
        let response = try await client.execute(uri: uri, method: .post, headers: auth, body: try body(object))
        check(response.status, try json(response.body))
    }

    @Test("a request needs the node's token: none and a wrong one are 401 with their own codes; with it the spaces list")
    func token() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        let (app, auth) = try Self.application(round)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/spaces", method: .get) { response in
                #expect(response.status == .unauthorized)
                let codeField = try Self.json(response.body)["code"] as? String
                #expect(codeField == "token_missing")
            }
            try await client.execute(
                uri: "/v1/spaces", method: .get, headers: [.authorization: "Bearer " + String(repeating: "0", count: 64)]
            ) { response in
                #expect(response.status == .unauthorized)
                let codeField = try Self.json(response.body)["code"] as? String
                #expect(codeField == "token_wrong")
            }
            try await client.execute(uri: "/v1/spaces", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let spaces = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                #expect(spaces.map { $0["name"] as? String } == ["Saturday"])
                #expect(spaces.first?["space"] as? String == round.space.hex)
            }
        }
    }

    @Test(
        "a score posted through the router is on the card (201, then 200 for the same entry again); on a finished game it is 409 with no CLI words, and signs nothing"
    )
    func scores() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        let (app, auth) = try Self.application(round)
        let game = round.games[0].hex
        let scores = "/v1/spaces/\(round.space.hex)/games/\(game)/scores"
        try await app.test(.router) { client in
            // `seen`: the values the entry replaces as the phone saw them (none): sent again, it is a replay.
            let entry = try Self.body(["player": "Ann", "hole": 3, "strokes": 4, "seen": [String]()])
            try await client.execute(uri: scores, method: .post, headers: auth, body: entry) { response in
                #expect(response.status == .created)
                let answer = try Self.json(response.body)
                #expect(answer["strokes"] as? Int == 4 && answer["replay"] as? Bool == false)
            }
            let card = try round.home.rounds.card(space: round.space, game: round.games[0])
            #expect(card.cell(round.players[0], 3)?.values.map(\.entry.strokes) == [4])
            try await client.execute(uri: scores, method: .post, headers: auth, body: entry) { response in
                #expect(response.status == .ok, "the same entry again is a replay")
                let replayField = try Self.json(response.body)["replay"] as? Bool
                #expect(replayField == true)
            }

            try await client.execute(
                uri: "/v1/spaces/\(round.space.hex)/games/\(game)/finish", method: .post, headers: auth
            ) { response in
                #expect(response.status == .ok)
            }
            let before = try round.home.rounds.card(space: round.space, game: round.games[0])
            try await client.execute(
                uri: scores, method: .post, headers: auth, body: try Self.body(["player": "Ann", "hole": 3, "strokes": 5])
            ) { response in
                #expect(response.status == .conflict)
                let answer = try Self.json(response.body)
                #expect(answer["code"] as? String == "conflict")
                let message = try #require(answer["message"] as? String)
                #expect(!message.contains("caddie ") && !message.contains("--"), "no CLI words over HTTP: \(message)")
            }
            let after = try round.home.rounds.card(space: round.space, game: round.games[0])
            #expect(after.cell(round.players[0], 3)?.values.map(\.entry.strokes) == [4])
            #expect(before.cell(round.players[0], 3)?.values.count == after.cell(round.players[0], 3)?.values.count)
        }
    }

    @Test(
        "a pick-up posted through the router is on the card as pickUp with no strokes and a total of no return; strokes with it, or neither, is 400 naming strokes and writes nothing"
    )
    func pickUp() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        let (app, auth) = try Self.application(round)
        let base = "/v1/spaces/\(round.space.hex)/games/\(round.games[0].hex)"
        try await app.test(.router) { client in
            for (body, words) in [
                (["player": "Ann", "hole": 2, "pickUp": true, "strokes": 5] as [String: Any], "cannot be given with a pick-up"),
                (["player": "Ann", "hole": 2, "pickUp": true, "putts": 1], "cannot be given with a pick-up"),
                (["player": "Ann", "hole": 2], "are missing"),
            ] {
                try await client.execute(uri: base + "/scores", method: .post, headers: auth, body: try Self.body(body)) {
                    response in
                    #expect(response.status == .badRequest)
                    let message = try #require(try Self.json(response.body)["message"] as? String)
                    #expect(message.hasPrefix("strokes ") && message.contains(words), "\(message)")
                }
            }
            #expect(try round.home.rounds.card(space: round.space, game: round.games[0]).cell(round.players[0], 2) == nil)
            try await client.execute(
                uri: base + "/scores", method: .post, headers: auth,
                body: try Self.body(["player": "Ann", "hole": 2, "pickUp": true, "seen": [String]()])
            ) { response in
                #expect(response.status == .created)
                let answer = try Self.json(response.body)
                #expect(answer["pickUp"] as? Bool == true && answer["strokes"] is NSNull)
            }
            try await client.execute(
                uri: base + "/scores", method: .post, headers: auth,
                body: try Self.body(["player": "Ann", "hole": 1, "strokes": 4])
            ) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: base + "/card", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let players = try #require(try Self.json(response.body)["players"] as? [[String: Any]])
                let ann = try #require(players.first { $0["name"] as? String == "Ann" })
                let cells = try #require(ann["cells"] as? [[String: Any]])
                let two = try #require(cells.first { $0["hole"] as? Int == 2 })
                #expect(two["pickUp"] as? Bool == true && two["strokes"] is NSNull)
                #expect((two["winner"] as? [String: Any])?["pickUp"] as? Bool == true)
                #expect(ann["noReturn"] as? Bool == true && ann["total"] is NSNull && ann["out"] is NSNull)
            }
            try await client.execute(uri: base + "/standings", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let players = try #require(try Self.json(response.body)["players"] as? [[String: Any]])
                let ann = try #require(players.first { $0["name"] as? String == "Ann" })
                #expect(ann["thru"] as? Int == 2 && ann["pickUps"] as? Int == 1 && ann["noReturn"] as? Bool == true)
            }
        }
        let entry = try #require(
            try round.home.rounds.card(space: round.space, game: round.games[0]).cell(round.players[0], 2)?.winner?.entry)
        #expect(entry.pickedUp && entry == .pickUp)
    }

    @Test("a competition's board: positions and the countback step as JSON; an unknown competition is 404")
    func competitionBoard() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        _ = try round.medal(games: [round.games[0]])
        // Ann and Bob both 4 on the first three holes, then Ann 5 and Bob 4 on the 4th: Bob leads by one.
        for hole in 1...4 {
            try round.score(game: 0, player: 0, hole: hole, strokes: hole == 4 ? 5 : 4)
            try round.score(game: 0, player: 1, hole: hole, strokes: 4)
        }
        let (app, auth) = try Self.application(round)
        let base = "/v1/spaces/\(round.space.hex)/competitions"
        try await app.test(.router) { client in
            try await client.execute(uri: base, method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let list = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                #expect(list.map { $0["name"] as? String } == ["Medal"])
            }
            try await client.execute(uri: base + "/Medal/board", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let board = try Self.json(response.body)
                let lines = try #require((board["divisions"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])
                let ranked = lines.filter { $0["position"] as? Int != nil }
                #expect(ranked.map { $0["name"] as? String } == ["Bob", "Ann"])
                #expect(ranked.map { $0["thru"] as? Int } == [4, 4])
                #expect(ranked.map { $0["gross"] as? Int } == [16, 17])
                #expect(board["groups"] as? Int == 1)
            }
            try await client.execute(uri: base + "/Stableford/board", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: base + "/Medal/draw", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let groups = try #require(try Self.json(response.body)["groups"] as? [[String: Any]])
                #expect(groups.map { $0["game"] as? String } == [round.games[0].hex])
                #expect((groups.first?["players"] as? [[String: Any]])?.isEmpty == false)
            }
        }
    }

    @Test(
        "the committee's writes over HTTP: a mark, a correction with its reason, the board's access, the close; bad ones 400/404")
    func committeeWrites() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        _ = try round.medal(games: [round.games[0]])
        for hole in 1...3 { try round.score(game: 0, player: 0, hole: hole, strokes: 4) }
        let (app, auth) = try Self.application(round)
        let base = "/v1/spaces/\(round.space.hex)/competitions/Medal"
        try await app.test(.router) { client in
            func post(_ path: String, _ object: [String: Any], _ check: (HTTPResponse.Status, [String: Any]) -> Void) async throws
            {
                try await Self.post(client, auth, base + path, object, check)
            }
            let before = try round.home.store.stateHash(round.space)
            try await post("/marks", ["player": "Ann", "mark": "out"]) { status, body in
                #expect(status == .badRequest && (body["message"] as? String)?.contains("give nr, dq or clear") == true)
            }
            try await post("/corrections", ["player": "Ann", "hole": 2, "strokes": 5, "reason": ""]) { status, body in
                #expect(status == .badRequest && (body["message"] as? String)?.contains("says why") == true, "\(body)")
            }
            try await post("/corrections", ["player": "Ann", "hole": 2, "reason": "card"]) { status, _ in
                #expect(status == .badRequest, "neither strokes nor a pick-up")
            }
            try await post("/committee", ["member": "Zed", "on": true]) { status, _ in #expect(status == .notFound) }
            #expect(try round.home.store.stateHash(round.space) == before, "nothing written by the refused ones")
            try await post("/marks", ["player": "Bob", "mark": "dq"]) { status, body in
                #expect(status == .ok && body["groups"] != nil, "the draw as it now stands")
            }
            #expect(
                try round.home.competitions.competition(
                    round.space, try round.home.competitions.resolveCompetition(round.space, "Medal").id
                ).statuses.values.map { $0 } == ["DQ"])
            try await post("/corrections", ["player": "Ann", "hole": 2, "strokes": 5, "reason": "marker's card: 5"]) {
                status, _ in
                #expect(status == .created)
            }
            let card = try round.home.rounds.card(space: round.space, game: round.games[0])
            #expect(card.cell(round.players[0], 2)?.winner?.entry.strokes == 5)
            try await post("/access", ["public": true, "hideLast": 2]) { status, body in
                #expect(status == .ok && (body["competition"] as? [String: Any]) != nil)
            }
            try await post("/close", [:]) { status, _ in #expect(status == .ok) }
            try await post("/close", [:]) { status, body in
                #expect(status == .conflict && (body["message"] as? String)?.contains("closed already") == true, "\(body)")
            }
            try await post("/close", ["reopen": true]) { status, _ in #expect(status == .ok) }
        }
    }

    @Test(
        "a competition made over HTTP: created, its entry list (a bad row refused whole), its draw; bad words 400, nothing written"
    )
    func competitionMadeOverHTTP() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        let course = try #require(try round.home.courses.list(round.space).first)
        let tee = try #require(course.tees.first).name
        let (app, auth) = try Self.application(round)
        let base = "/v1/spaces/\(round.space.hex)/competitions"
        try await app.test(.router) { client in
            func post(_ path: String, _ object: [String: Any], _ check: (HTTPResponse.Status, [String: Any]) -> Void) async throws
            {
                try await Self.post(client, auth, base + path, object, check)
            }
            let before = try round.home.store.stateHash(round.space)
            try await post("", ["name": "Medal", "scoring": "bogey"]) { status, body in
                #expect(status == .badRequest && (body["message"] as? String)?.contains("give net, gross or stableford") == true)
            }
            try await post("", ["name": "Medal", "countback": "coin"]) { status, body in
                #expect(status == .badRequest && (body["message"] as? String)?.contains("r-and-a") == true, "\(body)")
            }
            try await post("", ["name": "  "]) { status, _ in #expect(status == .badRequest) }
            #expect(try round.home.store.stateHash(round.space) == before, "nothing written by the refused ones")
            try await post("", ["name": "Medal", "scoring": "net", "allowance": 90, "divisions": [18]]) { status, body in
                #expect(status == .created, "\(body)")
                #expect(body["name"] as? String == "Medal" && body["scoring"] as? String == "net")
                #expect(body["allowance"] as? Int == 90 && body["divisions"] as? [Int] == [18])
            }
            let medal = try round.home.competitions.resolveCompetition(round.space, "Medal")
            #expect(medal.countback == "r-and-a" && !medal.twosByDivision)

            let listed = try round.home.store.stateHash(round.space)
            let bad = "name,index,tee\nAnn,12.4,\(tee)\nBob,twenty,\(tee)\n"
            try await post("/Medal/entries", ["csv": bad]) { status, body in
                let message = body["message"] as? String ?? ""
                #expect(
                    status == .badRequest && message.contains("line 3") && message.contains("nothing was imported"), "\(body)")
            }
            try await post("/Medal/draw", ["course": course.id.hex]) { status, body in
                #expect(status == .conflict, "no entry list yet: \(body)")
            }
            #expect(try round.home.store.stateHash(round.space) == listed, "a bad list imports no one")
            let list =
                "name,index,tee\n"
                + ["Ann", "Bob", "Cat", "Dan", "Eve"].enumerated()
                .map { "\($1),\(10 + $0).2,\(tee)" }.joined(separator: "\n")
            try await post("/Medal/entries", ["csv": list]) { status, body in
                #expect(status == .ok && body["entries"] as? Int == 5, "\(body)")
            }
            #expect(try round.home.rounds.players(round.space).map(\.name).contains("Eve"), "a name not yet a player is added")
            try await post("/Medal/draw", ["course": course.id.hex, "first": "8 o'clock"]) { status, body in
                #expect(status == .badRequest && (body["message"] as? String)?.contains("08:10") == true, "\(body)")
            }
            try await post("/Medal/draw", ["course": course.id.hex, "shotgun": true, "twoTees": true]) { status, _ in
                #expect(status == .badRequest)
            }
            try await post(
                "/Medal/draw", ["course": course.id.hex, "size": 3, "first": "09:00", "interval": 8, "order": "entry"]
            ) {
                status, body in
                #expect(status == .created, "\(body)")
                let groups = body["groups"] as? [[String: Any]] ?? []
                // Five in threes: a group of three and one of two, from 09:00 and 09:08, in the list's order.
                #expect(groups.map { ($0["players"] as? [Any])?.count } == [3, 2])
                #expect(groups.map { $0["teeTime"] as? String } == ["09:00", "09:08"])
                let first = (groups.first?["players"] as? [[String: Any]])?.map { $0["name"] as? String }
                #expect(first == ["Ann", "Bob", "Cat"])
            }
            try await post("/Medal/draw", ["course": course.id.hex]) { status, _ in
                #expect(status == .conflict, "drawn already")
            }
        }
    }

    @Test("a public board: no sign-in, the last holes hidden; a private, unknown or malformed one is the same 404")
    func publicBoard() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        let home = round.home
        let medal = try round.medal(games: [round.games[0]])
        // Both 4 on the first four holes; Ann a 3 on the 18th, the hole the public board hides.
        for hole in 1...4 {
            try round.score(game: 0, player: 0, hole: hole, strokes: 4)
            try round.score(game: 0, player: 1, hole: hole, strokes: 4)
        }
        try round.score(game: 0, player: 0, hole: 18, strokes: 3)
        let (app, auth) = try Self.application(round)
        let page = "/board/\(round.space.hex)/\(medal.hex)"
        try await app.test(.router) { client in
            func line(_ lines: [[String: Any]], _ name: String) -> [String: Any]? {
                lines.first { $0["name"] as? String == name }
            }
            // Not public yet: the page (with a 404, so its script shows why), the JSON and the stream are refused.
            for path in [page, page + "/board.json", page + "/events"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                }
            }
            try await client.execute(uri: page + "/board.json", method: .get) { response in
                let message = try #require(try Self.json(response.body)["message"] as? String)
                #expect(message.contains("caddie competition public"), "says how: \(message)")
            }
            _ = try home.execute(
                .setBoardAccess(space: round.space, competition: medal, isPublic: true, hiddenHoles: 1), keys: round.keys)
            try await client.execute(uri: page, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            try await client.execute(uri: page + "/board.json", method: .get) { response in
                #expect(response.status == .ok)
                let board = try Self.json(response.body)
                #expect(board["whole"] as? Bool == true)
                let head = try #require(board["head"] as? [String: Any])
                #expect(head["name"] as? String == "Medal")
                #expect(head["hiddenHoles"] as? Int == 1)
                #expect(head["notes"] == nil, "the committee's notes stay off the public board")
                let lines = try #require(board["lines"] as? [[String: Any]])
                // The 18th is hidden: Ann is thru 4 with 16, level with Bob, not thru 5 with 19.
                #expect(line(lines, "Ann")?["thru"] as? Int == 4)
                #expect(line(lines, "Ann")?["gross"] as? Int == 16)
                #expect(line(lines, "Bob")?["thru"] as? Int == 4)
                #expect(line(lines, "Ann")?["division"] as? Int == 1)
            }
            // The members' board hides nothing.
            try await client.execute(
                uri: "/v1/spaces/\(round.space.hex)/competitions/Medal/board", method: .get, headers: auth
            ) { response in
                let board = try Self.json(response.body)
                let lines = try #require((board["divisions"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])
                #expect(line(lines, "Ann")?["thru"] as? Int == 5)
            }
            // Only exact ids of a public board: a name, a short id or garbage is the same 404 as a private board.
            for path in [
                "/board/\(round.space.hex)/Medal/board.json", "/board/\(round.space.short)/\(medal.hex)/board.json",
                "/board/zz/\(medal.hex)/board.json", "/board/\(round.space.hex)/\(round.games[0].hex)/board.json",
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                }
            }
            _ = try home.execute(
                .setBoardAccess(space: round.space, competition: medal, isPublic: false, hiddenHoles: 0), keys: round.keys)
            try await client.execute(uri: page + "/board.json", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("bad input is 400 naming the field; an unknown method on a known path is 405 with Allow; an unknown path 404")
    func refusals() async throws {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        let (app, auth) = try Self.application(round)
        let scores = "/v1/spaces/\(round.space.hex)/games/\(round.games[0].hex)/scores"
        try await app.test(.router) { client in
            try await client.execute(
                uri: scores, method: .post, headers: auth, body: try Self.body(["player": "Ann", "hole": 3, "strokes": "four"])
            ) { response in
                #expect(response.status == .badRequest)
                let message = try #require(try Self.json(response.body)["message"] as? String)
                #expect(message.contains("strokes"), "names the field: \(message)")
            }
            try await client.execute(
                uri: scores, method: .post, headers: auth, body: try Self.body(["player": "Ann", "hole": 19, "strokes": 4])
            ) { response in
                #expect(response.status == .badRequest || response.status == .conflict)
                let messageField = try Self.json(response.body)["message"] as? String
                #expect(messageField != nil)
            }
            try await client.execute(uri: "/v1/spaces", method: .put, headers: auth) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow]?.contains("GET") == true)
                let codeField = try Self.json(response.body)["code"] as? String
                #expect(codeField == "method_not_allowed")
            }
            try await client.execute(uri: "/v1/no-such-thing", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
            }
        }
        let card = try round.home.rounds.card(space: round.space, game: round.games[0])
        #expect(card.cell(round.players[0], 3) == nil, "no refused request wrote a score")
    }
}
