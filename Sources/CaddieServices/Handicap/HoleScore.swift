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
        /// Whether the player started the hole and picked up with no likely score given: it counts its maximum
        /// hole score (net double bogey, or par + 5 without a Handicap Index; Rule 3.3), and `strokes` is nil.
        public let pickedUp: Bool

        /// A hole score; `strokes` nil means the hole was not played.
        public init(par: Int, strokeIndex: Int, strokes: Int?) {
            self.par = par
            self.strokeIndex = strokeIndex
            self.strokes = strokes
            pickedUp = false
        }

        /// A hole started and picked up, counted at its maximum hole score.
        public init(par: Int, strokeIndex: Int, pickedUp: Void) {
            self.par = par
            self.strokeIndex = strokeIndex
            strokes = nil
            self.pickedUp = true
        }

        /// Whether the hole was played: holed out or picked up.
        public var played: Bool { strokes != nil || pickedUp }
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
