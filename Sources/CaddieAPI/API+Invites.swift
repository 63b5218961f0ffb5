import CaddieCodes
import CaddieCore
import CaddieNode
import Foundation
import Hummingbird

/// Invites made at this node, for the web app's "Invite a player" screen: the same tickets as
/// `caddie space invite`, redeemed at this node (docs/identity-and-spaces.md, "Invites").
extension NodeAPI {
    struct NewInvite: Decodable {
        let uses: Int?
        let expiresInSeconds: Int?
    }

    func inviteRoutes() -> Resource {
        let routes = Resource("invites")
        routes.on("invites", method: .get) { _, context in
            let id = try await spaceID(context)
            let home = home
            return Response.json(.array(try await read { try home.spaces.invites(space: id) }.map(Self.invite)))
        }
        routes.on("invites", method: .post) { request, context in try await makeInvite(request, context) }
        routes.on("invites/:invite/revoke", method: .post) { _, context in
            let id = try await spaceID(context)
            let text = try Self.parameter(context, "invite")
            let (home, keys) = (home, keys)
            let revoked = try await write { () throws -> InviteSummary? in
                let invite = try home.execute(.revokeInvite(text, space: id), keys: keys).revokedInvite()
                return try home.spaces.invites(space: id).first { $0.id == invite }
            }
            guard let revoked else { throw APIError(status: .notFound, code: "not_found", message: "no such invite") }
            return Response.json(Self.invite(revoked))
        }
        return routes
    }

    func makeInvite(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: NewInvite.self)
        let (home, keys) = (home, keys)
        let text = try await write {
            try home.execute(
                .createInvite(
                    space: id, uses: body.uses ?? 1, seconds: body.expiresInSeconds ?? SpaceService.defaultInviteSeconds),
                keys: keys
            ).madeInvite()
        }
        let ticket: InviteTicket
        do { ticket = try InviteTicket(parsing: text) } catch { throw NodeError.wrap(error) }
        return Response.json(
            .object([
                ("id", .string(ticket.id.hex)), ("invite", .string(ticket.text)), ("uses", .int(body.uses ?? 1)),
                ("expiresAt", .int(Int(ticket.expiresAt))), ("qr", QRCode.svg(ticket.text).map { .string($0) } ?? .null),
            ]), status: .created)
    }

    static func invite(_ summary: InviteSummary) -> JSON {
        .object([
            ("id", .string(summary.id.hex)), ("uses", .int(summary.uses)), ("used", .int(summary.used)),
            ("createdAt", .int(Int(summary.createdAt))), ("expiresAt", .int(Int(summary.expiresAt))),
            ("state", .string(summary.state)), ("admitted", .array(summary.admitted.map { .string($0) })),
        ])
    }
}
