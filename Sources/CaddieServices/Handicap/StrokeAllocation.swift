import Foundation

extension Handicap {
    /// The handicap strokes a player receives (positive) or gives back (negative) on each stroke index.
    public struct StrokeAllocation: Sendable, Equatable {
        /// The course or playing handicap allocated; negative for a plus handicap.
        public let handicap: Int
        /// The number of holes it is spread over, 9 or 18.
        public let holes: Int
        /// Strokes on each stroke index: element 0 is stroke index 1.
        public let strokesByStrokeIndex: [Int]

        /// The strokes received on the hole with `strokeIndex` (negative: strokes given back).
        public func strokes(onStrokeIndex strokeIndex: Int) throws(HandicapError) -> Int {
            try validateStrokeIndex(strokeIndex, holes: holes)
            return strokesByStrokeIndex[strokeIndex - 1]
        }

        /// The CLI's output: `{"strokes": [2, 2, ...]}`, one number per stroke index from 1.
        public var json: String {
            HandicapJSON.object(["strokes": .array(strokesByStrokeIndex.map { .int($0) })])
        }
    }

    /// How a handicap spreads over the holes by stroke index.
    ///
    /// A handicap `h >= 0` gives `h / holes` strokes on every hole and one more on stroke indexes 1 to
    /// `h % holes`, so 24 gives 2 strokes on stroke indexes 1-6 and 1 elsewhere and 40 gives 3 on 1-4 and 2 elsewhere.
    /// A plus handicap gives strokes back from stroke index 18 downwards: +2 gives back on 18 and 17 (Appendix C).
    /// For 9 holes, pass stroke indexes ranked 1-9 within the nine (see `rankedStrokeIndexes`).
    public static func strokeAllocation(
        playingHandicap: Int, holes: Int = 18
    ) throws(HandicapError)
        -> StrokeAllocation
    {
        try validateHoles(holes)
        try validateStrokeHandicap(playingHandicap)
        return StrokeAllocation(
            handicap: playingHandicap,
            holes: holes,
            strokesByStrokeIndex: (1...holes).map { allocated(playingHandicap, strokeIndex: $0, holes: holes) }
        )
    }

    /// The strokes received (negative: given back) on the hole with `strokeIndex` for a course or playing handicap.
    public static func strokesReceived(handicap: Int, strokeIndex: Int, holes: Int = 18) throws(HandicapError) -> Int {
        try validateStrokeIndex(strokeIndex, holes: holes)
        try validateStrokeHandicap(handicap)
        return allocated(handicap, strokeIndex: strokeIndex, holes: holes)
    }

    /// The stroke indexes of the holes of a round ranked within it: unchanged for 18 holes (which must be 1-18, each
    /// once); for 9 holes the 18-hole stroke indexes of the nine (e.g. the odd numbers) become 1-9 in the same order
    /// (Appendix E). [inferred ordering: rank by 18-hole stroke index]
    public static func rankedStrokeIndexes(_ strokeIndexes: [Int]) throws(HandicapError) -> [Int] {
        try validateHoles(strokeIndexes.count)
        var seen = Set<Int>()
        for strokeIndex in strokeIndexes {
            try validateStrokeIndex(strokeIndex, holes: 18)
            guard seen.insert(strokeIndex).inserted else { throw .strokeIndexRepeated(strokeIndex) }
        }
        let order = strokeIndexes.sorted()
        var rank: [Int: Int] = [:]
        for (position, strokeIndex) in order.enumerated() {
            rank[strokeIndex] = position + 1
        }
        return strokeIndexes.map { rank[$0] ?? 0 }
    }

    /// The allocation formula on inputs already checked.
    static func allocated(_ handicap: Int, strokeIndex: Int, holes: Int) -> Int {
        if handicap >= 0 {
            return handicap / holes + (strokeIndex <= handicap % holes ? 1 : 0)
        }
        let given = -handicap
        return -(given / holes + (strokeIndex > holes - given % holes ? 1 : 0))
    }
}
