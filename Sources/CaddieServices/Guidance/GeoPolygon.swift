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
/// Containment and edge distance are computed in a local flat projection centred on the query point (x east =
/// longitude difference times cos latitude, y north = latitude difference, on a sphere of the mean Earth radius).
/// Over a green, well under a kilometre across, this differs from the ellipsoid by centimetres.
public struct GeoPolygon: Sendable, Hashable, Codable {
    /// The corners in order. A final corner equal to the first is dropped.
    public let vertices: [GeoPoint]

    /// The IUGG mean Earth radius R1 in metres, for the local projection.
    static let meanEarthRadius = 6_371_008.8

    /// Makes an outline; throws `GuidanceError.polygonTooSmall` for fewer than three distinct corners.
    public init(vertices: [GeoPoint]) throws(GuidanceError) {
        var corners = vertices
        if corners.count > 1, corners.first == corners.last {
            corners.removeLast()
        }
        guard corners.count >= 3 else { throw .polygonTooSmall(vertexCount: corners.count) }
        self.vertices = corners
    }

    private enum CodingKeys: String, CodingKey {
        case vertices
    }

    /// Decodes `{"vertices": [...]}` and checks the outline has at least three corners.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let vertices = try container.decode([GeoPoint].self, forKey: .vertices)
        do {
            try self.init(vertices: vertices)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .vertices, in: container, debugDescription: error.description)
        }
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
        let metresPerRadian = Self.meanEarthRadius
        let cosLatitude = cos(Degrees.toRadians(origin.latitude))
        return vertices.map { vertex in
            let east = Degrees.signed(vertex.longitude - origin.longitude)
            let north = vertex.latitude - origin.latitude
            return PlanePoint(
                x: Degrees.toRadians(east) * cosLatitude * metresPerRadian,
                y: Degrees.toRadians(north) * metresPerRadian)
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
