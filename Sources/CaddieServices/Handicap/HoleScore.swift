import Foundation

extension Handicap {
    /// A player's score on one hole, with the hole's par and stroke index.
    public struct HoleScore: Sendable, Equatable, Hashable {
        /// The par of the hole, 3...6.
        public let par: Int
        /// The hole's stroke index: 1...18 on an 18-hole card; for a 9-hole round either 1...9 or the 18-hole
        /// indexes of the nine, which are ranked within it.
        public let strokeIndex: Int
        /// The strokes taken; for a hole started but not holed out, the most likely score (Rule 3.3); nil when the
        /// hole was not played (Rule 3.2).
        public let strokes: Int?

        /// A hole score; `strokes` nil means the hole was not played.
        public init(par: Int, strokeIndex: Int, strokes: Int?) {
            self.par = par
            self.strokeIndex = strokeIndex
            self.strokes = strokes
        }
    }

    /// Checks a round's hole scores and returns their stroke indexes ranked within the round (1...9 or 1...18).
    static func validatedStrokeIndexes(_ holes: [HoleScore]) throws(HandicapError) -> [Int] {
        for hole in holes {
            try validateHolePar(hole.par)
            if let strokes = hole.strokes, !holeStrokesRange.contains(strokes) {
                throw .holeStrokesOutOfRange(strokes)
            }
        }
        return try rankedStrokeIndexes(holes.map(\.strokeIndex))
    }
}
