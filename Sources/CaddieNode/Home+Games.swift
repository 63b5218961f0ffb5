import CaddieCore
import CaddieServices
import CaddieStore
import Foundation

/// What a game setup changes; nil leaves a setting as it is.
public struct GameSetup: Sendable {
    /// The tee everybody plays from unless given their own.
    public var tee: String?
    /// Players' own tees, as typed (player, tee).
    public var playerTees: [(player: String, tee: String)] = []
    /// The hole the game starts on.
    public var start: Int?
    /// How many holes, 9 or 18.
    public var holes: Int?
    /// The formats, by name.
    public var formats: [String]?
    /// "net" or "gross" skins.
    public var skins: String?
    /// Whether skins must be validated on the next hole.
    public var skinsValidation: Bool?
    /// The two sides of the match and Nassau, each a list of players as typed.
    public var teams: [[String]]?
    /// The stake per unit; 0 clears it.
    public var stake: Double?

    /// An empty setup: changes nothing.
    public init() {}

    /// Whether it changes anything.
    public var isEmpty: Bool {
        tee == nil && playerTees.isEmpty && start == nil && holes == nil && formats == nil && skins == nil
            && skinsValidation == nil && teams == nil && stake == nil
    }
}

/// An open conflict, with what it decides in the standings.
public struct Dispute: Sendable {
    /// The cell.
    public let cell: ScoreCell
    /// The player's name.
    public let name: String
    /// The values in dispute, one per distinct entry, the shown one first.
    public let values: [ScoreValue]
    /// What the choice between them decides, e.g. "skin 7 (Dev wins 2 or carry 2)".
    public let decides: [String]
    /// Whether the settlement differs with the value chosen.
    public let changesSettlement: Bool

    /// "Dev's 7th: 6 by Ben vs 4 by Dev: decides skin 7 (Dev wins 2 or carry 2) and the front nine (...)".
    public var text: String {
        let values = values.map { "\($0.entry.strokes) by \($0.author)" }.joined(separator: " vs ")
        let decided =
            decides.isEmpty
            ? "decides nothing in the standings"
            : "decides " + Dispute.list(decides)
        return "\(name)'s \(Dispute.ordinal(cell.hole)): \(values): \(decided)"
    }

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    static func ordinal(_ number: Int) -> String {
        let suffix =
            (11...13).contains(number % 100)
            ? "th"
            : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}

/// A game's standings from the merged state: every format it plays, its disputes and its settlement.
public struct GameStandings: Sendable {
    /// The card behind it.
    public let card: Scorecard
    /// The hole numbers played, in order of play.
    public let holes: [Int]
    /// Each player's tee, in the card's player order.
    public let tees: [String]
    /// The formats played.
    public let formats: [Games.Format]
    /// The rules given to the scoring functions.
    public let rules: Games.Rules
    /// Each player's Course Handicap (unrounded) for the holes played, nil without an index.
    public let courseHandicaps: [Double?]
    /// Each player's pars per hole of play.
    public let pars: [[Int]]
    /// The scoring.
    public let result: Games.Standings
    /// What the group should know: formats that cannot be scored, players off scratch.
    public let notes: [String]
    /// Open conflicts on the holes played, with what each decides: the ones that decide something first.
    public let disputes: [Dispute]

    /// Whether a conflict could still change the settlement.
    public var provisional: Bool { disputes.contains(where: \.changesSettlement) }

    /// The players, in card order.
    public var players: [PlayerRecord] { card.players }

    /// A side's name: the player, or "Ann & Ben".
    public func sideName(_ side: Int) -> String {
        guard let sides = result.sides, sides.indices.contains(side) else { return side == 0 ? "A" : "B" }
        return sides[side].map { card.players[$0].name }.joined(separator: " & ")
    }

    /// A match's state in words, from the leader's side: "Ann 2 up thru 7", "Ann won 3&2", "all square".
    public func describe(_ status: Games.MatchStatus) -> String {
        guard let leader = status.leader else { return status.summary }
        let name = sideName(leader == .a ? 0 : 1)
        return status.isOver ? "\(name) won \(status.summary)" : "\(name) \(status.summary)"
    }

    /// A Nassau bet's name: "front nine", "back nine", "18 holes", "press on holes 3-9".
    public func name(_ bet: Games.NassauBet) -> String {
        switch bet.kind {
        case .front: "front nine"
        case .back: "back nine"
        case .overall: "18 holes"
        case .press: "press on holes \(holes[bet.start])-\(holes[bet.end - 1])"
        }
    }

    /// A skins hole in words: "Dev wins 2", "carry 2", "undecided".
    public func describe(_ outcome: Games.SkinOutcome) -> String {
        switch outcome {
        case .won(let player, let skins): "\(card.players[player].name) wins \(skins)"
        case .awaitingValidation(let player, let skins): "\(card.players[player].name) wins \(skins) if validated"
        case .wonThenVoided(let player, let skins): "\(card.players[player].name)'s \(skins) not validated, carried"
        case .carried(let carry): "carry \(carry)"
        case .pending: "undecided"
        }
    }
}

/// A player's statistics over finished games.
public struct PlayerStatistics: Sendable, Equatable {
    /// The player.
    public let player: PlayerRecord
    /// Finished games counted.
    public let rounds: Int
    /// Holes with a score.
    public let holes: Int
    /// Fairways hit and fairways recorded (par 4 and 5 holes with a fairway entered).
    public let fairwaysHit: Int, fairwaysRecorded: Int
    /// Greens in regulation hit and recorded.
    public let greensHit: Int, greensRecorded: Int
    /// Putts over rounds whose every scored hole has putts, and how many such rounds.
    public let putts: Int, puttRounds: Int
    /// Putts on greens hit in regulation (holes with both recorded), and how many such holes.
    public let puttsOnGreensHit: Int, greensHitWithPutts: Int
    /// Penalty strokes recorded.
    public let penalties: Int
    /// Strokes and holes by par (3, 4, 5).
    public let byPar: [Int: (strokes: Int, holes: Int)]

    public static func == (lhs: PlayerStatistics, rhs: PlayerStatistics) -> Bool {
        lhs.player == rhs.player && lhs.rounds == rhs.rounds && lhs.holes == rhs.holes
            && lhs.fairwaysHit == rhs.fairwaysHit && lhs.greensHit == rhs.greensHit && lhs.putts == rhs.putts
            && lhs.penalties == rhs.penalties
            && lhs.byPar.mapValues { [$0.strokes, $0.holes] }
                == rhs.byPar.mapValues { [$0.strokes, $0.holes] }
    }
}

extension Home {
    // MARK: Setup

    /// The fields a setup writes, checked against the course, the roster and the scores already entered.
    func setupFields(
        space: SpaceID, course: CourseRecord, game: GameRecord?, roster: [EntityID], setup: GameSetup
    )
        throws(NodeError) -> [String: FieldValue]
    {
        var fields: [String: FieldValue] = [:]
        let scored: Set<EntityID>
        if let game {
            scored = Set(try run { try store.cells(space, game: game.id) }.map(\.player))
        } else {
            scored = []
        }
        func checkTee(_ name: String) throws(NodeError) -> String {
            guard let tee = course.tee(named: name) else {
                throw .invalid(
                    "course \(course.name) has no tee '\(name)'; its tees: "
                        + course.tees.map(\.name).joined(separator: ", "))
            }
            return tee.name
        }
        if let tee = setup.tee {
            let name = try checkTee(tee)
            if let game, name != game.tee {
                let affected = roster.filter { scored.contains($0) && game.playerTees[$0] == nil }
                if !affected.isEmpty {
                    throw .invalid(
                        "scores are already entered for \(try names(space, affected)) from tee \(game.tee): "
                            + "a tee cannot change once a player has scores (start a new game, or delete this one)")
                }
            }
            fields["tee"] = .text(name)
        }
        for (playerText, teeText) in setup.playerTees {
            let player = try resolvePlayer(space, playerText.trimmingCharacters(in: .whitespaces))
            guard roster.contains(player.id) else {
                throw .invalid("\(player.name) is not playing in this game: add them first")
            }
            let name = try checkTee(teeText.trimmingCharacters(in: .whitespaces))
            if let game, scored.contains(player.id), name != game.tee(of: player.id) {
                throw .invalid(
                    "\(player.name) already has scores from tee \(game.tee(of: player.id)): a tee cannot "
                        + "change once a player has scores")
            }
            fields[GameRecord.teeField(player.id)] = .text(name)
        }
        let courseHoles = course.holes.map(\.number).sorted()
        if let holes = setup.holes {
            guard holes == 9 || holes == 18 else { throw .invalid("--holes must be 9 or 18, got \(holes)") }
            guard holes <= max(courseHoles.count, 1) else {
                throw .invalid("course \(course.name) has \(courseHoles.count) holes: it cannot play \(holes)")
            }
            fields["holes"] = .integer(Int64(holes))
        }
        if let start = setup.start {
            guard courseHoles.contains(start) else {
                throw .invalid("--start must be a hole of \(course.name) (1...\(courseHoles.last ?? 18)), got \(start)")
            }
            fields["start"] = .integer(Int64(start))
        }
        if let formats = setup.formats {
            var seen: [String] = []
            for raw in formats {
                let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
                guard Games.Format(rawValue: name) != nil else {
                    throw .invalid(
                        "unknown format '\(raw)': choose from "
                            + Games.Format.allCases.map(\.rawValue).joined(separator: ", "))
                }
                if !seen.contains(name) { seen.append(name) }
            }
            guard !seen.isEmpty else { throw .invalid("give at least one format, e.g. --formats stroke,skins") }
            fields["formats"] = .text(
                seen.sorted { Games.Format(rawValue: $0)! < Games.Format(rawValue: $1)! }
                    .joined(separator: ","))
        }
        if let skins = setup.skins {
            guard skins == "net" || skins == "gross" else { throw .invalid("--skins must be net or gross, got '\(skins)'") }
            fields["skins"] = .text(skins)
        }
        if let validation = setup.skinsValidation { fields["skins.validate"] = .integer(validation ? 1 : 0) }
        if let stake = setup.stake {
            guard stake.isFinite, (0...1_000_000).contains(stake) else {
                throw .invalid("--stake must be between 0 (none) and 1000000 a unit, got \(stake)")
            }
            fields["stake"] = stake == 0 ? .null : .number(stake)
        }
        if let teams = setup.teams {
            guard teams.count == 2, teams.allSatisfy({ (1...2).contains($0.count) }), teams[0].count == teams[1].count else {
                throw .invalid("--teams takes two sides of one or two players each, e.g. Ann+Ben,Cleo+Dev")
            }
            var sides: [EntityID: String] = [:]
            for (index, side) in teams.enumerated() {
                for text in side {
                    let player = try resolvePlayer(space, text.trimmingCharacters(in: .whitespaces))
                    guard roster.contains(player.id) else {
                        throw .invalid("\(player.name) is not playing in this game: a side is made of its players")
                    }
                    guard sides.updateValue(index == 0 ? "A" : "B", forKey: player.id) == nil else {
                        throw .invalid("\(player.name) is on both sides")
                    }
                }
            }
            for player in roster { fields[GameRecord.teamField(player)] = sides[player].map(FieldValue.text) ?? .null }
        }
        return fields
    }

    private func names(_ space: SpaceID, _ ids: [EntityID]) throws(NodeError) -> String {
        let everyone = try players(space)
        return ids.map { id in everyone.first { $0.id == id }?.name ?? id.short }.joined(separator: ", ")
    }

    /// Changes a game's setup: tees, holes, start, formats, teams, stake.
    public func setupGame(space: SpaceID, keys: UnlockedKeys, game text: String, setup: GameSetup) throws(NodeError) {
        guard !setup.isEmpty else {
            throw .invalid(
                "say what to change: --tee, --player-tee, --start, --holes, --formats, --skins, "
                    + "--validate-skins, --teams or --stake")
        }
        let game = try resolveGame(space, text)
        guard !game.finished else {
            throw .invalid("game \(game.id.short) is finished: reopen it with `caddie game reopen \(game.id.short)` first")
        }
        guard let course = try course(of: game, in: space) else {
            throw .notFound("the course of game \(game.id.short) has not arrived yet: sync with the home that imported it")
        }
        let roster = try run { try store.roster(space, game: game.id) }
        let fields = try setupFields(space: space, course: course, game: game, roster: roster, setup: setup)
        try append(space: space, keys: keys, changes: [.set(kind: .game, id: game.id, fields: fields)])
    }

    /// Deletes a game created by mistake (or restores it): it leaves the game list, its ops stay in the log.
    /// A game with scores is deleted only with `force`.
    public func deleteGame(
        space: SpaceID, keys: UnlockedKeys, game text: String, force: Bool, restore: Bool = false
    )
        throws(NodeError)
    {
        let game = try resolveGame(space, text, includeDeleted: true)
        if restore {
            guard game.deleted else { throw .invalid("game \(game.id.short) is not deleted") }
        } else {
            guard !game.deleted else { throw .invalid("game \(game.id.short) is already deleted") }
            let scores = try run { try store.cells(space, game: game.id) }.count
            if scores > 0, !force {
                throw .invalid(
                    "game \(game.id.short) has \(scores) scores: delete it with --force if it really was a "
                        + "mistake (its ops stay in the log and `caddie game restore` brings it back)")
            }
        }
        try append(
            space: space, keys: keys,
            changes: [
                .set(
                    kind: .game, id: game.id,
                    fields: ["deleted": .integer(restore ? 0 : 1)])
            ])
    }

    // MARK: Players

    /// Edits a player: a new name, a new entered Handicap Index, or clears the index (`clearIndex`).
    public func editPlayer(
        space: SpaceID, keys: UnlockedKeys, player text: String, name: String?, handicapIndex: Double?,
        clearIndex: Bool = false
    ) throws(NodeError) -> PlayerRecord {
        let player = try resolvePlayer(space, text)
        var fields: [String: FieldValue] = [:]
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { throw .invalid("a player name must be 1...64 characters") }
            if let same = try players(space).first(where: {
                $0.id != player.id && $0.name.caseInsensitiveCompare(trimmed) == .orderedSame
            }) {
                throw .invalid(
                    "a player named \(same.name) is already in this space (id \(same.id.hex)): choose a name "
                        + "that tells the two apart")
            }
            if trimmed != player.name { fields["name"] = .text(trimmed) }
        }
        if clearIndex, handicapIndex != nil { throw .invalid("give --index or --clear-index, not both") }
        if let handicapIndex {
            guard Handicap.handicapIndexRange.contains(handicapIndex) else {
                throw .invalid(
                    "a Handicap Index must be between +\(Int(-Handicap.handicapIndexRange.lowerBound)) "
                        + "(written as a negative number) and 54.0, got \(handicapIndex)")
            }
            fields["index"] = .number(handicapIndex)
        }
        if clearIndex, player.handicapIndex != nil { fields["index"] = .null }
        guard !fields.isEmpty else {
            if name == nil, handicapIndex == nil, !clearIndex {
                throw .invalid("say what to change: --name, --index or --clear-index")
            }
            return player  // already so: no op to sign
        }
        try append(space: space, keys: keys, changes: [.set(kind: .player, id: player.id, fields: fields)])
        return try resolvePlayer(space, player.id.hex)
    }

    // MARK: Standings

    /// The Handicap Index a player brings to a game: computed from the rounds before it, else entered.
    func indexForGame(
        _ player: PlayerRecord, space: SpaceID, game: GameRecord
    ) throws(NodeError)
        -> (index: Double, source: NetCard.IndexSource)?
    {
        let played = Date(timeIntervalSince1970: Double(game.createdAt) / 1000)
        do {
            if let computed = try handicapRecord(for: player, in: space).index(before: played) { return (computed, .computed) }
        } catch {
            guard case .invalid = error else { throw error }
        }
        return player.handicapIndex.map { ($0, .entered) }
    }

    /// The hole numbers a game plays, in order: from its start hole, wrapping round the course.
    public static func holesPlayed(_ game: GameRecord, course: CourseRecord) -> [Int] {
        let all = course.holes.map(\.number).sorted()
        guard !all.isEmpty else { return Array(1...(game.holesPlayed ?? 18)) }
        let count = min(game.holesPlayed ?? all.count, all.count)
        let first = all.firstIndex(of: game.startHole) ?? 0
        return (0..<count).map { all[(first + $0) % all.count] }
    }

    /// A game's standings: every format it plays, the disputes and what they decide, the settlement.
    public func standings(space: SpaceID, game text: String) throws(NodeError) -> GameStandings {
        let card = try card(space: space, game: text)
        guard let course = card.course else {
            throw .notFound(
                "the course of game \(card.game.id.short) has not arrived yet: sync with the home that "
                    + "imported it")
        }
        let holes = Self.holesPlayed(card.game, course: course)
        guard holes.count == 9 || holes.count == 18 else {
            throw .invalid("game \(card.game.id.short) plays \(holes.count) holes: standings need 9 or 18")
        }
        var cards: [Games.PlayerCard] = []
        var tees: [String] = []
        var handicaps: [Double?] = []
        var notes: [String] = []
        for player in card.players {
            let teeName = card.game.tee(of: player.id)
            guard let tee = course.tee(named: teeName) else {
                throw .invalid(
                    "course \(course.name) has no tee '\(teeName)' (\(player.name)'s tee): set another with "
                        + "`caddie game setup \(card.game.id.short) --player-tee \(player.name)=TEE`")
            }
            var pars: [Int] = []
            var indexes: [Int] = []
            for number in holes {
                let hole = course.hole(number)
                guard let par = hole?.par(tee: tee.name) else {
                    throw .invalid(
                        "hole \(number) of \(course.name) has no par for tee \(tee.name): the course file "
                            + "needs it for standings")
                }
                pars.append(par)
                indexes.append(hole?.strokeIndex(tee: tee.name) ?? 0)
            }
            var ranked = Array(1...holes.count)
            var courseHandicap: Double?
            if indexes.allSatisfy({ $0 > 0 }), let ranks = try? Handicap.rankedStrokeIndexes(indexes) {
                ranked = ranks
                if let (index, _) = try indexForGame(player, space: space, game: card.game),
                    let rating = tee.rating, let slope = tee.slope, let teePar = tee.par
                {
                    courseHandicap = Self.courseHandicap(
                        index: index, rating: rating, slope: slope, teePar: teePar,
                        courseHoles: course.holes.count, pars: pars)
                }
            } else {
                notes.append("tee \(tee.name) has no stroke indexes for every hole played: \(player.name) plays off scratch")
            }
            tees.append(tee.name)
            handicaps.append(courseHandicap)
            cards.append(
                Games.PlayerCard(
                    pars: pars, strokeIndexes: ranked, courseHandicap: courseHandicap,
                    gross: holes.map { card.cell(player.id, $0)?.winner?.entry.strokes }))
        }
        var formats = card.game.formats.compactMap(Games.Format.init(rawValue:))
        if formats.isEmpty { formats = [.stroke, .stableford] }
        var sides: [[Int]]?
        if !card.game.teams.isEmpty {
            let a = card.players.indices.filter { card.game.teams[card.players[$0].id] == "A" }
            let b = card.players.indices.filter { card.game.teams[card.players[$0].id] == "B" }
            sides = [a, b]
        }
        let rules = Games.Rules(
            formats: Set(formats), netSkins: !card.game.grossSkins,
            skinsValidation: card.game.skinsValidation, sides: sides, stake: card.game.stake)
        let names = card.players.map(\.name)
        let result = Games.standings(cards: cards, names: names, rules: rules)
        let base = GameStandings(
            card: card, holes: holes, tees: tees, formats: formats.sorted(), rules: rules,
            courseHandicaps: handicaps, pars: cards.map(\.pars),
            result: result, notes: notes + result.notes, disputes: [])
        // Each open conflict on a hole played: score the game once per disputed value and say what differs.
        var disputes: [Dispute] = []
        for cell in card.conflicts {
            guard let position = holes.firstIndex(of: cell.hole),
                let player = card.players.firstIndex(where: { $0.id == cell.player })
            else { continue }
            var distinct: [ScoreValue] = []
            for value in cell.values where !distinct.contains(where: { $0.entry.strokes == value.entry.strokes }) {
                distinct.append(value)
            }
            var outcomes: [Games.Standings] = []
            for value in distinct {
                var changed = cards
                var gross = changed[player].gross
                gross[position] = value.entry.strokes
                changed[player] = Games.PlayerCard(
                    pars: cards[player].pars, strokeIndexes: cards[player].strokeIndexes,
                    courseHandicap: cards[player].courseHandicap, gross: gross)
                outcomes.append(Games.standings(cards: changed, names: names, rules: rules))
            }
            disputes.append(
                Dispute(
                    cell: cell, name: card.name(cell.player),
                    values: distinct.isEmpty ? cell.values : distinct,
                    decides: distinct.count > 1 ? Self.decides(outcomes, in: base) : [],
                    changesSettlement: Set(outcomes.map { $0.players.map(\.units) }).count > 1))
        }
        disputes.sort {
            ($0.decides.isEmpty ? 1 : 0, $0.cell.hole, $0.name) < ($1.decides.isEmpty ? 1 : 0, $1.cell.hole, $1.name)
        }
        return GameStandings(
            card: card, holes: holes, tees: tees, formats: formats.sorted(), rules: rules,
            courseHandicaps: handicaps, pars: base.pars, result: result, notes: base.notes,
            disputes: disputes)
    }

    /// What differs between the standings scored with each disputed value.
    static func decides(_ outcomes: [Games.Standings], in standings: GameStandings) -> [String] {
        var items: [String] = []
        func alternatives(_ texts: [String]) -> String? {
            var unique: [String] = []
            for text in texts where !unique.contains(text) { unique.append(text) }
            return unique.count > 1 ? unique.joined(separator: " or ") : nil
        }
        if let skins = outcomes.first?.skins {
            var named = 0
            for position in skins.holes.indices where named < 3 {
                if let text = alternatives(outcomes.map { standings.describe($0.skins!.holes[position].outcome) }) {
                    items.append("skin \(standings.holes[position]) (\(text))")
                    named += 1
                }
            }
        }
        if outcomes.first?.match != nil, let text = alternatives(outcomes.map { standings.describe($0.match!) }) {
            items.append("the match (\(text))")
        }
        if let nassau = outcomes.first?.nassau {
            for index in 0..<min(3, nassau.bets.count) {
                if let text = alternatives(outcomes.map { standings.describe($0.nassau!.bets[index].status) }) {
                    items.append("the \(standings.name(nassau.bets[index])) (\(text))")
                }
            }
            if let text = alternatives(
                outcomes.map { "\($0.nassau!.bets.count - 3) press\($0.nassau!.bets.count == 4 ? "" : "es")" })
            {
                items.append("the presses (\(text))")
            } else {
                // The same presses either way: say which of them the value decides.
                for index in 3..<nassau.bets.count {
                    if let text = alternatives(outcomes.map { standings.describe($0.nassau!.bets[index].status) }) {
                        items.append("the \(standings.name(nassau.bets[index])) (\(text))")
                    }
                }
            }
        }
        return items
    }

    /// The unrounded Course Handicap for the holes played from one tee (Rule 6.1): for 18 holes of an 18-hole
    /// course the tee's ratings; for 9 holes of an 18-hole course half the index (to the tenth), half the Course
    /// Rating and the par of the nine, as the 9-hole ratings a course file lacks (Rule 6.1b).
    static func courseHandicap(
        index: Double, rating: Double, slope: Int, teePar: Int, courseHoles: Int, pars: [Int]
    )
        -> Double?
    {
        let holes = pars.count
        let nineOfEighteen = holes == 9 && courseHoles >= 18
        return try? Handicap.courseHandicap(
            handicapIndex: index, slopeRating: slope, courseRating: nineOfEighteen ? rating / 2 : rating,
            par: nineOfEighteen ? pars.reduce(0, +) : teePar, holes: holes
        ).unrounded
    }

    // MARK: Statistics

    /// A player's statistics over the finished games of a space they played.
    public func statistics(space: SpaceID, player text: String) throws(NodeError) -> PlayerStatistics {
        let player = try resolvePlayer(space, text)
        var rounds = 0, holes = 0, fairwaysHit = 0, fairwaysRecorded = 0, greensHit = 0, greensRecorded = 0
        var putts = 0, puttRounds = 0, puttsOnGreens = 0, greensWithPutts = 0, penalties = 0
        var byPar: [Int: (strokes: Int, holes: Int)] = [:]
        for game in try games(space) where game.finished {
            let roster = try run { try store.roster(space, game: game.id) }
            guard roster.contains(player.id) else { continue }
            let course = try course(of: game, in: space)
            let tee = game.tee(of: player.id)
            let entries = try run { try store.cells(space, game: game.id) }
                .filter { $0.player == player.id }.compactMap { cell in cell.winner.map { (cell.hole, $0.entry) } }
            guard !entries.isEmpty else { continue }
            rounds += 1
            var roundPutts = 0
            var allPutts = true
            for (hole, entry) in entries {
                holes += 1
                let par = course?.hole(hole)?.par(tee: tee)
                if let par {
                    byPar[par, default: (0, 0)].strokes += entry.strokes
                    byPar[par, default: (0, 0)].holes += 1
                }
                if let fairway = entry.fairway, (par ?? 4) >= 4 {
                    fairwaysRecorded += 1
                    if fairway == .hit { fairwaysHit += 1 }
                }
                if let green = entry.greenInRegulation {
                    greensRecorded += 1
                    if green {
                        greensHit += 1
                        if let count = entry.putts {
                            puttsOnGreens += count
                            greensWithPutts += 1
                        }
                    }
                }
                if let count = entry.putts { roundPutts += count } else { allPutts = false }
                penalties += entry.penalties ?? 0
            }
            if allPutts {
                putts += roundPutts
                puttRounds += 1
            }
        }
        return PlayerStatistics(
            player: player, rounds: rounds, holes: holes, fairwaysHit: fairwaysHit,
            fairwaysRecorded: fairwaysRecorded, greensHit: greensHit, greensRecorded: greensRecorded,
            putts: putts, puttRounds: puttRounds, puttsOnGreensHit: puttsOnGreens,
            greensHitWithPutts: greensWithPutts, penalties: penalties, byPar: byPar)
    }
}
