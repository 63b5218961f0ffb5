import CaddieCore
import Testing

@testable import CaddieServices

@Suite("Course lookup: text search")
struct CourseLookupSearchTests {
    static func id(_ n: UInt8) -> CourseID { CourseID(unchecked: [UInt8](repeating: n, count: 8)) }

    static let courses: [CourseSummary] = [
        CourseSummary(id: id(1), name: "Pebble Beach Golf Links", city: "Pebble Beach", country: "US"),
        CourseSummary(
            id: id(2),
            name: "The Old Course",
            club: "St Andrews Links Trust",
            city: "St Andrews",
            country: "GB"
        ),
        CourseSummary(
            id: id(3),
            name: "Praia D'El Rey Golf",
            club: "Praia D'El Rey Marriott Golf & Beach Resort",
            city: "Óbidos",
            country: "PT"
        ),
        CourseSummary(
            id: id(4),
            name: "Royal Zoute Golf Club",
            club: "Royal Zoute Golf Club",
            city: "Knokke-Heist",
            country: "BE"
        ),
        CourseSummary(
            id: id(5),
            name: "South Course",
            club: "Torrey Pines Golf Course",
            city: "San Diego",
            country: "US"
        ),
        CourseSummary(
            id: id(6),
            name: "North Course",
            club: "Torrey Pines Golf Course",
            city: "San Diego",
            country: "US"
        ),
        CourseSummary(
            id: id(7),
            name: "Haagsche 18 holes",
            club: "Koninklijke Haagsche Golf & Country Club",
            city: "Wassenaar",
            country: "NL"
        ),
        CourseSummary(id: id(8), name: "New Course", club: "St Andrews Links Trust", city: "St Andrews", country: "GB"),
        CourseSummary(id: id(9), name: "Sankt Andreas Platz", city: "Zürich", country: "CH"),
    ]
    static let index = CourseSearchIndex(courses)

    static func names(_ query: String) throws -> [String] {
        try index.search(query).map(\.course.name)
    }

    @Test(
        "exact, prefix and multi-word queries find the course",
        arguments: [
            ("pebble", "Pebble Beach Golf Links"),
            ("Pebble Beach Golf Links", "Pebble Beach Golf Links"),
            ("peb", "Pebble Beach Golf Links"),
            ("old course", "The Old Course"),
            ("zoute", "Royal Zoute Golf Club"),
            ("knokke", "Royal Zoute Golf Club"),
            ("wassenaar", "Haagsche 18 holes"),
            ("torrey south", "South Course"),
        ]
    )
    func finds(query: String, expected: String) throws {
        #expect(try Self.names(query).first == expected)
    }

    @Test(
        "accents and apostrophes do not matter, either way round",
        arguments: [
            ("obidos", "Praia D'El Rey Golf"),
            ("ÓBIDOS", "Praia D'El Rey Golf"),
            ("praia del rey", "Praia D'El Rey Golf"),
            ("Praia D’El Rey", "Praia D'El Rey Golf"),
            ("zurich", "Sankt Andreas Platz"),
            ("Zuerich", "Sankt Andreas Platz"),
        ]
    )
    func accents(query: String, expected: String) throws {
        #expect(try Self.names(query).first == expected)
    }

    @Test(
        "small typos are forgiven",
        arguments: [
            ("pebbel", "Pebble Beach Golf Links"),
            ("torey pines south", "South Course"),
            ("hagsche", "Haagsche 18 holes"),
            ("wasenaar", "Haagsche 18 holes"),
            ("st andrwes old", "The Old Course"),
            ("standrews old", "The Old Course"),
        ]
    )
    func typos(query: String, expected: String) throws {
        #expect(try Self.names(query).first == expected)
    }

    @Test("a name match ranks above a club or city match, and the whole name above part of it")
    func ranking() throws {
        // "St Andrews" is the club and city of two courses, and part of no name: both come, by name.
        #expect(try Self.names("st andrews") == ["New Course", "The Old Course"])
        // "course" is a common word: it does not narrow the search, but ranks names that contain it.
        let courses = try Self.names("torrey course")
        #expect(Set(courses) == ["South Course", "North Course"])
        let scores = try Self.index.search("south course")
        #expect(scores.first?.course.name == "South Course")
        #expect(scores.count == 1 || scores[0].score > scores[1].score)
        let exact = try Self.index.search("royal zoute golf club")
        #expect(exact.first?.course.name == "Royal Zoute Golf Club")
    }

    @Test("every query word must match, except common words")
    func allWords() throws {
        #expect(try Self.names("pebble zoute").isEmpty)
        #expect(try Self.names("zoute golf club").first == "Royal Zoute Golf Club")
        #expect(try Self.names("golf club").contains("Royal Zoute Golf Club"))
        #expect(try Self.names("xyzzy").isEmpty)
    }

    @Test("a query without letters or digits is refused; the limit is kept")
    func limits() throws {
        #expect(throws: CourseLookupError.emptyQuery) { try Self.index.search(" -- ' ") }
        #expect(try Self.index.search("course", limit: 2).count == 2)
        #expect(try Self.index.search("course", limit: 0).isEmpty)
    }

    @Test("Damerau-Levenshtein counts a swap of neighbours as one edit and stops at the limit")
    func editDistance() {
        func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
        #expect(EditDistance.distance(scalars("pebble"), scalars("pebbel"), limit: 2) == 1)
        #expect(EditDistance.distance(scalars("andrews"), scalars("andrwes"), limit: 2) == 1)
        #expect(EditDistance.distance(scalars("kitten"), scalars("sitting"), limit: 3) == 3)
        #expect(EditDistance.distance(scalars("kitten"), scalars("sitting"), limit: 2) == nil)
        #expect(EditDistance.distance(scalars(""), scalars("ab"), limit: 2) == 2)
        #expect(EditDistance.distance(scalars("golf"), scalars("golf"), limit: 0) == 0)
    }

    @Test("folding lowers case, strips accents and ligatures, and joins across apostrophes")
    func folding() {
        #expect(CourseTextFolding.tokens("Praia D’El Rey, Óbidos") == ["praia", "del", "rey", "obidos"])
        #expect(CourseTextFolding.tokens("Straße Ærø Łódź ﬁnal") == ["strasse", "aero", "lodz", "final"])
        #expect(CourseTextFolding.tokens("Knokke-Heist 18") == ["knokke", "heist", "18"])
    }
}
