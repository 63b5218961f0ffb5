import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

struct Guide: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guide",
        abstract: "Where is the target from here: distance, direction and a spoken-style callout.",
        discussion: """
            caddie guide --from LAT,LON --to LAT,LON [--heading DEG]        (a calculation: no home needed)
            caddie guide --course ID --hole N --lat LAT --lon LON [--target green|front|back|NAME]
            caddie guide --game ID --player ID --lat LAT --lon LON          (the player's current hole)
            caddie guide --gpx FILE --course ID --hole N                    (replay a track's callouts)
            """)
    @OptionGroup var options: Reporting<SpaceOptions>
    @Option(parsing: .unconditional, help: "Position, LAT,LON (south and west negative).") var from: String?
    @Option(parsing: .unconditional, help: "Target, LAT,LON (south and west negative).") var to: String?
    @Option(help: "Course (id, id prefix or name).") var course: String?
    @Option(help: "Hole number.") var hole: Int?
    @Option(help: "Game (with --player).") var game: String?
    @Option(help: "Player (with --game).") var player: String?
    @Option(parsing: .unconditional, help: "Latitude, degrees.", transform: decimal) var lat: Double?
    @Option(parsing: .unconditional, help: "Longitude, degrees.", transform: decimal) var lon: Double?
    @Option(help: "green (default), front, back, or a layup or hazard name.") var target: String?
    @Option(parsing: .unconditional, help: "Heading, degrees clockwise from north.", transform: decimal) var heading: Double?
    @Option(help: "Where the heading comes from: head, compass or course (over ground).") var headingSource = "compass"
    @Option(help: "A GPX track to replay.") var gpx: String?
    @Flag(help: "Metres instead of yards.") var metres = false
    @Flag(help: "Competition mode (Rules of Golf 4.3a): distance and direction only.") var competition = false

    /// The position `LAT,LON` given as `option` (`--from` or `--to`).
    static func point(_ text: String, _ option: NodeError.Input) throws -> GeoPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { PlainDecimal.parse($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
            throw NodeError.badInput(
                option,
                "must be LAT,LON in decimal degrees, south and west negative, "
                    + "e.g. -37.951,144.425 or 36.5686,-121.9499; got '\(text)'")
        }
        return try position(lat, lon, in: option)
    }

    /// A position from `--lat` and `--lon`, or from the one `option` that gave both (`--from`); an error names it.
    static func position(_ lat: Double, _ lon: Double, in option: NodeError.Input? = nil) throws -> GeoPoint {
        do {
            return try GeoPoint(latitude: lat, longitude: lon)
        } catch .invalidLatitude(let value) {
            throw NodeError.badInput(
                option ?? .latitude,
                "\(option == nil ? "" : "latitude ")\(value) is not valid: give decimal degrees from -90 to 90")
        } catch .invalidLongitude(let value) {
            throw NodeError.badInput(
                option ?? .longitude,
                "\(option == nil ? "" : "longitude ")\(value) is not valid: give decimal degrees from -180 to 180")
        } catch {
            throw NodeError.badInput(option ?? .latitude, "is not a position: \(error)")
        }
    }

    var settings: GuidanceSettings { GuidanceSettings(unit: metres ? .metres : .yards, competitionMode: competition) }

    func input(_ position: GeoPoint) throws -> GuidanceInput {
        guard let heading else { return GuidanceInput(position: position, headings: []) }
        guard let source = HeadingSource(name: headingSource) else {
            throw NodeError.badInput(.headingSource, "is head, compass or course, not '\(headingSource)'")
        }
        do {
            return GuidanceInput(position: position, heading: try HeadingReading(degrees: heading, source: source))
        } catch {
            throw NodeError.badInput(
                .heading, "\(heading) is not valid: give a finite number of degrees clockwise from true north")
        }
    }

    func run() async throws {
        try await guarded {
            if let from, let to {
                let guidance = Guidance(
                    from: try input(try Self.point(from, .from)),
                    to: GuidanceTarget(kind: .other, point: try Self.point(to, .to)), settings: settings)
                return print(guidance, hole: nil)
            }
            let (home, space) = try options.open()
            if let gpx {
                guard let course, let hole else { throw NodeError.badInput(.gpx, "needs --course ID --hole N") }
                guard let data = FileManager.default.contents(atPath: gpx) else { throw NodeError.file("cannot read \(gpx)") }
                let track: [TrackPoint]
                do {
                    track = try GPXParser.parse(data)
                } catch {
                    throw NodeError.malformed(what: "GPX track", "\(error)")
                }
                let goal = try home.guidance.holeTarget(
                    space: space, course: try home.courses.resolveCourse(space, course).id, hole: hole, target: target)
                let callouts = CalloutThrottle.replay(track, to: goal.target, settings: settings, area: goal.green)
                // On arrival at a green, the next hole's tee is suggested.
                func text(_ callout: Callout) -> String {
                    guard callout.kind == .arrival, goal.target.kind == .greenCentre,
                        let point = track.indices.contains(callout.fixIndex) ? track[callout.fixIndex].point : nil,
                        let next = home.guidance.nextTee(
                            space: space, course: goal.course, after: hole, from: point, settings: settings)
                    else { return callout.text }
                    return callout.text + " " + next
                }
                if options.json {
                    Console.json(
                        .array(
                            callouts.map {
                                .object([
                                    ("fix", .int($0.fixIndex)),
                                    ("time", .optional($0.time.map { ISO8601DateFormatter().string(from: $0) })),
                                    ("kind", .string($0.kind.rawValue)), ("callout", .string(text($0))),
                                    ("distanceMeters", .double(($0.guidance.distance * 10).rounded() / 10)),
                                ])
                            }))
                } else {
                    for callout in callouts {
                        let stamp = callout.time.map { ISO8601DateFormatter().string(from: $0) } ?? "fix \(callout.fixIndex)"
                        Console.print("\(stamp)  \(text(callout))")
                    }
                }
                return
            }
            guard let lat, let lon else {
                throw NodeError.badInput(
                    lat == nil ? .latitude : .longitude,
                    "is missing: give --from and --to, or --lat and --lon with --course/--hole or --game/--player")
            }
            let position = try Self.position(lat, lon)
            guard
                let goal = try home.guidance.holeTarget(
                    space: space, game: game, player: player, course: course, hole: hole, target: target)
            else {
                throw NodeError.badInput(.destination, "is needed to say where to")
            }
            print(Guidance(from: try input(position), to: goal.target, settings: settings), hole: goal.hole)
        }
    }

    func print(_ guidance: Guidance, hole: Int?) {
        options.show(
            Views.guidance(guidance, hole: hole), text: (hole.map { "Hole \($0): " } ?? "") + guidance.callout)
    }
}
