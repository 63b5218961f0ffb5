import Foundation

extension Handicap {
    /// The choices the Rules leave to the Authorized Association or the committee.
    public struct Configuration: Sendable {
        /// How many differentials an index needs, 3...20: 3 (54 holes) under the Rules (Rule 5.2).
        public var minimumDifferentials: Int
        /// The expected-differential model for 9-hole scores and holes not played (2024 revision).
        public var expectedDifferential: ExpectedDifferential
        /// Record net par for holes not played instead of using the expected score (Rule 3.2, only where the
        /// Authorized Association approves it).
        public var netParForHolesNotPlayed: Bool
        /// Whether the Course Handicap includes (Course Rating - Par) (Rule 6.1; some jurisdictions apply it
        /// elsewhere).
        public var includeCourseRatingMinusPar: Bool

        /// A configuration; the defaults are the Rules' own.
        public init(
            minimumDifferentials: Int = 3,
            expectedDifferential: ExpectedDifferential = .approximation,
            netParForHolesNotPlayed: Bool = false,
            includeCourseRatingMinusPar: Bool = true
        ) {
            self.minimumDifferentials = minimumDifferentials
            self.expectedDifferential = expectedDifferential
            self.netParForHolesNotPlayed = netParForHolesNotPlayed
            self.includeCourseRatingMinusPar = includeCourseRatingMinusPar
        }

        /// The Rules' defaults.
        public static let standard = Configuration()
    }
}
