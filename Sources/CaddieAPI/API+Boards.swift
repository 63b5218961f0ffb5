import CaddieCore
import CaddieNode
import Foundation
import Hummingbird
import NIOCore

/// A competition's public board (docs/competitions.md): the page a clubhouse TV or a spectator's phone opens, its
/// JSON and its live stream, with no sign-in, for a competition whose committee made the board public
/// (`caddie competition public COMPETITION on`). Anything else (a private board, an unknown space or competition,
/// an id that is not one) is answered with the same 404, so that a stranger learns nothing of what exists.
extension NodeAPI {
    func addPublicBoards(to router: Router<BasicRequestContext>, table: RouteTable) {
        let page = "/board/:space/:competition"
        router.on(RouterPath(page), method: .get) { request, context in
            // The page itself holds no data; a board that is not public still gets it, with a 404, so the person who
            // opened it reads why (the page asks for the board and shows the answer's words).
            let open = (try? await publicBoardKey(context)) != nil
            return WebApp.serve("/board.html", status: open ? .ok : .notFound, for: request)
        }
        table.add(page, .get)
        router.on(RouterPath(page + "/board.json"), method: .get) { _, context in
            let key = try await publicBoardKey(context)
            let board = try await read {
                try home.competitions.board(space: key.space, competition: key.competition, publicView: true)
            }
            var fresh = Views.PublicBoardSent()
            _ = fresh.take(board, space: key.space)
            return Response.json(fresh.whole(space: key.space) ?? .null)
        }
        table.add(page + "/board.json", .get)
        router.on(RouterPath(page + "/events"), method: .get) { _, context in
            let key = try await publicBoardKey(context)
            let hub = hub
            // Refused before the stream starts when the node holds as many board streams as it takes (one that
            // arrives meanwhile is ended at once).
            guard hub.boardWatcherCount < EventHub.maxBoardWatchers else {
                throw APIError(
                    status: .serviceUnavailable, code: "busy",
                    message: "this node shows the board to \(EventHub.maxBoardWatchers) screens already: try again later")
            }
            return eventStream { hub.watchBoard(space: key.space, competition: key.competition) }
        }
        table.add(page + "/events", .get)
    }

    /// The public board a request names: exact ids, the space held here, the competition public; else the 404.
    func publicBoardKey(_ context: BasicRequestContext) async throws -> EventHub.BoardKey {
        guard let space = SpaceID(hex: try Self.parameter(context, "space")),
            let competition = CompetitionID(hex: try Self.parameter(context, "competition"))
        else { throw CompetitionService.notPublic }
        let open = (try? await read { try home.competitions.competition(space, competition).publicBoard }) ?? false
        guard open else { throw CompetitionService.notPublic }
        return EventHub.BoardKey(space: space, competition: competition)
    }
}
