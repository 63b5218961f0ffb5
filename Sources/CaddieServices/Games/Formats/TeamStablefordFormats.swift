/// Four-ball Stableford: two sides of two, each partner scoring Stableford points off their own Playing Handicap at
/// 85% (Appendix C), the side taking the better of its two on each hole (Rules of Golf 23.2a, 21.1).
public struct FourBallStablefordFormat: GameFormat {
    public init() {}
    public var name: String { "fourball" }
    public var title: String { "Four-ball Stableford" }
    public var summary: String { "two sides of two: the better of the partners' Stableford points counts (85%)" }
    public var sides: Games.SideRule? { Self.rule }
    public var players: ClosedRange<Int> { 4...4 }

    static let rule = Games.SideRule(
        sizes: 2...2, equal: true, needs: "four-ball Stableford needs two sides of two")

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let (valid, note) = context.validSides(for: Self.rule)
        guard let sides = valid else { return .unscored(.fourBallStableford, players: context.cards.count, note: note!) }
        return Games.sideStableford(context, format: .fourBallStableford, sides: sides, counting: 1, percent: 85)
    }
}

/// Team Stableford, best two of four: on each hole the two best Stableford points of a team count, each player off
/// their own Playing Handicap at 85% (Appendix C's best 2 of 4). Without sides the whole group is one team and
/// plays against the field; with two sides of equal size the higher total wins.
public struct TeamStablefordFormat: GameFormat {
    public init() {}
    public var name: String { "teamstableford" }
    public var title: String { "Team Stableford (best two)" }
    public var summary: String { "the best two Stableford points of a team count on each hole (85%)" }
    public var sides: Games.SideRule? { Self.rule }
    public var players: ClosedRange<Int> { 2...Int.max }

    static let rule = Games.SideRule(
        sizes: 2...4, equal: true, oneTeamWithout: true,
        needs: "team Stableford needs one team of two to four players, or two sides of that size and equal")

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let (valid, note) = context.validSides(for: Self.rule)
        guard let sides = valid else { return .unscored(.teamStableford, players: context.cards.count, note: note!) }
        return Games.sideStableford(context, format: .teamStableford, sides: sides, counting: 2, percent: 85)
    }
}

extension Games {
    /// Stableford in sides: each hole, the `counting` best points of a side's players add up. One side plays
    /// against the field; two sides against each other, the higher total winning once every hole is scored.
    static func sideStableford(
        _ context: Context, format: Format, sides: [[Int]], counting: Int, percent: Int
    ) -> FormatResult {
        let points = context.cards.indices.map { context.stablefordPoints($0, percent: percent) }
        // A side's points on a hole: nil until one of its players has a score.
        let perHole = sides.map { side in
            (0..<context.holes).map { hole -> Int? in
                let scored = side.compactMap { points[$0][hole] }.sorted(by: >)
                return scored.isEmpty ? nil : scored.prefix(counting).reduce(0, +)
            }
        }
        let totals = perHole.map { $0.compactMap { $0 }.reduce(0, +) }
        let names = sides.map(context.sideName)
        let both = (0..<context.holes).filter { hole in perHole.allSatisfy { $0[hole] != nil } }
        let complete = both.count == context.holes
        var summary = zip(names, totals).map { "\($0) \($1)" }.joined(separator: " v ") + " points"
        summary += complete ? "" : " thru \(both.count)"
        var winner: Int?
        if sides.count == 2, complete, totals[0] != totals[1] {
            winner = totals[0] > totals[1] ? 0 : 1
            summary = "\(names[winner!]) won, " + summary
        }
        var result = FormatResult(
            format: format, summary: summary,
            lines: zip(names, totals).map { ($0, "\($1) points") },
            holes: both.map { hole in
                (hole, zip(names, perHole).map { "\($0) \($1[hole]!)" }.joined(separator: ", "))
            },
            units: sideUnits(players: context.cards.count, sides: sides, winner: winner), complete: complete)
        result.sides = sides
        return result
    }
}
