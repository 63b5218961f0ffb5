extension Games {
    /// One bet of a Nassau: the front nine, the back nine, the whole round, or a press.
    public struct NassauBet: Sendable, Equatable {
        /// What the bet is.
        public enum Kind: Sendable, Equatable {
            /// Holes 1-9 of the round (in order of play).
            case front
            /// Holes 10-18 of the round.
            case back
            /// All 18.
            case overall
            /// A press: a new bet started by the side that was 2 down in `parent` (an index into the bets), from
            /// the next hole to the end of that nine.
            case press(parent: Int)
        }

        /// What the bet is.
        public let kind: Kind
        /// The first position of the bet in the order of play, from 0.
        public let start: Int
        /// One past its last position.
        public let end: Int
        /// The match over the bet's holes.
        public let status: MatchStatus
        /// The side that pressed (was 2 down), for a press.
        public let pressedBy: HoleResult?

        /// The side that won the bet, once it is over; nil while open or when halved.
        public var winner: HoleResult? { status.isOver ? status.leader : nil }
    }

    /// A Nassau between two sides.
    public struct NassauResult: Sendable, Equatable {
        /// Front, back and overall first, then presses in the order they started.
        public let bets: [NassauBet]
        /// Units won by side A over bets that are over (negative: side B won them): one unit a bet.
        public let unitsToA: Int
        /// Whether every bet is over.
        public let complete: Bool
    }

    /// How far down a side must be in a bet for an automatic press.
    public static let nassauPressAt = 2

    /// Scores a Nassau: three match-play bets of one unit each (the front nine, the back nine and the 18), with
    /// automatic presses.
    ///
    /// A bet is won by the side that wins more of its holes; a bet halved pays nothing. When a side goes 2 down
    /// in a nine's bet or in a press, a press starts on the next hole and runs to the end of that nine, as a new
    /// one-unit bet; each bet starts at most one press, so a side 4 down in the front nine has pressed the front
    /// and pressed the press. The 18-hole bet is not pressed. No press starts when no hole of the nine is left.
    /// - Parameter results: the hole results of the two sides for the 18 holes, in order of play.
    public static func nassau(_ results: [HoleResult]) -> NassauResult {
        let nine = results.count / 2
        var bets: [NassauBet] = []
        func add(_ kind: NassauBet.Kind, _ start: Int, _ end: Int, pressedBy: HoleResult?) {
            bets.append(
                NassauBet(
                    kind: kind, start: start, end: end, status: match(Array(results[start..<end])),
                    pressedBy: pressedBy))
        }
        add(.front, 0, nine, pressedBy: nil)
        add(.back, nine, results.count, pressedBy: nil)
        add(.overall, 0, results.count, pressedBy: nil)
        // Presses, breadth first: each bet of a nine (and each press) may start one press.
        var next = 0
        while next < bets.count {
            let bet = bets[next]
            defer { next += 1 }
            if case .overall = bet.kind { continue }
            var margin = 0
            for position in bet.start..<bet.end {
                switch results[position] {
                case .a: margin += 1
                case .b: margin -= 1
                case .halved, .unplayed: break
                }
                guard abs(margin) >= nassauPressAt else { continue }
                if position + 1 < bet.end {
                    add(.press(parent: next), position + 1, bet.end, pressedBy: margin > 0 ? .b : .a)
                }
                break
            }
        }
        var units = 0
        for bet in bets {
            switch bet.winner {
            case .a?: units += 1
            case .b?: units -= 1
            default: break
            }
        }
        return NassauResult(bets: bets, unitsToA: units, complete: bets.allSatisfy(\.status.isOver))
    }
}
