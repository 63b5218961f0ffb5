import CaddieCore
import CaddieNode
import Foundation
import Hummingbird

/// New players and games for a phone that signs them itself: the node checks the request as it would for its own
/// write (a name taken, a tee the course lacks, a marker who does not play) and answers with the payload of the op
/// that makes the record (Protocol/op-format.md), unsigned. It keeps nothing and signs nothing; the phone checks the
/// payload holds only the record it asked for, signs it with its own device and sends it with the ops it signs.
extension NodeAPI {
    struct PlayerDraft: Decodable {
        let name: String
        let index: Double?
        /// The user who is this player (64 hex digits): a member of the space, usually the phone's own user.
        let user: String?
        /// The new player's id (16 hex digits), chosen by the phone so that it knows the record it signs is new.
        let player: String?
    }

    /// An id a phone chose for its new record: 16 hex digits, or the node picks one.
    static func chosenID(_ text: String?, _ field: String) throws -> EntityID? {
        try text.map { text in
            guard let bytes = Hex.decode(text), bytes.count == EntityID.length else {
                throw APIError.badRequest("'\(field)' must be 16 hex digits (an id the phone chose for the new record)")
            }
            return EntityID(unchecked: bytes)
        }
    }

    func draftRoutes() -> Resource {
        let routes = Resource("drafts")
        routes.on("player-drafts", method: .post) { request, context in try await draftPlayer(request, context) }
        routes.on("game-drafts", method: .post) { request, context in try await draftGame(request, context) }
        routes.on("player-claims", method: .post) { request, context in try await claimPlayer(request, context) }
        return routes
    }

    struct PlayerClaim: Decodable {
        /// The player the phone's user is (16 hex digits).
        let player: String
        /// The phone's user (64 hex digits).
        let user: String
    }

    /// POST /v1/spaces/{space}/player-claims: `{player, payload}`, the change that links the player to the phone's
    /// user (a check-in), or a null payload when the player is that user's already.
    func claimPlayer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: PlayerClaim.self)
        guard let user = PublicKey(hex: body.user) else {
            throw APIError.badRequest("'user' must be 64 hex digits (the user key of the phone checking in)")
        }
        guard let player = try Self.chosenID(body.player, "player") else { throw APIError.badRequest("give 'player'") }
        let home = home
        let changes = try await read { try home.rounds.claimChanges(space: id, player: PlayerID(player), user: user) }
        guard !changes.isEmpty else { return Response.json(.object([("player", .string(body.player)), ("payload", .null)])) }
        return Self.draft("player", player.hex, changes)
    }

    /// POST /v1/spaces/{space}/player-drafts: `{player, payload}` for a new player.
    func draftPlayer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: PlayerDraft.self)
        let user = try body.user.map { text in
            guard let key = PublicKey(hex: text) else {
                throw APIError.badRequest("'user' must be 64 hex digits (the user key of a member of this space)")
            }
            return key
        }
        let given = try Self.chosenID(body.player, "player")
        let home = home
        let (player, changes) = try await read {
            if let user, try home.rounds.memberName(space: id, user: user) == nil {
                throw APIError.badRequest(
                    "'user' \(user.short) is not a member of this space: a player is linked to a user who has joined it")
            }
            return try home.rounds.addPlayerChanges(
                space: id, name: body.name, user: user, handicapIndex: body.index, id: given.map { PlayerID($0) })
        }
        return Self.draft("player", player.hex, changes)
    }

    /// POST /v1/spaces/{space}/game-drafts: `{game, payload}` for a new game, from the body POST .../games takes.
    func draftGame(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: NewGame.self)
        let given = try Self.chosenID(body.game, "game")
        let home = home
        let (game, changes) = try await read {
            var setup = body.setup.setup
            setup.tee = nil
            return try home.rounds.newGameChanges(
                space: id, course: try home.courses.resolveCourse(id, body.course).id, tee: body.tee,
                players: try home.rounds.resolvePlayers(id, body.players),
                markers: try home.rounds.resolveMarkers(id, (body.markers ?? []).map { ($0.player, $0.marker) }),
                setup: try home.rounds.resolve(setup, in: id), id: given.map { GameID($0) })
        }
        return Self.draft("game", game.hex, changes)
    }

    /// The answer to a draft: the new record's id and the unsigned payload that makes it, as hex.
    static func draft(_ kind: String, _ id: String, _ changes: [Change]) -> Response {
        Response.json(.object([(kind, .string(id)), ("payload", .string(Hex.encode(Payload.encode(changes))))]))
    }
}
