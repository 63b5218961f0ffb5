import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation

struct Track: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Record where a player is (a shot or a fix) and summarise a round: distance, time, pace, shots.",
        subcommands: [Mark.self, Summary.self])

    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark", abstract: "Record a position for a player, on their current hole.")
        // `--json` beside the options, not in a `Reporting` group: one group less keeps ArgumentParser's checks of
        // the command's options (a debug build's) from growing with every level of nesting.
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var target: GamePlayerOptions
        @Option(parsing: .unconditional, help: "Latitude, degrees.", transform: decimal) var lat: Double
        @Option(parsing: .unconditional, help: "Longitude, degrees.", transform: decimal) var lon: Double
        @Flag(help: "A position fix, not a shot (shots measure shot lengths).") var fix = false

        func run() async throws {
            try await guarded {
                let point = try Guide.position(lat, lon)
                let (home, space, game, player) = try target.open()
                let hole = try await home.run(
                    .mark(space: space, game: game, player: player, point: point, shot: !fix), unlock: Passphrase.unlock(home)
                ).expect("the hole it marked") { if case .marked(let hole) = $0 { hole } else { nil } }
                Console.show(
                    json: json, .object([("hole", .int(hole)), ("kind", .string(fix ? "fix" : "shot"))]),
                    text: "Marked a \(fix ? "fix" : "shot") for \(target.player) on hole \(hole)")
            }
        }
    }

    struct Summary: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary", abstract: "Distance walked, time per hole, pace of play, shot lengths.")
        @OptionGroup var target: Reporting<GameOptions>
        @Flag(help: "Metres instead of yards.") var metres = false

        func run() async throws {
            try await target.read { home, space, game in
                let tracks = try home.guidance.trackSummary(space: space, game: game)
                let unit = metres ? 1.0 : 1 / 0.9144
                let unitName = metres ? "m" : "yd"
                if target.json {
                    Console.json(
                        .array(
                            tracks.map { track in
                                .object([
                                    ("player", .string(track.player.name)), ("marks", .int(track.marks.count)),
                                    ("walkedMeters", .double(track.walked.rounded())), ("elapsedSeconds", .double(track.elapsed)),
                                    ("targetSeconds", .optional(track.targetSeconds)),
                                    (
                                        "secondsPerHole",
                                        .array(
                                            track.secondsPerHole.sorted { $0.key < $1.key }.map {
                                                .object([("hole", .int($0.key)), ("seconds", .double($0.value))])
                                            })
                                    ),
                                    (
                                        "shots",
                                        .array(
                                            track.shots.map {
                                                .object([
                                                    ("hole", .int($0.hole)), ("meters", .double($0.metres.rounded())),
                                                    ("yards", .double(($0.metres / 0.9144).rounded())),
                                                ])
                                            })
                                    ),
                                ])
                            }))
                } else if tracks.isEmpty {
                    Console.print("No positions recorded in this game yet (caddie track mark).")
                } else {
                    for track in tracks {
                        let pace =
                            track.targetSeconds.map { target in
                                let delta = (track.elapsed - target) / 60
                                return delta > 0
                                    ? String(format: ", %.0f min behind pace", delta)
                                    : String(format: ", %.0f min ahead of pace", -delta)
                            } ?? ""
                        Console.print(
                            "\(track.player.name): walked \(Int((track.walked * unit).rounded())) \(unitName) in "
                                + String(format: "%.0f min", track.elapsed / 60) + pace)
                        for (hole, seconds) in track.secondsPerHole.sorted(by: { $0.key < $1.key }) {
                            Console.print(String(format: "  hole %d: %.1f min", hole, seconds / 60))
                        }
                        for shot in track.shots {
                            Console.print("  shot on hole \(shot.hole): \(Int((shot.metres * unit).rounded())) \(unitName)")
                        }
                    }
                }
            }
        }
    }
}
