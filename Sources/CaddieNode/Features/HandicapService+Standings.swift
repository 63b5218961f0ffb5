import CaddieCore
import CaddieServices
import CaddieStore
import Foundation

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
        let values = values.map { "\($0.entry.words) by \($0.author)" }.joined(separator: " vs ")
        let decided =
            decides.isEmpty
            ? "decides nothing in the standings"
            : "decides " + Dispute.list(decides)
        return "\(name)'s \(Dispute.ordinal(cell.hole)): \(values): \(decided)"
    }

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    public static func ordinal(_ number: Int) -> String {
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
    /// Each player's card as the scoring read it (pars, ranked stroke indexes, Course Handicap, gross, pick-ups), in
    /// the card's player order.
    public let cards: [Games.PlayerCard]
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

    /// The results of the formats every screen shows by their summary, lines and holes: all but stroke play and
    /// Stableford (the players' own lines) and the match, Nassau and skins (their own detail). Formats that could
    /// not be scored are left out: the notes say why.
    public var formatResults: [Games.FormatResult] {
        result.results.filter { result in
            result.detail == .none && result.format != .stroke && result.format != .stableford
                && result.scored
        }
    }

    /// A side's name: the player, or "Ann & Ben".
    public func sideName(_ side: Int) -> String {
        guard let sides = result.sides, sides.indices.contains(side) else { return side == 0 ? "A" : "B" }
        return sides[side].map { card.players[$0].name }.joined(separator: " & ")
    }

    /// A match's state in words, from the leader's side: "Ann 2 up thru 7", "Ann won 3&2", "all square".
    public func describe(_ status: Games.MatchStatus) -> String {
        Games.describe(status, sides: [sideName(0), sideName(1)])
    }

    /// A Nassau bet's name: "front nine", "back nine", "18 holes", "press on holes 3-9".
    public func name(_ bet: Games.NassauBet) -> String { Games.betName(bet, holes: holes) }

    /// A skins hole in words: "Dev wins 2", "carry 2", "undecided".
    public func describe(_ outcome: Games.SkinOutcome) -> String {
        Games.describe(outcome, names: card.players.map(\.name))
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

extension HandicapService {
    // MARK: Standings

    /// The Handicap Index a player brings to a game: computed from the rounds before it, else entered.
    /// Bad data in some other game must not hide this card: a record that cannot make an index falls back to the
    /// entered one.
    static func indexForGame(
        _ player: PlayerRecord, game: GameRecord, records: [PlayerID: Result<HandicapRecord, NodeError>]
    ) -> (index: Double, source: NetCard.IndexSource)? {
        let played = Date(timeIntervalSince1970: Double(game.createdAt) / 1000)
        if let computed = (try? records[player.id]?.get())?.index(before: played) { return (computed, .computed) }
        return player.handicapIndex.map { ($0, .entered) }
    }

    /// The hole numbers a game plays, in order: from its start hole, wrapping round the course.
    public static func holesPlayed(_ game: GameRecord, course: CourseRecord) -> [Int] {
        holesPlayed(start: game.startHole, count: game.holesPlayed, course: course)
    }

    /// The hole numbers played from `start`, `count` of them (nil: every hole of the course), wrapping round.
    static func holesPlayed(start: Int, count: Int?, course: CourseRecord) -> [Int] {
        let all = course.holes.map(\.number).sorted()
        guard !all.isEmpty else { return Array(1...(count ?? 18)) }
        let first = all.firstIndex(of: start) ?? 0
        return (0..<min(count ?? all.count, all.count)).map { all[(first + $0) % all.count] }
    }

    /// A game's standings: every format it plays, the disputes and what they decide, the settlement. `frozen`
    /// gives players a Handicap Index to play off instead of their own (a competition's, frozen at its entry list).
    public func standings(space: SpaceID, game: GameID, frozen: [PlayerID: Double] = [:]) throws(NodeError) -> GameStandings {
        let card = try rounds.card(space: space, game: game)
        guard let course = card.course else {
            throw .notFound(
                "the course of game \(card.game.id.short) has not arrived yet: sync with the home that "
                    + "imported it")
        }
        let holes = Self.holesPlayed(card.game, course: course)
        guard holes.count == 9 || holes.count == 18 else {
            throw .conflict("game \(card.game.id.short) plays \(holes.count) holes: standings need 9 or 18")
        }
        var cards: [Games.PlayerCard] = []
        var tees: [String] = []
        var handicaps: [Double?] = []
        var notes: [String] = []
        // Every player's record in one pass over the finished games, read the first time a handicap is needed.
        var records: [PlayerID: Result<HandicapRecord, NodeError>]?
        for player in card.players {
            let teeName = card.game.tee(of: player.id)
            guard let tee = course.tee(named: teeName) else {
                throw .conflict(
                    "course \(course.name) has no tee '\(teeName)' (\(player.name)'s tee)",
                    .anotherTee(card.game.id, player: player.name))
            }
            var pars: [Int] = []
            var indexes: [Int] = []
            for number in holes {
                let hole = course.hole(number)
                guard let par = hole?.par(tee: tee.name) else {
                    throw .conflict(
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
                if frozen[player.id] == nil, records == nil { records = try handicapRecords(for: card.players, in: space) }
                if let index = frozen[player.id] ?? Self.indexForGame(player, game: card.game, records: records ?? [:])?.index {
                    courseHandicap = Self.courseHandicap(
                        index: index, tee: tee, courseHoles: course.holes.count, holes: holes, pars: pars)
                }
            } else {
                notes.append("tee \(tee.name) has no stroke indexes for every hole played: \(player.name) plays off scratch")
            }
            tees.append(tee.name)
            handicaps.append(courseHandicap)
            cards.append(
                Games.PlayerCard(
                    pars: pars, strokeIndexes: ranked, courseHandicap: courseHandicap,
                    gross: holes.map { card.cell(player.id, $0)?.winner?.entry.holed },
                    pickUps: Set(holes.indices.filter { card.cell(player.id, holes[$0])?.winner?.entry.pickedUp == true })))
        }
        let (formats, rules) = Self.rules(card, holes: holes)
        let names = card.players.map(\.name)
        let result = Games.standings(cards: cards, names: names, rules: rules, holeNumbers: holes)
        return GameStandings(
            card: card, holes: holes, tees: tees, formats: formats.sorted(), rules: rules,
            courseHandicaps: handicaps, pars: cards.map(\.pars), cards: cards, result: result,
            notes: notes + result.notes,
            disputes: Self.disputes(card, holes: holes, cards: cards, names: names, rules: rules))
    }

    /// The formats a game plays (stroke play and Stableford when it names none) and the rules they are scored by:
    /// its skins' options, its sides, its stake and the choices entered on the holes played.
    static func rules(_ card: Scorecard, holes: [Int]) -> (formats: [Games.Format], rules: Games.Rules) {
        var formats = card.game.formats.compactMap(Games.Format.init(rawValue:))
        if formats.isEmpty { formats = [.stroke, .stableford] }
        var sides: [[Int]]?
        if !card.game.teams.isEmpty {
            let a = card.players.indices.filter { card.game.teams[card.players[$0].id] == "A" }
            let b = card.players.indices.filter { card.game.teams[card.players[$0].id] == "B" }
            sides = [a, b]
        }
        // The choices entered on the holes played, by key and position, with each player by their place on the card.
        var choices: [String: [Int: Games.Choice]] = [:]
        for (position, number) in holes.enumerated() {
            for (key, entry) in card.game.holeEntries[number] ?? [:] {
                switch entry {
                case .lone: choices[key, default: [:]][position] = .lone
                case .player(let id):
                    if let index = card.players.firstIndex(where: { $0.id == id }) {
                        choices[key, default: [:]][position] = .player(index)
                    }
                }
            }
        }
        let rules = Games.Rules(
            formats: Set(formats), netSkins: !card.game.grossSkins,
            skinsValidation: card.game.skinsValidation, sides: sides, stake: card.game.stake, choices: choices)
        return (formats, rules)
    }

    /// Each open conflict on a hole played, sorted with the ones that decide something first: the game scored once
    /// per disputed value, and what differs between those standings.
    static func disputes(
        _ card: Scorecard, holes: [Int], cards: [Games.PlayerCard], names: [String], rules: Games.Rules
    ) -> [Dispute] {
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
                var pickUps = changed[player].pickUps
                gross[position] = value.entry.holed
                if value.entry.pickedUp { pickUps.insert(position) } else { pickUps.remove(position) }
                changed[player] = Games.PlayerCard(
                    pars: cards[player].pars, strokeIndexes: cards[player].strokeIndexes,
                    courseHandicap: cards[player].courseHandicap, gross: gross, pickUps: pickUps)
                outcomes.append(Games.standings(cards: changed, names: names, rules: rules, holeNumbers: holes))
            }
            disputes.append(
                Dispute(
                    cell: cell, name: card.name(cell.player),
                    values: distinct.isEmpty ? cell.values : distinct,
                    decides: distinct.count > 1
                        ? Self.decides(
                            outcomes, context: Games.Context(cards: cards, names: names, rules: rules, holeNumbers: holes))
                        : [],
                    changesSettlement: Set(outcomes.map { $0.players.map(\.units) }).count > 1))
        }
        disputes.sort {
            ($0.decides.isEmpty ? 1 : 0, $0.cell.hole, $0.name) < ($1.decides.isEmpty ? 1 : 0, $1.cell.hole, $1.name)
        }
        return disputes
    }

    /// What differs between the standings scored with each disputed value: each format says what the value
    /// decides in it.
    static func decides(_ outcomes: [Games.Standings], context: Games.Context) -> [String] {
        guard let first = outcomes.first else { return [] }
        // The skins first (they name holes, the most direct effect), then the others in the registry's order.
        let order = first.results.indices.sorted {
            (first.results[$0].format != .skins ? 1 : 0, $0) < (first.results[$1].format != .skins ? 1 : 0, $1)
        }
        return order.flatMap { index in
            first.results[index].format.definition.decides(outcomes.map { $0.results[index] }, context: context)
        }
    }

    /// The unrounded Course Handicap for the holes played from one tee (Rule 6.1): for 18 holes of an 18-hole
    /// course the tee's ratings. For 9 holes of an 18-hole course half the index (to the tenth) and the ratings of
    /// the nine being played, when the tee has them (`front` for holes 1-9, `back` for 10-18; Rule 6.1b and its
    /// Clarification 6.1b/1); a tee without them, or a nine that wraps round, uses half the 18-hole Course Rating,
    /// the 18-hole Slope Rating and the par of the holes played.
    static func courseHandicap(
        index: Double, tee: CourseRecord.Tee, courseHoles: Int, holes: [Int], pars: [Int]
    ) -> Double? {
        guard let rating = tee.rating, let slope = tee.slope, let teePar = tee.par else { return nil }
        let nineOfEighteen = holes.count == 9 && courseHoles >= 18
        if nineOfEighteen, let nine = Self.nineRating(of: tee, holes: holes), let nineRating = nine.rating,
            let nineSlope = nine.slope
        {
            return try? Handicap.courseHandicap(
                handicapIndex: index, slopeRating: nineSlope, courseRating: nineRating,
                par: nine.par ?? pars.reduce(0, +), holes: 9
            ).unrounded
        }
        return try? Handicap.courseHandicap(
            handicapIndex: index, slopeRating: slope, courseRating: nineOfEighteen ? rating / 2 : rating,
            par: nineOfEighteen ? pars.reduce(0, +) : teePar, holes: holes.count
        ).unrounded
    }

    /// The tee's own ratings of the nine these holes are: the front nine for 1-9, the back for 10-18, else none.
    static func nineRating(of tee: CourseRecord.Tee, holes: [Int]) -> CourseRecord.Rating? {
        if Set(holes) == Set(1...9) { return tee.front }
        if Set(holes) == Set(10...18) { return tee.back }
        return nil
    }

    // MARK: Statistics

    /// A player's statistics over the finished games of a space they played.
    public func statistics(space: SpaceID, player: PlayerID) throws(NodeError) -> PlayerStatistics {
        let player = try rounds.player(space, player)
        var rounds = 0, holes = 0, fairwaysHit = 0, fairwaysRecorded = 0, greensHit = 0, greensRecorded = 0
        var putts = 0, puttRounds = 0, puttsOnGreens = 0, greensWithPutts = 0, penalties = 0
        var byPar: [Int: (strokes: Int, holes: Int)] = [:]
        for game in try home.rounds.games(space) where game.finished {
            let roster = try run { try store.roster(space, game: game.id) }
            guard roster.contains(player.id) else { continue }
            let course = try courses.course(of: game, in: space)
            let tee = game.tee(of: player.id)
            let entries = try run { try store.cells(space, game: game.id) }
                .filter { $0.player == player.id }.compactMap { cell in cell.winner.map { (cell.hole, $0.entry) } }
            guard !entries.isEmpty else { continue }
            rounds += 1
            var roundPutts = 0
            var allPutts = true
            // A pick-up has no strokes, putts or statistics: it is left out of every figure here.
            for (hole, entry) in entries where !entry.pickedUp {
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
