import CaddieAPI
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

/// A competition's board as the committee reads it at the clubhouse: a table per division, each tie's countback
/// step beside it, NR and DQ last, then the twos and the notes.
enum BoardText {
    static func render(_ board: CompetitionBoard) -> String {
        let settings = board.settings
        var lines = [
            "\(board.competition.name) · \(settings.scoring.title) · \(settings.allowance)% allowance · ties by "
                + settings.countback.rawValue,
            "\(board.groups) group\(board.groups == 1 ? "" : "s"), \(board.entrants.count) player"
                + "\(board.entrants.count == 1 ? "" : "s")"
                + (board.lastEntry.map { ", last entry \(Views.time(milliseconds: $0))" } ?? ", no entries yet"),
        ]
        let width = max(6, board.entrants.map(\.player.name.count).max() ?? 6) + 2
        func pad(_ text: String, _ size: Int) -> String {
            text.count >= size ? text : String(repeating: " ", count: size - text.count) + text
        }
        let figures: [String] =
            switch settings.scoring {
            case .stableford: ["Points"]
            case .net: ["Gross", "Net", "To par"]
            case .gross: ["Gross", "To par"]
            }
        for division in board.board.divisions {
            lines.append("")
            if let name = division.name {
                lines.append("Division \(name)")
            } else if let range = division.range {
                lines.append("Division \(division.number) (Playing Handicap \(range))")
            }
            lines.append(
                "Pos  " + "Player".padding(toLength: width, withPad: " ", startingAt: 0) + pad("PH", 4) + pad("Thru", 5)
                    + figures.map { pad($0, 7) }.joined())
            if division.lines.isEmpty { lines.append("     nobody in this division") }
            for line in division.lines {
                let position: String =
                    if let status = line.status { status.rawValue } else if let place = line.position {
                        (line.tied ? "T" : "") + String(place)
                    } else { "-" }
                var values: [String] =
                    switch settings.scoring {
                    case .stableford: ["\(line.points)"]
                    case .net: ["\(line.gross)", "\(line.net)", CardExport.toPar(line.netToPar, thru: line.thru)]
                    case .gross: ["\(line.gross)", CardExport.toPar(line.grossToPar, thru: line.thru)]
                    }
                if line.status != nil { values = figures.map { _ in "" } }
                var text =
                    position.padding(toLength: 5, withPad: " ", startingAt: 0)
                    + board.entrants[line.entrant].player.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + pad(line.playingHandicap.map(String.init) ?? "-", 4)
                    + pad(line.thru == 0 ? "-" : line.complete ? "F" : "\(line.thru)", 5)
                    + values.map { pad($0, 7) }.joined()
                if let decided = line.decidedBy { text += "  (\(decided))" }
                lines.append(text.trimmingCharacters(in: .whitespaces))
            }
        }
        if !board.board.twos.isEmpty {
            lines.append("")
            var byDivision: [Int?: [Competition.Two]] = [:]
            for two in board.board.twos { byDivision[two.division, default: []].append(two) }
            for division in byDivision.keys.sorted(by: { ($0 ?? 0) < ($1 ?? 0) }) {
                let twos = byDivision[division] ?? []
                let names = twos.map { "\(board.entrants[$0.entrant].player.name) (\(Dispute.ordinal($0.hole)))" }
                lines.append(
                    "Twos\(division.map { " in division \($0)" } ?? ""): \(twos.count), a share each: "
                        + names.joined(separator: ", "))
            }
        }
        if !board.notes.isEmpty {
            lines.append("")
            lines += board.notes.map { "Note: \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

extension BoardText {
    /// The draw as the starter reads it: a block per group, its start and time, each player with their index, tee
    /// and marker, and whether a phone has checked in for them.
    static func sheet(_ sheet: DrawSheet) -> String {
        let players = sheet.groups.flatMap(\.players)
        let checkedIn = players.filter { $0.player.user != nil }.count
        var lines = [
            "\(sheet.competition.name): \(sheet.entries) entrants, \(sheet.groups.count) groups"
                + (players.isEmpty ? "" : ", \(checkedIn) of \(players.count) checked in")
        ]
        if !sheet.committee.isEmpty { lines.append("Committee: " + sheet.committee.joined(separator: ", ")) }
        if sheet.groups.isEmpty {
            lines.append("No draw yet: caddie competition draw \(sheet.competition.id.short) --course COURSE")
        }
        for group in sheet.groups {
            lines.append("")
            lines.append(
                "Group \(group.label): "
                    + (group.teeTime.map { "\($0) from the \(Dispute.ordinal(group.startHole))" }
                        ?? "shotgun, the \(Dispute.ordinal(group.startHole))") + "  (game \(group.game.short))")
            let width = max(6, group.players.map(\.player.name.count).max() ?? 6) + 2
            for player in group.players {
                lines.append(
                    "  " + player.player.name.padding(toLength: width, withPad: " ", startingAt: 0)
                        + "index " + (player.index.map { $0 < 0 ? "+" + String(-$0) : String($0) } ?? "-")
                        + ", tee \(player.tee)"
                        + (player.marker.map { ", marked by \($0)" } ?? "")
                        + (player.player.user != nil ? ", checked in" : ""))
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension BoardText {
    /// The starter's sheet: one self-contained page (no script, no external file) with a block per group, its start,
    /// its players with their index, tee and marker, and a QR code at `base`: the group's check-in code where
    /// `checkIns` has one (each player's phone signs in with it and becomes that player's device), else the group's
    /// card.
    /// `trust`: the node's trust page, whose code a phone new to the node scans first.
    static func sheetHTML(
        _ sheet: DrawSheet, base: String?, space: SpaceID, checkIns: [GameID: String] = [:], trust: String? = nil
    ) -> String {
        let esc = Views.escapedHTML
        let name = esc(sheet.competition.name)
        let scan =
            base == nil
            ? ""
            : checkIns.isEmpty
                ? " Scan your group's code with a phone that trusts this node (caddie web authority) to open its card."
                : " Each player scans their group's code once, with their own phone (one that trusts this node: caddie "
                    + "web authority), says which player they are, and the phone becomes their device for the day's card. "
                    + "This sheet signs phones in: keep it with the starter."
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Draw: \(name)</title>
            <style>
            @page { size: A4 portrait; margin: 10mm; }
            body { font: 10pt/1.3 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111; margin: 0; }
            h1 { font-size: 16pt; margin: 0 0 1mm; }
            .meta { color: #333; margin: 0 0 3mm; }
            .groups { display: grid; grid-template-columns: 1fr 1fr; gap: 3mm; }
            .group { border: 0.4mm solid #888; border-radius: 2mm; padding: 2mm; display: flex; gap: 2mm;
              break-inside: avoid; }
            .group h2 { font-size: 11pt; margin: 0 0 1mm; }
            .group table { border-collapse: collapse; font-size: 8.5pt; }
            .group td { padding: 0.4mm 1.5mm 0.4mm 0; vertical-align: top; white-space: nowrap; }
            .qr { width: 28mm; flex: none; text-align: center; font-size: 6pt; word-break: break-all; color: #444; }
            .qr svg { width: 28mm; height: 28mm; display: block; }
            .wall { margin-top: 4mm; width: 50%; }
            </style></head><body>
            <h1>\(name)</h1>
            <p class="meta">\(sheet.entries) entrants, \(sheet.groups.count) groups. Each player is marked by the one \
            named beside them.\(scan)</p>
            \(trust.map { link in
                "<section class=\"group wall\"><div class=\"qr\">\(QRCode.svg(link) ?? "")\(esc(link))</div><div><h2>First, "
                    + "once per phone</h2><p>Scan this to trust the clubhouse node, then your group's code.</p></div></section>"
            } ?? "")
            <div class="groups">

            """
        for group in sheet.groups {
            let start =
                group.teeTime.map { "\($0) from the \(Dispute.ordinal(group.startHole))" }
                ?? "shotgun, the \(Dispute.ordinal(group.startHole))"
            out += "<section class=\"group\"><div><h2>Group \(esc(group.label)) · \(esc(start))</h2><table>\n"
            for player in group.players {
                let index = player.index.map { $0 < 0 ? "+" + String(-$0) : String($0) } ?? "-"
                out += "<tr><td><b>\(esc(player.player.name))</b></td><td>\(esc(index))</td><td>tee \(esc(player.tee))</td>"
                out += "<td>\(player.marker.map { "marked by " + esc($0) } ?? "")</td></tr>\n"
            }
            out += "</table></div>"
            if let base, let secret = checkIns[group.game] {
                let link = "\(base)/signin?t=\(secret)"
                out += "<div class=\"qr\">\(QRCode.svg(link) ?? "")check in, \(group.players.count) phones: \(esc(link))</div>"
            } else if let base {
                let link = "\(base)/#/game/\(group.game.hex)"
                out += "<div class=\"qr\">\(QRCode.svg(link) ?? "")\(esc(link))</div>"
            }
            out += "</section>\n"
        }
        out += "</div>"
        // A public board's code, for the clubhouse wall: spectators' phones open the board with no sign-in.
        if let base, sheet.competition.publicBoard {
            let link = "\(base)/board/\(space.hex)/\(sheet.competition.id.hex)"
            out += "<section class=\"group wall\"><div class=\"qr\">\(QRCode.svg(link) ?? "")\(esc(link))</div>"
            out += "<div><h2>The board, live</h2><p>Scan to follow the day on your phone: no sign-in.</p></div></section>"
        }
        return out + "</body></html>\n"
    }
}
