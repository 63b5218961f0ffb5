import CaddieCore

/// A course's card as a golfer reads it: for each tee, every hole's par, stroke index and yardage, with the
/// Out / In / Total sums.
public struct CourseCard: Sendable, Hashable {
    /// One hole of one tee.
    public struct Row: Sendable, Hashable {
        /// Hole number.
        public let hole: Int
        /// The hole's own name, if any.
        public let name: String?
        /// Par from this tee.
        public let par: Int?
        /// Stroke index from this tee.
        public let strokeIndex: Int?
        /// Yardage from this tee.
        public let yards: Int?
    }

    /// Sums over some holes. A sum is nil unless every one of those holes has the value, so a card never shows
    /// a total that silently leaves holes out.
    public struct Totals: Sendable, Hashable {
        /// Sum of the pars.
        public let par: Int?
        /// Sum of the yardages.
        public let yards: Int?
    }

    /// The card of one tee.
    public struct TeeCard: Sendable, Hashable {
        /// The tee, with its rating, slope, length and their source; nil when the course has no tees.
        public let tee: CourseRecord.Tee?
        /// Holes 1...n.
        public let rows: [Row]
        /// Holes 1...9 ("Out").
        public let front: Totals
        /// Holes 10...18 ("In"); nil on a 9-hole course.
        public let back: Totals?
        /// All holes.
        public let total: Totals
    }

    /// The course's id.
    public let id: CourseID
    /// Course name.
    public let name: String
    /// Club.
    public let club: String?
    /// City.
    public let city: String?
    /// Country.
    public let country: String?
    /// Where the card data came from, and when.
    public let source: String?
    /// When the source was read.
    public let asOf: String?
    /// The credit the data's licence requires.
    public let attribution: String?
    /// One card per tee (only the asked tee when one was named; one card without a tee when the course has none).
    public let tees: [TeeCard]

    /// The card of `course`, for every tee or only the tee named `tee` (ignoring case). Throws
    /// ``CourseLookupError/unknownTee(_:available:)`` for a tee the course does not have.
    public init(course: CourseRecord, tee: String? = nil) throws(CourseLookupError) {
        id = course.id
        name = course.name
        club = course.club
        city = course.city
        country = course.country
        source = course.source
        asOf = course.asOf
        attribution = course.attribution
        let chosen: [CourseRecord.Tee?]
        if let tee {
            guard let found = course.tee(named: tee) else {
                throw .unknownTee(tee, available: course.tees.map(\.name))
            }
            chosen = [found]
        } else {
            chosen = course.tees.isEmpty ? [nil] : course.tees
        }
        tees = chosen.map { Self.card(course, tee: $0) }
    }

    private static func card(_ course: CourseRecord, tee: CourseRecord.Tee?) -> TeeCard {
        let rows = course.holes.map { hole in
            Row(
                hole: hole.number,
                name: hole.name,
                par: hole.par(tee: tee?.name),
                strokeIndex: hole.strokeIndex(tee: tee?.name),
                yards: hole.yards(tee: tee?.name)
            )
        }
        func totals(_ range: ClosedRange<Int>) -> Totals {
            let selected = rows.filter { range.contains($0.hole) }
            let pars = selected.compactMap(\.par)
            let yards = selected.compactMap(\.yards)
            return Totals(
                par: !selected.isEmpty && pars.count == selected.count ? pars.reduce(0, +) : nil,
                yards: !selected.isEmpty && yards.count == selected.count ? yards.reduce(0, +) : nil
            )
        }
        let count = rows.count
        return TeeCard(
            tee: tee,
            rows: rows,
            front: totals(1...min(9, max(1, count))),
            back: count > 9 ? totals(10...count) : nil,
            total: totals(1...max(1, count))
        )
    }
}
