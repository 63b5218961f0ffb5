/// A format a group can play: what it needs from the setup, how it scores the cards into a result, how it settles
/// in units, how a disputed value changes its result, and how it describes itself to the CLI, the API and the web
/// app. Every format is one type conforming to this and one line of ``Games/registry``; docs/architecture.md has
/// the checklist for adding one.
public protocol GameFormat: Sendable {
    /// The name as typed and stored in a game's `formats` field: lower case, no spaces ("wolf").
    var name: String { get }
    /// The name as a golfer reads it ("Wolf").
    var title: String { get }
    /// One line: how it is played and scored, for help text and the new-game screen.
    var summary: String { get }
    /// Whether a new game plays it when the group names no format.
    var onByDefault: Bool { get }
    /// The sides it needs, or nil when every player plays for themselves.
    var sides: Games.SideRule? { get }
    /// How many players it takes.
    var players: ClosedRange<Int> { get }
    /// Choices entered on each hole beyond strokes (the Wolf's partner, Bingo Bango Bongo's points), stored as
    /// fields of the game.
    var entries: [Games.EntryKind] { get }
    /// Whether a side plays one ball and enters one score a hole, on its first player's card.
    var oneBall: Bool { get }
    /// Scores the cards into the format's result.
    func score(_ context: Games.Context) -> Games.FormatResult
    /// What a disputed value decides in this format, given the result scored with each value: empty when every
    /// value gives the same result.
    func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String]
    /// Why a hole entry cannot be made (the Wolf cannot choose themselves), or nil when it can.
    /// - Parameters:
    ///   - position: the hole's position in the order of play, from 0.
    ///   - player: the player chosen, by position on the card; nil for "lone".
    func refusal(entry: Games.EntryKind, position: Int, player: Int?, names: [String]) -> String?
}

extension GameFormat {
    public var onByDefault: Bool { false }
    public var sides: Games.SideRule? { nil }
    public var players: ClosedRange<Int> { 1...Int.max }
    public var entries: [Games.EntryKind] { [] }
    public var oneBall: Bool { false }

    public func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String] {
        Games.alternatives(outcomes.map(\.summary)).map { ["the \(title) (\($0))"] } ?? []
    }

    public func refusal(entry: Games.EntryKind, position: Int, player: Int?, names: [String]) -> String? { nil }
}

extension Games {
    /// "3 to 5 players", "4 players", "at least 2 players".
    public static func describe(players range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "at least \(range.lowerBound) player\(range.lowerBound == 1 ? "" : "s")"
            : range.lowerBound == range.upperBound
                ? "\(range.lowerBound) players" : "\(range.lowerBound) to \(range.upperBound) players"
    }

    /// Every format Caddie plays, in the order they are listed and shown.
    public static let registry: [any GameFormat] = [
        StrokePlayFormat(), StablefordFormat(), MatchPlayFormat(), SkinsFormat(), NassauFormat(),
        FourBallStablefordFormat(), TeamStablefordFormat(), WolfFormat(), BingoBangoBongoFormat(),
        TeamBallFormat(.chapman), TeamBallFormat(.greensomes), TeamBallFormat(.foursomes), TeamBallFormat(.scramble),
    ]

    /// A format by name, as the registry has it.
    public struct Format: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The name, as stored.
        public let rawValue: String

        /// The format of this name, or nil when no format has it.
        public init?(rawValue: String) {
            guard Games.registry.contains(where: { $0.name == rawValue }) else { return nil }
            self.rawValue = rawValue
        }

        private init(known name: String) { rawValue = name }

        public static let stroke = Format(known: "stroke")
        public static let stableford = Format(known: "stableford")
        public static let match = Format(known: "match")
        public static let skins = Format(known: "skins")
        public static let nassau = Format(known: "nassau")
        public static let fourBallStableford = Format(known: "fourball")
        public static let teamStableford = Format(known: "teamstableford")
        public static let wolf = Format(known: "wolf")
        public static let bingoBangoBongo = Format(known: "bbb")
        public static let chapman = Format(known: "chapman")
        public static let greensomes = Format(known: "greensomes")
        public static let foursomes = Format(known: "foursomes")
        public static let scramble = Format(known: "scramble")

        /// Every format, in registry order.
        public static var allCases: [Format] { Games.registry.map { Format(known: $0.name) } }

        /// The format's definition.
        public var definition: any GameFormat { Games.registry.first { $0.name == rawValue }! }

        var order: Int { Games.registry.firstIndex { $0.name == rawValue } ?? Int.max }

        public static func < (lhs: Format, rhs: Format) -> Bool { lhs.order < rhs.order }

        public var description: String { rawValue }
    }

    /// The sides a format needs.
    public struct SideRule: Sendable, Equatable {
        /// How many players a side may have.
        public let sizes: ClosedRange<Int>
        /// Whether the two sides must be of one size.
        public let equal: Bool
        /// Whether the whole group plays as one team when no sides are set.
        public let oneTeamWithout: Bool
        /// What the format needs, said to the group when the sides do not fit: "two sides: two players, or ...".
        public let needs: String

        /// Creates a rule.
        public init(sizes: ClosedRange<Int>, equal: Bool, oneTeamWithout: Bool = false, needs: String) {
            self.sizes = sizes
            self.equal = equal
            self.oneTeamWithout = oneTeamWithout
            self.needs = needs
        }

        /// Why these sides do not fit, or nil when they do.
        public func refusal(sizes given: [Int]) -> String? {
            guard given.count == 2 else { return "takes two sides" }
            if let bad = given.first(where: { !sizes.contains($0) }) {
                return
                    "takes sides of \(sizes.lowerBound == sizes.upperBound ? "\(sizes.lowerBound)" : "\(sizes.lowerBound) to \(sizes.upperBound)") players, not \(bad)"
            }
            if equal, given[0] != given[1] { return "takes sides of equal size" }
            return nil
        }
    }

    /// A choice entered on each hole beyond strokes.
    public struct EntryKind: Sendable, Equatable {
        /// The key, as typed (`wolf=Kim`) and stored (`hole.7.wolf`).
        public let key: String
        /// What it is, as a golfer says it.
        public let label: String
        /// Whether "lone" is a choice (the Wolf playing alone).
        public let allowsLone: Bool

        /// Creates a kind.
        public init(key: String, label: String, allowsLone: Bool = false) {
            self.key = key
            self.label = label
            self.allowsLone = allowsLone
        }
    }

    /// A choice made on a hole: a player (by position on the card), or alone.
    public enum Choice: Sendable, Equatable, Hashable {
        /// A player.
        case player(Int)
        /// Nobody: the chooser plays alone.
        case lone
    }

    /// What a format scores from: the cards, the names, the rules and the hole entries.
    public struct Context: Sendable {
        /// Each player's card.
        public let cards: [PlayerCard]
        /// Each player's name.
        public let names: [String]
        /// What the group chose.
        public let rules: Rules
        /// The hole number of each position, for text ("skin 7"); 1... when not given.
        public let holeNumbers: [Int]

        /// Creates a context.
        public init(cards: [PlayerCard], names: [String], rules: Rules, holeNumbers: [Int]? = nil) {
            self.cards = cards
            self.names = names
            self.rules = rules
            let count = cards.first?.gross.count ?? 0
            self.holeNumbers = holeNumbers ?? Array(1...max(count, 1)).prefix(count).map { $0 }
        }

        /// How many holes the game plays.
        public var holes: Int { cards.first?.gross.count ?? 0 }

        /// The sides as the group set them; the two players of a two-ball when a format takes sides of one.
        func sides(for rule: SideRule) -> [[Int]]? {
            if let sides = rules.sides { return sides }
            if rule.sizes.contains(1), cards.count == 2 { return [[0], [1]] }
            if rule.oneTeamWithout { return [Array(cards.indices)] }
            return nil
        }

        /// The sides a format can score with, or nil and the note that says what it needs.
        public func validSides(for rule: SideRule) -> (sides: [[Int]]?, note: String?) {
            let fix = "(set them with `caddie game setup GAME --teams A+B,C+D`)"
            guard let sides = sides(for: rule) else { return (nil, "\(rule.needs) \(fix)") }
            let all = Array(sides.joined())
            guard Set(all).count == all.count, all.allSatisfy(cards.indices.contains) else {
                return (nil, "\(rule.needs) \(fix)")
            }
            if sides.count == 1, rule.oneTeamWithout, rule.sizes.contains(sides[0].count) { return (sides, nil) }
            if rule.refusal(sizes: sides.map(\.count)) != nil { return (nil, "\(rule.needs) \(fix)") }
            return (sides, nil)
        }

        /// A side's name: "Ann", "Ann & Ben".
        public func sideName(_ side: [Int]) -> String { side.map { names[$0] }.joined(separator: " & ") }

        /// The choice entered for a key on a hole position.
        public func choice(_ key: String, _ position: Int) -> Choice? { rules.choices[key]?[position] }

        /// Strokes received on each hole, off the low at an allowance among `players` (Appendix C), with the
        /// difference in par added for players on a tee of higher par (Rule 6.2b); zeros for everyone else.
        public func strokesOffTheLow(_ players: [Int], percent: Int) -> [[Int]] {
            let parTotals = cards.map { $0.pars.reduce(0, +) }
            let lowPar = players.map { parTotals[$0] }.min() ?? 0
            let playing = cards.indices.map { index in
                (playingHandicap(cards[index].courseHandicap, percent: percent) ?? 0)
                    + (players.contains(index) ? parTotals[index] - lowPar : 0)
            }
            let low = players.map { playing[$0] }.min() ?? 0
            var strokes = cards.map { _ in Array(repeating: 0, count: holes) }
            for index in players { strokes[index] = allocation(playing[index] - low, card: cards[index]) }
            return strokes
        }

        /// A player's net score on each hole with the given strokes, as scores compare: ``Games/pickUpScore`` for
        /// a pick-up, nil where nothing is entered.
        public func net(_ player: Int, strokes: [Int]) -> [Int?] {
            (0..<holes).map { hole in
                cards[player].gross[hole].map { $0 - strokes[hole] } ?? cards[player].played(hole)
            }
        }

        /// A player's Stableford points on each hole at an allowance of their own Course Handicap (Rules of Golf
        /// 21.1: net double bogey or worse 0, bogey 1, par 2, birdie 3...; a pick-up 0, 21.1b), nil where nothing
        /// is entered.
        public func stablefordPoints(_ player: Int, percent: Int) -> [Int?] {
            let card = cards[player]
            let strokes = allocation(playingHandicap(card.courseHandicap, percent: percent) ?? 0, card: card)
            return (0..<holes).map { hole in
                card.gross[hole].map { max(0, 2 + card.pars[hole] - ($0 - strokes[hole])) }
                    ?? (card.pickUps.contains(hole) ? 0 : nil)
            }
        }
    }

    /// What a format's result shows beyond its own detail.
    public enum Detail: Sendable, Equatable {
        case none
        case match(MatchStatus)
        case nassau(NassauResult)
        case skins(SkinsResult)
    }

    /// A format's result: what every screen shows of it, and what it adds to the settlement.
    public struct FormatResult: Sendable, Equatable {
        /// The format.
        public let format: Format
        /// The headline, as a golfer says it: "Ann & Ben 34 v Cal & Dev 31 thru 12".
        public var summary: String
        /// Lines to show below it (a side or a player and their figure).
        public var lines: [(label: String, value: String)]
        /// A figure per player for the players' table (the Wolf's points), or nil.
        public var column: (label: String, values: [String])?
        /// What happened on each hole decided so far, by position: "Kim (lone) won", "Ann 2".
        public var holes: [(position: Int, text: String)]
        /// Units each player won (positive) or lost, from what is decided.
        public var units: [Int]
        /// Whether every hole is decided.
        public var complete: Bool
        /// What the group should know about this format.
        public var notes: [String]
        /// The older formats' own detail (match, Nassau, skins).
        public var detail: Detail
        /// The sides it was scored with, when it plays in sides.
        public var sides: [[Int]]?
        /// Whether it could be scored at all (a note says why not).
        public var scored = true

        /// Creates a result.
        public init(
            format: Format, summary: String, lines: [(label: String, value: String)] = [],
            column: (label: String, values: [String])? = nil, holes: [(position: Int, text: String)] = [],
            units: [Int], complete: Bool, notes: [String] = [], detail: Detail = .none
        ) {
            self.format = format
            self.summary = summary
            self.lines = lines
            self.column = column
            self.holes = holes
            self.units = units
            self.complete = complete
            self.notes = notes
            self.detail = detail
            sides = nil
        }

        /// A format that cannot be scored: the note says why.
        public static func unscored(_ format: Format, players: Int, note: String) -> FormatResult {
            var result = FormatResult(
                format: format, summary: "not scored", units: Array(repeating: 0, count: players), complete: false,
                notes: [note])
            result.scored = false
            return result
        }

        public static func == (lhs: FormatResult, rhs: FormatResult) -> Bool {
            lhs.format == rhs.format && lhs.summary == rhs.summary && lhs.lines.map(\.label) == rhs.lines.map(\.label)
                && lhs.lines.map(\.value) == rhs.lines.map(\.value) && lhs.column?.label == rhs.column?.label
                && lhs.column?.values == rhs.column?.values && lhs.holes.map(\.position) == rhs.holes.map(\.position)
                && lhs.holes.map(\.text) == rhs.holes.map(\.text) && lhs.units == rhs.units
                && lhs.complete == rhs.complete && lhs.notes == rhs.notes && lhs.detail == rhs.detail
                && lhs.sides == rhs.sides && lhs.scored == rhs.scored
        }
    }

    /// "a or b" when the texts differ, nil when they are all the same.
    public static func alternatives(_ texts: [String]) -> String? {
        var unique: [String] = []
        for text in texts where !unique.contains(text) { unique.append(text) }
        return unique.count > 1 ? unique.joined(separator: " or ") : nil
    }

    /// Units for two sides when one side wins: between sides of one size each winner gets one unit and each loser
    /// gives one; between sides of unequal size each loser pays each winner one, so the units always sum to zero.
    static func sideUnits(players: Int, sides: [[Int]], winner: Int?) -> [Int] {
        var units = Array(repeating: 0, count: players)
        guard let winner, sides.count == 2 else { return units }
        let (won, lost) = (sides[winner], sides[1 - winner])
        let (gain, loss) = won.count == lost.count ? (1, 1) : (lost.count, won.count)
        for player in won { units[player] += gain }
        for player in lost { units[player] -= loss }
        return units
    }

    /// The players who share the best of `values` (the highest, or the lowest when `lowerWins`), in card order,
    /// among those that have one; empty when nobody has.
    static func leaders(_ values: [Int?], lowerWins: Bool = false) -> [Int] {
        let known = values.compactMap { $0 }
        guard let best = lowerWins ? known.min() : known.max() else { return [] }
        return values.indices.filter { values[$0] == best }
    }

    /// Names in a sentence: "Ann", "Ann and Ben", "Ann, Ben and Cal".
    static func sentence(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// Who leads, in words: "Ann leads" or, when several share the best, "Ann and Ben share the lead". A tie is
    /// never called a lead.
    static func leadWords(_ leaders: [Int], names: [String]) -> String {
        let named = sentence(leaders.map { names[$0] })
        return leaders.count == 1 ? "\(named) leads" : "\(named) share the lead"
    }

    /// Units from points when each point is worth a unit from every other player: n x points - all points.
    static func pointUnits(_ points: [Int]) -> [Int] {
        let total = points.reduce(0, +)
        return points.map { points.count * $0 - total }
    }
}
