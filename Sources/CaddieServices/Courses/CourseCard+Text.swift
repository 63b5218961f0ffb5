import CaddieCore
import Foundation

/// The card as plain text, holes across and one block per tee, the way a printed scorecard reads.
extension CourseCard {
    /// The card as lines of text (no trailing newline). Unknown values print as "-".
    public var text: String {
        var lines: [String] = []
        let place = [city, country].compactMap { $0 }.joined(separator: ", ")
        lines.append(
            [name, club == name ? nil : club, place.isEmpty ? nil : place].compactMap { $0 }.joined(separator: " · ")
        )
        for card in tees {
            lines.append("")
            lines.append(Self.heading(card.tee))
            let width = 6
            func cell(_ value: Int?, _ size: Int) -> String {
                let text = value.map(String.init) ?? "-"
                return String(repeating: " ", count: max(0, size - text.count)) + text
            }
            func row(_ label: String, _ value: (Row) -> Int?, _ sum: (Totals) -> Int?, sums: Bool = true) -> String {
                var line = label.padding(toLength: width, withPad: " ", startingAt: 0)
                for item in card.rows where item.hole <= 9 { line += cell(value(item), 4) }
                line += sums ? cell(sum(card.front), 6) : String(repeating: " ", count: 6)
                if let back = card.back {
                    for item in card.rows where item.hole > 9 { line += cell(value(item), 4) }
                    line += sums ? cell(sum(back), 6) + cell(sum(card.total), 6) : ""
                }
                return line
            }
            var header = "Hole".padding(toLength: width, withPad: " ", startingAt: 0)
            for item in card.rows where item.hole <= 9 { header += cell(item.hole, 4) }
            header += "   Out"
            if card.back != nil {
                for item in card.rows where item.hole > 9 { header += cell(item.hole, 4) }
                header += "    In   Tot"
            }
            lines.append(header)
            lines.append(row("Par", \.par, \.par))
            lines.append(row("SI", \.strokeIndex, \.par, sums: false))
            lines.append(row("Yards", \.yards, \.yards))
        }
        let named = tees.first?.rows.filter { $0.name != nil } ?? []
        if !named.isEmpty {
            lines.append("")
            lines.append(named.map { "\($0.hole) \($0.name ?? "")" }.joined(separator: " · "))
        }
        if let source {
            lines.append("")
            lines.append("Source: \(source)" + (asOf.map { " (\($0))" } ?? ""))
        }
        if let attribution { lines.append(attribution) }
        return lines.joined(separator: "\n")
    }

    private static func heading(_ tee: CourseRecord.Tee?) -> String {
        guard let tee else { return "No tees known" }
        var parts = ["Tee \(tee.name)"]
        if let gender = tee.gender { parts.append(gender) }
        if let rating = tee.rating { parts.append("CR \(rating)") }
        if let slope = tee.slope { parts.append("Slope \(slope)") }
        if let par = tee.par { parts.append("par \(par)") }
        if let yards = tee.yards { parts.append("\(yards) yd") }
        for (label, nine) in [("front", tee.front), ("back", tee.back)] {
            guard let nine else { continue }
            let values = [
                nine.rating.map { "CR \($0)" }, nine.slope.map { "Slope \($0)" }, nine.par.map { "par \($0)" },
            ]
            parts.append("\(label) nine " + values.compactMap { $0 }.joined(separator: " "))
        }
        var line = parts.joined(separator: " · ")
        if let source = tee.source { line += "  [\(source)\(tee.asOf.map { ", \($0)" } ?? "")]" }
        return line
    }
}
