import CaddieCore
import CaddieCrypto
import CaddieOSM
import CaddieServices
import CaddieStore
import Foundation

/// What an import did to one course.
public struct CourseImportResult: Sendable, Equatable, Codable {
    /// The course id.
    public let id: CourseID
    /// Its name.
    public let name: String
    /// Whether it merged into a course the space already had.
    public let merged: Bool
    /// Notes about data the import could not use.
    public let warnings: [String]
}

/// Course import, lookup, search and the course card.
public struct CourseService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any CourseStore { home.store }
}

extension CourseService {
    /// The courses of a space, by name.
    public func list(_ space: SpaceID) throws(NodeError) -> [CourseRecord] {
        try run { try store.all(space, CourseRecord.self) }.sortedByName()
    }

    /// The course meant by `text`.
    public func resolveCourse(_ space: SpaceID, _ text: String) throws(NodeError) -> CourseRecord {
        try resolve(text, in: try list(space), what: "course", list: .courses, id: \.id, name: \.name)
    }

    /// The id a course file gets when it names none: derived from club and name, so that two players who
    /// import the same course offline end up with one course, not two.
    public static func courseID(name: String, club: String?) -> CourseID {
        let key = "\(club ?? "")|\(name)".lowercased()
        return CourseID(unchecked: Array(Blake2b.hash(Array("caddie-course|".utf8) + Array(key.utf8)).bytes.prefix(8)))
    }

    /// The tee of `course` called `name` (any case), or an error about `input` that lists the course's tees.
    public static func tee(
        named name: String, of course: CourseRecord, input: NodeError.Input = .tee
    ) throws(NodeError)
        -> CourseRecord.Tee
    {
        guard let tee = course.tee(named: name) else {
            throw .badInput(
                input,
                "names a tee course \(course.name) does not have: it has no tee '\(name)'; its tees: "
                    + course.tees.map(\.name).joined(separator: ", "))
        }
        return tee
    }

    /// The course with this id.
    public func course(_ space: SpaceID, _ id: CourseID) throws(NodeError) -> CourseRecord {
        guard let course: CourseRecord = try run({ try store.one(space, id) }) else {
            throw .notFound("no course \(id.short) in this space", .list(.courses))
        }
        return course
    }

    func course(of game: GameRecord, in space: SpaceID) throws(NodeError) -> CourseRecord? {
        guard let id = game.course else { return nil }
        return try run { try store.one(space, id) }
    }

    /// The sample courses that ship with Caddie (docs: Sources/CaddieNode/Resources/SampleCourses/README.md).
    public static func sampleCourseFiles() throws(NodeError) -> [(name: String, data: Data)] {
        guard let folder = Bundle.module.url(forResource: "SampleCourses", withExtension: nil),
            let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        else { throw .file("the sample courses are missing from this build of caddie") }
        return try files.filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { url throws(NodeError) in
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    throw .file("cannot read the sample course \(url.lastPathComponent)")
                }
                return (url.lastPathComponent, data)
            }
    }

    /// Imports a course file: Caddie course JSON, or OpenStreetMap data (GeoJSON as Overpass exports it, or
    /// OSM XML), which may hold several courses. A course whose id the space already has is merged into it,
    /// not duplicated. Nothing is written unless the whole file is valid.
    func importCourses(space: SpaceID, keys: UnlockedKeys, data: Data) throws(NodeError) -> [CourseImportResult] {
        try importCourses(space: space, keys: keys, Self.read(data))
    }

    /// A course file read, before it meets the space: what ``NodeCommand/importCourses(space:courses:)`` carries,
    /// so that the file is read where it is (a command's process) and merged where the space is written (the node).
    public struct ReadCourses: Sendable, Equatable {
        /// Each course with the notes about data the import could not use.
        public let courses: [(record: CourseRecord, warnings: [String])]
        /// Whether they came from OpenStreetMap (merged into what the space has), not a Caddie course file (the whole
        /// course, replacing it).
        public let fromOSM: Bool

        public init(courses: [(record: CourseRecord, warnings: [String])], fromOSM: Bool) {
            self.courses = courses
            self.fromOSM = fromOSM
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.fromOSM == rhs.fromOSM && lhs.courses.map(\.record.fields) == rhs.courses.map(\.record.fields)
                && lhs.courses.map(\.warnings) == rhs.courses.map(\.warnings)
        }
    }

    /// Reads a course file: Caddie course JSON or OpenStreetMap data. Touches no home.
    public static func read(_ data: Data) throws(NodeError) -> ReadCourses {
        var imported: [(record: CourseRecord, warnings: [String])] = []
        let isOSM = Self.looksLikeOSM(data)
        if isOSM {
            let courses: [OSMImportedCourse]
            do { courses = try OSMCourseImport.courses(from: data, asOf: Self.today()) } catch { throw .core(error) }
            for course in courses {
                let id = Self.courseID(name: course.suggestedName, club: course.club)
                imported.append((course.record(id: id), course.warnings))
            }
        } else {
            let file: CourseFile
            do { file = try CourseFile(data: data) } catch { throw .core(error) }
            let id = file.id ?? Self.courseID(name: file.name, club: file.club)
            imported.append((file.record(id: id), []))
        }
        return ReadCourses(courses: imported, fromOSM: isOSM)
    }

    /// Merges courses read from a file into the space, in one transaction.
    func importCourses(space: SpaceID, keys: UnlockedKeys, _ read: ReadCourses) throws(NodeError) -> [CourseImportResult] {
        let isOSM = read.fromOSM
        var results: [CourseImportResult] = []
        var changes: [Change] = []
        for (course, warnings) in read.courses {
            let existing = try run { try store.record(space, course.id) }
            var fields: [String: FieldValue]
            if isOSM {
                // OpenStreetMap brings geometry: merged into the course's card data, which it leaves as it is.
                fields = (existing.map { CourseRecord(id: course.id, fields: $0).merged(with: course) } ?? course).fields
            } else {
                // A Caddie course file is the whole course: what it no longer has (a tee, a yardage) is cleared.
                fields = course.fields
                for (key, value) in existing ?? [:] where fields[key] == nil && value != .null { fields[key] = .null }
            }
            changes.append(.set(course.id, fields: fields))
            results.append(CourseImportResult(id: course.id, name: course.name, merged: existing != nil, warnings: warnings))
        }
        // One op per course keeps each op well under the payload limit; all of them commit together or not at all.
        _ = try home.appendEdits(space: space, keys: keys, edits: changes.map { ControlRequest.Edit(changes: [$0], pred: []) })
        return results
    }

    static func looksLikeOSM(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.contains("<osm") || head.contains("\"FeatureCollection\"") || head.contains("\"elements\"")
    }

    static func today() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date())
    }

    /// Searches the space's courses by name, club and city, tolerant of accents and small typos.
    public func searchCourses(space: SpaceID, text: String, limit: Int = 20) throws(NodeError) -> [CourseSearchResult] {
        let index = CourseSearchIndex(try list(space).map(CourseSummary.init))
        do { return try index.search(text, limit: limit) } catch { throw Self.lookupError(error) }
    }

    /// The space's courses nearest a position, within a radius.
    public func nearbyCourses(
        space: SpaceID, latitude: Double, longitude: Double, radiusKilometres: Double?
    )
        throws(NodeError) -> [CourseDistance]
    {
        let courses = try list(space).map(CourseSummary.init)
        do {
            return try CourseNearby.nearby(
                latitude: latitude, longitude: longitude, in: courses, radiusKilometres: radiusKilometres)
        } catch {
            throw Self.lookupError(error)
        }
    }

    /// The card of a course as a golfer reads it, for one tee or all.
    public func courseCard(space: SpaceID, course: CourseID, tee: String?) throws(NodeError) -> CourseCard {
        let course = try self.course(space, course)
        do {
            return try CourseCard(course: course, tee: tee)
        } catch {
            throw Self.lookupError(error, course: course.name)
        }
    }

    /// A search's, a nearby list's or a card's refusal as the one input it is about (`course`: the card's course).
    static func lookupError(_ error: CourseLookupError, course: String? = nil) -> NodeError {
        let named = course.map { "course " + $0 } ?? "the course"
        return switch error {
        case .emptyQuery:
            .badInput(.query, "has no letters or digits: give part of a course, club or city name")
        case .invalidLatitude(let value):
            .badInput(.latitude, "\(value) is not a latitude in -90...90 (degrees north, e.g. 51.34)")
        case .invalidLongitude(let value):
            .badInput(
                .longitude, "\(value) is not a longitude in -180...180 (degrees east, e.g. 3.30; west is negative)")
        case .invalidRadius(let value):
            .badInput(.radius, "\(value) km is not a positive number of kilometres")
        case .unknownTee(let tee, let available):
            .badInput(
                .tee,
                "names a tee \(named) does not have: it has no tee '\(tee)'"
                    + (available.isEmpty
                        ? " (no tees are known for it); leave it out"
                        : "; its tees: " + available.joined(separator: ", ")))
        }
    }
}
