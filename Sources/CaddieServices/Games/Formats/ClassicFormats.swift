// The five formats Caddie played first: stroke play, Stableford, match play, skins and the Nassau. Each player's
// own line (gross, net, points) is worked out by `Games.standings` for every game; these say what each format
// adds to it.

/// Stroke play, gross and net, each player off their own Playing Handicap at 95% (Appendix C).
public struct StrokePlayFormat: GameFormat {
    public init() {}
    public var name: String { "stroke" }
    public var title: String { "Stroke play" }
    public var summary: String { "every stroke counts, gross and net (95% of the Course Handicap)" }
    public var onByDefault: Bool { true }

    /// A disputed value changes a player's own line, which the dispute already names: nothing more to say.
    public func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String] { [] }

    /// A player who picked up a hole has no total (no return, NR; Rules of Golf 3.3b): they are out of the lead
    /// and listed as NR.
    public func score(_ context: Games.Context) -> Games.FormatResult {
        let players = context.cards.indices
        let nets = players.map { index -> (thru: Int, toPar: Int)? in
            let card = context.cards[index]
            guard card.pickUps.isEmpty, let handicap = Games.playingHandicap(card.courseHandicap, percent: 95) else {
                return nil
            }
            let strokes = Games.allocation(handicap, card: card)
            var thru = 0, toPar = 0
            for hole in 0..<context.holes {
                guard let score = card.gross[hole] else { continue }
                thru += 1
                toPar += score - strokes[hole] - card.pars[hole]
            }
            return (thru, toPar)
        }
        let started = players.map { index -> Int? in nets[index].flatMap { $0.thru > 0 ? $0.toPar : nil } }
        let leaders = Games.leaders(started, lowerWins: true)
        let summary =
            leaders.count == 1
            ? leaders.first.map { "\(context.names[$0]) leads on net, \(Games.toPar(nets[$0]!.toPar)) thru \(nets[$0]!.thru)" }!
            : leaders.first.map { "\(Games.leadWords(leaders, names: context.names)) on net, \(Games.toPar(nets[$0]!.toPar))" }
                ?? "not started"
        let noReturn = players.filter { !context.cards[$0].pickUps.isEmpty }
        return Games.FormatResult(
            format: .stroke, summary: summary,
            lines: noReturn.map { (context.names[$0], "NR (picked up)") },
            units: Array(repeating: 0, count: context.cards.count),
            complete: context.cards.allSatisfy(\.complete))
    }
}

/// Stableford points (Rules of Golf 21.1), each player off their own Playing Handicap at 95%.
public struct StablefordFormat: GameFormat {
    public init() {}
    public var name: String { "stableford" }
    public var title: String { "Stableford" }
    public var summary: String { "points a hole from the net score: bogey 1, par 2, birdie 3 (95%)" }
    public var onByDefault: Bool { true }

    /// A disputed value changes a player's own line, which the dispute already names: nothing more to say.
    public func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String] { [] }

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let points = context.cards.indices.map { context.stablefordPoints($0, percent: 95).compactMap { $0 }.reduce(0, +) }
        let leaders = Games.leaders(points)
        return Games.FormatResult(
            format: .stableford,
            summary: context.cards.allSatisfy({ card in !card.gross.indices.contains(where: card.entered) })
                ? "not started"
                : leaders.first.map { "\(Games.leadWords(leaders, names: context.names)) with \(points[$0]) points" }
                    ?? "not started",
            units: Array(repeating: 0, count: context.cards.count),
            complete: context.cards.allSatisfy(\.complete))
    }
}

/// Match play between two sides: singles at 100%, four-ball better ball at 90%, off the low (Appendix C).
public struct MatchPlayFormat: GameFormat {
    public init() {}
    public var name: String { "match" }
    public var title: String { "Match play" }
    public var summary: String { "hole by hole between two sides: singles (100%) or four-ball better ball (90%)" }
    public var sides: Games.SideRule? { Self.rule }

    /// The sides of a match and a Nassau: one against one, or two against two.
    public static let rule = Games.SideRule(
        sizes: 1...2, equal: true, needs: "match play and the Nassau need two sides: two players, or four in two teams of two")

    /// The allowance: 90% for four-ball sides, else 100%.
    static func percent(sides: [[Int]]?) -> Int { (sides?.first?.count ?? 1) == 2 ? 90 : 100 }

    /// Each hole's result between the sides: better ball net, strokes off the low of the players in the match.
    static func results(_ context: Games.Context, sides: [[Int]]) -> [Games.HoleResult] {
        let strokes = context.strokesOffTheLow(Array(sides.joined()), percent: percent(sides: sides))
        let side = sides.map { side in Games.betterBall(side.map { context.net($0, strokes: strokes[$0]) }) }
        return (0..<context.holes).map { Games.HoleResult.compare(side[0][$0], side[1][$0]) }
    }

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let (valid, note) = context.validSides(for: Self.rule)
        guard let sides = valid else {
            return .unscored(.match, players: context.cards.count, note: note ?? Self.rule.needs)
        }
        let status = Games.match(Self.results(context, sides: sides))
        let names = sides.map(context.sideName)
        let winner = status.isOver ? status.up > 0 ? 0 : status.up < 0 ? 1 : nil : nil
        var result = Games.FormatResult(
            format: .match, summary: Games.describe(status, sides: names),
            units: Games.sideUnits(players: context.cards.count, sides: sides, winner: winner),
            complete: status.isOver, detail: .match(status))
        result.sides = sides
        return result
    }

    public func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String] {
        Games.alternatives(outcomes.map(\.summary)).map { ["the match (\($0))"] } ?? []
    }
}

/// Skins, gross or net (strokes off the low at 100%), with carry-over and, if chosen, validation.
public struct SkinsFormat: GameFormat {
    public init() {}
    public var name: String { "skins" }
    public var title: String { "Skins" }
    public var summary: String { "the lowest score alone wins the hole's skin; ties carry it on (net or gross)" }

    /// Strokes each player receives on each hole in net skins: off the low at 100% among everyone.
    static func strokes(_ context: Games.Context) -> [[Int]] {
        context.strokesOffTheLow(Array(context.cards.indices), percent: 100)
    }

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let strokes =
            context.rules.netSkins ? Self.strokes(context) : context.cards.map { _ in Array(repeating: 0, count: context.holes) }
        let grid = (0..<context.holes).map { hole in
            context.cards.indices.map { player in
                context.cards[player].gross[hole].map { $0 - strokes[player][hole] } ?? context.cards[player].played(hole)
            }
        }
        let skins = Games.skins(grid, validation: context.rules.skinsValidation)
        let leader = skins.won.indices.max { (skins.won[$0], -$0) < (skins.won[$1], -$1) }
        let summary =
            leader.flatMap {
                skins.won[$0] > 0 ? "\(context.names[$0]) has \(skins.won[$0]) skin\(skins.won[$0] == 1 ? "" : "s")" : nil
            }
            ?? "no skin won yet"
        return Games.FormatResult(
            format: .skins, summary: summary + (skins.carry > 0 ? ", \(skins.carry) carried" : ""),
            units: Games.pointUnits(skins.won), complete: skins.complete, detail: .skins(skins))
    }

    public func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String] {
        let all = outcomes.compactMap { if case .skins(let skins) = $0.detail { skins } else { nil } }
        guard all.count == outcomes.count, let first = all.first else { return [] }
        var items: [String] = []
        for position in first.holes.indices where items.count < 3 {
            if let text = Games.alternatives(all.map { Games.describe($0.holes[position].outcome, names: context.names) }) {
                items.append("skin \(context.holeNumbers[position]) (\(text))")
            }
        }
        return items
    }
}

/// The Nassau: front nine, back nine and 18 as one-unit match-play bets, with automatic presses at 2 down.
public struct NassauFormat: GameFormat {
    public init() {}
    public var name: String { "nassau" }
    public var title: String { "Nassau" }
    public var summary: String { "front nine, back nine and 18 as three match bets, pressed automatically at 2 down" }
    public var sides: Games.SideRule? { MatchPlayFormat.rule }

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let (valid, note) = context.validSides(for: MatchPlayFormat.rule)
        guard let sides = valid else {
            return .unscored(.nassau, players: context.cards.count, note: note ?? MatchPlayFormat.rule.needs)
        }
        guard context.holes == 18 else {
            return .unscored(
                .nassau, players: context.cards.count, note: "a Nassau needs 18 holes: this game plays \(context.holes)")
        }
        let nassau = Games.nassau(MatchPlayFormat.results(context, sides: sides))
        let names = sides.map(context.sideName)
        var units = Array(repeating: 0, count: context.cards.count)
        for player in sides[0] { units[player] += nassau.unitsToA }
        for player in sides[1] { units[player] -= nassau.unitsToA }
        let summary = nassau.bets.prefix(3).map {
            "\(Games.betName($0, holes: context.holeNumbers)): \(Games.describe($0.status, sides: names))"
        }
        var result = Games.FormatResult(
            format: .nassau, summary: summary.joined(separator: "; "), units: units, complete: nassau.complete,
            detail: .nassau(nassau))
        result.sides = sides
        return result
    }

    public func decides(_ outcomes: [Games.FormatResult], context: Games.Context) -> [String] {
        let all = outcomes.compactMap { if case .nassau(let nassau) = $0.detail { nassau } else { nil } }
        guard all.count == outcomes.count, let first = all.first, let sides = outcomes.first?.sides else { return [] }
        let names = sides.map(context.sideName)
        var items: [String] = []
        func describe(_ nassau: Games.NassauResult, _ index: Int) -> String {
            Games.describe(nassau.bets[index].status, sides: names)
        }
        for index in 0..<min(3, first.bets.count) {
            if let text = Games.alternatives(all.map { describe($0, index) }) {
                items.append("the \(Games.betName(first.bets[index], holes: context.holeNumbers)) (\(text))")
            }
        }
        if let text = Games.alternatives(all.map { "\($0.bets.count - 3) press\($0.bets.count == 4 ? "" : "es")" }) {
            items.append("the presses (\(text))")
        } else {
            // The same presses either way: say which of them the value decides.
            for index in 3..<first.bets.count {
                if let text = Games.alternatives(all.map { describe($0, index) }) {
                    items.append("the \(Games.betName(first.bets[index], holes: context.holeNumbers)) (\(text))")
                }
            }
        }
        return items
    }
}

extension Games {
    /// A match's state in words, from the leader's side: "Ann 2 up thru 7", "Ann & Ben won 3&2", "all square".
    public static func describe(_ status: MatchStatus, sides: [String]) -> String {
        guard let leader = status.leader else { return status.summary }
        let name = sides[leader == .a ? 0 : 1]
        return status.isOver ? "\(name) won \(status.summary)" : "\(name) \(status.summary)"
    }

    /// A Nassau bet's name: "front nine", "back nine", "18 holes", "press on holes 3-9".
    public static func betName(_ bet: NassauBet, holes: [Int]) -> String {
        switch bet.kind {
        case .front: "front nine"
        case .back: "back nine"
        case .overall: "18 holes"
        case .press: "press on holes \(holes[bet.start])-\(holes[bet.end - 1])"
        }
    }

    /// A skins hole in words: "Dev wins 2", "carry 2", "undecided".
    public static func describe(_ outcome: SkinOutcome, names: [String]) -> String {
        switch outcome {
        case .won(let player, let skins): "\(names[player]) wins \(skins)"
        case .awaitingValidation(let player, let skins): "\(names[player]) wins \(skins) if validated"
        case .wonThenVoided(let player, let skins): "\(names[player])'s \(skins) not validated, carried"
        case .carried(let carry): "carry \(carry)"
        case .pending: "undecided"
        }
    }

    /// A score to par as golfers write it: "E", "+3", "-2".
    public static func toPar(_ value: Int) -> String { value == 0 ? "E" : value > 0 ? "+\(value)" : "\(value)" }
}
