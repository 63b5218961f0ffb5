import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

/// `caddie handicap`: the World Handicap System's calculations, and a player's index from the merged state.
///
/// The calculations take every number on the command line and never open a home; only `handicap player` does.
/// Numeric options use `.unconditional` parsing so that a plus handicap can be written `--course-handicap -2` as well
/// as `--course-handicap=-2`.
struct HandicapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handicap",
        abstract: "World Handicap System calculations, and a player's Handicap Index from the merged state.",
        discussion: """
            The calculations take their numbers on the command line and need no login and no home. \
            Plus handicaps are negative numbers: a +2 handicap is --course-handicap=-2.
            """,
        subcommands: [
            Differential.self, Index.self, CourseHandicap.self, Strokes.self, MaxHole.self, Stableford.self,
            PlayerIndex.self,
        ]
    )

    struct Differential: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "differential",
            abstract: "The Score Differential of a round (Rule 5.1): 113 / slope x (AGS - rating - PCC).")
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(parsing: .unconditional, help: "The adjusted gross score.") var ags: Int
        @Option(
            parsing: .unconditional, help: "The Course Rating of the tees played (the 9-hole rating for 9 holes).",
            transform: decimal)
        var rating: Double
        @Option(parsing: .unconditional, help: "The Slope Rating of the tees played, 55...155.") var slope: Int
        @Option(parsing: .unconditional, help: "The playing conditions calculation adjustment, -1.0...3.0.", transform: decimal)
        var pcc: Double = 0
        @Option(parsing: .unconditional, help: "9 or 18.") var holes: Int = 18
        @Option(
            parsing: .unconditional,
            help: "For 9 holes: the player's index, to add the expected score of the other nine (unofficial).", transform: decimal
        )
        var index: Double?

        func run() async throws {
            try await options.calculate {
                try Handicap.scoreDifferential(
                    adjustedGrossScore: ags, courseRating: rating, slopeRating: slope, pcc: pcc, holes: holes,
                    handicapIndex: index)
            } json: { result in
                .object([("differential", .double(result.value))])
            } text: { result in
                if result.holes == 9 {
                    return "9-hole Score Differential \(tenths(result.value)) (kept unrounded until combined: "
                        + "\(hundredths(result.unrounded)))"
                }
                var line = "Score Differential \(tenths(result.value)) (unrounded \(hundredths(result.unrounded)))"
                if let expected = result.expectedDifferential {
                    line +=
                        ", of which \(hundredths(expected)) is the expected score of the nine not played "
                        + "(approximation: unofficial)"
                }
                return line
            }
        }
    }

    struct Index: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "index",
            abstract: "A Handicap Index from Score Differentials (Rules 5.2, 5.3, 5.7, 5.8).")
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(
            parsing: .unconditional,
            help: "Score Differentials, comma-separated, OLDEST FIRST (the last 20 are the most recent 20).")
        var differentials: String
        @Option(
            parsing: .unconditional,
            help: "The Low Handicap Index of the last 365 days; the soft and hard caps apply only with it.", transform: decimal)
        var lowIndex: Double?

        func run() async throws {
            try await options.calculate {
                var values: [Double] = []
                for text in differentials.split(separator: ",", omittingEmptySubsequences: false) {
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    guard let value = PlainDecimal.parse(trimmed) else {
                        throw NodeError.badInput(
                            .differentials,
                            "'\(trimmed)' is not a number; give differentials "
                                + "separated by commas, oldest first, e.g. 12.0,14.1,9.8")
                    }
                    values.append(value)
                }
                return try Handicap.handicapIndex(differentials: values, lowHandicapIndex: lowIndex)
            } json: { result in
                .object([
                    ("index", .optional(result.index)),
                    ("used", .array(result.used.map { .double($0) })),
                    ("adjustment", .int(result.adjustment)),
                    ("cap", .string(result.cap.rawValue)),
                ])
            } text: { result in
                // Fewer than 3 differentials are all considered, so this counts the ones given.
                guard let index = result.index else {
                    return "No Handicap Index yet: 3 differentials are needed, \(result.considered.count) given"
                }
                let used = result.used.map { tenths($0) }.joined(separator: ", ")
                let average = tenths(result.averageOfUsed ?? 0)
                let counted = "\(result.used.count) of \(result.considered.count)"
                var working = "  adjustment \(result.adjustment), cap \(result.cap.rawValue)"
                if let low = result.lowHandicapIndex { working += " (Low Handicap Index \(indexText(low)))" }
                if result.limitedToMaximum { working += ", limited to 54.0" }
                return "Handicap Index \(indexText(index))\n  lowest \(counted) averaged \(average): \(used)\n\(working)"
            }
        }
    }

    struct CourseHandicap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "course",
            abstract: "Course Handicap and Playing Handicap (Rules 6.1, 6.2, Appendix C).")
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(parsing: .unconditional, help: "The Handicap Index (a plus index negative: -1.5 for +1.5).", transform: decimal)
        var index: Double
        @Option(parsing: .unconditional, help: "The Slope Rating of the tees, 55...155.") var slope: Int
        @Option(
            parsing: .unconditional, help: "The Course Rating of the tees (the 9-hole rating for 9 holes).", transform: decimal)
        var rating: Double
        @Option(parsing: .unconditional, help: "The par of the holes played.") var par: Int
        @Option(parsing: .unconditional, help: "9 or 18.") var holes: Int = 18
        @Option(parsing: .unconditional, help: "The handicap allowance of the format in percent, 1...100.")
        var allowance: Int = 100
        @Flag(help: "Leave (Course Rating - Par) out, as jurisdictions that apply it elsewhere do.")
        var withoutRatingMinusPar = false

        func run() async throws {
            try await options.calculate {
                try Handicap.courseHandicap(
                    handicapIndex: index, slopeRating: slope, courseRating: rating, par: par, holes: holes,
                    allowancePercent: allowance, includeCourseRatingMinusPar: !withoutRatingMinusPar)
            } json: { result in
                .object([
                    ("courseHandicap", .int(result.courseHandicap)),
                    ("playingHandicap", .int(result.playingHandicap)),
                    ("unrounded", .double(roundedToHundredths(result.unrounded))),
                ])
            } text: { result in
                "Course Handicap \(handicapText(result.courseHandicap)) (unrounded \(hundredths(result.unrounded)))\n"
                    + "Playing Handicap \(handicapText(result.playingHandicap)) "
                    + "at \(result.allowancePercent)% of the unrounded Course Handicap"
            }
        }
    }

    struct Strokes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "strokes",
            abstract: "Strokes received (negative: given back) on each stroke index for a playing handicap.")
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(parsing: .unconditional, help: "The playing (or course) handicap; a plus handicap negative.")
        var playingHandicap: Int
        @Option(parsing: .unconditional, help: "9 or 18.") var holes: Int = 18

        func run() async throws {
            try await options.calculate {
                try Handicap.strokeAllocation(playingHandicap: playingHandicap, holes: holes)
            } json: { result in
                .object([("strokes", .array(result.strokesByStrokeIndex.map { .int($0) }))])
            } text: { result in
                let cell = { (number: Int) in String(repeating: " ", count: max(0, 4 - "\(number)".count)) + "\(number)" }
                return "SI     " + (1...result.holes).map(cell).joined() + "\n"
                    + "Strokes" + result.strokesByStrokeIndex.map(cell).joined()
            }
        }
    }

    struct MaxHole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "max-hole",
            abstract: "The maximum hole score for handicap purposes: net double bogey, or par + 5 (Rule 3.1).")
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(
            parsing: .unconditional,
            help: "The full Course Handicap (not a playing handicap); leave out for a player without an index.")
        var courseHandicap: Int?
        @Option(parsing: .unconditional, help: "The par of the hole.") var par: Int
        @Option(parsing: .unconditional, help: "The stroke index of the hole.") var strokeIndex: Int
        @Option(parsing: .unconditional, help: "9 or 18 (for 9, the stroke index ranked 1...9 within the nine).")
        var holes: Int = 18

        func run() async throws {
            try await options.calculate {
                try Handicap.maximumHoleScore(courseHandicap: courseHandicap, par: par, strokeIndex: strokeIndex, holes: holes)
            } json: { result in
                .object([("max", .int(result.value))])
            } text: { result in
                switch result.limit {
                case .netDoubleBogey:
                    "Maximum hole score \(result.value): net double bogey, par \(par) + 2 + "
                        + "\(result.strokesReceived ?? 0) strokes received"
                case .parPlusFive:
                    "Maximum hole score \(result.value): par + 5 (no Handicap Index)"
                case .parPlusFiveForHighHandicap:
                    "Maximum hole score \(result.value): par + 5 (Course Handicap over 54 receiving "
                        + "\(result.strokesReceived ?? 0) strokes here)"
                }
            }
        }
    }

    struct Stableford: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stableford",
            abstract: "Stableford points for one hole: max(0, 2 + par - net) (Rules of Golf 21.1).")
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(parsing: .unconditional, help: "The playing handicap; a plus handicap negative.")
        var playingHandicap: Int
        @Option(parsing: .unconditional, help: "The par of the hole.") var par: Int
        @Option(parsing: .unconditional, help: "The stroke index of the hole.") var strokeIndex: Int
        @Option(parsing: .unconditional, help: "The strokes taken.") var gross: Int
        @Option(parsing: .unconditional, help: "9 or 18.") var holes: Int = 18

        func run() async throws {
            try await options.calculate {
                try Handicap.netHole(
                    playingHandicap: playingHandicap, par: par, strokeIndex: strokeIndex, gross: gross, holes: holes)
            } json: { result in
                .object([("points", .int(result.points))])
            } text: { result in
                "\(result.points) point\(result.points == 1 ? "" : "s"): gross \(gross), "
                    + "\(result.strokesReceived) strokes received, net \(result.net ?? gross) on par \(par)"
            }
        }
    }

    struct PlayerIndex: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "player",
            abstract: "A player's Handicap Index from their finished games in every space, with the working.",
            discussion: """
                The index is recomputed from the merged state, never synced as a number. The same person is \
                found in other spaces by their user key (`caddie player add --user`).
                """)
        @OptionGroup var options: Reporting<HomeOptions>
        @Option(help: "The space the player is named in (id, id prefix or name); by default every space is searched.")
        var space: String?
        @Argument(help: "The player (id, id prefix or name).") var player: String

        func run() async throws {
            try await options.read { home in
                var spaceID: SpaceID?
                if let space { spaceID = try home.spaces.resolveSpace(space) }
                let found = try home.handicaps.resolvePlayerAnywhere(player, space: spaceID)
                let record = try home.handicaps.handicapRecord(for: found.player, in: found.space)
                options.show(Views.handicap(record), text: Self.textReport(record))
            }
        }

        static func textReport(_ record: HandicapService.HandicapRecord) -> String {
            let calculation = record.calculation.calculation
            var lines: [String] = []
            if let index = record.index {
                lines.append("\(record.player.name): Handicap Index \(indexText(index))")
                let average = tenths(calculation.averageOfUsed ?? 0)
                var working = "  lowest \(calculation.used.count) of \(calculation.considered.count) differentials "
                working += "averaged \(average), adjustment \(calculation.adjustment), cap \(calculation.cap.rawValue)"
                if let low = record.calculation.lowHandicapIndex {
                    working += " (Low Handicap Index \(indexText(low)))"
                }
                if calculation.exceptionalScoreReductionApplied { working += ", exceptional score reduction" }
                if calculation.limitedToMaximum { working += ", limited to 54.0" }
                lines.append(working)
            } else {
                lines.append(
                    "\(record.player.name): no Handicap Index yet (3 acceptable rounds are needed, "
                        + "\(calculation.considered.count) so far)")
                if let entered = record.player.handicapIndex {
                    lines.append("  the entered index \(indexText(entered)) is used for net scores meanwhile")
                }
            }
            if let model = record.calculation.expectedScoreModel {
                lines.append("  unofficial: expected scores for holes not played use the \(model)")
            }
            if !record.calculation.rounds.isEmpty {
                lines.append("")
                lines.append("Rounds, oldest first (* counts):")
                for round in record.calculation.rounds {
                    let game = record.game(of: round)
                    let mark = round.counts ? "*" : " "
                    var line = "  \(mark) \(day(round.date))  game \(game?.game.short ?? "?")  "
                    line += "\(game?.spaceName ?? "?")  \(game?.course ?? "?"), tee \(game?.tee ?? "?")"
                    line += "  AGS \(round.adjustedGrossScore)"
                    if round.holesPlayed < round.holes { line += " (\(round.holesPlayed) of \(round.holes) holes)" }
                    if let differential = round.differential {
                        line += "  differential \(tenths(differential.value))"
                    }
                    if round.exceptionalReductionTriggered != 0 {
                        line += "  exceptional: \(tenths(round.exceptionalReductionTriggered))"
                    }
                    if let reason = round.notAcceptableBecause { line += "  not acceptable: \(reason.description)" }
                    lines.append(line)
                }
            }
            if !record.skipped.isEmpty {
                lines.append("")
                lines.append("Skipped games:")
                for skipped in record.skipped {
                    lines.append(
                        "  \(day(Date(timeIntervalSince1970: Double(skipped.createdAt) / 1000)))  "
                            + "game \(skipped.game.short)  \(skipped.spaceName): \(skipped.reason)")
                }
            }
            return lines.joined(separator: "\n")
        }
    }
}

extension Reporting {
    /// A calculation command: runs `calculation` and prints its result as JSON (`--json`) or as text. A rule the
    /// numbers break (a `HandicapError`), like any other error, ends the command with its one line and exit status 1.
    fileprivate func calculate<Result>(
        _ calculation: () throws -> Result, json: (Result) -> JSON, text: (Result) -> String
    ) async throws {
        try await guarded {
            let result = try calculation()
            show(json(result), text: text(result))
        }
    }
}

/// A value to the nearest hundredth, .5 upwards, as the Rules round (the JSON prints 30.72, not 30.7221).
private func roundedToHundredths(_ value: Double) -> Double {
    (value * 100 + 0.5 + 1e-9).rounded(.down) / 100 + 0.0
}

/// A value with one decimal: 19.0, -2.3.
private func tenths(_ value: Double) -> String { String(format: "%.1f", value) }

/// A value with two decimals: 30.72.
private func hundredths(_ value: Double) -> String { String(format: "%.2f", roundedToHundredths(value)) }

/// A Handicap Index as golfers write it: a plus index with its plus sign.
private func indexText(_ index: Double) -> String { index < 0 ? "+" + tenths(-index) : tenths(index) }

/// A course or playing handicap as golfers write it: +2 for a plus handicap.
private func handicapText(_ handicap: Int) -> String { handicap < 0 ? "+\(-handicap)" : "\(handicap)" }

/// The UTC calendar day of a date, as ISO 8601 (2026-05-01).
private func day(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.string(from: date)
}
