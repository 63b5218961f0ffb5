import Foundation

/// The Caddie course JSON format (docs/course-format.md), parsed and checked.
public struct CourseFile: Sendable {
    /// The id given in the file, if any (16 hex digits); otherwise the importer derives one from the name.
    public let id: EntityID?
    /// The course, with a placeholder id until ``record(id:)`` assigns one.
    private let course: CourseRecord

    /// The course's name.
    public var name: String { course.name }
    /// The club, if given.
    public var club: String? { course.club }

    /// The course with its final id.
    public func record(id: EntityID) -> CourseRecord {
        var record = course
        record.id = id
        return record
    }

    private struct Raw: Decodable {
        struct Location: Decodable { let lat: Double; let lon: Double }
        struct Tee: Decodable {
            let name: String
            let rating: Double?
            let slope: Int?
            let par: Int?
            let gender: String?
        }
        struct Hole: Decodable {
            let number: Int
            let par: Int?
            let strokeIndex: Int?
            let yards: [String: Int]?
        }
        let id: String?
        let name: String
        let club: String?
        let city: String?
        let country: String?
        let location: Location?
        let source: String?
        let asOf: String?
        let tees: [Tee]
        let holes: [Hole]
    }

    /// Parses and validates a course file. Every problem is reported with the field it concerns.
    public init(data: Data) throws(CoreError) {
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformed("course file lacks \"\(key.stringValue)\"\(Self.path(context.codingPath)); see docs/course-format.md")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformed("course file has the wrong type at \(Self.path(context.codingPath, lead: false)): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .malformed("course file has null at \(Self.path(context.codingPath, lead: false))")
        } catch {
            throw .malformed("course file is not valid JSON (\(Self.reason(error))); see docs/course-format.md")
        }
        if let text = raw.id {
            guard let id = EntityID(hex: text) else { throw .invalidArgument("course id \"\(text)\" is not 16 hex digits") }
            self.id = id
        } else {
            id = nil
        }
        let name = raw.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.utf8.count <= 200 else { throw .invalidArgument("course name must be 1...200 bytes of UTF-8") }
        let texts: [(String, String?, Int)] = [("club", raw.club, 200), ("city", raw.city, 200), ("country", raw.country, 64),
                                               ("source", raw.source, 1000), ("asOf", raw.asOf, 64)]
        for (field, value, limit) in texts where (value?.utf8.count ?? 0) > limit {
            throw .invalidArgument("\(field) is longer than \(limit) bytes; shorten it")
        }
        guard raw.holes.count == 9 || raw.holes.count == 18 else {
            throw .invalidArgument("a course has 9 or 18 holes; the file has \(raw.holes.count)")
        }
        guard !raw.tees.isEmpty else { throw .invalidArgument("a course needs at least one tee") }
        var teeNames = Set<String>()
        for tee in raw.tees {
            let key = tee.name.lowercased()
            guard !tee.name.isEmpty, tee.name.utf8.count <= 24, !tee.name.contains("/") else {
                throw .invalidArgument("tee name \"\(tee.name)\" must be 1...24 bytes without '/'")
            }
            if let gender = tee.gender, gender.utf8.count > 8 {
                throw .invalidArgument("tee \(tee.name): gender \"\(gender)\" is longer than 8 bytes (use M or F)")
            }
            guard teeNames.insert(key).inserted else { throw .invalidArgument("tee \"\(tee.name)\" appears twice") }
            if let slope = tee.slope, !(55...155).contains(slope) {
                throw .invalidArgument("tee \(tee.name): slope \(slope) is outside 55...155")
            }
            if let rating = tee.rating, !(20.0...90.0).contains(rating) {
                throw .invalidArgument("tee \(tee.name): course rating \(rating) is outside 20...90")
            }
            if let par = tee.par, !(27...80).contains(par) {
                throw .invalidArgument("tee \(tee.name): par \(par) is outside 27...80")
            }
        }
        let count = raw.holes.count
        guard Set(raw.holes.map(\.number)) == Set(1...count) else {
            throw .invalidArgument("hole numbers must be 1...\(count), each once")
        }
        let indexes = raw.holes.compactMap(\.strokeIndex)
        guard Set(indexes).count == indexes.count, indexes.allSatisfy({ (1...18).contains($0) }) else {
            throw .invalidArgument("stroke indexes must be distinct numbers in 1...18")
        }
        for hole in raw.holes {
            if let par = hole.par, !(3...6).contains(par) {
                throw .invalidArgument("hole \(hole.number): par \(par) is outside 3...6")
            }
            for (tee, yards) in hole.yards ?? [:] {
                guard teeNames.contains(tee.lowercased()) else {
                    throw .invalidArgument("hole \(hole.number): yardage for unknown tee \"\(tee)\"")
                }
                guard (30...800).contains(yards) else {
                    throw .invalidArgument("hole \(hole.number): \(yards) yards from \(tee) is outside 30...800")
                }
            }
        }
        if let location = raw.location {
            guard (-90...90).contains(location.lat), (-180...180).contains(location.lon) else {
                throw .invalidArgument("location \(location.lat),\(location.lon) is not a latitude,longitude")
            }
        }
        let canonicalTee = Dictionary(uniqueKeysWithValues: raw.tees.map { ($0.name.lowercased(), $0.name) })
        course = CourseRecord(
            id: EntityID(unchecked: [UInt8](repeating: 0, count: 8)), name: name,
            club: raw.club?.trimmingCharacters(in: .whitespacesAndNewlines), city: raw.city,
            country: raw.country, latitude: raw.location?.lat, longitude: raw.location?.lon, source: raw.source,
            asOf: raw.asOf,
            tees: raw.tees.map { .init(name: $0.name, rating: $0.rating, slope: $0.slope, par: $0.par, gender: $0.gender) },
            holes: raw.holes.sorted { $0.number < $1.number }.map { hole in
                var yards: [String: Int] = [:]
                for (tee, value) in hole.yards ?? [:] { yards[canonicalTee[tee.lowercased()] ?? tee] = value }
                return .init(number: hole.number, par: hole.par, strokeIndex: hole.strokeIndex, yards: yards)
            })
    }

    private static func path(_ codingPath: [any CodingKey], lead: Bool = true) -> String {
        let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        if text.isEmpty { return lead ? "" : "the top level" }
        return lead ? " at \(text)" : text
    }

    private static func reason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as? NSError)?.userInfo["NSDebugDescription"] as? String ?? context.debugDescription
        }
        return "\(error)"
    }
}
