import CaddieCore

/// Derives each hole's green, tees and hazards from the course's OpenStreetMap features, on a flat map of the
/// course (COURSES.md §1, "Deriving per-hole targets"). Deploy/tools/build-sample-courses.py applies the same rules
/// with the same constants.
struct OSMCourseGeometry {
    /// A green polygon is the hole's when it contains the hole way's last node or lies within this many metres.
    static let greenSearchMetres = 40.0
    /// A tee feature belongs to a hole when it lies within this many metres of the line from the hole's first node
    /// to its second, between `teeBehindMetres` behind the first node and `teeAheadFraction` of that segment ahead.
    static let teeLateralMetres = 40.0
    static let teeBehindMetres = 100.0
    static let teeAheadFraction = 0.6
    /// A way node closer than this to a green's outline counts as on the green when finding the line of play.
    static let edgeMetres = 2.0
    /// A bunker is assigned to the nearest hole whose line of play passes within this many metres.
    static let bunkerBufferMetres = 35.0
    /// Water and out of bounds are assigned to every hole whose line of play passes within this many metres.
    static let waterBufferMetres = 40.0
    /// A hazard this far or less from one side of the line of play is named "left" or "right".
    static let sideMetres = 5.0
    /// A hazard within this many metres of the green outline (or 30 m of its centre without one) is "greenside".
    static let greensideMetres = 10.0

    /// One hole's line of play, in positions and on the plane.
    struct Line {
        var number: Int
        var points: [CoursePoint]
        var plane: [LocalPlane.Vector]
    }

    let plane: LocalPlane
    let lines: [Line]

    init(lines: [(number: Int, points: [CoursePoint])]) {
        let all = lines.flatMap(\.points)
        let latitude = all.map(\.latitude).reduce(0, +) / Double(max(1, all.count))
        let longitude = all.map(\.longitude).reduce(0, +) / Double(max(1, all.count))
        let origin = CoursePoint(latitude: latitude, longitude: longitude) ?? CoursePoint(e7Latitude: 0, e7Longitude: 0)
        let plane = LocalPlane(origin: origin)
        self.plane = plane
        self.lines = lines.map { Line(number: $0.number, points: $0.points, plane: $0.points.map(plane.project)) }
    }

    // MARK: - Greens

    /// The green of a hole: the polygon containing or nearest the way's last node (centre = its centroid, or the
    /// last node when the centroid falls outside a crescent-shaped green; front/back = where the line from the
    /// way's last node before the green through the centre enters and leaves it), else a `golf=green` node nearby
    /// as the centre, else the last node as the centre.
    func green(
        for line: Line,
        polygons: [[CoursePoint]],
        points: [CoursePoint]
    ) -> (green: CourseRecord.Green, ring: [LocalPlane.Vector]?) {
        guard let end = line.plane.last, line.plane.count >= 2 else { return (CourseRecord.Green(), nil) }
        var best: (distance: Double, index: Int)?
        for (index, polygon) in polygons.enumerated() {
            let ring = polygon.map(plane.project)
            let distance = LocalPlane.contains(ring, end) ? 0 : LocalPlane.locate(end, on: ring + [ring[0]]).distance
            if distance <= Self.greenSearchMetres, distance < (best?.distance ?? .infinity) { best = (distance, index) }
        }
        guard let best, let outline = CourseShape(kind: .polygon, points: polygons[best.index]) else {
            let nearby = points.min { (plane.project($0) - end).length < (plane.project($1) - end).length }
            let centre = nearby.flatMap { (plane.project($0) - end).length <= Self.greenSearchMetres ? $0 : nil }
            return (CourseRecord.Green(centre: centre ?? line.points.last), nil)
        }
        let ring = outline.points.map(plane.project)
        var centre = LocalPlane.centroid(ring)
        if !LocalPlane.contains(ring, centre), LocalPlane.contains(ring, end) { centre = end }
        // The line of play comes from the last node of the way before the green: outside it and not on its edge
        // (mappers often snap a node to the green's outline).
        let closed = ring + [ring[0]]
        func onOrInside(_ point: LocalPlane.Vector) -> Bool {
            LocalPlane.contains(ring, point) || LocalPlane.locate(point, on: closed).distance < Self.edgeMetres
        }
        var fromIndex = line.plane.count - 2
        while fromIndex > 0, onOrInside(line.plane[fromIndex]) { fromIndex -= 1 }
        let from = line.plane[fromIndex]
        let crossings = LocalPlane.crossings(ring, from: from, through: centre).filter { $0 > 1e-9 }
        var green = CourseRecord.Green(outline: outline, centre: plane.position(centre))
        let direction = centre - from
        if LocalPlane.contains(ring, from) {
            green.back = crossings.last.flatMap { plane.position(from + direction * $0) }
        } else if let first = crossings.first, let last = crossings.last, first < last {
            green.front = plane.position(from + direction * first)
            green.back = plane.position(from + direction * last)
        }
        return (green, ring)
    }

    // MARK: - Tees

    /// The hole a teeing area belongs to, if any: the nearest first node among holes whose first segment it lies
    /// beside.
    func hole(forTee position: CoursePoint) -> Int? {
        let point = plane.project(position)
        var best: (distance: Double, number: Int)?
        for line in lines where line.plane.count >= 2 {
            let start = line.plane[0]
            let segment = line.plane[1] - start
            let length = segment.length
            guard length > 0 else { continue }
            let along = (point - start).dot(segment) / length
            let lateral = abs(segment.cross(point - start)) / length
            guard along >= -Self.teeBehindMetres, along <= Self.teeAheadFraction * length,
                lateral <= Self.teeLateralMetres
            else { continue }
            let distance = (point - start).length
            if distance < (best?.distance ?? .infinity) { best = (distance, line.number) }
        }
        return best?.number
    }

    /// Positions sorted back to front: farthest from `target` first.
    func backToFront(_ positions: [CoursePoint], target: CoursePoint?) -> [CoursePoint] {
        guard let target else { return positions }
        let goal = plane.project(target)
        return positions.sorted { (plane.project($0) - goal).length > (plane.project($1) - goal).length }
    }

    /// The centre of a feature: polygon centroid, or the point itself, or the middle corner of a line.
    func centre(of points: [CoursePoint], isPolygon: Bool) -> CoursePoint? {
        guard let first = points.first else { return nil }
        guard isPolygon, points.count >= 3 else { return points.count == 1 ? first : points[points.count / 2] }
        return plane.position(LocalPlane.centroid(points.map(plane.project)))
    }

    // MARK: - Hazards

    /// A hazard feature ready to be assigned.
    struct HazardInput {
        var kind: CourseRecord.HazardKind
        var shape: CourseShape
        var name: String?
    }

    /// Hazards per hole number, named by side and position ("Greenside bunker left 2"), or by their OSM `name`.
    func hazards(
        _ inputs: [HazardInput],
        greens: [Int: (green: CourseRecord.Green, ring: [LocalPlane.Vector]?)]
    )
        -> [Int: [CourseRecord.Hazard]]
    {
        var placed: [Int: [(base: String, along: Double, kind: CourseRecord.HazardKind, shape: CourseShape)]] = [:]
        let boxes = lines.map { Self.box($0.plane) }
        for input in inputs {
            let shape = input.shape.points.map(plane.project)
            let isBunker = input.kind == .bunker
            let buffer = isBunker ? Self.bunkerBufferMetres : Self.waterBufferMetres
            let shapeBox = Self.box(shape)
            var near = zip(lines, boxes).compactMap { line, box -> (Line, Double)? in
                // Most hazards are nowhere near most holes: compare bounding boxes before any distance.
                guard shapeBox.minX - buffer <= box.maxX, box.minX <= shapeBox.maxX + buffer,
                    shapeBox.minY - buffer <= box.maxY, box.minY <= shapeBox.maxY + buffer
                else { return nil }
                let distance = LocalPlane.distance(shape, line.plane)
                return distance <= buffer ? (line, distance) : nil
            }
            if isBunker, let nearest = near.min(by: { $0.1 < $1.1 }) { near = [nearest] }
            let reference =
                input.shape.kind == .polygon ? LocalPlane.centroid(shape) : (shape.first ?? plane.project(plane.origin))
            for (line, _) in near {
                let spot = LocalPlane.locate(reference, on: line.plane)
                let greenInfo = greens[line.number]
                var greenside = false
                if let ring = greenInfo?.ring {
                    greenside =
                        LocalPlane.distance(shape, ring + [ring[0]]) <= Self.greensideMetres
                        || shape.contains { LocalPlane.contains(ring, $0) }
                } else if let centre = greenInfo?.green.centre {
                    greenside = shape.contains { ($0 - plane.project(centre)).length <= 30 }
                }
                let base = input.name ?? Self.baseName(input.kind, side: spot.side, greenside: greenside)
                placed[line.number, default: []].append((base, spot.along, input.kind, input.shape))
            }
        }
        var result: [Int: [CourseRecord.Hazard]] = [:]
        for (number, items) in placed {
            let limited = items.sorted { $0.along < $1.along }.prefix(CourseFile.maxHazardsPerHole)
            let names = Self.uniqueNames(limited.map { ($0.base, $0.along) })
            result[number] = zip(limited, names).map { CourseRecord.Hazard(name: $1, kind: $0.kind, shape: $0.shape) }
        }
        return result
    }

    static func box(_ points: [LocalPlane.Vector]) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        var box = (minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity)
        for point in points {
            box = (min(box.minX, point.x), max(box.maxX, point.x), min(box.minY, point.y), max(box.maxY, point.y))
        }
        return box
    }

    static func baseName(_ kind: CourseRecord.HazardKind, side: Double, greenside: Bool) -> String {
        var name: String =
            switch kind {
            case .bunker: "bunker"
            case .water: "water"
            case .lateralWater: "lateral water"
            case .outOfBounds: "out of bounds"
            }
        if side > sideMetres { name += " left" } else if side < -sideMetres { name += " right" }
        if greenside { name = "greenside " + name }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Names made unique within a hole: a base used more than once is numbered in play order ("Bunker left 1",
    /// "Bunker left 2"); any remaining clash gets a further number. Every name fits in 32 bytes.
    static func uniqueNames(_ items: [(base: String, along: Double)]) -> [String] {
        var counts: [String: Int] = [:]
        for item in items { counts[item.base.lowercased(), default: 0] += 1 }
        var seen: [String: Int] = [:]
        var taken = Set<String>()
        var names: [String] = []
        for item in items {
            let key = item.base.lowercased()
            var name = item.base
            if (counts[key] ?? 0) > 1 {
                let index = (seen[key] ?? 0) + 1
                seen[key] = index
                name = fitted(item.base, suffix: " \(index)")
            }
            var attempt = 2
            while taken.contains(name.lowercased()), attempt <= items.count + 2 {
                name = fitted(item.base, suffix: " \(attempt)")
                attempt += 1
            }
            taken.insert(name.lowercased())
            names.append(name)
        }
        return names
    }

    /// `base + suffix`, with `base` shortened (at a character boundary) so the whole fits in 32 bytes.
    static func fitted(_ base: String, suffix: String) -> String {
        var head = base
        while !head.isEmpty, head.utf8.count + suffix.utf8.count > 32 { head.removeLast() }
        return head + suffix
    }
}
