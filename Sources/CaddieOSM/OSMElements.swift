import CaddieCore

/// Raw OpenStreetMap elements (nodes, ways, relations) as Overpass JSON and OSM XML give them, assembled into
/// features: ways get their node positions, closed area ways and multipolygon relations become outlines.
struct OSMElements: Sendable {
    struct Way: Sendable {
        var id: Int64
        var refs: [Int64]
        /// Positions given inline (Overpass `out geom`), used instead of `refs` when present.
        var inline: [CoursePoint]
        var tags: [String: String]
    }

    struct Member: Sendable {
        var type: String
        var ref: Int64
        var role: String
        var inline: [CoursePoint]
    }

    struct Relation: Sendable {
        var id: Int64
        var members: [Member]
        var tags: [String: String]
    }

    /// The most outer ways of one multipolygon that are joined into rings.
    static let maxMembers = 2000

    var nodes: [Int64: CoursePoint] = [:]
    var taggedNodes: [(id: Int64, tags: [String: String])] = []
    var ways: [Way] = []
    var relations: [Relation] = []

    /// How many elements have been read, checked against ``OSMData/maxElements``.
    var count: Int { nodes.count + ways.count + relations.count }

    func features() -> [OSMFeature] {
        var features: [OSMFeature] = []
        for node in taggedNodes {
            if let point = nodes[node.id] {
                features.append(OSMFeature(id: "node/\(node.id)", tags: node.tags, geometry: .point(point)))
            }
        }
        var wayPoints: [Int64: [CoursePoint]] = [:]
        for way in ways {
            let points = positions(of: way)
            wayPoints[way.id] = points
            guard !way.tags.isEmpty, points.count >= 2 else { continue }
            features.append(OSMFeature(id: "way/\(way.id)", tags: way.tags, geometry: Self.geometry(points, way.tags)))
        }
        for relation in relations where relation.tags["type"] == "multipolygon" || relation.tags["type"] == "boundary" {
            let outers = relation.members.filter { $0.type == "way" && ($0.role == "outer" || $0.role.isEmpty) }
            // Joining rings is quadratic in the segments; real multipolygons have far fewer.
            let segments = outers.prefix(Self.maxMembers).map {
                $0.inline.isEmpty ? (wayPoints[$0.ref] ?? []) : $0.inline
            }.filter {
                $0.count >= 2
            }
            for (index, ring) in Self.rings(from: segments).enumerated() {
                let id = index == 0 ? "relation/\(relation.id)" : "relation/\(relation.id)#\(index)"
                features.append(OSMFeature(id: id, tags: relation.tags, geometry: .polygon(ring)))
            }
        }
        return features
    }

    private func positions(of way: Way) -> [CoursePoint] {
        let points = way.inline.isEmpty ? way.refs.compactMap { nodes[$0] } : way.inline
        return OSMData.thinned(points)
    }

    /// A closed area way becomes an outline, anything else a line.
    static func geometry(_ points: [CoursePoint], _ tags: [String: String]) -> OSMFeature.Geometry {
        if points.count >= 4, points.first == points.last, OSMData.isArea(tags) {
            return .polygon(Array(points.dropLast()))
        }
        return .line(points)
    }

    /// Closed rings joined from way segments that meet end to end (a multipolygon's outer ways). Segments that
    /// never close a ring are dropped. Each segment is used once, so the work is bounded by the segment count
    /// squared.
    static func rings(from segments: [[CoursePoint]]) -> [[CoursePoint]] {
        var unused = segments
        var rings: [[CoursePoint]] = []
        while let first = unused.first {
            unused.removeFirst()
            var ring = first
            while let start = ring.first, let end = ring.last, start != end {
                guard let index = unused.firstIndex(where: { $0.first == end || $0.last == end }) else { break }
                let next = unused.remove(at: index)
                ring += (next.first == end ? next : next.reversed()).dropFirst()
                if ring.count > OSMData.maxPointsPerElement * 4 { break }
            }
            if ring.count >= 4, ring.first == ring.last {
                rings.append(OSMData.thinned(Array(ring.dropLast())))
            }
        }
        return rings
    }
}
