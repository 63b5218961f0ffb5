import CaddieCore
import CaddieNode
import CaddieServices
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The API's reads that take parameters: course search, nearby courses, handicaps and guidance.
extension NodeAPI {
    func searchCourses(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        guard let text = request.uri.queryParameters.get("q"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.badRequest("give what to look for: ?q=NAME, CLUB or CITY")
        }
        let limit = try intQuery(request, "limit", default: 20, range: 1...200)
        return Response.json(
            .array(
                try await read { try home.courses.searchCourses(space: id, text: String(text), limit: limit) }
                    .map(Views.searchResult)))
    }

    func nearbyCourses(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        guard let lat = try doubleQuery(request, "lat"), let lon = try doubleQuery(request, "lon") else {
            throw APIError.badRequest("give the position: ?lat=DEGREES&lon=DEGREES")
        }
        let radius = try doubleQuery(request, "radiusKm") ?? 25
        return Response.json(
            .array(
                try await read {
                    try home.courses.nearbyCourses(space: id, latitude: lat, longitude: lon, radiusKilometres: radius)
                }.map(Views.nearby)))
    }

    func handicaps(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let allowance = try intQuery(request, "allowance", default: 95, range: 1...100)
        return Response.json(
            try await read {
                let card = try home.rounds.card(space: id, game: try home.rounds.resolveGame(id, game).id)
                let net = try home.handicaps.playingHandicap(card: card, space: id, allowancePercent: allowance)
                return .array(
                    card.players.map { player in
                        .object([
                            ("player", .string(player.id.hex)), ("name", .string(player.name)),
                            ("courseHandicap", .optional(net[player.id]?.courseHandicap)),
                            ("playingHandicap", .optional(net[player.id]?.playingHandicap)),
                            ("index", .optional(net[player.id]?.indexUsed)),
                            ("indexSource", .optional(net[player.id]?.indexSource.rawValue)),
                            ("allowance", .int(allowance)),
                        ])
                    })
            })
    }

    /// Where a golfer stands and faces, and how they want distances: what every guidance request carries.
    protocol GuidanceFix: Decodable {
        var latitude: Double { get }
        var longitude: Double { get }
        var heading: Double? { get }
        var headingSource: String? { get }
        var metres: Bool? { get }
        var competition: Bool? { get }
    }

    struct GuidanceRequest: GuidanceFix {
        let latitude: Double
        let longitude: Double
        let heading: Double?
        let headingSource: String?
        let course: String?
        let hole: Int?
        let target: String?
        let game: String?
        let player: String?
        let to: Point?
        let metres: Bool?
        let competition: Bool?
        struct Point: Decodable {
            let latitude: Double
            let longitude: Double
        }
    }

    func guidance(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: GuidanceRequest.self)
        let (_, input) = try Self.guidanceInput(body)
        let settings = Self.guidanceSettings(body)
        if let to = body.to {
            let point: GeoPoint
            do { point = try GeoPoint(latitude: to.latitude, longitude: to.longitude) } catch {
                throw APIError.badRequest("to: \(error)")
            }
            return Response.json(
                Views.guidance(
                    Guidance(from: input, to: GuidanceTarget(kind: .other, point: point), settings: settings),
                    hole: nil))
        }
        let goal: HoleTarget = try await read {
            guard
                let goal = try home.guidance.holeTarget(
                    space: id, game: body.game, player: body.player, course: body.course, hole: body.hole,
                    target: body.target)
            else {
                throw NodeError.badInput(.destination, "is needed to say where to")
            }
            return goal
        }
        return Response.json(Views.guidance(Guidance(from: input, to: goal.target, settings: settings), hole: goal.hole))
    }

    /// The units and mode a guidance request asks for.
    static func guidanceSettings(_ fix: some GuidanceFix) -> GuidanceSettings {
        GuidanceSettings(unit: fix.metres == true ? .metres : .yards, competitionMode: fix.competition == true)
    }

    /// A request's position and optional heading as guidance input; 400 for values out of range.
    static func guidanceInput(_ fix: some GuidanceFix) throws -> (GeoPoint, GuidanceInput) {
        let (heading, headingSource) = (fix.heading, fix.headingSource)
        let position: GeoPoint
        do { position = try GeoPoint(latitude: fix.latitude, longitude: fix.longitude) } catch {
            throw APIError.badRequest("\(error)")
        }
        guard let heading else { return (position, GuidanceInput(position: position, headings: [])) }
        guard let source = HeadingSource(name: headingSource ?? "compass") else {
            throw APIError.badRequest("headingSource is head, compass or course, not '\(headingSource ?? "")'")
        }
        do {
            return (position, GuidanceInput(position: position, heading: try HeadingReading(degrees: heading, source: source)))
        } catch {
            throw APIError.badRequest(error.description)
        }
    }

    struct HoleGuidanceRequest: GuidanceFix {
        let latitude: Double
        let longitude: Double
        let heading: Double?
        let headingSource: String?
        let game: String
        let player: String
        let metres: Bool?
        let competition: Bool?
    }

    /// Guidance to every target of the hole a player is on: the green's centre, front and back, then each layup
    /// and hazard the course data has, and whether the player is on the green (inside its outline, else within
    /// the arrival radius of its centre), which the web app uses to ask for the hole's scores.
    func holeGuidance(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: HoleGuidanceRequest.self)
        let (position, input) = try Self.guidanceInput(body)
        let settings = Self.guidanceSettings(body)
        let home = home
        let (course, number, targets): (CourseRecord, Int, [HoleTarget]) = try await read {
            let current = try home.guidance.currentHole(
                space: id, game: try home.rounds.resolveGame(id, body.game).id,
                player: try home.rounds.resolvePlayer(id, body.player).id)
            guard current.course.hole(current.hole) != nil else {
                throw NodeError.notFound("course \(current.course.name) has no hole \(current.hole)")
            }
            return (current.course, current.hole, home.guidance.holeTargets(course: current.course, hole: current.hole))
        }
        guard let centre = targets.first(where: { $0.target.kind == .greenCentre }) else {
            throw NodeError.notFound(
                "hole \(number) of \(course.name) has no green position in the course data: "
                    + "import its OpenStreetMap geometry (caddie course import FILE)")
        }
        let onGreen =
            centre.green?.contains(position)
            ?? (Geodesy.distance(from: position, to: centre.target.point) <= ArrivalSettings.standard.enterRadius)
        return Response.json(
            .object([
                ("hole", .int(number)), ("course", .string(course.name)), ("par", .optional(course.hole(number)?.par(tee: nil))),
                ("onGreen", .bool(onGreen)),
                (
                    "targets",
                    .array(targets.map { Views.guidance(Guidance(from: input, to: $0.target, settings: settings), hole: number) })
                ),
            ]))
    }

    /// GET /v1/spaces/{space}/games/{game}/guidance-pack: every hole's targets (as POST .../guidance/hole guides to
    /// them: the green's centre with its front and back, the front, the back, each layup and hazard) and the green's
    /// outline, for the phone to keep and guide from while no node answers (Web/guide.js).
    func guidancePack(_ context: BasicRequestContext) async throws -> Response {
        let (id, game) = try await gameParameters(context)
        let home = home
        let (course, holes): (CourseRecord, [(Int, Int?, [HoleTarget])]) = try await read {
            let card = try home.rounds.card(space: id, game: try home.rounds.resolveGame(id, game).id)
            guard let course = card.course else {
                throw NodeError.notFound("the course of game \(card.game.id.short) has not arrived yet")
            }
            return (
                course,
                course.holes.map { hole in
                    (hole.number, hole.par(tee: nil), home.guidance.holeTargets(course: course, hole: hole.number))
                }
            )
        }
        func point(_ point: GeoPoint) -> JSON {
            .object([("latitude", .double(point.latitude)), ("longitude", .double(point.longitude))])
        }
        let shown: [JSON] = holes.map { number, par, targets in
            let outline = targets.lazy.compactMap(\.green).first
            return .object([
                ("hole", .int(number)), ("par", .optional(par)),
                (
                    "green",
                    outline.map { .array($0.vertices.map { .array([.double($0.latitude), .double($0.longitude)]) }) } ?? .null
                ),
                (
                    "targets",
                    .array(
                        targets.map { found in
                            let target = found.target
                            return .object([
                                ("name", .string(target.name)), ("kind", .string(target.kind.rawValue)),
                                ("latitude", .double(target.point.latitude)), ("longitude", .double(target.point.longitude)),
                                ("front", target.greenFront.map(point) ?? .null), ("back", target.greenBack.map(point) ?? .null),
                            ])
                        })
                ),
            ])
        }
        return Response.json(.object([("course", .string(course.name)), ("holes", .array(shown))]))
    }
}
