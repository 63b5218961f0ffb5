import Foundation

extension Handicap {
    /// Formats of play in which each player has their own Playing Handicap, with the recommended handicap allowance
    /// (Appendix C; the USGA and R&A tables agree). Committees may set others; pass the percentage directly then.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        /// Individual stroke play: 95%.
        case individualStrokePlay
        /// Individual Stableford: 95%.
        case individualStableford
        /// Individual Par/Bogey: 95%.
        case individualParBogey
        /// Individual Maximum Score: 95%.
        case individualMaximumScore
        /// Individual match play: 100%.
        case individualMatchPlay
        /// Four-Ball stroke play: 85%.
        case fourBallStrokePlay
        /// Four-Ball Stableford: 85%.
        case fourBallStableford
        /// Four-Ball Par/Bogey: 90%.
        case fourBallParBogey
        /// Four-Ball match play: 90%.
        case fourBallMatchPlay
        /// Best 1 of 4 stroke play: 75%.
        case bestOneOfFourStrokePlay
        /// Best 2 of 4 stroke play: 85%.
        case bestTwoOfFourStrokePlay
        /// Best 3 of 4 stroke play: 100%.
        case bestThreeOfFourStrokePlay
        /// All 4 of 4 stroke play: 100%.
        case allFourOfFourStrokePlay
        /// Total score of 2, match play: 100%.
        case totalScoreOfTwoMatchPlay
        /// Best 1 of 4 Par/Bogey: 75%.
        case bestOneOfFourParBogey
        /// Best 2 of 4 Par/Bogey: 80%.
        case bestTwoOfFourParBogey
        /// Best 3 of 4 Par/Bogey: 90%.
        case bestThreeOfFourParBogey
        /// Best 4 of 4 Par/Bogey: 100%.
        case bestFourOfFourParBogey

        /// The recommended allowance in percent of the Course Handicap.
        public var allowancePercent: Int {
            switch self {
            case .individualStrokePlay, .individualStableford, .individualParBogey, .individualMaximumScore: 95
            case .individualMatchPlay: 100
            case .fourBallStrokePlay, .fourBallStableford: 85
            case .fourBallParBogey, .fourBallMatchPlay: 90
            case .bestOneOfFourStrokePlay: 75
            case .bestTwoOfFourStrokePlay: 85
            case .bestThreeOfFourStrokePlay, .allFourOfFourStrokePlay, .totalScoreOfTwoMatchPlay: 100
            case .bestOneOfFourParBogey: 75
            case .bestTwoOfFourParBogey: 80
            case .bestThreeOfFourParBogey: 90
            case .bestFourOfFourParBogey: 100
            }
        }
    }
}
