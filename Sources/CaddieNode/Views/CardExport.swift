import CaddieCore
import CaddieServices
import CaddieStore
import Foundation

/// A card people can hand in: the whole game as CSV for a spreadsheet, or as an HTML page that prints on one A4
/// sheet (landscape) with every hole, handicaps, net, points, attestations and the state hash.
public struct CardExport: Sendable {
    /// An attestation with what was checked of it.
    public struct Attestation: Sendable {
        /// The record.
        public let record: AttestationRecord
        /// Whether the op carrying it passed a fresh signature and chain check.
        public let signatureChecked: Bool
        /// Whether the hash it signed is the card as it stands now.
        public let matchesCard: Bool
    }

    /// The standings behind the card.
    public let standings: GameStandings
    /// The state hash of the space when the card was made.
    public let stateHash: Digest32
    /// When the card was made (ms since 1970).
    public let madeAt: UInt64
    /// The attestations, checked.
    public let attestations: [Attestation]

    public init(standings: GameStandings, stateHash: Digest32, madeAt: UInt64, attestations: [Attestation]) {
        self.standings = standings
        self.stateHash = stateHash
        self.madeAt = madeAt
        self.attestations = attestations
    }

    private var card: Scorecard { standings.card }

    private func cellText(_ player: Int, _ hole: Int) -> String {
        guard let cell = card.cell(card.players[player].id, hole), let winner = cell.winner else { return "" }
        return "\(winner.entry.mark)\(cell.isConflict ? "*" : "")"
    }

    /// The total over these positions in the order of play, as the card shows it (`Scorecard.totalText`).
    private func total(_ player: Int, _ positions: Range<Int>) -> String {
        card.totalText(card.players[player].id, holes: positions.map { standings.holes[$0] })
    }

    private var halves: [Range<Int>] {
        standings.holes.count == 18 ? [0..<9, 9..<18] : [0..<standings.holes.count]
    }

    // MARK: CSV

    /// RFC 4180 CSV: a header row, then one row per player with each hole's strokes and the totals.
    public var csv: String {
        let field = Views.csvField
        var header = ["player", "tee", "course handicap", "playing handicap"]
        header += standings.holes.map { "hole \($0)" }
        header += ["out", "in", "total", "to par", "net", "net to par", "points", "skins", "units", "attested by"]
        var rows = [header]
        let parTee = standings.tees.first ?? card.game.tee
        let pars: [Int] = standings.pars.first ?? []
        var parRow: [String] = ["par", parTee, "", ""]
        parRow += pars.map { String($0) }
        let outPar: Int = pars.isEmpty ? 0 : pars[halves[0]].reduce(0, +)
        let inPar: String = halves.count > 1 && !pars.isEmpty ? String(pars[halves[1]].reduce(0, +)) : ""
        parRow += [String(outPar), inPar, String(pars.reduce(0, +))]
        parRow += Array(repeating: "", count: 7)
        rows.append(parRow)
        for index in card.players.indices {
            let line = standings.result.players[index]
            let player = card.players[index]
            let attested = attestations.filter { $0.record.player == player.id }.map(\.record.marker).joined(separator: "; ")
            var row = [
                player.name, standings.tees[index],
                standings.courseHandicaps[index].map { String(format: "%.1f", $0) } ?? "",
                line.playingHandicap.map(String.init) ?? "",
            ]
            row += standings.holes.map { cellText(index, $0) }
            row += [
                total(index, halves[0]), halves.count > 1 ? total(index, halves[1]) : "",
                total(index, 0..<standings.holes.count),
                line.noReturn ? "NR" : Self.toPar(line.grossToPar, thru: line.thru),
                line.noReturn ? "NR" : line.net.map(String.init) ?? "",
                line.noReturn ? "NR" : line.netToPar.map { Self.toPar($0, thru: line.thru) } ?? "",
                line.points.map(String.init) ?? "", String(line.skins), String(line.units), attested,
            ]
            rows.append(row)
        }
        return rows.map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    public static func toPar(_ value: Int, thru: Int) -> String {
        thru == 0 ? "" : Games.toPar(value)
    }

    // MARK: HTML

    /// One self-contained page (no script, no external file) that prints on one A4 sheet, landscape.
    public var html: String {
        let esc = Views.escapedHTML
        let course = card.course?.name ?? "course not yet received"
        let date = Views.time(milliseconds: card.game.createdAt)
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Card: \(esc(course)), \(esc(date))</title>
            <style>
            @page { size: A4 landscape; margin: 9mm; }
            * { box-sizing: border-box; }
            body { font: 8.5pt/1.25 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111; margin: 0; }
            h1 { font-size: 13pt; margin: 0 0 1mm; }
            .meta { margin: 0 0 2mm; color: #333; }
            table { border-collapse: collapse; width: 100%; margin-bottom: 2.5mm; }
            th, td { border: 0.3mm solid #888; padding: 0.6mm 0.8mm; text-align: center; }
            th { background: #e8efe8; font-weight: 600; }
            td.name, th.name { text-align: left; white-space: nowrap; }
            td.sum { font-weight: 700; background: #f4f4f4; }
            td.conflict { background: #ffe1c4; font-weight: 700; }
            .cols { display: flex; gap: 4mm; }
            .cols > section { flex: 1; }
            h2 { font-size: 9.5pt; margin: 1mm 0; }
            ul { margin: 0; padding-left: 4mm; }
            .hash { font-family: "DejaVu Sans Mono", monospace; font-size: 7.5pt; word-break: break-all; }
            .warn { color: #8a3b00; font-weight: 600; }
            </style></head><body>
            <h1>\(esc(course))</h1>
            <p class="meta">Game \(card.game.id.hex) · \(esc(date)) · holes \(esc(RoundService.describe(standings.holes))) · \
            \(esc(standings.formats.map(\.rawValue).joined(separator: ", "))) · \(card.game.finished ? "finished" : "in progress")\
            \(standings.rules.stake.map { " · stake \(Self.money($0)) a unit" } ?? "")</p>

            """
        // The holes table.
        let headerHoles = standings.holes.map { "<th>\($0)</th>" }
        var head = "<tr><th class=\"name\">Hole</th><th>Tee</th>"
        for (half, range) in halves.enumerated() {
            head += range.map { headerHoles[$0] }.joined()
            head += "<th>\(halves.count == 1 ? "Tot" : half == 0 ? "Out" : "In")</th>"
        }
        if halves.count > 1 { head += "<th>Tot</th>" }
        head += "<th>CH</th><th>PH</th><th>Net</th><th>Pts</th><th>Skins</th></tr>"
        out += "<table>\n<thead>\(head)</thead><tbody>\n"
        var tees: [String] = []
        for (index, tee) in standings.tees.enumerated() where !tees.contains(tee) {
            tees.append(tee)
            let pars = standings.pars[index]
            var row = "<tr><td class=\"name\">Par</td><td>\(esc(tee))</td>"
            for range in halves {
                row += range.map { "<td>\(pars[$0])</td>" }.joined() + "<td class=\"sum\">\(pars[range].reduce(0, +))</td>"
            }
            if halves.count > 1 { row += "<td class=\"sum\">\(pars.reduce(0, +))</td>" }
            out += row + "<td></td><td></td><td></td><td></td><td></td></tr>\n"
            let indexes = standings.holes.map { card.course?.hole($0)?.strokeIndex(tee: tee).map(String.init) ?? "" }
            var siRow = "<tr><td class=\"name\">Stroke index</td><td>\(esc(tee))</td>"
            for range in halves { siRow += range.map { "<td>\(indexes[$0])</td>" }.joined() + "<td></td>" }
            if halves.count > 1 { siRow += "<td></td>" }
            out += siRow + "<td></td><td></td><td></td><td></td><td></td></tr>\n"
        }
        for index in card.players.indices {
            let line = standings.result.players[index]
            var row = "<tr><td class=\"name\">\(esc(card.players[index].name))</td><td>\(esc(standings.tees[index]))</td>"
            for range in halves {
                row += range.map { position in
                    let text = cellText(index, standings.holes[position])
                    return "<td\(text.hasSuffix("*") ? " class=\"conflict\"" : "")>\(esc(text))</td>"
                }.joined()
                row += "<td class=\"sum\">\(total(index, range))</td>"
            }
            if halves.count > 1 { row += "<td class=\"sum\">\(total(index, 0..<standings.holes.count))</td>" }
            row += "<td>\(standings.courseHandicaps[index].map { String(format: "%.1f", $0) } ?? "–")</td>"
            row += "<td>\(line.playingHandicap.map(String.init) ?? "–")</td>"
            row += "<td>\(line.noReturn ? "NR" : line.net.map(String.init) ?? "–")</td>"
            row += "<td>\(line.points.map(String.init) ?? "–")</td><td>\(line.skins)</td></tr>\n"
            out += row
        }
        out += "</tbody></table>\n<div class=\"cols\">\n<section><h2>Results</h2><ul>\n"
        for (index, line) in standings.result.players.enumerated() where line.thru > 0 {
            if line.noReturn {
                out += "<li>\(esc(card.players[index].name)): NR (picked up \(line.pickUps))"
            } else {
                out += "<li>\(esc(card.players[index].name)): \(line.gross) (\(Self.toPar(line.grossToPar, thru: line.thru)))"
                if let net = line.netToPar { out += ", net \(Self.toPar(net, thru: line.thru))" }
            }
            if let points = line.points { out += ", \(points) points" }
            out += " thru \(line.thru)</li>\n"
        }
        if let match = standings.result.match { out += "<li>Match: \(esc(standings.describe(match)))</li>\n" }
        if let nassau = standings.result.nassau {
            for bet in nassau.bets {
                out += "<li>Nassau, \(esc(standings.name(bet))): \(esc(standings.describe(bet.status)))</li>\n"
            }
        }
        if let skins = standings.result.skins {
            let won = standings.result.players.enumerated().filter { $0.element.skins > 0 }
                .map { "\(card.players[$0.offset].name) \($0.element.skins)" }
            out +=
                "<li>Skins (\(standings.rules.netSkins ? "net" : "gross")): \(esc(won.isEmpty ? "none won yet" : won.joined(separator: ", ")))"
            out += skins.carry > 0 ? ", \(skins.carry) carried</li>\n" : "</li>\n"
        }
        for result in standings.formatResults {
            out += "<li>\(esc(result.format.definition.title)): \(esc(result.summary))</li>\n"
        }
        out += "</ul>\n"
        if !standings.result.transfers.isEmpty || standings.rules.stake != nil {
            out +=
                "<h2>Settlement\(standings.provisional ? " <span class=\"warn\">(provisional: a dispute changes it)</span>" : "")</h2><ul>\n"
            for transfer in standings.result.transfers {
                out +=
                    "<li>\(esc(card.players[transfer.from].name)) pays \(esc(card.players[transfer.to].name)) "
                    + "\(Self.money(Double(transfer.units) * (standings.rules.stake ?? 1)))</li>\n"
            }
            if standings.result.transfers.isEmpty { out += "<li>nothing owed</li>\n" }
            out += "</ul>\n"
        }
        if !standings.disputes.isEmpty {
            out += "<h2 class=\"warn\">Disputes (* on the card)</h2><ul>\n"
            for dispute in standings.disputes { out += "<li>\(esc(dispute.text))</li>\n" }
            out += "</ul>\n"
        }
        out += "</section>\n<section><h2>Attestations</h2><ul>\n"
        for player in card.players {
            let signed = attestations.filter { $0.record.player == player.id }
            if signed.isEmpty {
                out += "<li>\(esc(player.name)): not attested</li>\n"
                continue
            }
            for attestation in signed {
                let when = Views.time(milliseconds: attestation.record.hlc.milliseconds)
                out +=
                    "<li>\(esc(player.name)): signed by \(esc(attestation.record.marker)), \(esc(when)); "
                    + "signature \(attestation.signatureChecked ? "checked" : "<span class=\"warn\">FAILED</span>"); "
                    + (attestation.matchesCard ? "matches this card" : "<span class=\"warn\">the card changed after it</span>")
                    + "</li>\n"
            }
        }
        out += "</ul>\n<h2>State hash</h2><p class=\"hash\">\(stateHash.hex)</p>\n"
        out +=
            "<p>Compare with <code>caddie state-hash</code> on any device of the group: the same hash means the same "
            + "merged log. Made \(esc(Views.time(milliseconds: madeAt))).</p>\n</section>\n</div>\n</body></html>\n"
        return out
    }

    public static func money(_ value: Double) -> String { String(format: "%.2f", value) }
}

extension RoundService {
    /// The card of a game to hand in, with its standings, checked attestations and the space's state hash.
    public func cardExport(space: SpaceID, game: GameID, keys: UnlockedKeys? = nil) throws(NodeError) -> CardExport {
        let standings = try handicaps.standings(space: space, game: game)
        let failed = Set(try home.audit.verify(space: space, keys: keys).failures.map(\.op))
        let attestations = standings.card.attestations.map { record in
            CardExport.Attestation(
                record: record, signatureChecked: !failed.contains(record.op),
                matchesCard: record.cardHash == Self.cardHash(standings.card, player: record.player))
        }
        return CardExport(
            standings: standings, stateHash: try run { try store.stateHash(space) }, madeAt: Home.now(),
            attestations: attestations)
    }
}
