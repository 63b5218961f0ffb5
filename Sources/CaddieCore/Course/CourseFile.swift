import Foundation

/// The Caddie course JSON format (docs/course-format.md, Protocol/course.schema.json), parsed and checked.
public struct CourseFile: Sendable {
    /// The id given in the file, if any (16 hex digits); otherwise the importer derives one from the name.
    public let id: CourseID?
    /// The course, with a placeholder id until ``record(id:)`` assigns one.
    private let course: CourseRecord

    /// The course's name.
    public var name: String { course.name }
    /// The club, if given.
    public var club: String? { course.club }

    /// The most positions (tee positions, line, outline and hazard corners, layups) one course file may hold.
    public static let maxPositions = 50_000

    /// The course with its final id.
    public func record(id: CourseID) -> CourseRecord {
        var record = course
        record.id = id
        return record
    }

    /// Parses and validates a course file. Every problem is reported with the field it concerns.
    public init(data: Data) throws(CoreError) {
        let raw: RawCourse
        do {
            raw = try JSONDecoder().decode(RawCourse.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformed(
                "course file lacks \"\(key.stringValue)\"\(Self.path(context.codingPath)); see docs/course-format.md"
            )
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformed(
                "course file has the wrong type at \(Self.path(context.codingPath, lead: false)): \(context.debugDescription)"
            )
        } catch let DecodingError.valueNotFound(_, context) {
            throw .malformed("course file has null at \(Self.path(context.codingPath, lead: false))")
        } catch {
            throw .malformed("course file is not valid JSON (\(Self.reason(error))); see docs/course-format.md")
        }
        if let text = raw.id {
            guard let id = CourseID(hex: text) else {
                throw .invalidArgument("course id \"\(text)\" is not 16 hex digits")
            }
            self.id = id
        } else {
            id = nil
        }
        course = try Self.build(raw)
    }

    /// The same course as a Caddie course JSON file (pretty-printed, keys sorted), which ``init(data:)`` reads back
    /// to an equal record. With `includeID` the file carries the course's id, so that importing it elsewhere
    /// updates the same course.
    public static func data(for course: CourseRecord, includeID: Bool = true) -> Data {
        let raw = RawCourse(course, includeID: includeID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value is a plain number, string or container, so encoding cannot fail; an empty object is the
        // defensive answer if it ever did.
        return (try? encoder.encode(raw)) ?? Data("{}".utf8)
    }

    private static func path(_ codingPath: [any CodingKey], lead: Bool = true) -> String {
        let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        if text.isEmpty { return lead ? "" : "the top level" }
        return lead ? " at \(text)" : text
    }

    private static func reason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as? NSError)?.userInfo["NSDebugDescription"] as? String
                ?? context.debugDescription
        }
        return "\(error)"
    }
}
