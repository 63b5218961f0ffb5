import CaddieCore
import Foundation

/// A flat map of a course: metres east (x) and north (y) of an origin, using the WGS84 radii of curvature at the
/// origin's latitude (meridian for north, prime vertical for east). Over a golf course, a few kilometres across,
/// this differs from the ellipsoid by centimetres, which is why the OpenStreetMap import can do its geometry on a
/// plane. Deploy/tools/build-sample-courses.py uses the same projection.
struct LocalPlane: Sendable {
    /// A point or vector on the plane, in metres.
    struct Vector: Hashable, Sendable {
        var x: Double
        var y: Double

        static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y) }
        static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y) }
        static func * (a: Vector, k: Double) -> Vector { Vector(x: a.x * k, y: a.y * k) }
        func dot(_ other: Vector) -> Double { x * other.x + y * other.y }
        /// Positive when `other` is to the left of (counter-clockwise from) this vector.
        func cross(_ other: Vector) -> Double { x * other.y - y * other.x }
        var length: Double { (x * x + y * y).squareRoot() }
    }

    let origin: CoursePoint
    let metresPerDegreeNorth: Double
    let metresPerDegreeEast: Double

    init(origin: CoursePoint) {
        self.origin = origin
        let semiMajorAxis = 6_378_137.0
        let flattening = 1 / 298.257223563
        let eccentricitySquared = flattening * (2 - flattening)
        let latitude = origin.latitude * Double.pi / 180
        let w = (1 - eccentricitySquared * sin(latitude) * sin(latitude)).squareRoot()
        let meridian = semiMajorAxis * (1 - eccentricitySquared) / (w * w * w)
        let primeVertical = semiMajorAxis / w
        metresPerDegreeNorth = meridian * Double.pi / 180
        metresPerDegreeEast = max(1e-6, primeVertical * cos(latitude) * Double.pi / 180)
    }

    func project(_ point: CoursePoint) -> Vector {
        Vector(
            x: (point.longitude - origin.longitude) * metresPerDegreeEast,
            y: (point.latitude - origin.latitude) * metresPerDegreeNorth
        )
    }

    /// The position of a plane point, or nil if it falls off the globe.
    func position(_ vector: Vector) -> CoursePoint? {
        CoursePoint(
            latitude: origin.latitude + vector.y / metresPerDegreeNorth,
            longitude: origin.longitude + vector.x / metresPerDegreeEast
        )
    }

    // MARK: - Geometry on the plane

    /// Whether `point` is inside the outline (even-odd rule).
    static func contains(_ polygon: [Vector], _ point: Vector) -> Bool {
        guard polygon.count >= 3 else { return false }
        var inside = false
        var previous = polygon[polygon.count - 1]
        for current in polygon {
            if (current.y > point.y) != (previous.y > point.y) {
                let crossing = current.x + (point.y - current.y) * (previous.x - current.x) / (previous.y - current.y)
                if crossing > point.x { inside.toggle() }
            }
            previous = current
        }
        return inside
    }

    /// The nearest point of segment a-b to `point`: its distance and where it lies along the segment (0...1).
    static func nearest(_ point: Vector, _ a: Vector, _ b: Vector) -> (distance: Double, t: Double) {
        let d = b - a
        let lengthSquared = d.dot(d)
        let t = lengthSquared > 0 ? min(1, max(0, (point - a).dot(d) / lengthSquared)) : 0
        return ((a + d * t - point).length, t)
    }

    /// Where `point` lies relative to a polyline: distance to it, distance along it to the nearest point, and the
    /// signed offset (positive to the left of the direction of travel).
    static func locate(_ point: Vector, on line: [Vector]) -> (distance: Double, along: Double, side: Double) {
        guard let first = line.first else { return (.infinity, 0, 0) }
        guard line.count >= 2 else { return ((point - first).length, 0, 0) }
        var best = (distance: Double.infinity, along: 0.0, side: 0.0)
        var travelled = 0.0
        for index in 1..<line.count {
            let a = line[index - 1]
            let b = line[index]
            let segment = b - a
            let (distance, t) = nearest(point, a, b)
            if distance < best.distance {
                let length = segment.length
                let side = length > 0 ? segment.cross(point - a) / length : 0
                best = (distance, travelled + t * length, side)
            }
            travelled += segment.length
        }
        return best
    }

    /// The distance from an outline (or single points when it has fewer than three) to a polyline; 0 when they
    /// touch or one holds a vertex of the other.
    static func distance(_ shape: [Vector], _ line: [Vector]) -> Double {
        guard !shape.isEmpty, !line.isEmpty else { return .infinity }
        if shape.count >= 3, line.contains(where: { contains(shape, $0) }) { return 0 }
        var best = Double.infinity
        for point in shape { best = min(best, locate(point, on: line).distance) }
        if shape.count >= 2 {
            let ring = shape.count >= 3 ? shape + [shape[0]] : shape
            for point in line { best = min(best, locate(point, on: ring).distance) }
        }
        return best
    }

    /// The area centroid of an outline; the mean of its corners when it has no area.
    static func centroid(_ polygon: [Vector]) -> Vector {
        guard !polygon.isEmpty else { return Vector(x: 0, y: 0) }
        var area = 0.0
        var cx = 0.0
        var cy = 0.0
        // Relative to the first corner, to keep the products small.
        let base = polygon[0]
        var previous = polygon[polygon.count - 1] - base
        for corner in polygon {
            let current = corner - base
            let step = previous.cross(current)
            area += step
            cx += (previous.x + current.x) * step
            cy += (previous.y + current.y) * step
            previous = current
        }
        if abs(area) < 1e-9 {
            let sum = polygon.reduce(Vector(x: 0, y: 0), +)
            return sum * (1 / Double(polygon.count))
        }
        return base + Vector(x: cx / (3 * area), y: cy / (3 * area))
    }

    /// The parameters t at which the line `from + t·(through − from)` crosses the outline's edges, sorted.
    static func crossings(_ polygon: [Vector], from: Vector, through: Vector) -> [Double] {
        let direction = through - from
        guard direction.length > 0, polygon.count >= 3 else { return [] }
        var result: [Double] = []
        var previous = polygon[polygon.count - 1]
        for current in polygon {
            let edge = current - previous
            let denominator = direction.cross(edge)
            if abs(denominator) > 1e-12 {
                let offset = previous - from
                let t = offset.cross(edge) / denominator
                let u = offset.cross(direction) / denominator
                if u >= 0, u <= 1 { result.append(t) }
            }
            previous = current
        }
        return result.sorted()
    }
}
