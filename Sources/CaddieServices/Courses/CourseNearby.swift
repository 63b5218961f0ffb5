import CaddieCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A course and how far it is.
public struct CourseDistance: Sendable, Hashable {
    /// The course.
    public let course: CourseSummary
    /// Distance along the WGS84 ellipsoid, in kilometres.
    public let kilometres: Double
    /// Initial bearing from the asking position to the course, degrees clockwise from true north.
    public let bearing: Double
}

/// Courses near a position, nearest first.
public enum CourseNearby: Sendable {
    /// The default search radius of `caddie course nearby`.
    public static let defaultRadiusKilometres = 25.0

    /// Mean Earth radius used by the quick pre-filter (IUGG R1), in kilometres.
    static let meanRadiusKilometres = 6371.0088
    /// The sphere differs from the ellipsoid by at most about 0.6 %; the pre-filter keeps this much more.
    static let prefilterSlack = 1.01

    /// The courses within `radiusKilometres` of the position (all courses with a location when it is nil),
    /// nearest first (ties by name, then id), at most `limit`. Distances are WGS84 geodesics
    /// (``Geodesy/inverse(from:to:on:)``); a spherical pre-filter skips courses clearly too far away. Courses
    /// without a location are left out.
    public static func nearby(
        latitude: Double,
        longitude: Double,
        in courses: [CourseSummary],
        radiusKilometres: Double? = defaultRadiusKilometres,
        limit: Int? = nil
    )
        throws(CourseLookupError) -> [CourseDistance]
    {
        let origin: GeoPoint
        do {
            origin = try GeoPoint(latitude: latitude, longitude: longitude)
        } catch {
            if case .invalidLatitude = error { throw .invalidLatitude(latitude) }
            throw .invalidLongitude(longitude)
        }
        if let radiusKilometres, !(radiusKilometres.isFinite && radiusKilometres > 0) {
            throw .invalidRadius(radiusKilometres)
        }
        let latitude1 = origin.latitude * Double.pi / 180
        let cosLatitude1 = cos(latitude1)
        var results: [CourseDistance] = []
        for course in courses {
            guard let lat = course.latitude, let lon = course.longitude,
                let point = try? GeoPoint(latitude: lat, longitude: lon)
            else { continue }
            if let radiusKilometres {
                let latitude2 = lat * Double.pi / 180
                let halfLatitude = sin((latitude2 - latitude1) / 2)
                let halfLongitude = sin((lon - origin.longitude) * Double.pi / 360)
                let h = halfLatitude * halfLatitude + cosLatitude1 * cos(latitude2) * halfLongitude * halfLongitude
                let sphere = 2 * meanRadiusKilometres * asin(min(1, max(0, h).squareRoot()))
                guard sphere <= radiusKilometres * prefilterSlack + 0.01 else { continue }
            }
            let solution = Geodesy.inverse(from: origin, to: point)
            let kilometres = solution.distance / 1000
            if let radiusKilometres, kilometres > radiusKilometres { continue }
            results.append(CourseDistance(course: course, kilometres: kilometres, bearing: solution.initialBearing))
        }
        results.sort { ($0.kilometres, $0.course.name, $0.course.id) < ($1.kilometres, $1.course.name, $1.course.id) }
        if let limit { return Array(results.prefix(max(0, limit))) }
        return results
    }
}
