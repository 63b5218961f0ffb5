extension Games {
    /// A format a game can score; a game plays one or more at once.
    public enum Format: String, Sendable, Equatable, CaseIterable, Comparable {
        /// Stroke play, gross and net (95% allowance, Appendix C).
        case stroke
        /// Stableford points (Rules of Golf 21.1, 95% allowance).
        case stableford
        /// Match play between two sides: singles (100%) or four-ball better ball (90%), off the low.
        case match
        /// Skins, gross or net, with carry-over.
        case skins
        /// Nassau: front nine, back nine and 18 as match-play bets, with automatic presses.
        case nassau

        public static func < (lhs: Format, rhs: Format) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// One player's card, as the scoring functions need it, for the holes played in order of play.
    public struct PlayerCard: Sendable, Equatable {
        /// The par of each hole from the player's tee.
        public let pars: [Int]
        /// The stroke index of each hole from the player's tee, ranked within the holes played (1...9 or 1...18).
        public let strokeIndexes: [Int]
        /// The player's unrounded Course Handicap for the holes played from their tee (Rule 6.1, including Course
        /// Rating minus par, so players on different tees are put on one footing, Rule 6.2); nil without a
        /// Handicap Index.
        public let courseHandicap: Double?
        /// Gross strokes on each hole, nil where none is entered.
        public let gross: [Int?]

        /// Creates a card.
        public init(pars: [Int], strokeIndexes: [Int], courseHandicap: Double?, gross: [Int?]) {
            self.pars = pars
            self.strokeIndexes = strokeIndexes
            self.courseHandicap = courseHandicap
            self.gross = gross
        }
    }

    /// What the group chose to play.
    public struct Rules: Sendable, Equatable {
        /// The formats scored.
        public var formats: Set<Format>
        /// Skins on net scores (strokes off the low at 100%) rather than gross.
        public var netSkins: Bool
        /// Skins must be validated on the next hole.
        public var skinsValidation: Bool
        /// The two sides of a match or Nassau as player positions: nil means the two players of a two-ball.
        public var sides: [[Int]]?
        /// The stake per unit (a skin, a bet, a match), when the group settles up.
        public var stake: Double?

        /// Creates rules.
        public init(
            formats: Set<Format>, netSkins: Bool = true, skinsValidation: Bool = false, sides: [[Int]]? = nil,
            stake: Double? = nil
        ) {
            self.formats = formats
            self.netSkins = netSkins
            self.skinsValidation = skinsValidation
            self.sides = sides
            self.stake = stake
        }
    }

    /// One player's line of the standings.
    public struct PlayerStanding: Sendable, Equatable {
        /// Holes with a score.
        public let thru: Int
        /// Gross strokes over those holes.
        public let gross: Int
        /// Gross strokes minus the par of those holes.
        public let grossToPar: Int
        /// The Playing Handicap for stroke play and Stableford (95%), nil without a Handicap Index.
        public let playingHandicap: Int?
        /// Net strokes over the holes with a score, with the stroke-play Playing Handicap.
        public let net: Int?
        /// Net strokes minus par over those holes.
        public let netToPar: Int?
        /// Stableford points.
        public let points: Int?
        /// Skins won.
        public let skins: Int
        /// Units won (positive) or lost over every settled skin and bet.
        public let units: Int
    }

    /// A payment that settles the group: `from` pays `to` `units` units.
    public struct Transfer: Sendable, Equatable {
        /// The player who pays.
        public let from: Int
        /// The player who is paid.
        public let to: Int
        /// How many units.
        public let units: Int
    }

    /// Everything a game's standings show.
    public struct Standings: Sendable, Equatable {
        /// Each player's line, in the order given.
        public let players: [PlayerStanding]
        /// The two sides of the match and Nassau, when they are played.
        public let sides: [[Int]]?
        /// The match, when played.
        public let match: MatchStatus?
        /// The Nassau, when played.
        public let nassau: NassauResult?
        /// The skins, when played.
        public let skins: SkinsResult?
        /// Who pays whom to settle every unit decided so far; empty without a stake.
        public let transfers: [Transfer]
        /// Handicap strokes each player receives on each hole in match play and the Nassau (off the low).
        public let matchStrokes: [[Int]]
        /// Handicap strokes each player receives on each hole in net skins (off the low at 100%); zeros for gross.
        public let skinStrokes: [[Int]]
        /// Things the group should know: a format that cannot be scored and why, a player off scratch.
        public let notes: [String]
    }

    /// The standings of a game from its players' cards and its rules.
    /// - Parameters:
    ///   - cards: each player's card for the holes played; all of the same length, 9 or 18.
    ///   - names: each player's name, for notes.
    ///   - rules: the formats and their options.
    public static func standings(cards: [PlayerCard], names: [String], rules: Rules) -> Standings {
        let holes = cards.first?.gross.count ?? 0
        var notes: [String] = []
        for (index, card) in cards.enumerated() where card.courseHandicap == nil {
            notes.append(
                "\(names[index]) has no Course Handicap here (no Handicap Index, or a tee without Course Rating, "
                    + "Slope Rating and par): plays off scratch in net scores")
        }
        // Stroke play and Stableford: each player's own Playing Handicap at 95%.
        let strokePlay = cards.map { playingHandicap($0.courseHandicap, percent: 95) }
        var lines: [(thru: Int, gross: Int, toPar: Int, net: Int?, netToPar: Int?, points: Int?)] = []
        for (index, card) in cards.enumerated() {
            let strokes = allocation(strokePlay[index] ?? 0, card: card)
            var thru = 0, gross = 0, toPar = 0, net = 0, points = 0
            for hole in 0..<holes {
                guard let score = card.gross[hole] else { continue }
                thru += 1
                gross += score
                toPar += score - card.pars[hole]
                net += score - strokes[hole]
                points += max(0, 2 + card.pars[hole] - (score - strokes[hole]))
            }
            let rated = strokePlay[index] != nil
            let netPar = net - (gross - toPar)
            lines.append(
                (
                    thru, gross, toPar, rated ? net : nil, rated ? netPar : nil,
                    rated || rules.formats.contains(.stableford) ? points : nil
                ))
        }

        // Match play and Nassau sides.
        var sides = rules.sides
        if sides == nil, cards.count == 2 { sides = [[0], [1]] }
        let wantsSides = rules.formats.contains(.match) || rules.formats.contains(.nassau)
        var validSides: [[Int]]?
        if wantsSides {
            if let sides, sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.count <= 2 }),
                sides[0].count == sides[1].count, Set(sides.joined()).count == sides.joined().count,
                sides.joined().allSatisfy(cards.indices.contains)
            {
                validSides = sides
            } else {
                notes.append(
                    "match play and the Nassau need two sides: two players, or four in two teams of two "
                        + "(set them with `caddie game setup GAME --teams A+B,C+D`)")
            }
        }
        let fourBall = (validSides?[0].count ?? 1) == 2
        let matchPercent = fourBall ? 90 : 100
        let inMatch = validSides.map { Array($0.joined()) } ?? []
        // Formats that compare strokes, not scores to par, give a player on a tee of higher par the difference in
        // par as extra strokes (Rule 6.2b, players on tees with different pars).
        let parTotals = cards.map { $0.pars.reduce(0, +) }
        let matchLowPar = inMatch.map { parTotals[$0] }.min() ?? 0
        let matchPlaying = cards.indices.map { index in
            (playingHandicap(cards[index].courseHandicap, percent: matchPercent) ?? 0)
                + (inMatch.contains(index) ? parTotals[index] - matchLowPar : 0)
        }
        let matchLow = inMatch.map { matchPlaying[$0] }.min() ?? 0
        var matchStrokes = cards.map { _ in Array(repeating: 0, count: holes) }
        for index in inMatch { matchStrokes[index] = allocation(matchPlaying[index] - matchLow, card: cards[index]) }
        var results: [HoleResult] = []
        if let validSides {
            func sideScores(_ side: [Int]) -> [Int?] {
                betterBall(
                    side.map { player in
                        (0..<holes).map { hole in cards[player].gross[hole].map { $0 - matchStrokes[player][hole] } }
                    })
            }
            let a = sideScores(validSides[0]), b = sideScores(validSides[1])
            results = (0..<holes).map { HoleResult.compare(a[$0], b[$0]) }
        }
        let matchStatus = rules.formats.contains(.match) && validSides != nil ? match(results) : nil
        var nassauResult: NassauResult?
        if rules.formats.contains(.nassau), validSides != nil {
            if holes == 18 {
                nassauResult = nassau(results)
            } else {
                notes.append("a Nassau needs 18 holes: this game plays \(holes)")
            }
        }

        // Skins: gross, or net off the low at 100% among all players.
        var skinsResult: SkinsResult?
        var skinStrokes = cards.map { _ in Array(repeating: 0, count: holes) }
        if rules.formats.contains(.skins) {
            if rules.netSkins {
                let lowPar = parTotals.min() ?? 0
                let full = cards.indices.map {
                    (playingHandicap(cards[$0].courseHandicap, percent: 100) ?? 0) + parTotals[$0] - lowPar
                }
                let low = full.min() ?? 0
                skinStrokes = cards.indices.map { allocation(full[$0] - low, card: cards[$0]) }
            }
            let grid = (0..<holes).map { hole in
                cards.indices.map { player in cards[player].gross[hole].map { $0 - skinStrokes[player][hole] } }
            }
            skinsResult = skins(grid, validation: rules.skinsValidation)
        }

        // Units: a skin is worth one unit from each other player; a bet or a match one unit per player of a side.
        var units = Array(repeating: 0, count: cards.count)
        if let skinsResult {
            for (player, won) in skinsResult.won.enumerated() where won > 0 {
                for other in cards.indices where other != player {
                    units[player] += won
                    units[other] -= won
                }
            }
        }
        if let validSides {
            var toA = nassauResult?.unitsToA ?? 0
            if let matchStatus, matchStatus.isOver { toA += matchStatus.up > 0 ? 1 : matchStatus.up < 0 ? -1 : 0 }
            for player in validSides[0] { units[player] += toA }
            for player in validSides[1] { units[player] -= toA }
        }
        let skinCounts = skinsResult?.won ?? Array(repeating: 0, count: cards.count)
        let players = cards.indices.map { index in
            PlayerStanding(
                thru: lines[index].thru, gross: lines[index].gross, grossToPar: lines[index].toPar,
                playingHandicap: strokePlay[index], net: lines[index].net, netToPar: lines[index].netToPar,
                points: lines[index].points, skins: skinCounts[index], units: units[index])
        }
        return Standings(
            players: players, sides: validSides, match: matchStatus, nassau: nassauResult,
            skins: skinsResult, transfers: rules.stake == nil ? [] : settle(units), matchStrokes: matchStrokes,
            skinStrokes: skinStrokes, notes: notes)
    }

    /// The Playing Handicap for an unrounded Course Handicap at an allowance, .5 upwards (Appendix C).
    static func playingHandicap(_ courseHandicap: Double?, percent: Int) -> Int? {
        courseHandicap.map { HandicapRounding.toWhole($0 * Double(percent) / 100) }
    }

    /// Strokes received on each hole of a card for a handicap, by the card's ranked stroke indexes.
    static func allocation(_ handicap: Int, card: PlayerCard) -> [Int] {
        let holes = card.strokeIndexes.count
        guard holes == 9 || holes == 18 else { return Array(repeating: 0, count: holes) }
        let bounded = min(max(handicap, Handicap.strokeHandicapRange.lowerBound), Handicap.strokeHandicapRange.upperBound)
        return card.strokeIndexes.map { Handicap.allocated(bounded, strokeIndex: $0, holes: holes) }
    }

    /// Payments that settle balances summing to zero, at most one fewer than the players: the largest debtor pays
    /// the largest creditor, repeatedly (ties by position, so every device lists the same payments). Not always
    /// the fewest possible (finding those is a hard problem), but never more than a foursome needs to read.
    public static func settle(_ balances: [Int]) -> [Transfer] {
        var owed = balances
        var transfers: [Transfer] = []
        while true {
            guard let creditor = owed.indices.max(by: { (owed[$0], -$0) < (owed[$1], -$1) }),
                let debtor = owed.indices.min(by: { (owed[$0], $0) < (owed[$1], $1) }),
                owed[creditor] > 0, owed[debtor] < 0
            else { break }
            let amount = min(owed[creditor], -owed[debtor])
            transfers.append(Transfer(from: debtor, to: creditor, units: amount))
            owed[creditor] -= amount
            owed[debtor] += amount
        }
        return transfers
    }
}
