import Foundation

extension Handicap {
    /// Which limit on upward movement shaped a Handicap Index (Rules 5.7 and 5.8).
    public enum Cap: String, Sendable, Equatable, CaseIterable {
        /// The index rose no more than 3.0 above the Low Handicap Index, or there is no Low Handicap Index yet.
        case none
        /// The rise beyond 3.0 above the Low Handicap Index was halved.
        case soft
        /// The index was held at 5.0 above the Low Handicap Index.
        case hard

        /// Applies the soft and hard caps to an average already rounded to the tenth (USGA committee guidance on
        /// Rule 5.8): above 3.0 over the Low Handicap Index the excess is halved; the result may not exceed it by
        /// more than 5.0. The result is rounded to the tenth (10.55 becomes 10.6).
        static func apply(average: Double, lowHandicapIndex: Double?) -> (index: Double, cap: Cap) {
            guard let low = lowHandicapIndex else { return (average, .none) }
            let rise = average - low
            guard HandicapRounding.exceeds(rise, 3.0) else { return (average, .none) }
            let soft = average - 0.5 * (rise - 3.0)
            guard HandicapRounding.exceeds(soft - low, 5.0) else { return (HandicapRounding.toTenth(soft), .soft) }
            return (HandicapRounding.toTenth(low + 5.0), .hard)
        }
    }
}
