/// The course as last-writer-wins fields, and back (docs/data-model.md, "Course").
extension CourseRecord {
    /// The fields that store this course. Geometry is written as ``CourseShape`` bytes.
    public var fields: [String: FieldValue] {
        var fields: [String: FieldValue] = ["name": .text(name), "holes": .integer(Int64(holes.count))]
        let optionalText: [(String, String?)] = [
            ("club", club), ("city", city), ("country", country), ("source", source), ("asOf", asOf),
            ("geometrySource", geometrySource), ("geometryAsOf", geometryAsOf), ("attribution", attribution),
        ]
        for (key, value) in optionalText { if let value { fields[key] = .text(value) } }
        if let latitude { fields["lat"] = .number(latitude) }
        if let longitude { fields["lon"] = .number(longitude) }
        for (order, tee) in tees.enumerated() {
            Self.write(tee, order: order, into: &fields)
        }
        for hole in holes {
            Self.write(hole, into: &fields)
        }
        return fields
    }

    private static func write(_ tee: Tee, order: Int, into fields: inout [String: FieldValue]) {
        let base = "tee/\(tee.name)/"
        fields[base + "order"] = .integer(Int64(order))
        if let rating = tee.rating { fields[base + "rating"] = .number(rating) }
        if let slope = tee.slope { fields[base + "slope"] = .integer(Int64(slope)) }
        if let par = tee.par { fields[base + "par"] = .integer(Int64(par)) }
        if let yards = tee.yards { fields[base + "yards"] = .integer(Int64(yards)) }
        let texts: [(String, String?)] = [
            ("gender", tee.gender), ("colour", tee.colour), ("source", tee.source),
            ("asOf", tee.asOf),
        ]
        for (key, value) in texts { if let value { fields[base + key] = .text(value) } }
        for (nine, rating) in [("front", tee.front), ("back", tee.back)] {
            guard let rating else { continue }
            if let value = rating.rating { fields[base + nine + "/rating"] = .number(value) }
            if let value = rating.slope { fields[base + nine + "/slope"] = .integer(Int64(value)) }
            if let value = rating.par { fields[base + nine + "/par"] = .integer(Int64(value)) }
        }
    }

    private static func write(_ hole: Hole, into fields: inout [String: FieldValue]) {
        let base = "hole/\(hole.number)/"
        if let name = hole.name { fields[base + "name"] = .text(name) }
        if let par = hole.par { fields[base + "par"] = .integer(Int64(par)) }
        if let si = hole.strokeIndex { fields[base + "si"] = .integer(Int64(si)) }
        for (tee, par) in hole.pars { fields[base + "par/\(tee)"] = .integer(Int64(par)) }
        for (tee, si) in hole.strokeIndexes { fields[base + "si/\(tee)"] = .integer(Int64(si)) }
        for (tee, yards) in hole.yards { fields[base + "yards/\(tee)"] = .integer(Int64(yards)) }
        if let shape = CourseShape(kind: .points, points: hole.teePositions) {
            fields[base + "tee"] = .bytes(shape.encoded)
        }
        for (tee, points) in hole.teePositionsByTee {
            if let shape = CourseShape(kind: .points, points: points) {
                fields[base + "tee/\(tee)"] = .bytes(shape.encoded)
            }
        }
        if let line = hole.line { fields[base + "line"] = .bytes(line.encoded) }
        if let outline = hole.green.outline { fields[base + "green"] = .bytes(outline.encoded) }
        let greenPoints: [(String, CoursePoint?)] = [
            ("front", hole.green.front), ("centre", hole.green.centre),
            ("back", hole.green.back),
        ]
        for (key, point) in greenPoints {
            if let point { fields[base + "green/" + key] = .bytes(CourseShape(point: point).encoded) }
        }
        for hazard in hole.hazards {
            fields[base + "\(hazard.kind.rawValue)/\(hazard.name)"] = .bytes(hazard.shape.encoded)
        }
        for layup in hole.layups {
            fields[base + "layup/\(layup.name)"] = .bytes(CourseShape(point: layup.point).encoded)
        }
    }

    /// Reads a course back from its fields; fields it does not know, and geometry bytes that do not decode, are
    /// ignored.
    public init(id: CourseID, fields: [String: FieldValue]) {
        self.init(
            id: id,
            name: fields["name"]?.text ?? "course \(id.short)",
            club: fields["club"]?.text,
            city: fields["city"]?.text,
            country: fields["country"]?.text,
            latitude: fields["lat"]?.number,
            longitude: fields["lon"]?.number,
            source: fields["source"]?.text,
            asOf: fields["asOf"]?.text,
            geometrySource: fields["geometrySource"]?.text,
            geometryAsOf: fields["geometryAsOf"]?.text,
            attribution: fields["attribution"]?.text,
            tees: [],
            holes: []
        )
        var tees: [String: (order: Int64, tee: Tee)] = [:]
        var holes: [Int: Hole] = [:]
        for (key, value) in fields where value != .null {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count >= 3, parts[0] == "tee" {
                var entry = tees[parts[1]] ?? (Int64.max, Tee(name: parts[1]))
                Self.read(parts, value, into: &entry)
                tees[parts[1]] = entry
            } else if parts.count >= 3, parts[0] == "hole", let number = Int(parts[1]) {
                var hole = holes[number] ?? Hole(number: number)
                Self.read(parts, value, into: &hole)
                holes[number] = hole
            }
        }
        self.tees = tees.values.sorted { ($0.order, $0.tee.name) < ($1.order, $1.tee.name) }.map(\.tee)
        // A course has 9 or 18 holes; a stored count outside 1...36 (a bad or hostile edit) is not trusted.
        let stored = fields["holes"]?.integer ?? Int64(holes.count)
        let count =
            (1...36).contains(stored)
            ? Int(stored) : min(36, max(1, holes.keys.filter { (1...36).contains($0) }.max() ?? 18))
        self.holes = (1...count).map { number in
            guard var hole = holes[number] else { return Hole(number: number) }
            hole.hazards = Hole.ordered(hole.hazards)
            hole.layups.sort { $0.name < $1.name }
            return hole
        }
    }

    private static func read(_ parts: [String], _ value: FieldValue, into entry: inout (order: Int64, tee: Tee)) {
        let int = value.integer.map { Int(clamping: $0) }
        switch (parts.count, parts[2]) {
        case (3, "order"): entry.order = value.integer ?? Int64.max
        case (3, "rating"): entry.tee.rating = value.number
        case (3, "slope"): entry.tee.slope = int
        case (3, "par"): entry.tee.par = int
        case (3, "yards"): entry.tee.yards = int
        case (3, "gender"): entry.tee.gender = value.text
        case (3, "colour"): entry.tee.colour = value.text
        case (3, "source"): entry.tee.source = value.text
        case (3, "asOf"): entry.tee.asOf = value.text
        case (4, "front"), (4, "back"):
            var rating = (parts[2] == "front" ? entry.tee.front : entry.tee.back) ?? Rating()
            switch parts[3] {
            case "rating": rating.rating = value.number
            case "slope": rating.slope = int
            case "par": rating.par = int
            default: return
            }
            if parts[2] == "front" { entry.tee.front = rating } else { entry.tee.back = rating }
        default: break
        }
    }

    private static func read(_ parts: [String], _ value: FieldValue, into hole: inout Hole) {
        let int = value.integer.map { Int(clamping: $0) }
        let shape: CourseShape? = if case .bytes(let bytes) = value { CourseShape(encoded: bytes) } else { nil }
        let single = shape.flatMap { $0.kind == .points ? $0.points.first : nil }
        switch (parts.count, parts[2]) {
        case (3, "name"): hole.name = value.text
        case (3, "par"): hole.par = int
        case (3, "si"): hole.strokeIndex = int
        case (4, "par"): if let int { hole.pars[parts[3]] = int }
        case (4, "si"): if let int { hole.strokeIndexes[parts[3]] = int }
        case (4, "yards"): if let int { hole.yards[parts[3]] = int }
        case (3, "tee"): if let shape, shape.kind == .points { hole.teePositions = shape.points }
        case (4, "tee"): if let shape, shape.kind == .points { hole.teePositionsByTee[parts[3]] = shape.points }
        case (3, "line"): if let shape, shape.kind == .line { hole.line = shape }
        case (3, "green"): if let shape, shape.kind == .polygon { hole.green.outline = shape }
        case (4, "green"):
            switch parts[3] {
            case "front": hole.green.front = single
            case "centre": hole.green.centre = single
            case "back": hole.green.back = single
            default: break
            }
        case (4, "layup"): if let single { hole.layups.append(Layup(name: parts[3], point: single)) }
        case (4, let kindName):
            guard let kind = HazardKind(rawValue: kindName), let shape, shape.kind != .line else { return }
            hole.hazards.append(Hazard(name: parts[3], kind: kind, shape: shape))
        default: break
        }
    }

    /// Splits fields into groups whose `set` change each fits in one op payload of at most `limit` bytes
    /// (Protocol/op-format.md: 65,536), so that a course with much geometry can be written as several ops.
    /// Fields are packed in name order; every group holds at least one field.
    public static func payloadBatches(
        _ fields: [String: FieldValue],
        limit: Int = 65_536
    )
        -> [[String: FieldValue]]
    {
        // Payload version and count (2 bytes), change tag, kind, 8-byte id and u16 field count (12 bytes).
        let overhead = 14
        var batches: [[String: FieldValue]] = []
        var current: [String: FieldValue] = [:]
        var size = overhead
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            let cost = 1 + name.utf8.count + value.encoded.count
            if !current.isEmpty, size + cost > limit || current.count == Int(UInt16.max) {
                batches.append(current)
                current = [:]
                size = overhead
            }
            current[name] = value
            size += cost
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}
