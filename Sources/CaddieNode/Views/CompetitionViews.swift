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
        .object([
            ("competition", competition(board.competition)), ("groups", .int(board.groups)),
            ("lastEntry", board.lastEntry.map { .string(time(milliseconds: $0)) } ?? .null),
            (
                "divisions",
                .array(
                    board.board.divisions.map { division in
                        .object(
                            divisionFields(division) + [("lines", .array(division.lines.map { boardLine(board, $0) }))])
                    })
            ),
            ("twos", twos(board)), ("notes", .array(board.notes.map { .string($0) })),
        ])
    }

    /// One line of a board, as `GET .../board` and the public board give it.
    static func boardLine(_ board: CompetitionBoard, _ line: Competition.Line, extra: [(String, JSON)] = []) -> JSON {
        let entrant = board.entrants[line.entrant]
        return .object(
            [
                ("player", .string(entrant.player.id.hex)), ("name", .string(entrant.player.name)),
                ("game", .string(entrant.game.hex)), ("startHole", .int(entrant.startHole)),
                ("position", .optional(line.position)), ("tied", .bool(line.tied)), ("thru", .int(line.thru)),
                ("complete", .bool(line.complete)), ("playingHandicap", .optional(line.playingHandicap)),
                ("gross", .int(line.gross)), ("grossToPar", .int(line.grossToPar)), ("net", .int(line.net)),
                ("netToPar", .int(line.netToPar)), ("points", .int(line.points)),
                ("status", .optional(line.status?.rawValue)), ("decidedBy", .optional(line.decidedBy)),
            ] + extra)
    }

    static func divisionFields(_ division: Competition.Division) -> [(String, JSON)] {
        [("number", .int(division.number)), ("range", .optional(division.range)), ("name", .optional(division.name))]
    }

    static func twos(_ board: CompetitionBoard) -> JSON {
        .array(
            board.board.twos.map { two in
                .object([
                    ("player", .string(board.entrants[two.entrant].player.id.hex)),
                    ("name", .string(board.entrants[two.entrant].player.name)), ("hole", .int(two.hole)),
                    ("division", .optional(two.division)),
                ])
            })
    }

    /// The public board's head: the competition, the divisions, the twos, the time of the last entry shown. The
    /// committee's notes (which name games and commands) stay off the public board.
    static func publicHead(_ board: CompetitionBoard) -> JSON {
        let record = board.competition
        return .object([
            ("name", .string(record.name)), ("scoring", .string(record.scoring)),
            ("countback", .string(record.countback)), ("hiddenHoles", .int(record.hiddenHoles)),
            ("closed", .bool(record.closed)), ("groups", .int(board.groups)),
            ("lastEntry", board.lastEntry.map { .string(time(milliseconds: $0)) } ?? .null),
            ("divisions", .array(board.board.divisions.map { .object(divisionFields($0)) })), ("twos", twos(board)),
        ])
    }

    /// What a public board's streams were last sent (the head's text, and each entrant's line as values, by player),
    /// and so what the next board changes: the event that brings a stream from one board to the next carries the
    /// head only if it changed and only the lines that changed, each with its division and its place in the
    /// division's order. Lines are compared as values and written as JSON only when sent.
    public struct PublicBoardSent: Sendable {
        struct Shown: Equatable, Sendable {
            let entrant: BoardEntrant
            let line: Competition.Line
            let division: Int
            let order: Int
        }

        var board: CompetitionBoard?
        var head: String?
        var lines: [String: Shown] = [:]

        public init() {}

        /// Takes the board as it is now, and returns the event a stream that had the last board needs: nil when
        /// nothing changed, or when there was no last board.
        public mutating func take(_ board: CompetitionBoard, space: SpaceID) -> JSON? {
            let head = Views.publicHead(board)
            let headText = head.text
            var shown: [String: Shown] = [:]
            for division in board.board.divisions {
                for (order, line) in division.lines.enumerated() {
                    let entrant = board.entrants[line.entrant]
                    shown[entrant.player.id.hex] = Shown(entrant: entrant, line: line, division: division.number, order: order)
                }
            }
            defer { (self.board, self.head, self.lines) = (board, headText, shown) }
            guard self.head != nil else { return nil }
            let changed = shown.filter { self.lines[$0.key] != $0.value }
            let removed = self.lines.keys.filter { shown[$0] == nil }
            guard self.head != headText || !changed.isEmpty || !removed.isEmpty else { return nil }
            return Views.boardEvent(
                space: space, competition: board.competition.id, head: self.head == headText ? nil : head,
                lines: changed.map { ($0.key, Self.json(board, $0.value)) }, removed: Array(removed), whole: false)
        }

        /// The last board taken, whole: what a stream that has nothing yet is sent first.
        public func whole(space: SpaceID) -> JSON? {
            guard let board else { return nil }
            return Views.boardEvent(
                space: space, competition: board.competition.id, head: Views.publicHead(board),
                lines: lines.map { ($0.key, Self.json(board, $0.value)) }, removed: [], whole: true)
        }

        static func json(_ board: CompetitionBoard, _ shown: Shown) -> JSON {
            Views.boardLine(board, shown.line, extra: [("division", .int(shown.division)), ("order", .int(shown.order))])
        }
    }

    /// A public board event: the head when it changed, the lines that changed and the players no longer on it;
    /// `whole` when it is the board entire (a stream's first event, or the board as `GET /board/.../board.json`
    /// gives it).
    public static func boardEvent(
        space: SpaceID, competition: CompetitionID, head: JSON?, lines: [(String, JSON)], removed: [String], whole: Bool
    ) -> JSON {
        .object([
            ("space", .string(space.hex)), ("competition", .string(competition.hex)), ("whole", .bool(whole)),
            ("head", head ?? .null), ("lines", .array(lines.sorted { $0.0 < $1.0 }.map(\.1))),
            ("removed", .array(removed.sorted().map { .string($0) })),
        ])
    }
}

extension Views {
    /// A competition's draw: each group's game, label, start, tee time and players with their index and marker.
    public static func sheet(_ sheet: DrawSheet) -> JSON {
        .object([
            ("competition", competition(sheet.competition)), ("entries", .int(sheet.entries)),
            ("committee", .array(sheet.committee.map { .string($0) })),
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
                                            ("checkedIn", .bool(player.player.user != nil)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }
}
