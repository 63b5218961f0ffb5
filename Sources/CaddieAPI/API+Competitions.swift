import CaddieCore
import CaddieNode
import CaddieServices
import Foundation
import Hummingbird

/// The committee's writes, before the day and on it, as the CLI's `caddie competition new/entries/draw/mark/correct/
/// public/close/committee` make them: each the same `NodeCommand`, checked by the node as its own (only the committee
/// runs them), answered with the competition's draw as it then stands (a new competition with its record).
extension NodeAPI {
    struct NewCompetition: Decodable {
        let name: String
        let scoring: String?
        let countback: String?
        let allowance: Int?
        let divisions: [Int]?
        let twosByDivision: Bool?
    }

    struct CompetitionEntries: Decodable {
        /// The entry list as the text of a CSV file: name,index,tee and optionally division,club.
        let csv: String
    }

    struct CompetitionDraw: Decodable {
        let course: String
        let size: Int?
        let first: String?
        let interval: Int?
        let twoTees: Bool?
        let shotgun: Bool?
        let order: String?
    }

    struct CompetitionMark: Decodable {
        let player: String
        /// `nr`, `dq` or `clear`.
        let mark: String
    }

    struct CompetitionCorrection: Decodable {
        let player: String
        let hole: Int
        let strokes: Int?
        let pickUp: Bool?
        let reason: String
    }

    struct CompetitionAccess: Decodable {
        let `public`: Bool
        let hideLast: Int?
    }

    struct CompetitionCommittee: Decodable {
        /// The member: a name, or the start of their user key.
        let member: String
        let on: Bool
    }

    struct CompetitionClose: Decodable {
        let reopen: Bool?
    }

    func competitionRoutes() -> Resource {
        let routes = Resource("competitions")
        listRoute(routes, "competitions", { try home.competitions.competitions($0) }, as: Views.competition)
        // A competition's draw and board: read as the CLI reads them, the competition named as typed.
        for (path, view) in [
            (
                "draw",
                { @Sendable (home: Home, space: SpaceID, id: CompetitionID) throws -> JSON in
                    Views.sheet(try home.competitions.sheet(space: space, competition: id))
                }
            ),
            (
                "board",
                { @Sendable (home: Home, space: SpaceID, id: CompetitionID) throws -> JSON in
                    Views.board(try home.competitions.board(space: space, competition: id))
                }
            ),
        ] {
            routes.on("competitions/:competition/\(path)", method: .get) { _, context in
                let (id, competition) = try await spaceParameters(context, "competition")
                return Response.json(
                    try await read { try view(home, id, try home.competitions.resolveCompetition(id, competition).id) })
            }
        }
        routes.on("competitions", method: .post) { request, context in
            let id = try await spaceID(context)
            let body = try await decode(request, as: NewCompetition.self)
            let settings = try CompetitionService.settings(
                scoring: body.scoring ?? "stableford", countback: body.countback ?? "r-and-a",
                allowance: body.allowance ?? 95, divisions: body.divisions ?? [], twosByDivision: body.twosByDivision ?? false)
            let (home, keys) = (home, keys)
            let record = try await write {
                let made = try home.execute(.newCompetition(space: id, name: body.name, settings: settings), keys: keys)
                return try home.competitions.competition(id, try made.createdCompetition())
            }
            return Response.json(Views.competition(record), status: .created)
        }
        routes.on("competitions/:competition/entries", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionEntries.self)
            let list: EntryList
            do { list = try EntryList(csv: body.csv) } catch {
                throw APIError.badRequest("the entry list ('csv') \(error); nothing was imported")
            }
            return try await competitionWrite(context) { _, id, competition in
                .importEntries(space: id, competition: competition, list: list)
            }
        }
        routes.on("competitions/:competition/draw", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionDraw.self)
            let (start, shuffled) = try CompetitionService.drawStart(
                first: body.first ?? "08:00", interval: body.interval ?? 10, twoTees: body.twoTees ?? false,
                shotgun: body.shotgun ?? false, order: body.order ?? "random")
            return try await competitionWrite(context, status: .created) { home, id, competition in
                .draw(
                    space: id, competition: competition, course: try home.courses.resolveCourse(id, body.course).id,
                    size: body.size ?? 4, start: start, shuffled: shuffled)
            }
        }
        addCommitteeRoutes(to: routes)
        return routes
    }

    /// The committee's writes on the day: a player's mark (no return, disqualified), a correction with its reason, the
    /// board's access, the close, and who is on the committee.
    func addCommitteeRoutes(to routes: Resource) {
        routes.on("competitions/:competition/marks", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionMark.self)
            let status = try CompetitionService.mark(body.mark)
            return try await competitionWrite(context) { home, id, competition in
                .setCompetitionStatus(
                    space: id, competition: competition, player: try home.rounds.resolvePlayer(id, body.player).id,
                    status: status)
            }
        }
        routes.on("competitions/:competition/corrections", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionCorrection.self)
            let entry: ScoreEntry
            switch (body.strokes, body.pickUp ?? false) {
            case (nil, true): entry = .pickUp
            case (let strokes?, false):
                do { entry = try ScoreEntry(strokes: strokes) } catch {
                    throw APIError.badRequest("'strokes' is \(strokes): give 1 to 30, or 'pickUp': true")
                }
            default: throw APIError.badRequest("give either 'strokes' (1 to 30) or 'pickUp': true")
            }
            return try await competitionWrite(context, status: .created) { home, id, competition in
                .correctScore(
                    space: id, competition: competition, player: try home.rounds.resolvePlayer(id, body.player).id,
                    hole: body.hole, entry: entry, reason: body.reason)
            }
        }
        routes.on("competitions/:competition/access", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionAccess.self)
            return try await competitionWrite(context) { _, id, competition in
                .setBoardAccess(space: id, competition: competition, isPublic: body.public, hiddenHoles: body.hideLast ?? 0)
            }
        }
        routes.on("competitions/:competition/close", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionClose.self)
            return try await competitionWrite(context) { _, id, competition in
                .setCompetitionClosed(space: id, competition: competition, closed: !(body.reopen ?? false))
            }
        }
        routes.on("competitions/:competition/committee", method: .post) { request, context in
            let body = try await decode(request, as: CompetitionCommittee.self)
            return try await competitionWrite(context) { home, id, competition in
                .setCommittee(
                    space: id, competition: competition, user: try home.competitions.resolveMember(id, body.member).user,
                    on: body.on)
            }
        }
    }

    /// Runs the committee's command `make` builds for the competition the path names, as one write, and answers with
    /// the competition's draw after it (its committee, groups and who has checked in).
    func competitionWrite(
        _ context: BasicRequestContext, status: HTTPResponse.Status = .ok,
        _ make: @escaping @Sendable (Home, SpaceID, CompetitionID) throws -> NodeCommand
    ) async throws -> Response {
        let (id, competition) = try await spaceParameters(context, "competition")
        let (home, keys) = (home, keys)
        let sheet = try await write {
            let record = try home.competitions.resolveCompetition(id, competition)
            _ = try home.execute(try make(home, id, record.id), keys: keys)
            return try home.competitions.sheet(space: id, competition: record.id)
        }
        return Response.json(Views.sheet(sheet), status: status)
    }
}
