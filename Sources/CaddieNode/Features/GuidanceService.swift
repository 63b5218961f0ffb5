import CaddieCore
import CaddieServices
import Foundation

/// A guidance target on a hole, with the green's outline when known (inside it counts as arrived).
public struct HoleTarget: Sendable {
    /// The course.
    public let course: CourseRecord
    /// The hole number.
    public let hole: Int
    /// What to guide to.
    public let target: GuidanceTarget
    /// The green's outline, for arrival.
    public let green: GeoPolygon?
}

/// Hole targets for guidance, the current hole, and the round's track.
public struct GuidanceService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any CourseStore { home.store }
}

extension GuidanceService {
    static func geo(_ point: CoursePoint?) -> GeoPoint? {
        point.flatMap { try? GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// Every target of a hole the course data has, in the order guidance lists them: the green's centre (with its
    /// front and back), the front, the back, then each layup point and hazard.
    public func holeTargets(course: CourseRecord, hole number: Int) -> [HoleTarget] {
        guard let hole = course.hole(number) else { return [] }
        let names = ["green", "front", "back"] + hole.layups.map(\.name) + hole.hazards.map(\.name)
        return names.compactMap { try? holeTarget(course: course, hole: number, target: $0) }
    }

    /// The target on a hole: the green's centre (default), front or back, or a named layup point or hazard.
    public func holeTarget(
        space: SpaceID, course: CourseID, hole number: Int, target name: String?
    )
        throws(NodeError) -> HoleTarget
    {
        try holeTarget(course: try courses.course(space, course), hole: number, target: name)
    }

    public func holeTarget(course: CourseRecord, hole number: Int, target name: String?) throws(NodeError) -> HoleTarget {
        guard let hole = course.hole(number) else {
            throw .notFound("course \(course.name) has no hole \(number): it has holes 1...\(course.holes.count)")
        }
        let green = hole.green
        let outline = green.outline.flatMap { shape in
            try? GeoPolygon(vertices: shape.points.compactMap { Self.geo($0) })
        }
        // The centre as mapped, else the last point of the hole's line of play (which ends on the green).
        let centre = Self.geo(green.centre) ?? Self.geo(hole.line?.points.last)
        let wanted = (name ?? "green").lowercased()
        let target: GuidanceTarget
        switch wanted {
        case "green", "centre", "center":
            guard let centre else { throw .notFound("hole \(number) of \(course.name) has no green position in the course data") }
            target = GuidanceTarget(
                kind: .greenCentre, point: centre, greenFront: Self.geo(green.front),
                greenBack: Self.geo(green.back))
        case "front", "back":
            guard let point = Self.geo(wanted == "front" ? green.front : green.back) else {
                throw .notFound("hole \(number) of \(course.name) has no green \(wanted) in the course data")
            }
            target = GuidanceTarget(kind: wanted == "front" ? .greenFront : .greenBack, point: point)
        default:
            if let layup = hole.layups.first(where: { $0.name.lowercased() == wanted }), let point = Self.geo(layup.point) {
                target = GuidanceTarget(name: layup.name, kind: .layup, point: point)
            } else if let hazard = hole.hazards.first(where: { $0.name.lowercased() == wanted }),
                let point = Self.nearestPoint(of: hazard.shape)
            {
                target = GuidanceTarget(name: hazard.name, kind: .hazard, point: point)
            } else {
                let known = ["green", "front", "back"] + hole.layups.map(\.name) + hole.hazards.map(\.name)
                throw .notFound("hole \(number) has no target '\(name ?? "")'; known: " + known.joined(separator: ", "))
            }
        }
        return HoleTarget(course: course, hole: number, target: target, green: outline)
    }

    static func nearestPoint(of shape: CourseShape) -> GeoPoint? {
        // A hazard outline's centroid is a fair single point to announce.
        let points = shape.points
        guard !points.isEmpty else { return nil }
        return try? GeoPoint(
            latitude: points.map(\.latitude).reduce(0, +) / Double(points.count),
            longitude: points.map(\.longitude).reduce(0, +) / Double(points.count))
    }

    /// The target a guidance request names, as typed: on the hole a player is on in a game (`game` and `player`),
    /// else on a course's hole (`course` and `hole`); nil when neither pair is given. Only the pair that is used is
    /// resolved. The CLI and the API both ask here: this is where their guidance input reaches the node's ids.
    public func holeTarget(
        space: SpaceID, game: String?, player: String?, course: String?, hole: Int?, target: String?
    ) throws(NodeError) -> HoleTarget? {
        if let game, let player {
            let current = try currentHole(
                space: space, game: try rounds.resolveGame(space, game).id, player: try rounds.resolvePlayer(space, player).id)
            return try holeTarget(course: current.course, hole: current.hole, target: target)
        }
        guard let course, let hole else { return nil }
        return try holeTarget(course: try courses.resolveCourse(space, course), hole: hole, target: target)
    }

    /// The hole a player is on in a game: the first hole with no score for them (the last hole when all have one).
    public func currentHole(
        space: SpaceID, game: GameID, player: PlayerID
    )
        throws(NodeError) -> (course: CourseRecord, hole: Int)
    {
        let card = try rounds.card(space: space, game: game)
        let player = try rounds.player(space, player)
        guard card.players.contains(where: { $0.id == player.id }) else {
            throw .conflict("\(player.name) is not playing in game \(card.game.id.short)")
        }
        guard let course = card.course else { throw .notFound("the course of game \(card.game.id.short) has not arrived yet") }
        let hole = (1...card.holeCount).first { card.cell(player.id, $0)?.winner == nil } ?? card.holeCount
        return (course, hole)
    }
}
