import CaddieCore
import CaddieNode
import CaddieServices
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The API's writes: players, games, scores and attestations, each as this home's user and device.
extension NodeAPI {
    struct NewPlayer: Decodable {
        let name: String
        let index: Double?
    }

    func addPlayer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: NewPlayer.self)
        let (home, keys) = (home, keys)
        let player = try await write {
            let done = try home.execute(.addPlayer(space: id, name: body.name, handicapIndex: body.index), keys: keys)
            return try home.rounds.player(id, try done.addedPlayer())
        }
        return Response.json(Views.player(player), status: .created)
    }

    struct NewGame: Decodable {
        let course: String
        let tee: String
        let players: [String]
        let markers: [Marker]?
        /// The new game's id, chosen by a phone that drafts it (`.../game-drafts`); POST .../games picks its own.
        let game: String?
        /// The side-game fields of the same body (`tee` there is the game's own, above).
        let setup: SetupBody
        struct Marker: Decodable {
            let player: String
            let marker: String
        }
        enum CodingKeys: String, CodingKey { case course, tee, players, markers, game }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            course = try container.decode(String.self, forKey: .course)
            tee = try container.decode(String.self, forKey: .tee)
            players = try container.decode([String].self, forKey: .players)
            markers = try container.decodeIfPresent([Marker].self, forKey: .markers)
            game = try container.decodeIfPresent(String.self, forKey: .game)
            setup = try SetupBody(from: decoder)
        }
    }

    /// A game's setup changes: every field optional, players as typed.
    typealias SetupBody = GameSetupForm<String>

    func setupGame(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let body = try await decode(request, as: SetupBody.self)
        let (home, keys) = (home, keys)
        return Response.json(
            Views.game(
                try await write {
                    let game = try home.rounds.resolveGame(id, game).id
                    _ = try home.execute(
                        .setup(space: id, game: game, setup: try home.rounds.resolve(body.setup, in: id)), keys: keys)
                    return try home.rounds.game(id, game)
                }))
    }

    func deleteGame(_ request: Request, _ context: BasicRequestContext, restore: Bool) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let force = request.uri.queryParameters.get("force").map { $0 == "true" || $0 == "1" } ?? false
        let (home, keys) = (home, keys)
        return Response.json(
            Views.game(
                try await write {
                    let game = try home.rounds.resolveGame(id, game, includeDeleted: true).id
                    _ = try home.execute(
                        .setDeleted(space: id, game: game, deleted: !restore, force: force || restore), keys: keys)
                    return try home.rounds.game(id, game, includeDeleted: true)
                }))
    }

    func printable(_ context: BasicRequestContext, html: Bool) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let (home, keys) = (home, keys)
        let export = try await read {
            try home.rounds.cardExport(space: id, game: try home.rounds.resolveGame(id, game).id, keys: keys)
        }
        var headers: HTTPFields = [
            .contentType: html ? "text/html; charset=utf-8" : "text/csv; charset=utf-8",
            .contentDisposition:
                "inline; filename=\"caddie-card-\(export.standings.card.game.id.short).\(html ? "html" : "csv")\"",
        ]
        // The card has no script: its policy allows its own inline style and nothing else.
        if html {
            headers[.contentSecurityPolicy] =
                "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
                + "form-action 'none'; frame-ancestors 'none'"
        }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: html ? export.html : export.csv)))
    }

    struct PlayerChanges: Decodable {
        let name: String?
        let index: Double?
        let clearIndex: Bool?
    }

    func editPlayer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (id, player) = try await spaceParameters(context, "player")
        let body = try await decode(request, as: PlayerChanges.self)
        let (home, keys) = (home, keys)
        return Response.json(
            Views.player(
                try await write {
                    let player = try home.rounds.resolvePlayer(id, player).id
                    _ = try home.execute(
                        .editPlayer(
                            space: id, player: player, name: body.name, handicapIndex: body.index,
                            clearIndex: body.clearIndex ?? false), keys: keys)
                    return try home.rounds.player(id, player)
                }))
    }

    func newGame(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: NewGame.self)
        let (home, keys) = (home, keys)
        let game = try await write {
            var setup = body.setup.setup
            setup.tee = nil
            let command = NodeCommand.newGame(
                space: id, course: try home.courses.resolveCourse(id, body.course).id, tee: body.tee,
                players: try home.rounds.resolvePlayers(id, body.players),
                markers: try home.rounds.resolveMarkers(id, (body.markers ?? []).map { ($0.player, $0.marker) }).map {
                    NodeCommand.MarkerPair(player: $0.player, marker: $0.marker)
                },
                setup: try home.rounds.resolve(setup, in: id))
            return try home.rounds.game(id, try home.execute(command, keys: keys).startedGame())
        }
        return Response.json(Views.game(game), status: .created)
    }

    func setFinished(_ context: BasicRequestContext, _ finished: Bool) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let (home, keys) = (home, keys)
        return Response.json(
            Views.game(
                try await write {
                    let game = try home.rounds.resolveGame(id, game).id
                    _ = try home.execute(.setFinished(space: id, game: game, finished: finished), keys: keys)
                    return try home.rounds.game(id, game)
                }))
    }

    struct NewScore: Decodable {
        let player: String
        let hole: Int
        /// The strokes; absent for a pick-up.
        let strokes: Int?
        /// True for a pick-up: the player did not hole out.
        let pickUp: Bool?
        let putts: Int?
        let penalties: Int?
        let fairway: String?
        let gir: Bool?
        /// The cell's values this entry replaces, as the browser last saw them (op names); nil: what the cell
        /// shows when the entry arrives.
        let seen: [String]?
    }

    func enterScore(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let body = try await decode(request, as: NewScore.self)
        let entry = try ScoreEntry.reading(
            strokes: body.strokes, putts: body.putts, penalties: body.penalties, fairway: body.fairway,
            greenInRegulation: body.gir, pickUp: body.pickUp ?? false)
        let seen = try body.seen.map { names in
            try names.map { name in
                guard let op = Views.opID(named: name) else {
                    throw APIError.badRequest(
                        "'seen' names the values the entry replaces as DEVICEHEX:SEQ (as the card's 'values' give them), "
                            + "got '\(name.prefix(100))'")
                }
                return op
            }
        }
        let (home, keys) = (home, keys)
        let (made, player) = try await write {
            let game = try home.rounds.resolveGame(id, game).id
            let player = try home.rounds.resolvePlayer(id, body.player).id
            let command = NodeCommand.score(space: id, game: game, player: player, hole: body.hole, entry: entry, seen: seen)
            return (try home.execute(command, keys: keys), player.hex)
        }
        guard let op = made.op else { throw APIError.badRequest("the entry signed nothing") }
        let replay = made == .replayed(op)
        return Response.json(
            .object([
                ("op", .string(Views.opName(op))), ("player", .string(player)),
                ("hole", .int(body.hole)), ("strokes", .optional(entry.holed)), ("pickUp", .bool(entry.pickedUp)),
                ("replay", .bool(replay)),
            ]), status: replay ? .ok : .created)
    }

    struct NewAttestation: Decodable { let player: String }

    func attest(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let body = try await decode(request, as: NewAttestation.self)
        let (home, keys) = (home, keys)
        let (hash, player) = try await write {
            let game = try home.rounds.resolveGame(id, game).id
            let player = try home.rounds.resolvePlayer(id, body.player).id
            guard case .attested(_, let card) = try home.execute(.attest(space: id, game: game, player: player), keys: keys)
            else {
                throw NodeError.malformed(what: "reply", "the attestation signed nothing")
            }
            return (card, player.hex)
        }
        return Response.json(.object([("player", .string(player)), ("cardHash", .string(hash.hex))]), status: .created)
    }
}
