import CaddieCore
import CaddieServices

extension Views {
    /// A competition as lists show it.
    public static func competition(_ record: CompetitionRecord) -> JSON {
        .object([
            ("competition", .string(record.id.hex)), ("name", .string(record.name)), ("scoring", .string(record.scoring)),
            ("countback", .string(record.countback)), ("allowance", .int(record.allowance)),
            ("divisions", .array(record.divisions.map { .int($0) })), ("twosByDivision", .bool(record.twosByDivision)),
            ("created", .string(time(milliseconds: record.createdAt))), ("closed", .bool(record.closed)),
        ])
    }

    /// A competition's board: its settings, each division's lines in board order, the twos and the notes.
    public static func board(_ board: CompetitionBoard) -> JSON {
        func line(_ line: Competition.Line) -> JSON {
            let entrant = board.entrants[line.entrant]
            return .object([
                ("player", .string(entrant.player.id.hex)), ("name", .string(entrant.player.name)),
                ("game", .string(entrant.game.hex)), ("startHole", .int(entrant.startHole)),
                ("position", .optional(line.position)), ("tied", .bool(line.tied)), ("thru", .int(line.thru)),
                ("complete", .bool(line.complete)), ("playingHandicap", .optional(line.playingHandicap)),
                ("gross", .int(line.gross)), ("grossToPar", .int(line.grossToPar)), ("net", .int(line.net)),
                ("netToPar", .int(line.netToPar)), ("points", .int(line.points)),
                ("status", .optional(line.status?.rawValue)), ("decidedBy", .optional(line.decidedBy)),
            ])
        }
        return .object([
            ("competition", competition(board.competition)), ("groups", .int(board.groups)),
            ("lastEntry", board.lastEntry.map { .string(time(milliseconds: $0)) } ?? .null),
            (
                "divisions",
                .array(
                    board.board.divisions.map { division in
                        .object([
                            ("number", .int(division.number)), ("range", .optional(division.range)),
                            ("name", .optional(division.name)),
                            ("lines", .array(division.lines.map(line))),
                        ])
                    })
            ),
            (
                "twos",
                .array(
                    board.board.twos.map { two in
                        .object([
                            ("player", .string(board.entrants[two.entrant].player.id.hex)),
                            ("name", .string(board.entrants[two.entrant].player.name)), ("hole", .int(two.hole)),
                            ("division", .optional(two.division)),
                        ])
                    })
            ),
            ("notes", .array(board.notes.map { .string($0) })),
        ])
    }
}

extension Views {
    /// A competition's draw: each group's game, label, start, tee time and players with their index and marker.
    public static func sheet(_ sheet: DrawSheet) -> JSON {
        .object([
            ("competition", competition(sheet.competition)), ("entries", .int(sheet.entries)),
            (
                "groups",
                .array(
                    sheet.groups.map { group in
                        .object([
                            ("game", .string(group.game.hex)), ("group", .string(group.label)),
                            ("startHole", .int(group.startHole)), ("teeTime", .optional(group.teeTime)),
                            (
                                "players",
                                .array(
                                    group.players.map { player in
                                        .object([
                                            ("player", .string(player.player.id.hex)), ("name", .string(player.player.name)),
                                            ("tee", .string(player.tee)), ("index", .optional(player.index)),
                                            ("marker", .optional(player.marker)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }
}
