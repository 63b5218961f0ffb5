import Foundation

extension Handicap {
    /// How many of the lowest differentials count, and the adjustment, for a scoring record of 3 to 20 differentials
    /// (Rule 5.2a table; the values as published by PATT and East Ham Lodge, which agree).
    struct IndexTableRow: Sendable, Equatable {
        /// How many of the lowest differentials are averaged.
        let used: Int
        /// The whole strokes added to the average.
        let adjustment: Int

        /// The row for a record of `count` differentials, or nil below 3. Above 20 only the most recent 20 count.
        static func forRecord(of count: Int) -> IndexTableRow? {
            switch count {
            case ..<3: return nil
            case 3: return IndexTableRow(used: 1, adjustment: -2)
            case 4: return IndexTableRow(used: 1, adjustment: -1)
            case 5: return IndexTableRow(used: 1, adjustment: 0)
            case 6: return IndexTableRow(used: 2, adjustment: -1)
            case 7...8: return IndexTableRow(used: 2, adjustment: 0)
            case 9...11: return IndexTableRow(used: 3, adjustment: 0)
            case 12...14: return IndexTableRow(used: 4, adjustment: 0)
            case 15...16: return IndexTableRow(used: 5, adjustment: 0)
            case 17...18: return IndexTableRow(used: 6, adjustment: 0)
            case 19: return IndexTableRow(used: 7, adjustment: 0)
            default: return IndexTableRow(used: 8, adjustment: 0)
            }
        }
    }
}
