import CaddieCore
import Foundation

/// A course read from OpenStreetMap data, ready to be stored (or merged into a known course with
/// ``CourseRecord/merged(with:)``).
public struct OSMImportedCourse: Sendable {
    /// The name to store the course under: `golf:course:name`, else the `leisure=golf_course` name.
    public let suggestedName: String
    /// The facility: the name of the `leisure=golf_course` area that holds the holes, when there is one.
    public let club: String?
    /// Things the import could not use or had to guess, one line each (such as a hole with no way).
    public let warnings: [String]
    /// The course, with a placeholder id until ``record(id:)`` assigns one.
    let course: CourseRecord

    /// The course with its final id.
    public func record(id: CourseID) -> CourseRecord {
        var record = course
        record.id = id
        return record
    }
}

/// Imports golf courses from OpenStreetMap data: GeoJSON (overpass-turbo's export, osmtogeojson), Overpass JSON
/// and OSM XML. Holes come from `golf=hole` ways (first node ≈ tee, last node ≈ green centre), greens from
/// `golf=green` areas, tees from `golf=tee`, hazards from bunkers and water near the line of play
/// (docs/course-format.md, "Importing from OpenStreetMap").
public enum OSMCourseImport: Sendable {
    /// The largest file read.
    public static let maxInputBytes = 64 * 1024 * 1024
    /// The most courses (distinct `golf:course:name` values) one file may yield.
    public static let maxCourses = 50
    /// The most `golf=hole` ways joined into one hole.
    static let maxWaysPerHole = 64
    /// The credit OpenStreetMap's licence requires with anything built from its data.
    public static let attribution = "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)"

    /// The courses in an OpenStreetMap file: one per `golf:course:name` among its holes (one in all when the
    /// holes carry none). Throws a ``CoreError`` with one line saying what is wrong when the file cannot be read
    /// or has no numbered `golf=hole` way; nothing is imported then.
    ///
    /// - Parameter asOf: the extraction date to record when the file does not say (ISO 8601).
    public static func courses(from data: Data, asOf: String? = nil) throws(CoreError) -> [OSMImportedCourse] {
        guard data.count <= maxInputBytes else {
            throw .invalidArgument(
                "the OpenStreetMap file is \(data.count) bytes; at most \(maxInputBytes) are read: "
                    + "export only the course's area"
            )
        }
        let bytes = [UInt8](data)
        guard let first = bytes.first(where: { !(Self.isSpace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }) else {
            throw .malformed("the OpenStreetMap file is empty; export the course from Overpass as GeoJSON or OSM XML")
        }
        let osm: OSMData
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): osm = try OSMJSONReader.read(data)
        case UInt8(ascii: "<"): osm = try OSMXMLParser.read(bytes)
        default:
            throw .malformed(
                "the file is neither GeoJSON nor OSM XML (it starts with neither '{' nor '<'); export "
                    + "the course from overpass-turbo as GeoJSON or from OpenStreetMap as OSM XML"
            )
        }
        return try courses(in: osm, asOf: asOf)
    }

    static func courses(in osm: OSMData, asOf: String?) throws(CoreError) -> [OSMImportedCourse] {
        var groups: [String: [(number: Int, feature: OSMFeature, tags: OSMHoleTags)]] = [:]
        var warnings: [String] = []
        for feature in osm.features where feature.tags["golf"] == "hole" {
            guard case .line(let points) = feature.geometry, points.count >= 2 else { continue }
            let tags = OSMHoleTags(feature.tags)
            guard let number = tags.number, (1...18).contains(number) else {
                let what = tags.number.map { "number \($0)" } ?? "no ref or numeric name"
                warnings.append("ignored golf=hole \(feature.id): \(what) (holes are numbered 1...18)")
                continue
            }
            let key = feature.tags["golf:course:name"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            groups[key, default: []].append((number, feature, tags))
        }
        guard !groups.isEmpty else {
            throw .invalidArgument(
                "the OpenStreetMap data has no golf=hole way with a hole number (ref, or a name "
                    + "like \"7\") among its \(osm.features.count) features; map the holes or "
                    + "export an area that contains them"
            )
        }
        guard groups.count <= maxCourses else {
            throw .invalidArgument(
                "the OpenStreetMap data has holes of \(groups.count) courses (golf:course:name); "
                    + "at most \(maxCourses) are imported at once: export a smaller area"
            )
        }
        if warnings.count > 20 {
            let more = warnings.count - 20
            warnings = Array(warnings.prefix(20)) + ["… and \(more) more golf=hole ways ignored"]
        }
        let date = osm.date ?? asOf
        return groups.keys.sorted().compactMap { key in
            groups[key].map { course(key: key, holes: $0, osm: osm, date: date, warnings: warnings) }
        }
    }

    private static func course(
        key: String,
        holes found: [(number: Int, feature: OSMFeature, tags: OSMHoleTags)],
        osm: OSMData,
        date: String?,
        warnings inherited: [String]
    ) -> OSMImportedCourse {
        var warnings = inherited
        var lines: [(number: Int, points: [CoursePoint])] = []
        var holeTags: [Int: OSMHoleTags] = [:]
        for number in Set(found.map(\.number)).sorted() {
            let ways = found.filter { $0.number == number }
            let (points, warning) = chain(ways.map(\.feature))
            if let warning { warnings.append("hole \(number): \(warning)") }
            lines.append((number, OSMData.thinned(points, limit: CourseFile.maxLinePoints)))
            holeTags[number] = ways.map(\.tags).first { $0.par != nil || $0.strokeIndex != nil } ?? ways[0].tags
        }
        let count = (lines.map(\.number).max() ?? 0) <= 9 ? 9 : 18
        let missing = (1...count).filter { holeTags[$0] == nil }
        if !missing.isEmpty {
            warnings.append(
                "no golf=hole way for hole\(missing.count == 1 ? "" : "s") "
                    + missing.map(String.init).joined(separator: ", ")
            )
        }
        let geometry = OSMCourseGeometry(lines: lines)

        // Greens.
        let greenFeatures = osm.features.filter { $0.tags["golf"] == "green" }
        let greenPolygons = greenFeatures.compactMap { if case .polygon(let ring) = $0.geometry { ring } else { nil } }
        let greenPoints = greenFeatures.compactMap { if case .point(let point) = $0.geometry { point } else { nil } }
        var greens: [Int: (green: CourseRecord.Green, ring: [LocalPlane.Vector]?)] = [:]
        for line in geometry.lines {
            let green = geometry.green(for: line, polygons: greenPolygons, points: greenPoints)
            if green.ring == nil { warnings.append("hole \(line.number): no golf=green near the end of its way") }
            greens[line.number] = green
        }

        // Tees.
        var defaultTees: [Int: [CoursePoint]] = [:]
        var colouredTees: [Int: [String: [CoursePoint]]] = [:]
        var colours = Set(holeTags.values.flatMap(\.colours))
        for feature in osm.features where feature.tags["golf"] == "tee" {
            let isPolygon = if case .polygon = feature.geometry { true } else { false }
            guard let centre = geometry.centre(of: feature.points, isPolygon: isPolygon),
                let number = geometry.hole(forTee: centre)
            else { continue }
            let teeColours = OSMHoleTags.colours(feature.tags["tee"])
            if teeColours.isEmpty { defaultTees[number, default: []].append(centre) }
            for colour in teeColours {
                colouredTees[number, default: [:]][colour, default: []].append(centre)
                colours.insert(colour)
            }
        }

        // Hazards.
        let hazardInputs = osm.features.compactMap { feature -> OSMCourseGeometry.HazardInput? in
            guard let kind = hazardKind(feature.tags) else { return nil }
            let shape: CourseShape? =
                switch feature.geometry {
                case .polygon(let ring): CourseShape(kind: .polygon, points: ring)
                case .point(let point): CourseShape(point: point)
                case .line: nil
                }
            guard let shape else { return nil }
            let name = feature.tags["name"].flatMap { $0.isEmpty || $0.utf8.count > 32 || $0.contains("/") ? nil : $0 }
            return .init(kind: kind, shape: shape, name: name)
        }
        let hazards = geometry.hazards(hazardInputs, greens: greens)

        let teeNames = Dictionary(uniqueKeysWithValues: colours.map { ($0, OSMHoleTags.teeName($0)) })
        let holes = (1...count).map { number -> CourseRecord.Hole in
            guard let tags = holeTags[number], let line = geometry.lines.first(where: { $0.number == number }) else {
                return CourseRecord.Hole(number: number)
            }
            let green = greens[number]?.green ?? CourseRecord.Green()
            let defaultPar = tags.par ?? Self.common(tags.pars)
            let defaultIndex = tags.strokeIndex ?? Self.common(tags.strokeIndexes)
            func named(_ values: [String: Int], except common: Int?) -> [String: Int] {
                var out: [String: Int] = [:]
                for (colour, value) in values where value != common { out[teeNames[colour] ?? colour] = value }
                return out
            }
            var byTee: [String: [CoursePoint]] = [:]
            for (colour, points) in colouredTees[number] ?? [:] {
                byTee[teeNames[colour] ?? colour] = Array(geometry.backToFront(points, target: green.centre).prefix(32))
            }
            var teePositions = geometry.backToFront(defaultTees[number] ?? [], target: green.centre)
            if teePositions.isEmpty, byTee.isEmpty, let first = line.points.first { teePositions = [first] }
            return CourseRecord.Hole(
                number: number,
                par: defaultPar,
                strokeIndex: defaultIndex,
                yards: named(tags.yards, except: nil),
                name: tags.name,
                pars: named(tags.pars, except: defaultPar),
                strokeIndexes: named(tags.strokeIndexes, except: defaultIndex),
                teePositions: Array(teePositions.prefix(32)),
                teePositionsByTee: byTee,
                line: CourseShape(kind: .line, points: Array(line.points.prefix(CourseFile.maxLinePoints))),
                green: green,
                hazards: hazards[number] ?? []
            )
        }

        // The facility: the golf course area holding the most hole starts.
        let starts = geometry.lines.compactMap(\.points.first)
        let boundary = osm.features.filter { $0.tags["leisure"] == "golf_course" }.compactMap {
            feature -> (OSMFeature, Int)? in
            guard case .polygon(let ring) = feature.geometry else { return nil }
            let projected = ring.map(geometry.plane.project)
            let inside = starts.filter { LocalPlane.contains(projected, geometry.plane.project($0)) }.count
            return inside > 0 ? (feature, inside) : nil
        }.max { $0.1 < $1.1 }?.0
        let area = boundary.flatMap { feature in geometry.centre(of: feature.points, isPolygon: true) }
        let allPoints = geometry.lines.flatMap(\.points)
        let mean = CoursePoint(
            latitude: allPoints.map(\.latitude).reduce(0, +) / Double(max(1, allPoints.count)),
            longitude: allPoints.map(\.longitude).reduce(0, +) / Double(max(1, allPoints.count))
        )
        let location = area ?? mean
        let clubName = boundary?.tags["name"].map { clipped($0, 200) }
        let name = clipped(key.isEmpty ? (clubName ?? "Golf course (OpenStreetMap)") : key, 200)
        let anyTags = found.first?.feature.tags ?? [:]
        let country = (boundary?.tags["addr:country"] ?? anyTags["iso_country"] ?? anyTags["addr:country"])
            .map { clipped($0.uppercased(), 64) }
        var source = "OpenStreetMap (\(osm.format)): \(found.count) golf=hole ways"
        if let boundary { source += " in \(boundary.id)" }
        let course = CourseRecord(
            id: CourseID(unchecked: [UInt8](repeating: 0, count: 8)),
            name: name,
            club: clubName,
            city: boundary?.tags["addr:city"].map { clipped($0, 200) },
            country: country,
            latitude: location?.latitude,
            longitude: location?.longitude,
            source: source,
            asOf: date,
            geometrySource: source,
            geometryAsOf: date,
            attribution: attribution,
            tees: OSMHoleTags.ordered(colours).map { CourseRecord.Tee(name: teeNames[$0] ?? $0, colour: $0) },
            holes: holes
        )
        return OSMImportedCourse(suggestedName: name, club: clubName, warnings: warnings, course: course)
    }

    static func hazardKind(_ tags: [String: String]) -> CourseRecord.HazardKind? {
        switch tags["golf"] {
        case "bunker": return .bunker
        case "water_hazard": return .water
        case "lateral_water_hazard": return .lateralWater
        case "out_of_bounds": return .outOfBounds
        default: return tags["natural"] == "water" ? .water : nil
        }
    }

    /// Joins the ways of one hole end to start (a hole mapped as several ways); when they do not join, the
    /// longest is used and the warning says so.
    static func chain(_ ways: [OSMFeature]) -> (points: [CoursePoint], warning: String?) {
        let lines = ways.map(\.points)
        guard lines.count > 1 else { return (lines.first ?? [], nil) }
        // Joining is quadratic in the number of ways; a hole is never mapped in more than a few pieces.
        guard lines.count <= maxWaysPerHole else {
            let longest = ways.max { $0.points.count < $1.points.count } ?? ways[0]
            return (longest.points, "\(ways.count) golf=hole ways; used the longest, \(longest.id)")
        }
        func meets(_ a: CoursePoint?, _ b: CoursePoint?) -> Bool {
            guard let a, let b else { return false }
            return abs(a.latitude - b.latitude) < 1e-5 && abs(a.longitude - b.longitude) < 1e-5
        }
        if let startIndex = lines.indices.first(where: { index in
            !lines.indices.contains { $0 != index && meets(lines[$0].last, lines[index].first) }
        }) {
            var unused = Array(lines.indices.filter { $0 != startIndex })
            var joined = lines[startIndex]
            while let next = unused.firstIndex(where: { meets(joined.last, lines[$0].first) }) {
                joined += lines[unused.remove(at: next)].dropFirst()
            }
            if unused.isEmpty { return (joined, nil) }
        }
        let longest = ways.max { $0.points.count < $1.points.count } ?? ways[0]
        return (longest.points, "\(ways.count) golf=hole ways that do not join end to start; used \(longest.id)")
    }

    /// The value every entry has, if they agree.
    private static func common(_ values: [String: Int]) -> Int? {
        let distinct = Set(values.values)
        return distinct.count == 1 ? distinct.first : nil
    }

    private static func clipped(_ text: String, _ limit: Int) -> String {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.utf8.count > limit { text.removeLast() }
        return text
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
