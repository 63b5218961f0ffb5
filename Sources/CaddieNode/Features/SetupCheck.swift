import CaddieCore
import CaddieServices
import CaddieStore

/// The checks of a game's setup change against its course, its roster and the scores already entered, one part of
/// the setup at a time (tees, holes, formats, sides, hole entries), each adding the fields it writes.
/// ``RoundService/setupFields(space:course:game:roster:setup:)`` runs them in turn; the first refusal ends it.
struct SetupCheck {
    let course: CourseRecord
    /// The game changed; nil for a game being created.
    let game: GameRecord?
    let roster: [PlayerID]
    let setup: GameSetup<PlayerID>
    /// The space's players by id.
    let everyone: [PlayerID: PlayerRecord]
    /// The players with a score in the game.
    let scored: Set<PlayerID>

    func nameOf(_ player: PlayerID) -> String { everyone[player]?.name ?? "player \(player.short)" }

    func checkTee(_ name: String, _ input: NodeError.Input = .tee) throws(NodeError) -> String {
        try CourseService.tee(named: name, of: course, input: input).name
    }

    /// The formats the game will play, for the checks of its sides and hole entries.
    var playing: [Games.Format] {
        let names = setup.formats?.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? game?.formats ?? []
        return names.isEmpty ? [Games.Format.stroke, .stableford] : names.compactMap(Games.Format.init(rawValue:))
    }

    /// The tee everybody plays from, and players' own tees: none may change under a player's scores.
    func tees(into fields: inout [String: FieldValue]) throws(NodeError) {
        if let tee = setup.tee {
            let name = try checkTee(tee)
            if let game, name != game.tee {
                let affected = roster.filter { scored.contains($0) && game.playerTees[$0] == nil }
                if !affected.isEmpty {
                    throw .conflict(
                        "scores are already entered for \(affected.map(nameOf).joined(separator: ", ")) from tee \(game.tee): "
                            + "a tee cannot change once a player has scores (start a new game, or delete this one)")
                }
            }
            fields["tee"] = .text(name)
        }
        for (player, teeText) in setup.playerTees {
            guard roster.contains(player) else {
                throw .badInput(.playerTees, "names \(nameOf(player)), who is not playing in this game: add them first")
            }
            let tee = try checkTee(teeText.trimmingCharacters(in: .whitespaces), .playerTees)
            if let game, scored.contains(player), tee != game.tee(of: player) {
                throw .conflict(
                    "\(nameOf(player)) already has scores from tee \(game.tee(of: player)): a tee cannot "
                        + "change once a player has scores")
            }
            fields[GameRecord.teeField(player)] = .text(tee)
        }
    }

    /// How many holes, and the hole the game starts on: ones the course has.
    func holes(into fields: inout [String: FieldValue]) throws(NodeError) {
        let courseHoles = course.holes.map(\.number).sorted()
        if let holes = setup.holes {
            guard holes == 9 || holes == 18 else { throw .badInput(.holes, "must be 9 or 18, got \(holes)") }
            guard holes <= max(courseHoles.count, 1) else {
                throw .badInput(.holes, "cannot be \(holes): course \(course.name) has \(courseHoles.count) holes")
            }
            fields["holes"] = .integer(Int64(holes))
        }
        if let start = setup.start {
            guard courseHoles.contains(start) else {
                throw .badInput(.start, "must be a hole of \(course.name) (1...\(courseHoles.last ?? 18)), got \(start)")
            }
            fields["start"] = .integer(Int64(start))
        }
    }

    /// The formats, the skins, their validation and the stake.
    func formats(into fields: inout [String: FieldValue]) throws(NodeError) {
        if let formats = setup.formats {
            var seen: [String] = []
            for raw in formats {
                let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
                guard Games.Format(rawValue: name) != nil else {
                    throw .badInput(
                        .formats,
                        "names an unknown format '\(raw)': choose from "
                            + Games.Format.allCases.map(\.rawValue).joined(separator: ", "))
                }
                if !seen.contains(name) { seen.append(name) }
            }
            guard !seen.isEmpty else { throw .badInput(.formats, "needs at least one format, e.g. stroke and skins") }
            fields["formats"] = .text(
                seen.sorted { Games.Format(rawValue: $0)! < Games.Format(rawValue: $1)! }
                    .joined(separator: ","))
        }
        if let skins = setup.skins {
            guard skins == "net" || skins == "gross" else { throw .badInput(.skins, "must be net or gross, got '\(skins)'") }
            fields["skins"] = .text(skins)
        }
        if let validation = setup.skinsValidation { fields["skins.validate"] = .integer(validation ? 1 : 0) }
        if let stake = setup.stake {
            guard stake.isFinite, (0...1_000_000).contains(stake) else {
                throw .badInput(.stake, "must be between 0 (none) and 1000000 a unit, got \(stake)")
            }
            fields["stake"] = stake == 0 ? .null : .number(stake)
        }
    }

    /// The sides: set now, or kept, each must fit the formats played.
    func sides(into fields: inout [String: FieldValue]) throws(NodeError) {
        if setup.formats != nil, setup.teams == nil, let game, !game.teams.isEmpty {
            // The sides already set must fit the formats chosen now.
            let sides = ["A", "B"].map { side in roster.filter { game.teams[$0] == side } }
            for format in playing {
                guard let rule = format.definition.sides, !sides.allSatisfy(\.isEmpty),
                    let refusal = rule.refusal(sizes: sides.map(\.count))
                else { continue }
                throw .badInput(
                    .formats,
                    "names \(format.definition.title), which does not fit the sides set "
                        + "(\(sides.map { $0.map(nameOf).joined(separator: "+") }.joined(separator: " against "))): it "
                        + "\(refusal); set other sides with --teams in the same change")
            }
        }
        if let teams = setup.teams {
            let rules = playing.compactMap { format in format.definition.sides.map { (format, $0) } }
            let largest = max(2, rules.map(\.1.sizes.upperBound).max() ?? 2)
            let words = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
            let sizes = largest == 2 ? "one or two players" : "one to \(words[min(largest, 8) - 1]) players"
            guard teams.count == 2 else {
                throw .badInput(
                    .teams,
                    "takes two sides of \(sizes) each; got \(teams.count) side\(teams.count == 1 ? "" : "s")")
            }
            for side in teams where !(1...largest).contains(side.count) {
                throw .badInput(
                    .teams, "takes sides of \(sizes), and \(side.map(nameOf).joined(separator: "+")) is \(side.count)")
            }
            guard teams[0].count == teams[1].count || (!rules.isEmpty && rules.allSatisfy { !$0.1.equal }) else {
                throw .badInput(
                    .teams,
                    "takes sides of equal size, and these are unequal (\(teams[0].map(nameOf).joined(separator: "+")) "
                        + "against \(teams[1].map(nameOf).joined(separator: "+"))): a match is one against one or two "
                        + "against two")
            }
            for (format, rule) in rules {
                if let refusal = rule.refusal(sizes: teams.map(\.count)) {
                    throw .badInput(.teams, "does not fit \(format.definition.title): it \(refusal)")
                }
            }
            var sides: [PlayerID: String] = [:]
            for (index, side) in teams.enumerated() {
                for player in side {
                    guard roster.contains(player) else {
                        throw .badInput(
                            .teams, "names \(nameOf(player)), who is not playing in this game: a side is made of its players")
                    }
                    guard sides.updateValue(index == 0 ? "A" : "B", forKey: player) == nil else {
                        throw .badInput(.teams, "puts \(nameOf(player)) on both sides")
                    }
                }
            }
            for player in roster { fields[GameRecord.teamField(player)] = sides[player].map(FieldValue.text) ?? .null }
        }
    }

    /// The hole entries (the Wolf's pick, Bingo Bango Bongo's points): each a format's, on a hole played.
    func entries(into fields: inout [String: FieldValue]) throws(NodeError) {
        if !setup.entries.isEmpty {
            guard let game else {
                throw .badInput(.entries, "are made on the holes of a game once it is started, not when it is created")
            }
            let kinds = playing.flatMap { format in format.definition.entries.map { (format, $0) } }
            // The card's order, which the formats score in (the Wolf's turn goes by it).
            let order = roster.map { everyone[$0] ?? PlayerRecord(id: $0, fields: [:]) }.sortedByName()
            let holes = HandicapService.holesPlayed(
                start: setup.start ?? game.startHole, count: setup.holes ?? game.holesPlayed, course: course)
            for entry in setup.entries {
                let key = entry.key.trimmingCharacters(in: .whitespaces).lowercased()
                guard let (format, kind) = kinds.first(where: { $0.1.key == key }) else {
                    let known = kinds.map(\.1.key)
                    throw .badInput(
                        .entries,
                        "names '\(entry.key)', which no format of this game takes: "
                            + (known.isEmpty
                                ? "its formats take no hole entries (wolf and bbb do: add one with --formats)"
                                : "choose from \(known.joined(separator: ", "))"))
                }
                guard let position = holes.firstIndex(of: entry.hole) else {
                    throw .badInput(
                        .entries,
                        "names hole \(entry.hole), which this game does not play (it plays \(RoundService.describe(holes)))")
                }
                let field = GameRecord.holeEntryField(hole: entry.hole, key: key)
                if entry.lone {
                    guard kind.allowsLone, entry.player == nil else {
                        throw .badInput(
                            .entries,
                            kind.allowsLone
                                ? "takes a player or lone for \(key), not both"
                                : "takes a player for \(key): \(kind.label) cannot be lone")
                    }
                    if let refusal = format.definition.refusal(
                        entry: kind, position: position, player: nil, names: order.map(\.name))
                    {
                        throw .badInput(.entries, refusal)
                    }
                    fields[field] = .text("lone")
                } else if let player = entry.player {
                    guard let index = order.firstIndex(where: { $0.id == player }) else {
                        throw .badInput(.entries, "names \(nameOf(player)), who is not playing in this game")
                    }
                    if let refusal = format.definition.refusal(
                        entry: kind, position: position, player: index, names: order.map(\.name))
                    {
                        throw .badInput(.entries, refusal)
                    }
                    fields[field] = .bytes(player.bytes)
                } else {
                    fields[field] = .null
                }
            }
        }
    }
}
