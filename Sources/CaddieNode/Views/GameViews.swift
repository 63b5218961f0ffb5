import CaddieCore
import CaddieServices
import CaddieStore

extension Views {
    /// A game's setup: tees, holes, formats, teams, stake.
    public static func setup(_ game: GameRecord) -> [(String, JSON)] {
        [
            ("startHole", .int(game.startHole)), ("holesPlayed", .optional(game.holesPlayed)),
            ("formats", .array(game.formats.map { .string($0) })),
            ("skins", .string(game.grossSkins ? "gross" : "net")), ("skinsValidation", .bool(game.skinsValidation)),
            ("stake", .optional(game.stake)), ("deleted", .bool(game.deleted)),
            (
                "playerTees",
                .array(
                    game.playerTees.sorted { $0.key < $1.key }.map {
                        .object([("player", .string($0.key.hex)), ("tee", .string($0.value))])
                    })
            ),
            (
                "teams",
                .array(
                    game.teams.sorted { $0.key < $1.key }.map {
                        .object([("player", .string($0.key.hex)), ("team", .string($0.value))])
                    })
            ),
            (
                "entries",
                .array(
                    game.holeEntries.keys.sorted().flatMap { hole in
                        game.holeEntries[hole]!.sorted { $0.key < $1.key }.map { key, entry in
                            var player: JSON = .null
                            if case .player(let id) = entry { player = .string(id.hex) }
                            return .object([
                                ("hole", .int(hole)), ("key", .string(key)), ("player", player),
                                ("lone", .bool(entry == .lone)),
                            ])
                        }
                    })
            ),
        ]
    }

    /// Every format a game can play, as the new-game screen and `GET /formats` list them.
    public static func formats() -> JSON {
        .array(
            Games.registry.map { format in
                .object([
                    ("name", .string(format.name)), ("title", .string(format.title)),
                    ("summary", .string(format.summary)), ("onByDefault", .bool(format.onByDefault)),
                    ("oneBall", .bool(format.oneBall)),
                    ("minPlayers", .int(format.players.lowerBound)),
                    (
                        "maxPlayers",
                        format.players.upperBound == Int.max ? .null : .int(format.players.upperBound)
                    ),
                    (
                        "sides",
                        format.sides.map { rule in
                            .object([
                                ("minSize", .int(rule.sizes.lowerBound)), ("maxSize", .int(rule.sizes.upperBound)),
                                ("equal", .bool(rule.equal)), ("oneTeamWithout", .bool(rule.oneTeamWithout)),
                                ("needs", .string(rule.needs)),
                            ])
                        } ?? .null
                    ),
                    (
                        "entries",
                        .array(
                            format.entries.map { kind in
                                .object([
                                    ("key", .string(kind.key)), ("label", .string(kind.label)),
                                    ("allowsLone", .bool(kind.allowsLone)),
                                ])
                            })
                    ),
                ])
            })
    }

    /// Units times the stake, rounded to the cent.
    static func amount(_ units: Int, stake: Double?) -> JSON {
        guard let stake else { return .null }
        return .double((Double(units) * stake * 100).rounded() / 100)
    }

    /// A game's standings: every format it plays, disputes and what they decide, the settlement.
    public static func standings(_ standings: GameStandings) -> JSON {
        let card = standings.card
        let stake = standings.rules.stake
        let players: [JSON] = card.players.indices.map { index in
            let line = standings.result.players[index]
            return .object([
                ("player", .string(card.players[index].id.hex)), ("name", .string(card.players[index].name)),
                ("tee", .string(standings.tees[index])),
                ("courseHandicap", .optional(standings.courseHandicaps[index].map { (($0 * 10).rounded()) / 10 })),
                ("playingHandicap", .optional(line.playingHandicap)), ("thru", .int(line.thru)),
                ("pickUps", .int(line.pickUps)), ("noReturn", .bool(line.noReturn)),
                ("gross", .int(line.gross)), ("grossToPar", .int(line.grossToPar)), ("net", .optional(line.net)),
                ("netToPar", .optional(line.netToPar)), ("points", .optional(line.points)), ("skins", .int(line.skins)),
                ("units", .int(line.units)), ("amount", amount(line.units, stake: stake)),
            ])
        }
        func side(_ index: Int) -> JSON {
            .object([
                ("name", .string(standings.sideName(index))),
                ("players", .array((standings.result.sides?[index] ?? []).map { .string(card.players[$0].id.hex) })),
            ])
        }
        func status(_ status: Games.MatchStatus) -> [(String, JSON)] {
            [
                ("status", .string(standings.describe(status))), ("up", .int(status.up)), ("played", .int(status.played)),
                ("toPlay", .int(status.toPlay)), ("dormie", .bool(status.dormie)), ("over", .bool(status.isOver)),
                ("leader", status.leader.map { .string(standings.sideName($0 == .a ? 0 : 1)) } ?? .null),
            ]
        }
        var fields: [(String, JSON)] = [
            ("game", .string(card.game.id.hex)), ("course", .optional(card.course?.name)),
            ("holes", .array(standings.holes.map { .int($0) })),
            ("formats", .array(standings.formats.map { .string($0.rawValue) })), ("stake", .optional(stake)),
            ("provisional", .bool(standings.provisional)), ("players", .array(players)),
        ]
        fields.append(("sides", standings.result.sides.map { .array($0.indices.map(side)) } ?? .null))
        fields.append(("match", standings.result.match.map { .object(status($0)) } ?? .null))
        if let nassau = standings.result.nassau {
            fields.append(
                (
                    "nassau",
                    .object([
                        (
                            "bets",
                            .array(
                                nassau.bets.map { bet in
                                    .object(
                                        [
                                            ("name", .string(standings.name(bet))),
                                            ("holes", .array(standings.holes[bet.start..<bet.end].map { .int($0) })),
                                            (
                                                "pressedBy",
                                                bet.pressedBy.map { .string(standings.sideName($0 == .a ? 0 : 1)) } ?? .null
                                            ),
                                            ("winner", bet.winner.map { .string(standings.sideName($0 == .a ? 0 : 1)) } ?? .null),
                                        ]
                                            + status(bet.status))
                                })
                        ),
                        ("unitsToFirstSide", .int(nassau.unitsToA)), ("complete", .bool(nassau.complete)),
                    ])
                ))
        } else {
            fields.append(("nassau", .null))
        }
        if let skins = standings.result.skins {
            fields.append(
                (
                    "skins",
                    .object([
                        ("net", .bool(standings.rules.netSkins)), ("validation", .bool(standings.rules.skinsValidation)),
                        (
                            "holes",
                            .array(
                                skins.holes.map { hole in
                                    var winner: JSON = .null
                                    var won = 0
                                    if case .won(let player, let count) = hole.outcome {
                                        winner = .string(card.players[player].id.hex)
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
                ))
        } else {
            fields.append(("skins", .null))
        }
        fields.append(
            (
                "results",
                .array(
                    standings.result.results.map { result in
                        .object([
                            ("format", .string(result.format.rawValue)), ("title", .string(result.format.definition.title)),
                            ("summary", .string(result.summary)),
                            (
                                "sides",
                                result.sides.map { sides in
                                    .array(sides.map { .string($0.map { card.players[$0].name }.joined(separator: " & ")) })
                                } ?? .null
                            ),
                            (
                                "lines",
                                .array(
                                    result.lines.map { .object([("label", .string($0.label)), ("value", .string($0.value))]) })
                            ),
                            (
                                "column",
                                result.column.map { column in
                                    .object([
                                        ("label", .string(column.label)),
                                        (
                                            "values",
                                            .array(
                                                card.players.indices.map {
                                                    .object([
                                                        ("player", .string(card.players[$0].id.hex)),
                                                        ("value", .string(column.values[$0])),
                                                    ])
                                                })
                                        ),
                                    ])
                                } ?? .null
                            ),
                            (
                                "holes",
                                .array(
                                    result.holes.map {
                                        .object([("hole", .int(standings.holes[$0.position])), ("text", .string($0.text))])
                                    })
                            ),
                            ("complete", .bool(result.complete)), ("scored", .bool(result.scored)),
                        ])
                    })
            ))
        fields.append(
            (
                "settlement",
                .array(
                    standings.result.transfers.map { transfer in
                        .object([
                            ("from", .string(card.players[transfer.from].id.hex)),
                            ("fromName", .string(card.players[transfer.from].name)),
                            ("to", .string(card.players[transfer.to].id.hex)),
                            ("toName", .string(card.players[transfer.to].name)),
                            ("units", .int(transfer.units)), ("amount", amount(transfer.units, stake: stake)),
                        ])
                    })
            ))
        fields.append(
            (
                "disputes",
                .array(
                    standings.disputes.map { dispute in
                        .object([
                            ("player", .string(dispute.cell.player.hex)), ("name", .string(dispute.name)),
                            ("hole", .int(dispute.cell.hole)), ("values", .array(dispute.values.map(scoreValue))),
                            ("decides", .array(dispute.decides.map { .string($0) })),
                            ("changesSettlement", .bool(dispute.changesSettlement)), ("text", .string(dispute.text)),
                        ])
                    })
            ))
        fields.append(("notes", .array(standings.notes.map { .string($0) })))
        return .object(fields)
    }

    /// A player's statistics.
    public static func statistics(_ stats: PlayerStatistics) -> JSON {
        func ratio(_ part: Int, _ whole: Int, scale: Double = 100) -> JSON {
            whole == 0 ? .null : .double((Double(part) / Double(whole) * scale * 10).rounded() / 10)
        }
        return .object([
            ("player", .string(stats.player.id.hex)), ("name", .string(stats.player.name)), ("rounds", .int(stats.rounds)),
            ("holes", .int(stats.holes)),
            (
                "fairways",
                .object([
                    ("hit", .int(stats.fairwaysHit)), ("recorded", .int(stats.fairwaysRecorded)),
                    ("percent", ratio(stats.fairwaysHit, stats.fairwaysRecorded)),
                ])
            ),
            (
                "greensInRegulation",
                .object([
                    ("hit", .int(stats.greensHit)), ("recorded", .int(stats.greensRecorded)),
                    ("percent", ratio(stats.greensHit, stats.greensRecorded)),
                ])
            ),
            ("puttsPerRound", ratio(stats.putts, stats.puttRounds, scale: 1)),
            ("puttsPerGreenInRegulation", ratio(stats.puttsOnGreensHit, stats.greensHitWithPutts, scale: 1)),
            ("penalties", .int(stats.penalties)),
            ("penaltiesPerRound", ratio(stats.penalties, stats.rounds, scale: 1)),
            (
                "byPar",
                .array(
                    stats.byPar.keys.sorted().map { par in
                        let value = stats.byPar[par]!
                        return .object([
                            ("par", .int(par)), ("holes", .int(value.holes)),
                            ("average", ratio(value.strokes, value.holes, scale: 1)),
                        ])
                    })
            ),
        ])
    }
}
