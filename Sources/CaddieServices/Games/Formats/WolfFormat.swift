/// Wolf: the Wolf rotates through the players in card order, one a hole. On each hole the Wolf picks a partner
/// (entered as `wolf=NAME`) or plays alone (`wolf=lone`); the better net ball of each side wins the hole (strokes
/// off the low at 100%, as in net skins), a tie wins nothing. Each winner gets a unit and each loser gives one
/// (each loser pays each winner one when the sides are unequal); a Lone Wolf doubles it. Points are units.
public struct WolfFormat: GameFormat {
    public init() {}
    public var name: String { "wolf" }
    public var title: String { "Wolf" }
    public var summary: String { "a rotating Wolf picks a partner or goes alone on each hole; a Lone Wolf doubles the stake" }
    public var players: ClosedRange<Int> { 3...5 }
    public var entries: [Games.EntryKind] { [Self.entry] }

    static let entry = Games.EntryKind(key: "wolf", label: "the Wolf's partner", allowsLone: true)

    /// The Wolf on a hole: the players take turns in card order.
    public static func wolf(position: Int, players: Int) -> Int { position % max(players, 1) }

    public func refusal(entry: Games.EntryKind, position: Int, player: Int?, names: [String]) -> String? {
        let wolf = Self.wolf(position: position, players: names.count)
        guard let player, player == wolf else { return nil }
        return "\(names[wolf]) is the Wolf on that hole: choose a partner for them, or lone"
    }

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let count = context.cards.count
        let strokes = context.strokesOffTheLow(Array(context.cards.indices), percent: 100)
        let nets = context.cards.indices.map { context.net($0, strokes: strokes[$0]) }
        var units = Array(repeating: 0, count: count)
        var holes: [(position: Int, text: String)] = []
        var decided = 0
        for position in 0..<context.holes {
            let wolf = Self.wolf(position: position, players: count)
            let scores = nets.map { $0[position] }
            guard let choice = context.choice("wolf", position) else {
                if !scores.contains(nil) {
                    holes.append((position, "\(context.names[wolf]) is the Wolf: no partner entered yet"))
                }
                continue
            }
            guard !scores.contains(nil) else { continue }
            let team: [Int]
            switch choice {
            case .lone: team = [wolf]
            case .player(let partner):
                // A partner who is now the Wolf (the roster or a name changed the turns since): not a choice.
                guard partner != wolf, context.cards.indices.contains(partner) else {
                    holes.append((position, "\(context.names[wolf]) is the Wolf: enter the partner again"))
                    continue
                }
                team = [wolf, partner]
            }
            let others = context.cards.indices.filter { !team.contains($0) }
            let best = [team, others].map { side in side.compactMap { scores[$0] }.min()! }
            decided += 1
            let lone = team.count == 1
            let name = lone ? "\(context.names[wolf]) (lone)" : context.sideName(team)
            guard best[0] != best[1] else {
                holes.append((position, "\(name) halved"))
                continue
            }
            let won = best[0] < best[1] ? 0 : 1
            let hole = Games.sideUnits(players: count, sides: [team, others], winner: won)
            for index in units.indices { units[index] += hole[index] * (lone ? 2 : 1) }
            holes.append((position, won == 0 ? "\(name) won" : "\(name) lost"))
        }
        let leaders = Games.leaders(units)
        let best = leaders.first.map { units[$0] } ?? 0
        let after = "after \(decided) hole\(decided == 1 ? "" : "s")"
        let summary =
            decided == 0
            ? "no hole decided"
            : best > 0
                ? "\(Games.leadWords(leaders, names: context.names)), \(Self.signed(best)) \(after)" : "all level \(after)"
        return Games.FormatResult(
            format: .wolf, summary: summary,
            lines: context.cards.indices.map { (context.names[$0], Self.signed(units[$0])) },
            column: ("Wolf", units.map(Self.signed)), holes: holes, units: units, complete: decided == context.holes)
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }
}
