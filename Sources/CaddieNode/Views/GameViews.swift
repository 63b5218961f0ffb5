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
