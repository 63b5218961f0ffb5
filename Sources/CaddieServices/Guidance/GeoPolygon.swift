#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// An outline on the ground, such as a green, as corners in order (either direction, not closed).
///
/// Containment and edge distance are computed in a local flat projection centred on the query point: metres east
/// and north using the WGS84 radii of curvature there (prime vertical for east, meridian for north). Over a green,
/// well under a kilometre across, this differs from the ellipsoid by millimetres. Corners more than 180 degrees of
/// longitude apart from the query point are not meaningful.
public struct GeoPolygon: Sendable, Hashable, Codable {
    /// The corners in order. A final corner equal to the first is dropped.
    public let vertices: [GeoPoint]

    /// Makes an outline; throws `GuidanceError.polygonTooSmall` for fewer than three distinct corners.
    public init(vertices: [GeoPoint]) throws(GuidanceError) {
        var corners = vertices
        if corners.count > 1, corners.first == corners.last {
            corners.removeLast()
        }
        guard corners.count >= 3 else { throw .polygonTooSmall(vertexCount: corners.count) }
        self.vertices = corners
    }

    /// Decodes `{"vertices": [...]}` and checks the outline has at least three corners.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self = try values.checked(at: .vertices) { try GeoPolygon(vertices: values.decode([GeoPoint].self, forKey: .vertices)) }
    }

    /// Whether `point` is inside the outline (even-odd rule; a point exactly on an edge may go either way).
    public func contains(_ point: GeoPoint) -> Bool {
        let corners = projected(around: point)
        var inside = false
        var previous = corners[corners.count - 1]
        for current in corners {
            // Does the edge cross the ray from the origin along +x?
            if (current.y > 0) != (previous.y > 0) {
                let crossingX = current.x + (0 - current.y) * (previous.x - current.x) / (previous.y - current.y)
                if crossingX > 0 {
                    inside.toggle()
                }
            }
            previous = current
        }
        return inside
    }

    /// The distance in metres from `point` to the nearest edge, or 0 when the point is inside.
    public func distance(from point: GeoPoint) -> Double {
        if contains(point) { return 0 }
        let corners = projected(around: point)
        var nearest = Double.infinity
        var previous = corners[corners.count - 1]
        for current in corners {
            nearest = min(nearest, Self.distanceFromOrigin(toSegmentFrom: previous, to: current))
            previous = current
        }
        return nearest
    }

    private struct PlanePoint {
        var x: Double
        var y: Double
    }

    /// The corners in metres east and north of `origin`.
    private func projected(around origin: GeoPoint) -> [PlanePoint] {
        let ellipsoid = Ellipsoid.wgs84
        let f = ellipsoid.flattening
        let eccentricitySquared = f * (2 - f)
        let latitude = Degrees.toRadians(origin.latitude)
        let w = (1 - eccentricitySquared * sin(latitude) * sin(latitude)).squareRoot()
        // Radii of curvature: along the meridian (north) and in the prime vertical (east).
        let meridian = ellipsoid.semiMajorAxis * (1 - eccentricitySquared) / (w * w * w)
        let primeVertical = ellipsoid.semiMajorAxis / w
        let metresPerRadianEast = primeVertical * cos(latitude)
        return vertices.map { vertex in
            let east = Degrees.signed(vertex.longitude - origin.longitude)
            let north = vertex.latitude - origin.latitude
            return PlanePoint(
                x: Degrees.toRadians(east) * metresPerRadianEast,
                y: Degrees.toRadians(north) * meridian
            )
        }
    }

    private static func distanceFromOrigin(toSegmentFrom start: PlanePoint, to end: PlanePoint) -> Double {
        let dx = end.x - start.x
        let dy = end.y - start.y
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 {
            t = min(1, max(0, -(start.x * dx + start.y * dy) / lengthSquared))
        }
        let x = start.x + t * dx
        let y = start.y + t * dy
        return (x * x + y * y).squareRoot()
    }
}
