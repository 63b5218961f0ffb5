/// Bingo Bango Bongo: three points a hole, entered per hole: bingo to the first on the green, bango to the
/// closest to the pin once every ball is on, bongo to the first in the hole. Each point is worth a unit from every
/// other player, so the group settles on the differences in points.
public struct BingoBangoBongoFormat: GameFormat {
    public init() {}
    public var name: String { "bbb" }
    public var title: String { "Bingo Bango Bongo" }
    public var summary: String { "three points a hole: first on the green, closest once all are on, first in the hole" }
    public var players: ClosedRange<Int> { 2...Int.max }
    public var entries: [Games.EntryKind] { Self.kinds }

    static let kinds = [
        Games.EntryKind(key: "bingo", label: "first on the green"),
        Games.EntryKind(key: "bango", label: "closest to the pin once all are on"),
        Games.EntryKind(key: "bongo", label: "first in the hole"),
    ]

    public func score(_ context: Games.Context) -> Games.FormatResult {
        var points = Array(repeating: 0, count: context.cards.count)
        var holes: [(position: Int, text: String)] = []
        var complete = true
        for position in 0..<context.holes {
            var named: [String] = []
            for kind in Self.kinds {
                guard case .player(let player)? = context.choice(kind.key, position), points.indices.contains(player)
                else { continue }
                points[player] += 1
                named.append("\(kind.key) \(context.names[player])")
            }
            if named.count < Self.kinds.count { complete = false }
            if !named.isEmpty { holes.append((position, named.joined(separator: ", "))) }
        }
        let leaders = Games.leaders(points)
        let best = leaders.first.map { points[$0] } ?? 0
        return Games.FormatResult(
            format: .bingoBangoBongo,
            summary: best > 0
                ? "\(Games.leadWords(leaders, names: context.names)) with \(best) point\(best == 1 ? "" : "s")"
                : "no point entered yet",
            lines: context.cards.indices.map { (context.names[$0], "\(points[$0]) point\(points[$0] == 1 ? "" : "s")") },
            column: ("BBB", points.map(String.init)), holes: holes, units: Games.pointUnits(points), complete: complete)
    }
}
