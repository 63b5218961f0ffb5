import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

/// Standings as a golfer reads them: a line per player, then the match, the Nassau, the skins, the disputes
/// (with what each decides) and who pays whom.
enum StandingsText {
    static func render(_ standings: GameStandings) -> String {
        let card = standings.card
        var lines: [String] = []
        let course = card.course?.name ?? "course not yet received"
        lines.append(
            "Game \(card.game.id.short) · \(course) · holes \(RoundService.describe(standings.holes)) · "
                + standings.formats.map(\.rawValue).joined(separator: ", "))
        let width = max(6, card.players.map(\.name.count).max() ?? 6) + 2
        func pad(_ text: String, _ size: Int) -> String {
            text.count >= size ? text : String(repeating: " ", count: size - text.count) + text
        }
        lines.append(
            "Player".padding(toLength: width, withPad: " ", startingAt: 0) + pad("Tee", 8) + pad("Thru", 5)
                + pad("Gross", 6) + pad("To par", 7) + pad("PH", 4) + pad("Net", 5) + pad("Pts", 4) + pad("Skins", 6))
        let order = card.players.indices.sorted {
            let a = standings.result.players[$0], b = standings.result.players[$1]
            // A player with no return (a hole picked up) is listed after those with a total.
            return (a.noReturn ? 1 : 0, a.netToPar ?? a.grossToPar, $0) < (b.noReturn ? 1 : 0, b.netToPar ?? b.grossToPar, $1)
        }
        for index in order {
            let line = standings.result.players[index]
            let nr = line.noReturn
            lines.append(
                card.players[index].name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + pad(standings.tees[index], 8) + pad("\(line.thru)", 5) + pad(nr ? "NR" : "\(line.gross)", 6)
                    + pad(nr ? "NR" : CardExport.toPar(line.grossToPar, thru: line.thru), 7)
                    + pad(line.playingHandicap.map(String.init) ?? "-", 4)
                    + pad(nr ? "NR" : line.netToPar.map { CardExport.toPar($0, thru: line.thru) } ?? "-", 5)
                    + pad(line.points.map(String.init) ?? "-", 4) + pad("\(line.skins)", 6))
        }
        if let match = standings.result.match {
            lines.append("")
            lines.append("Match (\(standings.sideName(0)) v \(standings.sideName(1))): \(standings.describe(match))")
        }
        if let nassau = standings.result.nassau {
            lines.append("")
            lines.append("Nassau (\(standings.sideName(0)) v \(standings.sideName(1))):")
            for bet in nassau.bets {
                let by = bet.pressedBy.map { ", pressed by \(standings.sideName($0 == .a ? 0 : 1))" } ?? ""
                lines.append("  \(standings.name(bet))\(by): \(standings.describe(bet.status))")
            }
        }
        if let skins = standings.result.skins {
            lines.append("")
            lines.append(
                "Skins (\(standings.rules.netSkins ? "net, strokes off the low" : "gross")"
                    + (standings.rules.skinsValidation ? ", validated" : "") + "):")
            let decided = skins.holes.filter { if case .pending = $0.outcome { false } else { true } }
            let text = decided.map { "\(standings.holes[$0.position]): \(standings.describe($0.outcome))" }
            if !text.isEmpty { lines.append("  " + text.joined(separator: " · ")) }
            if skins.carry > 0 { lines.append("  \(skins.carry) skin\(skins.carry == 1 ? "" : "s") carried") }
        }
        for result in standings.formatResults {
            lines.append("")
            lines.append("\(result.format.definition.title): \(result.summary)")
            for line in result.lines { lines.append("  \(line.label): \(line.value)") }
            let holes = result.holes.map { "\(standings.holes[$0.position]): \($0.text)" }
            if !holes.isEmpty { lines.append("  " + holes.joined(separator: " · ")) }
        }
        if !standings.disputes.isEmpty {
            lines.append("")
            lines.append("Disputes (settle with `caddie score`):")
            for dispute in standings.disputes { lines.append("  " + dispute.text) }
        }
        if let stake = standings.rules.stake {
            lines.append("")
            lines.append(
                "Settlement at \(CardExport.money(stake)) a unit"
                    + (standings.provisional ? " (provisional: a dispute changes it):" : ":"))
            if standings.result.transfers.isEmpty { lines.append("  nothing owed") }
            for transfer in standings.result.transfers {
                lines.append(
                    "  \(card.players[transfer.from].name) pays \(card.players[transfer.to].name) "
                        + CardExport.money(Double(transfer.units) * stake))
            }
        }
        for note in standings.notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }
}
