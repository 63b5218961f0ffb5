import CaddieCore
import CaddieNode
import Foundation
import Hummingbird

/// The routes under `/v1/spaces/{space}`, one `Resource` (a route collection) a function; the invites, device
/// requests, drafts and competitions have theirs beside their handlers. `resources()` lists them, `router()` mounts
/// each.
extension NodeAPI {
    /// The players: the list, the members, a new player, a player's record, handicap and statistics.
    func playerRoutes() -> Resource {
        let routes = Resource("players")
        listRoute(routes, "players", { try home.rounds.players($0) }, as: Views.player)
        listRoute(routes, "members", { try home.rounds.members(space: $0) }, as: Views.member)
        routes.on("players", method: .post) { request, context in try await addPlayer(request, context) }
        routes.on("players/:player/handicap", method: .get) { _, context in
            let (id, player) = try await spaceParameters(context, "player")
            return Response.json(
                Views.handicap(
                    try await read {
                        let found = try home.handicaps.resolvePlayerAnywhere(player, space: id)
                        return try home.handicaps.handicapRecord(for: found.player, in: found.space)
                    }))
        }
        routes.on("players/:player", method: .patch) { request, context in try await editPlayer(request, context) }
        routes.on("players/:player/stats", method: .get) { _, context in
            let (id, player) = try await spaceParameters(context, "player")
            return Response.json(
                Views.statistics(
                    try await read {
                        try home.handicaps.statistics(space: id, player: try home.rounds.resolvePlayer(id, player).id)
                    }))
        }
        return routes
    }

    /// The courses: the list, a search by name, those nearby, and one course's card.
    func courseRoutes() -> Resource {
        let routes = Resource("courses")
        listRoute(routes, "courses", { try home.courses.list($0) }, as: Views.course)
        routes.on("courses/search", method: .get) { request, context in try await searchCourses(request, context) }
        routes.on("courses/nearby", method: .get) { request, context in try await nearbyCourses(request, context) }
        routes.on("courses/:course", method: .get) { request, context in
            let id = try await spaceID(context)
            let course = try Self.parameter(context, "course")
            let tee = request.uri.queryParameters.get("tee")
            return Response.json(
                Views.courseCard(
                    try await read {
                        try home.courses.courseCard(space: id, course: try home.courses.resolveCourse(id, course).id, tee: tee)
                    }))
        }
        return routes
    }

    /// The games: the list, a new game, the game in progress, one game, its setup, finishing, deleting and restoring
    /// it, its card (as JSON, CSV and a printable page), its standings and its handicaps.
    func gameRoutes() -> Resource {
        let routes = Resource("games")
        listRoute(routes, "games", { try home.rounds.games($0) }, as: Views.game)
        routes.on("games", method: .post) { request, context in try await newGame(request, context) }
        routes.on("games/current", method: .get) { _, context in
            let id = try await spaceID(context)
            let games = try await read { try home.rounds.games(id) }.filter { !$0.finished }
            guard let game = games.max(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) else {
                throw APIError.notFound("no game is in progress in this space: start one with POST /v1/spaces/{space}/games")
            }
            return Response.json(Views.game(game))
        }
        routes.on("games/:game", method: .get) { _, context in
            let (id, game) = try await gameParameters(context)
            return Response.json(Views.game(try await read { try home.rounds.resolveGame(id, game) }))
        }
        routes.on("games/:game/finish", method: .post) { _, context in try await setFinished(context, true) }
        routes.on("games/:game/reopen", method: .post) { _, context in try await setFinished(context, false) }
        routes.on("games/:game/card", method: .get) { request, context in
            let (id, game) = try await gameParameters(context)
            let allowance = try intQuery(request, "allowance", default: 95, range: 1...100)
            return Response.json(
                try await read {
                    let card = try home.rounds.card(space: id, game: try home.rounds.resolveGame(id, game).id)
                    return Views.card(
                        card, net: try home.handicaps.playingHandicap(card: card, space: id, allowancePercent: allowance))
                })
        }
        // `games/current` is a read-only alias: a change must name the game it changes.
        for method in ["PATCH", "DELETE"] {
            let refuse: @Sendable (Request, BasicRequestContext) async throws -> Response = { _, _ in
                throw APIError.badRequest(
                    "'current' only reads the game in progress: \(method) needs the game's id "
                        + "(GET .../games/current gives it)")
            }
            if method == "PATCH" {
                routes.on("games/current", method: .patch, use: refuse)
            } else {
                routes.on("games/current", method: .delete, use: refuse)
            }
        }
        routes.on("games/:game", method: .patch) { request, context in try await setupGame(request, context) }
        routes.on("games/:game", method: .delete) { request, context in try await deleteGame(request, context, restore: false) }
        routes.on("games/:game/restore", method: .post) { request, context in
            try await deleteGame(request, context, restore: true)
        }
        routes.on("games/:game/standings", method: .get) { _, context in
            let (id, game) = try await gameParameters(context)
            return Response.json(
                Views.standings(
                    try await read { try home.handicaps.standings(space: id, game: try home.rounds.resolveGame(id, game).id) }))
        }
        routes.on("games/:game/card.csv", method: .get) { _, context in try await printable(context, html: false) }
        routes.on("games/:game/card.html", method: .get) { _, context in try await printable(context, html: true) }
        routes.on("games/:game/handicaps", method: .get) { request, context in try await handicaps(request, context) }
        return routes
    }

    /// What is entered and what it left: a score, a phone's admission and signed ops, an attestation, a cell's
    /// history and the audit log.
    func entryRoutes() -> Resource {
        let routes = Resource("entries")
        routes.on("games/:game/scores", method: .post) { request, context in try await enterScore(request, context) }
        routes.on("admissions", method: .post) { request, context in try await admit(request, context) }
        routes.on("ops", method: .post) { request, context in try await receiveOps(request, context) }
        routes.on("games/:game/attestations", method: .post) { request, context in try await attest(request, context) }
        routes.on("games/:game/history", method: .get) { request, context in
            let (id, game) = try await gameParameters(context)
            guard let player = request.uri.queryParameters.get("player") else {
                throw APIError.badRequest("give the player: ?player=ID or name, with &hole=N")
            }
            let hole = try intQuery(request, "hole", default: nil, range: 1...36)
            return Response.json(
                .array(
                    try await read {
                        try home.audit.history(
                            space: id, game: try home.rounds.resolveGame(id, game).id,
                            player: try home.rounds.resolvePlayer(id, player).id, hole: hole)
                    }
                    .map(Views.history)))
        }
        routes.on("log", method: .get) { request, context in
            let id = try await spaceID(context)
            let game = request.uri.queryParameters.get("game")
            return Response.json(
                .array(
                    try await read {
                        try home.audit.auditLog(
                            space: id, game: try game.map { text throws(NodeError) in try home.rounds.resolveGame(id, text).id })
                    }.map(Views.audit)))
        }
        return routes
    }

    /// Guidance: from a position, for a hole, and the pack a phone guides from with no node.
    func guidanceRoutes() -> Resource {
        let routes = Resource("guidance")
        routes.on("guidance", method: .post) { request, context in try await guidance(request, context) }
        routes.on("guidance/hole", method: .post) { request, context in try await holeGuidance(request, context) }
        routes.on("games/:game/guidance-pack", method: .get) { _, context in try await guidancePack(context) }
        return routes
    }
}
