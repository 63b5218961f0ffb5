extension Games {
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
        /// Gross strokes on each hole holed out, nil where none is entered or the player picked up.
        public let gross: [Int?]
        /// The holes (positions) where the player picked up: entered, with no score (Rules of Golf 21.1b, 3.3b).
        public let pickUps: Set<Int>

        /// Creates a card.
        public init(pars: [Int], strokeIndexes: [Int], courseHandicap: Double?, gross: [Int?], pickUps: Set<Int> = []) {
            self.pars = pars
            self.strokeIndexes = strokeIndexes
            self.courseHandicap = courseHandicap
            self.gross = gross
            self.pickUps = pickUps.filter { gross.indices.contains($0) && gross[$0] == nil }
        }

        /// Whether the hole at `position` has an entry: a score or a pick-up.
        public func entered(_ position: Int) -> Bool { gross[position] != nil || pickUps.contains(position) }

        /// Whether every hole has an entry.
        public var complete: Bool { gross.indices.allSatisfy(entered) }

        /// The hole's score as it compares with others: the gross, or ``Games/pickUpScore`` for a pick-up (worse
        /// than any score holed), nil where nothing is entered.
        public func played(_ position: Int) -> Int? {
            gross[position] ?? (pickUps.contains(position) ? Games.pickUpScore : nil)
        }
    }

    /// What a pick-up counts as where scores are compared (a match's hole, a skin, the Wolf's hole): more than any
    /// hole can be holed in, so it loses to every score and ties only with another pick-up. It never enters a
    /// total: a stroke-play total with a pick-up is no return.
    public static let pickUpScore = 99

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
        /// The choices entered on each hole, by entry key and then position in the order of play ("wolf": [0:
        /// .player(2), 1: .lone]).
        public var choices: [String: [Int: Choice]]

        /// Creates rules.
        public init(
            formats: Set<Format>, netSkins: Bool = true, skinsValidation: Bool = false, sides: [[Int]]? = nil,
            stake: Double? = nil, choices: [String: [Int: Choice]] = [:]
        ) {
            self.formats = formats
            self.netSkins = netSkins
            self.skinsValidation = skinsValidation
            self.sides = sides
            self.stake = stake
            self.choices = choices
        }
    }

    /// One player's line of the standings.
    public struct PlayerStanding: Sendable, Equatable {
        /// Holes with an entry: a score or a pick-up.
        public let thru: Int
        /// Holes picked up: with any, the stroke-play total is no return (NR), and ``gross`` and ``net`` count the
        /// holes holed out only.
        public let pickUps: Int
        /// Whether the player has no stroke-play total (no return, NR): they picked up a hole.
        public var noReturn: Bool { pickUps > 0 }
        /// Gross strokes over the holes holed out.
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
        /// The two sides of the match and Nassau, when they are played; else of the first format played in sides.
        public let sides: [[Int]]?
        /// Each format's result, in registry order.
        public let results: [FormatResult]
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
    ///   - holeNumbers: the number of each hole in the order of play, for text; 1... when not given.
    public static func standings(
        cards: [PlayerCard], names: [String], rules: Rules, holeNumbers: [Int]? = nil
    ) -> Standings {
        let context = Context(cards: cards, names: names, rules: rules, holeNumbers: holeNumbers)
        var notes: [String] = []
        for (index, card) in cards.enumerated() where card.courseHandicap == nil {
            notes.append(
                "\(names[index]) has no Course Handicap here (no Handicap Index, or a tee without Course Rating, "
                    + "Slope Rating and par): plays off scratch in net scores")
        }
        // Every player's line: stroke play at 95% of their own Course Handicap, whatever the formats.
        let strokePlay = cards.map { playingHandicap($0.courseHandicap, percent: 95) }
        var results: [FormatResult] = []
        for format in rules.formats.sorted() where !cards.isEmpty {
            let definition = format.definition
            if !definition.players.contains(cards.count) {
                let range = definition.players
                results.append(
                    .unscored(
                        format, players: cards.count,
                        note: "\(definition.title) takes \(Games.describe(players: range)): this game has \(cards.count)"
                    ))
                continue
            }
            results.append(definition.score(context))
        }
        for note in results.flatMap(\.notes) where !notes.contains(note) { notes.append(note) }
        var units = Array(repeating: 0, count: cards.count)
        for result in results {
            for index in units.indices where index < result.units.count { units[index] += result.units[index] }
        }
        func detail<T>(_ pick: (Detail) -> T?) -> T? { results.compactMap { pick($0.detail) }.first }
        let matchStatus = detail { if case .match(let status) = $0 { status } else { nil } }
        let nassauResult = detail { if case .nassau(let result) = $0 { result } else { nil } }
        let skinsResult = detail { if case .skins(let result) = $0 { result } else { nil } }
        let matchSides = context.validSides(for: MatchPlayFormat.rule).sides
        let inMatch = rules.formats.contains(.match) || rules.formats.contains(.nassau) ? matchSides : nil
        let matchStrokes = context.strokesOffTheLow(
            inMatch.map { Array($0.joined()) } ?? [], percent: MatchPlayFormat.percent(sides: inMatch))
        let skinStrokes =
            rules.formats.contains(.skins) && rules.netSkins
            ? SkinsFormat.strokes(context) : cards.map { _ in Array(repeating: 0, count: context.holes) }
        let sides = inMatch ?? results.lazy.compactMap { $0.sides }.first
        let players = cards.indices.map { index in
            let strokes = allocation(strokePlay[index] ?? 0, card: cards[index])
            var thru = 0, gross = 0, toPar = 0, net = 0, points = 0, pickUps = 0
            for hole in 0..<context.holes {
                if cards[index].pickUps.contains(hole) {
                    thru += 1
                    pickUps += 1
                }
                guard let score = cards[index].gross[hole] else { continue }
                thru += 1
                gross += score
                toPar += score - cards[index].pars[hole]
                net += score - strokes[hole]
                points += max(0, 2 + cards[index].pars[hole] - (score - strokes[hole]))
            }
            let rated = strokePlay[index] != nil
            return PlayerStanding(
                thru: thru, pickUps: pickUps, gross: gross, grossToPar: toPar, playingHandicap: strokePlay[index],
                net: rated ? net : nil, netToPar: rated ? net - (gross - toPar) : nil,
                points: rated || rules.formats.contains(.stableford) ? points : nil,
                skins: skinsResult?.won[index] ?? 0, units: units[index])
        }
        return Standings(
            players: players, sides: sides, results: results, match: matchStatus, nassau: nassauResult,
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
