import CaddieCore
import CaddieServices
import CaddieStore

extension Views {
    /// A game's standings: every format it plays, disputes and what they decide, the settlement.
    public static func standings(_ standings: GameStandings) -> JSON {
        let card = standings.card
        let stake = standings.rules.stake
        let result = standings.result
        let fields: [(String, JSON)] = [
            ("game", .string(card.game.id.hex)), ("course", .optional(card.course?.name)),
            ("holes", .array(standings.holes.map { .int($0) })),
            ("formats", .array(standings.formats.map { .string($0.rawValue) })), ("stake", .optional(stake)),
            ("provisional", .bool(standings.provisional)),
            ("players", .array(card.players.indices.map { standingsPlayer(standings, $0) })),
            (
                "sides",
                result.sides.map { sides in .array(sides.indices.map { side(standings, $0) }) } ?? .null
            ),
            ("match", result.match.map { .object(matchStatus(standings, $0)) } ?? .null),
            ("nassau", result.nassau.map { nassau(standings, $0) } ?? .null),
            ("skins", result.skins.map { skins(standings, $0) } ?? .null),
            ("results", .array(result.results.map { formatResult(standings, $0) })),
            ("settlement", .array(result.transfers.map { transfer(standings, $0) })),
            ("disputes", .array(standings.disputes.map(dispute))),
            ("notes", .array(standings.notes.map { .string($0) })),
        ]
        return .object(fields)
    }

    /// One player's line of the standings.
    static func standingsPlayer(_ standings: GameStandings, _ index: Int) -> JSON {
        let card = standings.card
        let line = standings.result.players[index]
        return .object([
            ("player", .string(card.players[index].id.hex)), ("name", .string(card.players[index].name)),
            ("tee", .string(standings.tees[index])),
            ("courseHandicap", .optional(standings.courseHandicaps[index].map { (($0 * 10).rounded()) / 10 })),
            ("playingHandicap", .optional(line.playingHandicap)), ("thru", .int(line.thru)),
            ("pickUps", .int(line.pickUps)), ("noReturn", .bool(line.noReturn)),
            ("gross", .int(line.gross)), ("grossToPar", .int(line.grossToPar)), ("net", .optional(line.net)),
            ("netToPar", .optional(line.netToPar)), ("points", .optional(line.points)), ("skins", .int(line.skins)),
            ("units", .int(line.units)), ("amount", amount(line.units, stake: standings.rules.stake)),
        ])
    }

    /// A side of a match or a Nassau: its name and its players.
    static func side(_ standings: GameStandings, _ index: Int) -> JSON {
        .object([
            ("name", .string(standings.sideName(index))),
            (
                "players",
                .array((standings.result.sides?[index] ?? []).map { .string(standings.card.players[$0].id.hex) })
            ),
        ])
    }

    /// The name of a side of a match.
    static func sideName(_ standings: GameStandings, _ side: Games.HoleResult) -> JSON {
        .string(standings.sideName(side == .a ? 0 : 1))
    }

    /// Where a match (or one of a Nassau's bets) stands.
    static func matchStatus(_ standings: GameStandings, _ status: Games.MatchStatus) -> [(String, JSON)] {
        [
            ("status", .string(standings.describe(status))), ("up", .int(status.up)), ("played", .int(status.played)),
            ("toPlay", .int(status.toPlay)), ("dormie", .bool(status.dormie)), ("over", .bool(status.isOver)),
            ("leader", status.leader.map { sideName(standings, $0) } ?? .null),
        ]
    }

    /// A Nassau: each bet (the front, the back, the whole, the presses) and what the first side is owed.
    static func nassau(_ standings: GameStandings, _ nassau: Games.NassauResult) -> JSON {
        .object([
            (
                "bets",
                .array(
                    nassau.bets.map { bet in
                        .object(
                            [
                                ("name", .string(standings.name(bet))),
                                ("holes", .array(standings.holes[bet.start..<bet.end].map { .int($0) })),
                                ("pressedBy", bet.pressedBy.map { sideName(standings, $0) } ?? .null),
                                ("winner", bet.winner.map { sideName(standings, $0) } ?? .null),
                            ] + matchStatus(standings, bet.status))
                    })
            ),
            ("unitsToFirstSide", .int(nassau.unitsToA)), ("complete", .bool(nassau.complete)),
        ])
    }

    /// Skins: each hole's outcome, what carries, whether all are decided.
    static func skins(_ standings: GameStandings, _ skins: Games.SkinsResult) -> JSON {
        .object([
            ("net", .bool(standings.rules.netSkins)), ("validation", .bool(standings.rules.skinsValidation)),
            (
                "holes",
                .array(
                    skins.holes.map { hole in
                        var winner: JSON = .null
                        var won = 0
                        if case .won(let player, let count) = hole.outcome {
                            winner = .string(standings.card.players[player].id.hex)
                            won = count
                        }
                        return .object([
                            ("hole", .int(standings.holes[hole.position])), ("atStake", .int(hole.atStake)),
                            ("outcome", .string(standings.describe(hole.outcome))), ("winner", winner),
                            ("skins", .int(won)),
                        ])
                    })
            ),
            ("carry", .int(skins.carry)), ("complete", .bool(skins.complete)),
        ])
    }

    /// One format's result from the registry: its summary, lines, column and holes.
    static func formatResult(_ standings: GameStandings, _ result: Games.FormatResult) -> JSON {
        let players = standings.card.players
        return .object([
            ("format", .string(result.format.rawValue)), ("title", .string(result.format.definition.title)),
            ("summary", .string(result.summary)),
            (
                "sides",
                result.sides.map { sides in
                    .array(sides.map { .string($0.map { players[$0].name }.joined(separator: " & ")) })
                } ?? .null
            ),
            ("lines", .array(result.lines.map { .object([("label", .string($0.label)), ("value", .string($0.value))]) })),
            (
                "column",
                result.column.map { column in
                    .object([
                        ("label", .string(column.label)),
                        (
                            "values",
                            .array(
                                players.indices.map {
                                    .object([("player", .string(players[$0].id.hex)), ("value", .string(column.values[$0]))])
                                })
                        ),
                    ])
                } ?? .null
            ),
            (
                "holes",
                .array(
                    result.holes.map { .object([("hole", .int(standings.holes[$0.position])), ("text", .string($0.text))]) })
            ),
            ("complete", .bool(result.complete)), ("scored", .bool(result.scored)),
        ])
    }

    /// One payment of the settlement.
    static func transfer(_ standings: GameStandings, _ transfer: Games.Transfer) -> JSON {
        let players = standings.card.players
        return .object([
            ("from", .string(players[transfer.from].id.hex)), ("fromName", .string(players[transfer.from].name)),
            ("to", .string(players[transfer.to].id.hex)), ("toName", .string(players[transfer.to].name)),
            ("units", .int(transfer.units)), ("amount", amount(transfer.units, stake: standings.rules.stake)),
        ])
    }

    /// A disputed cell: its values, and what each format's result would be with each.
    static func dispute(_ dispute: Dispute) -> JSON {
        .object([
            ("player", .string(dispute.cell.player.hex)), ("name", .string(dispute.name)),
            ("hole", .int(dispute.cell.hole)), ("values", .array(dispute.values.map(scoreValue))),
            ("decides", .array(dispute.decides.map { .string($0) })),
            ("changesSettlement", .bool(dispute.changesSettlement)), ("text", .string(dispute.text)),
        ])
    }
}
