import CaddieCore
import CaddieServices
import Foundation

extension CompetitionBoard {
    /// One line's position as the results print it: "1", "T3", "NR", "DQ", "-" for a card not started.
    public func position(_ line: Competition.Line) -> String {
        if let status = line.status { return status.rawValue }
        guard let place = line.position else { return "-" }
        return (line.tied ? "T" : "") + String(place)
    }

    /// A division's title: its name, or its Playing Handicap band, or nothing for a field of one division.
    public func title(_ division: Competition.Division) -> String? {
        if let name = division.name { return "Division \(name)" }
        return division.range.map { "Division \(division.number) (Playing Handicap \($0))" }
    }

    /// The results as CSV (RFC 4180): one row per player, division by division in board order.
    public var csv: String {
        let field = Views.csvField
        var rows = [
            [
                "division", "position", "player", "group", "playing handicap", "thru", "gross", "gross to par", "net",
                "net to par", "points", "countback",
            ]
        ]
        for division in board.divisions {
            for line in division.lines {
                let entrant = entrants[line.entrant]
                let scored = line.status == nil && line.thru > 0
                rows.append([
                    division.name ?? division.range ?? "", position(line), entrant.player.name, entrant.game.short,
                    line.playingHandicap.map(String.init) ?? "", String(line.thru), scored ? String(line.gross) : "",
                    scored ? Games.toPar(line.grossToPar) : "", scored ? String(line.net) : "",
                    scored ? Games.toPar(line.netToPar) : "", scored ? String(line.points) : "", line.decidedBy ?? "",
                ])
            }
        }
        return rows.map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// The results as one self-contained page (no script, no external file) to print or pin up: a table per
    /// division, the countback beside each tie, the twos and the notes.
    public var html: String {
        let esc = Views.escapedHTML
        let name = esc(competition.name)
        let figures: [String] =
            switch settings.scoring {
            case .stableford: ["Points"]
            case .net: ["Gross", "Net", "To par"]
            case .gross: ["Gross", "To par"]
            }
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Results: \(name)</title>
            <style>
            @page { size: A4 portrait; margin: 12mm; }
            body { font: 10pt/1.3 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111; margin: 0; }
            h1 { font-size: 16pt; margin: 0 0 1mm; }
            h2 { font-size: 12pt; margin: 5mm 0 1.5mm; }
            .meta { color: #333; margin: 0 0 3mm; }
            table { border-collapse: collapse; width: 100%; }
            th, td { border-bottom: 0.3mm solid #bbb; padding: 1mm 1.5mm; text-align: right; }
            th { background: #e8efe8; }
            td.name, th.name, td.why { text-align: left; }
            td.why { color: #444; font-size: 8.5pt; }
            </style></head><body>
            <h1>\(name)</h1>
            <p class="meta">\(esc(settings.scoring.title)) · \(settings.allowance)% allowance · ties by \
            \(esc(settings.countback.title)) · \(groups) groups · \(competition.closed ? "closed" : "in play")\
            \(lastEntry.map { " · last entry \(esc(Views.time(milliseconds: $0)))" } ?? "")</p>

            """
        for division in board.divisions {
            if let title = title(division) { out += "<h2>\(esc(title))</h2>\n" }
            out += "<table><tr><th>Pos</th><th class=\"name\">Player</th><th>PH</th><th>Thru</th>"
            out += figures.map { "<th>\($0)</th>" }.joined() + "<th class=\"name\">Countback</th></tr>\n"
            for line in division.lines {
                let scored = line.status == nil && line.thru > 0
                let values: [String] =
                    switch settings.scoring {
                    case .stableford: [String(line.points)]
                    case .net: [String(line.gross), String(line.net), Games.toPar(line.netToPar)]
                    case .gross: [String(line.gross), Games.toPar(line.grossToPar)]
                    }
                out += "<tr><td>\(esc(position(line)))</td>"
                out += "<td class=\"name\">\(esc(entrants[line.entrant].player.name))</td>"
                out += "<td>\(line.playingHandicap.map(String.init) ?? "-")</td>"
                out += "<td>\(line.thru == 0 ? "-" : line.complete ? "F" : String(line.thru))</td>"
                out += values.map { "<td>\(scored ? esc($0) : "")</td>" }.joined()
                out += "<td class=\"why\">\(esc(line.decidedBy ?? ""))</td></tr>\n"
            }
            out += "</table>\n"
        }
        if !board.twos.isEmpty {
            out += "<h2>Twos</h2><p>"
            out += board.twos.map { two in
                esc(entrants[two.entrant].player.name) + " (" + Dispute.ordinal(two.hole) + ")"
                    + (two.division.map { ", division \($0)" } ?? "")
            }.joined(separator: "; ")
            out += "</p>\n"
        }
        if !notes.isEmpty { out += "<h2>Notes</h2><ul>" + notes.map { "<li>\(esc($0))</li>" }.joined() + "</ul>\n" }
        return out + "</body></html>\n"
    }
}
