import CaddieCore

/// One search hit: the course and how well it matched (higher is better).
public struct CourseSearchResult: Sendable, Hashable {
    /// The course.
    public let course: CourseSummary
    /// The relevance score; only the order of scores means anything.
    public let score: Double
}

/// Full-text search over course names, clubs, cities and countries, ranked, tolerant of accents and small typos.
///
/// Build it once per set of courses; each search then looks at the distinct words (not at every course): a query
/// word matches an indexed word exactly, as a prefix (while typing), or within a Damerau-Levenshtein distance of 1
/// (words of 4 to 7 letters) or 2 (8 or more). Two neighbouring words are also indexed joined, so "standrews"
/// finds "St Andrews". Every query word must match, except common words such as "golf", "club" or "the", which
/// only add to the score. Name matches weigh most, then club, city and country; a name that equals or starts
/// with the whole query ranks first. Ties go by name, then id.
public struct CourseSearchIndex: Sendable {
    enum Field: Int, Sendable, CaseIterable {
        case name, club, city, country
        var weight: Double {
            switch self {
            case .name: 1.0
            case .club: 0.8
            case .city: 0.6
            case .country: 0.3
            }
        }
    }

    struct Posting: Sendable {
        var course: Int32
        var field: Field
        /// 1 for a word of the text, less for two words joined.
        var quality: Double
    }

    struct Word: Sendable {
        var text: String
        var scalars: [Unicode.Scalar]
        var postings: [Posting]
    }

    /// Words that may be left out of a match.
    static let optionalWords: Set<String> = [
        "golf", "club", "course", "links", "country", "the", "de", "du", "des", "la", "le", "of", "and", "gc", "cc",
        "gcc", "g", "c", "resort", "royal", "koninklijke", "k",
    ]

    private let courses: [CourseSummary]
    private let foldedNames: [String]
    /// Distinct words, sorted, so that the words with a prefix are one contiguous range.
    private let words: [Word]
    private let wordIndex: [String: Int]
    private let wordsByLength: [Int: [Int]]

    /// Indexes the courses.
    public init(_ courses: [CourseSummary]) {
        self.courses = courses
        foldedNames = courses.map { CourseTextFolding.fold($0.name) }
        var postings: [String: [Posting]] = [:]
        for (number, course) in courses.enumerated() {
            let texts: [(Field, String?)] = [
                (.name, course.name), (.club, course.club), (.city, course.city),
                (.country, course.country),
            ]
            for (field, text) in texts {
                let tokens = CourseTextFolding.tokens(text ?? "")
                for token in tokens {
                    postings[token, default: []].append(Posting(course: Int32(number), field: field, quality: 1))
                }
                for index in tokens.indices.dropFirst() {
                    postings[tokens[index - 1] + tokens[index], default: []]
                        .append(Posting(course: Int32(number), field: field, quality: 0.9))
                }
            }
        }
        let sorted = postings.keys.sorted()
        words = sorted.map { Word(text: $0, scalars: Array($0.unicodeScalars), postings: postings[$0] ?? []) }
        wordIndex = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
        var byLength: [Int: [Int]] = [:]
        for (index, word) in words.enumerated() { byLength[word.scalars.count, default: []].append(index) }
        wordsByLength = byLength
    }

    /// The number of indexed courses.
    public var count: Int { courses.count }

    /// The courses matching `text`, best first, at most `limit`. Throws ``CourseLookupError/emptyQuery`` when the
    /// text has no letters or digits.
    public func search(_ text: String, limit: Int = 20) throws(CourseLookupError) -> [CourseSearchResult] {
        let queryWords = CourseTextFolding.tokens(text)
        guard !queryWords.isEmpty else { throw .emptyQuery }
        let allOptional = queryWords.allSatisfy { Self.optionalWords.contains($0) }
        // The best score of each query word for each course (0 = no match), in one flat array.
        let width = queryWords.count
        var best = [Double](repeating: 0, count: courses.count * width)
        var touched: [Int] = []
        var seen = [Bool](repeating: false, count: courses.count)
        for (position, queryWord) in queryWords.enumerated() {
            for (wordIndex, quality) in matches(for: queryWord) {
                for posting in words[wordIndex].postings {
                    let course = Int(posting.course)
                    let score = quality * posting.quality * posting.field.weight
                    if score > best[course * width + position] { best[course * width + position] = score }
                    if !seen[course] {
                        seen[course] = true
                        touched.append(course)
                    }
                }
            }
        }
        let phrase = queryWords.joined(separator: " ")
        var results: [CourseSearchResult] = []
        for course in touched {
            var total = 0.0
            var complete = true
            for (position, queryWord) in queryWords.enumerated() {
                let score = best[course * width + position]
                let optional = !allOptional && Self.optionalWords.contains(queryWord)
                if score == 0, !optional { complete = false }
                total += optional ? 0.3 * score : score
            }
            guard complete else { continue }
            let name = foldedNames[course]
            if name == phrase {
                total += 2
            } else if name.hasPrefix(phrase) {
                total += 1
            } else if name.contains(phrase) {
                total += 0.5
            }
            results.append(CourseSearchResult(course: courses[course], score: total))
        }
        results.sort {
            ($0.score, $1.course.name, $1.course.id) > ($1.score, $0.course.name, $0.course.id)
        }
        return Array(results.prefix(max(0, limit)))
    }

    /// The indexed words a query word matches, with the quality of each match (1 exact, 0.75...0.9 prefix, 0.7 or
    /// 0.55 for one or two edits).
    private func matches(for queryWord: String) -> [(Int, Double)] {
        let query = Array(queryWord.unicodeScalars)
        var found: [Int: Double] = [:]
        if let exact = wordIndex[queryWord] { found[exact] = 1 }
        if query.count >= 2 {
            var index = lowerBound(queryWord)
            while index < words.count, words[index].text.hasPrefix(queryWord) {
                if words[index].text != queryWord {
                    let share = Double(query.count) / Double(max(1, words[index].scalars.count))
                    found[index] = max(found[index] ?? 0, 0.75 + 0.15 * share)
                }
                index += 1
            }
        }
        let limit = query.count >= 8 ? 2 : query.count >= 4 ? 1 : 0
        if limit > 0 {
            for length in (query.count - limit)...(query.count + limit) {
                for index in wordsByLength[length] ?? [] where found[index] == nil {
                    if let distance = EditDistance.distance(query, words[index].scalars, limit: limit) {
                        found[index] = distance == 1 ? 0.7 : 0.55
                    }
                }
            }
        }
        return found.map { ($0.key, $0.value) }
    }

    /// The first word not less than `text`.
    private func lowerBound(_ text: String) -> Int {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].text < text { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
