/// The checks of a course file, in the order docs/course-format.md lists them, and the record they produce.
extension CourseFile {
    /// Limits on the lists of one hole.
    package static let maxHazardsPerHole = 200
    static let maxLayupsPerHole = 50
    static let maxTeePositionsPerHole = 32
    package static let maxLinePoints = 1000

    static func build(_ raw: RawCourse) throws(CoreError) -> CourseRecord {
        let name = raw.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.utf8.count <= 200 else {
            throw .invalidArgument("course name must be 1...200 bytes of UTF-8")
        }
        let texts: [(String, String?, Int)] = [
            ("club", raw.club, 200), ("city", raw.city, 200), ("country", raw.country, 64),
            ("source", raw.source, 1000),
            ("asOf", raw.asOf, 64), ("geometrySource", raw.geometrySource, 1000),
            ("geometryAsOf", raw.geometryAsOf, 64),
            ("attribution", raw.attribution, 1000),
        ]
        for (field, value, limit) in texts where (value?.utf8.count ?? 0) > limit {
            throw .invalidArgument("\(field) is longer than \(limit) bytes; shorten it")
        }
        guard raw.holes.count == 9 || raw.holes.count == 18 else {
            throw .invalidArgument("a course has 9 or 18 holes; the file has \(raw.holes.count)")
        }
        let rawTees = raw.tees ?? []
        var canonicalTee: [String: String] = [:]
        for tee in rawTees {
            try check(tee, known: canonicalTee)
            canonicalTee[tee.name.lowercased()] = tee.name
        }
        let count = raw.holes.count
        guard Set(raw.holes.map(\.number)) == Set(1...count) else {
            throw .invalidArgument("hole numbers must be 1...\(count), each once")
        }
        let indexes = raw.holes.compactMap(\.strokeIndex)
        guard Set(indexes).count == indexes.count, indexes.allSatisfy({ (1...18).contains($0) }) else {
            throw .invalidArgument("stroke indexes must be distinct numbers in 1...18")
        }
        var holes: [CourseRecord.Hole] = []
        var positions = 0
        for hole in raw.holes {
            holes.append(try build(hole, tees: canonicalTee, positions: &positions))
        }
        holes.sort { $0.number < $1.number }
        for tee in rawTees {
            let effective = holes.compactMap { $0.strokeIndex(tee: tee.name) }
            guard Set(effective).count == effective.count else {
                throw .invalidArgument("stroke indexes from tee \(tee.name) must be distinct numbers in 1...18")
            }
        }
        if let location = raw.location {
            guard CoursePoint(latitude: location.lat, longitude: location.lon) != nil else {
                throw .invalidArgument("location \(location.lat),\(location.lon) is not a latitude,longitude")
            }
        }
        guard positions <= maxPositions else {
            throw .invalidArgument("the file has \(positions) positions; a course may have at most \(maxPositions)")
        }
        return CourseRecord(
            id: CourseID(unchecked: [UInt8](repeating: 0, count: 8)),
            name: name,
            club: raw.club?.trimmingCharacters(in: .whitespacesAndNewlines),
            city: raw.city,
            country: raw.country,
            latitude: raw.location?.lat,
            longitude: raw.location?.lon,
            source: raw.source,
            asOf: raw.asOf,
            geometrySource: raw.geometrySource,
            geometryAsOf: raw.geometryAsOf,
            attribution: raw.attribution,
            tees: rawTees.map { tee in
                CourseRecord.Tee(
                    name: tee.name,
                    rating: tee.rating,
                    slope: tee.slope,
                    par: tee.par,
                    gender: tee.gender,
                    colour: tee.colour,
                    yards: tee.yards,
                    front: tee.front.map { .init(rating: $0.rating, slope: $0.slope, par: $0.par) },
                    back: tee.back.map { .init(rating: $0.rating, slope: $0.slope, par: $0.par) },
                    source: tee.source,
                    asOf: tee.asOf
                )
            },
            holes: holes
        )
    }

    private static func check(_ tee: RawCourse.Tee, known: [String: String]) throws(CoreError) {
        let name = tee.name
        guard !name.isEmpty, name.utf8.count <= 24, !name.contains("/") else {
            throw .invalidArgument("tee name \"\(name)\" must be 1...24 bytes without '/'")
        }
        if let gender = tee.gender, gender.utf8.count > 8 {
            throw .invalidArgument("tee \(name): gender \"\(gender)\" is longer than 8 bytes (use M or F)")
        }
        guard known[name.lowercased()] == nil else { throw .invalidArgument("tee \"\(name)\" appears twice") }
        /// A number out of its range: "tee NAME: WHAT VALUE is outside LIMITS".
        func check<Value: Comparable>(
            _ what: String, _ value: Value?, _ range: ClosedRange<Value>, _ limits: String, unit: String = ""
        ) throws(CoreError) {
            if let value, !range.contains(value) {
                throw .invalidArgument("tee \(name): \(what) \(value)\(unit) is outside \(limits)")
            }
        }
        try check("slope", tee.slope, 55...155, "55...155")
        try check("course rating", tee.rating, 20.0...90.0, "20...90")
        try check("par", tee.par, 27...80, "27...80")
        let texts: [(String, String?, Int)] = [
            ("colour", tee.colour, 32), ("source", tee.source, 1000),
            ("asOf", tee.asOf, 64),
        ]
        for (field, value, limit) in texts where (value?.utf8.count ?? 0) > limit {
            throw .invalidArgument("tee \(name): \(field) is longer than \(limit) bytes; shorten it")
        }
        try check("length", tee.yards, 100...10_000, "100...10000", unit: " yards")
        for (label, nine) in [("front nine", tee.front), ("back nine", tee.back)] {
            guard let nine else { continue }
            try check("\(label) course rating", nine.rating, 10.0...50.0, "10...50")
            try check("\(label) slope", nine.slope, 55...155, "55...155")
            try check("\(label) par", nine.par, 27...45, "27...45")
        }
    }

    private static func build(
        _ hole: RawCourse.Hole,
        tees: [String: String],
        positions: inout Int
    ) throws(CoreError) -> CourseRecord.Hole {
        let number = hole.number
        func fail(_ text: String) -> CoreError { .invalidArgument("hole \(number): \(text)") }
        if let par = hole.par, !(3...6).contains(par) { throw fail("par \(par) is outside 3...6") }
        func perTee(
            _ values: [String: Int]?,
            _ what: String,
            _ range: ClosedRange<Int>,
            _ describe: (Int, String) -> String
        ) throws(CoreError) -> [String: Int] {
            var out: [String: Int] = [:]
            for (tee, value) in values ?? [:] {
                guard let canonical = tees[tee.lowercased()] else { throw fail("\(what) for unknown tee \"\(tee)\"") }
                guard range.contains(value) else { throw fail(describe(value, tee)) }
                out[canonical] = value
            }
            return out
        }
        let yards = try perTee(hole.yards, "yardage", 30...800) { "\($0) yards from \($1) is outside 30...800" }
        if let name = hole.name, name.isEmpty || name.utf8.count > 64 { throw fail("name must be 1...64 bytes") }
        let pars = try perTee(hole.pars, "par", 3...6) { "par \($0) from \($1) is outside 3...6" }
        let strokeIndexes = try perTee(hole.strokeIndexes, "stroke index", 1...18) {
            "stroke index \($0) from \($1) is outside 1...18"
        }

        func point(_ lat: Double, _ lon: Double, _ what: String) throws(CoreError) -> CoursePoint {
            guard let point = CoursePoint(latitude: lat, longitude: lon) else {
                throw fail("\(what) \(lat),\(lon) is not a latitude,longitude")
            }
            positions += 1
            return point
        }
        func shape(_ pairs: [[Double]], _ kind: CourseShape.Kind, _ what: String) throws(CoreError) -> CourseShape {
            var points: [CoursePoint] = []
            for (index, pair) in pairs.enumerated() {
                guard pair.count == 2 else { throw fail("\(what) point \(index) is not a [lat, lon] pair") }
                points.append(try point(pair[0], pair[1], "\(what) point \(index)"))
            }
            let limit = kind == .line ? maxLinePoints : CourseShape.maxPoints
            guard points.count <= limit, let shape = CourseShape(kind: kind, points: points) else {
                let least = kind == .polygon ? "3 distinct corners" : kind == .line ? "2 points" : "1 point"
                throw fail("\(what) needs at least \(least) and at most \(limit)")
            }
            return shape
        }

        let rawPositions = hole.teePositions ?? []
        guard rawPositions.count <= maxTeePositionsPerHole else {
            throw fail("more than \(maxTeePositionsPerHole) tee positions")
        }
        var teePositions: [CoursePoint] = []
        var byTee: [String: [CoursePoint]] = [:]
        for (index, position) in rawPositions.enumerated() {
            let at = try point(position.lat, position.lon, "tee position \(index)")
            guard let tee = position.tee else {
                teePositions.append(at)
                continue
            }
            guard let canonical = tees[tee.lowercased()] else { throw fail("tee position for unknown tee \"\(tee)\"") }
            byTee[canonical, default: []].append(at)
        }
        let line = try hole.line.map { (pairs) throws(CoreError) in try shape(pairs, .line, "line") }
        var green = CourseRecord.Green()
        if let rawGreen = hole.green {
            green.outline = try rawGreen.outline.map { (pairs) throws(CoreError) in
                try shape(pairs, .polygon, "green outline")
            }
            green.front = try rawGreen.front.map { (at) throws(CoreError) in try point(at.lat, at.lon, "green front") }
            green.centre = try rawGreen.centre.map { (at) throws(CoreError) in try point(at.lat, at.lon, "green centre")
            }
            green.back = try rawGreen.back.map { (at) throws(CoreError) in try point(at.lat, at.lon, "green back") }
        }

        let rawHazards = hole.hazards ?? []
        guard rawHazards.count <= maxHazardsPerHole else { throw fail("more than \(maxHazardsPerHole) hazards") }
        var names = Set<String>()
        var hazards: [CourseRecord.Hazard] = []
        for hazard in rawHazards {
            try checkName(hazard.name, "hazard", &names, fail)
            guard let kind = CourseRecord.HazardKind(rawValue: hazard.kind) else {
                throw fail(
                    "hazard \"\(hazard.name)\" has unknown kind \"\(hazard.kind)\" "
                        + "(use bunker, water, lateralWater or outOfBounds)"
                )
            }
            let hazardShape: CourseShape
            switch (hazard.outline, hazard.points) {
            case (let outline?, nil): hazardShape = try shape(outline, .polygon, "hazard \"\(hazard.name)\" outline")
            case (nil, let points?): hazardShape = try shape(points, .points, "hazard \"\(hazard.name)\" points")
            default: throw fail("hazard \"\(hazard.name)\" needs either \"outline\" or \"points\", not both")
            }
            hazards.append(.init(name: hazard.name, kind: kind, shape: hazardShape))
        }
        let rawLayups = hole.layups ?? []
        guard rawLayups.count <= maxLayupsPerHole else { throw fail("more than \(maxLayupsPerHole) layup points") }
        names = []
        var layups: [CourseRecord.Layup] = []
        for layup in rawLayups {
            try checkName(layup.name, "layup", &names, fail)
            layups.append(.init(name: layup.name, point: try point(layup.lat, layup.lon, "layup \"\(layup.name)\"")))
        }
        return CourseRecord.Hole(
            number: number,
            par: hole.par,
            strokeIndex: hole.strokeIndex,
            yards: yards,
            name: hole.name,
            pars: pars,
            strokeIndexes: strokeIndexes,
            teePositions: teePositions,
            teePositionsByTee: byTee,
            line: line,
            green: green,
            hazards: hazards,
            layups: layups
        )
    }

    private static func checkName(
        _ name: String,
        _ what: String,
        _ names: inout Set<String>,
        _ fail: (String) -> CoreError
    ) throws(CoreError) {
        guard !name.isEmpty, name.utf8.count <= 32, !name.contains("/") else {
            throw fail("\(what) name \"\(name)\" must be 1...32 bytes without '/'")
        }
        guard names.insert(name.lowercased()).inserted else { throw fail("\(what) \"\(name)\" appears twice") }
    }
}
