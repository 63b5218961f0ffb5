import CaddieCore
import CaddieNode
import Foundation

/// The scorecard as a golfer reads it: holes across, players down, Out / In / Total, conflicts marked.
enum CardText {
    static func render(_ card: Scorecard, net: [EntityID: NetCard] = [:]) -> String {
        let holes = card.holeCount
        let front = 1...min(9, holes)
        let back: ClosedRange<Int>? = holes > 9 ? 10...holes : nil
        let nameWidth = max(6, card.players.map(\.name.count).max() ?? 6) + 1
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        func row(_ label: String, _ value: (Int) -> String, _ subtotal: (ClosedRange<Int>) -> String,
                 extra: [String] = []) -> String {
            var line = label.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            for hole in front { line += pad(value(hole), 4) }
            line += pad(subtotal(front), 5)
            if let back {
                for hole in back { line += pad(value(hole), 4) }
                line += pad(subtotal(back), 5)
                line += pad(subtotal(1...holes), 5)
            }
            if !net.isEmpty { line += extra.map { pad($0, 5) }.joined() }
            return line
        }
        var lines: [String] = []
        let course = card.course.map { "\($0.name), tee \(card.game.tee)" } ?? "course not yet received"
        lines.append("Game \(card.game.id.short) · \(course) · \(card.game.finished ? "finished" : "in progress")")
        lines.append(row("Hole", { "\($0)" }, { $0 == front ? "Out" : ($0 == back ? "In" : "Tot") },
                         extra: ["PH", "Net", "Pts"]))
        if let course = card.course {
            lines.append(row("Par", { course.hole($0)?.par(tee: card.game.tee).map(String.init) ?? "" }, { range in
                let pars = range.compactMap { course.hole($0)?.par(tee: card.game.tee) }
                return pars.isEmpty ? "" : String(pars.reduce(0, +))
            }))
            lines.append(row("SI", { course.hole($0)?.strokeIndex(tee: card.game.tee).map(String.init) ?? "" }, { _ in "" }))
        }
        for player in card.players {
            lines.append(row(player.name, { hole in
                guard let cell = card.cell(player.id, hole), let winner = cell.winner else { return "-" }
                return "\(winner.entry.strokes)\(cell.isConflict ? "*" : "")"
            }, { range in card.total(player.id, holes: range).map(String.init) ?? "" },
            extra: net[player.id].map { ["\($0.playingHandicap)", "\($0.netTotal)", "\($0.pointsTotal)"] } ?? ["", "", ""]))
        }
        let conflicts = card.conflicts
        if !conflicts.isEmpty {
            lines.append("")
            lines.append("* Conflicts (concurrent entries; the card shows the latest until someone enters the hole again):")
            for cell in conflicts {
                let values = cell.values.map { "\($0.entry.summary) by \($0.author)" }.joined(separator: " vs ")
                lines.append("  \(card.name(cell.player)), hole \(cell.hole): \(values); shows \(cell.winner?.entry.strokes ?? 0)")
            }
        }
        if !net.isEmpty {
            lines.append("")
            lines.append("PH: playing handicap at \(net.values.first?.allowancePercent ?? 95)% of the course handicap; "
                         + "Net and Pts (Stableford) over the holes entered.")
        }
        if !card.attestations.isEmpty {
            lines.append("")
            for attestation in card.attestations {
                let current = Home.cardHash(card, player: attestation.player) == attestation.cardHash
                lines.append("Attested: \(card.name(attestation.player))'s card by \(attestation.marker)"
                             + (current ? "" : " (the card has changed since)"))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func netJSON(_ net: NetCard) -> JSON {
        func holes(_ values: [Int: Int]) -> JSON {
            .array(values.sorted { $0.key < $1.key }.map { .object([("hole", .int($0.key)), ("value", .int($0.value))]) })
        }
        return .object([("index", .double(net.indexUsed)), ("indexSource", .string(net.indexSource.rawValue)),
                        ("courseHandicap", .int(net.courseHandicap)), ("allowance", .int(net.allowancePercent)),
                        ("playingHandicap", .int(net.playingHandicap)), ("net", holes(net.net)),
                        ("points", holes(net.points)), ("netTotal", .int(net.netTotal)),
                        ("pointsTotal", .int(net.pointsTotal))])
    }

    static func json(_ card: Scorecard, net: [EntityID: NetCard] = [:]) -> JSON {
        func value(_ value: ScoreValue) -> JSON {
            .object([("op", .string("\(value.op.device.hex):\(value.op.seq)")), ("strokes", .int(value.entry.strokes)),
                     ("putts", .optional(value.entry.putts)), ("penalties", .optional(value.entry.penalties)),
                     ("author", .string(value.author)), ("hlc", .string(value.hlc.description))])
        }
        let players: [JSON] = card.players.map { player in
            let cells: [JSON] = (1...card.holeCount).compactMap { hole in
                guard let cell = card.cell(player.id, hole), let winner = cell.winner else { return nil }
                return .object([("hole", .int(hole)), ("strokes", .int(winner.entry.strokes)),
                                ("winner", value(winner)), ("values", .array(cell.values.map(value))),
                                ("conflict", .bool(cell.isConflict))])
            }
            return .object([("player", .string(player.id.hex)), ("name", .string(player.name)),
                            ("out", .optional(card.total(player.id, holes: 1...min(9, card.holeCount)))),
                            ("in", .optional(card.holeCount > 9 ? card.total(player.id, holes: 10...card.holeCount) : nil)),
                            ("total", .optional(card.total(player.id, holes: 1...card.holeCount))),
                            ("handicap", net[player.id].map(netJSON) ?? .null),
                            ("cells", .array(cells))])
        }
        return .object([
            ("game", .string(card.game.id.hex)), ("course", .optional(card.course?.id.hex)),
            ("courseName", .optional(card.course?.name)), ("tee", .string(card.game.tee)),
            ("finished", .bool(card.game.finished)), ("holes", .int(card.holeCount)),
            ("par", .array((1...card.holeCount).map { .optional(card.course?.hole($0)?.par(tee: card.game.tee)) })),
            ("players", .array(players)),
            ("conflicts", .array(card.conflicts.map { cell in
                .object([("player", .string(cell.player.hex)), ("hole", .int(cell.hole)),
                         ("values", .array(cell.values.map(value)))])
            })),
            ("attestations", .array(card.attestations.map {
                .object([("player", .string($0.player.hex)), ("marker", .string($0.marker)),
                         ("cardHash", .string($0.cardHash.hex)),
                         ("current", .bool(Home.cardHash(card, player: $0.player) == $0.cardHash))])
            })),
        ])
    }
}
