import CaddieCore
import CaddieNode
import Foundation

/// The scorecard as a golfer reads it: holes across, players down, Out / In / Total, conflicts marked.
enum CardText {
    static func render(_ card: Scorecard, net: [PlayerID: NetCard] = [:]) -> String {
        let holes = card.holeCount
        let front = 1...min(9, holes)
        let back: ClosedRange<Int>? = holes > 9 ? 10...holes : nil
        let nameWidth = max(6, card.players.map(\.name.count).max() ?? 6) + 1
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        func row(
            _ label: String, _ value: (Int) -> String, _ subtotal: (ClosedRange<Int>) -> String,
            extra: [String] = []
        ) -> String {
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
        lines.append(
            row(
                "Hole", { "\($0)" }, { $0 == front ? "Out" : ($0 == back ? "In" : "Tot") },
                extra: ["PH", "Net", "Pts"]))
        if let course = card.course {
            lines.append(
                row(
                    "Par", { course.hole($0)?.par(tee: card.game.tee).map(String.init) ?? "" },
                    { range in
                        let pars = range.compactMap { course.hole($0)?.par(tee: card.game.tee) }
                        return pars.isEmpty ? "" : String(pars.reduce(0, +))
                    }))
            lines.append(row("SI", { course.hole($0)?.strokeIndex(tee: card.game.tee).map(String.init) ?? "" }, { _ in "" }))
        }
        for player in card.players {
            lines.append(
                row(
                    player.name,
                    { hole in
                        guard let cell = card.cell(player.id, hole), let winner = cell.winner else { return "-" }
                        return "\(winner.entry.mark)\(cell.isConflict ? "*" : "")"
                    }, { range in card.totalText(player.id, holes: range) },
                    extra: net[player.id].map {
                        [
                            "\($0.playingHandicap)",
                            card.pickedUp(player.id, holes: 1...card.holeCount) ? "NR" : "\($0.netTotal)", "\($0.pointsTotal)",
                        ]
                    } ?? [
                        "", "", "",
                    ]))
        }
        let conflicts = card.conflicts
        if !conflicts.isEmpty {
            lines.append("")
            lines.append("* Conflicts (concurrent entries; the card shows the latest until someone enters the hole again):")
            for cell in conflicts {
                let values = cell.values.map { "\($0.entry.summary) by \($0.author)" }.joined(separator: " vs ")
                lines.append(
                    "  \(card.name(cell.player)), hole \(cell.hole): \(values); shows \(cell.winner?.entry.words ?? "nothing")")
            }
        }
        if !net.isEmpty {
            lines.append("")
            lines.append(
                "PH: playing handicap at \(net.values.first?.allowancePercent ?? 95)% of the course handicap; "
                    + "Net and Pts (Stableford) over the holes entered.")
        }
        if !card.attestations.isEmpty {
            lines.append("")
            for attestation in card.attestations {
                let current = RoundService.cardHash(card, player: attestation.player) == attestation.cardHash
                lines.append(
                    "Attested: \(card.name(attestation.player))'s card by \(attestation.marker)"
                        + (current ? "" : " (the card has changed since)"))
            }
            for lock in card.locks {
                lines.append(
                    "Locked: \(card.name(lock.player))'s card, signed by \(card.signers(lock).joined(separator: " and ")) "
                        + "(\(Views.time(lock.at))): only the committee changes it now")
                for refused in lock.refused {
                    lines.append(
                        "  refused after the lock: hole \(refused.hole), \(refused.value.entry.words) by "
                            + "\(refused.value.author) (\(Views.time(refused.value.hlc)))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
