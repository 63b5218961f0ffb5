import Testing

@testable import CaddieServices

/// The formats after the Nassau, each from a published example (docs/games.md names the sources), and the registry
/// every format is one entry of.
@Suite("game formats: one protocol, the six formats after the Nassau")
struct GameFormatTests {
    /// A card of par 4s, stroke indexes 1-18 unless given, with an unrounded Course Handicap.
    private func card(_ gross: [Int?], handicap: Double?, strokeIndexes: [Int]? = nil) -> Games.PlayerCard {
        Games.PlayerCard(
            pars: Array(repeating: 4, count: 18), strokeIndexes: strokeIndexes ?? Array(1...18),
            courseHandicap: handicap, gross: gross + Array(repeating: nil, count: 18 - gross.count))
    }

    private func result(_ standings: Games.Standings, _ format: Games.Format) throws -> Games.FormatResult {
        try #require(standings.results.first { $0.format == format })
    }

    @Test func registryNamesEachFormatOnce() {
        let names = Games.registry.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 13)
        for name in names { #expect(Games.Format(rawValue: name)?.definition.name == name) }
        #expect(Games.Format(rawValue: "bogus") == nil)
        #expect(Games.Format.allCases.filter { $0.definition.onByDefault } == [.stroke, .stableford])
        #expect(Games.Format.match < Games.Format.wolf, "the registry's order is the formats' order")
    }

    // Four-ball Stableford at 85% (Appendix C), the better of the partners' points (Rule 23.2a). Miami Valley Golf
    // Association's example: Course Handicaps 30.722 and 8.118 give Playing Handicaps 26 and 7 at 85%. On a par 4 of
    // stroke index 5 the 26 receives 2 strokes, the 7 one: a 6 is net 4 (2 points), a 4 is net 3 (3 points): the
    // side scores 3.
    @Test func fourBallStablefordTakesTheBetterPoints() throws {
        let indexes = [5, 1, 2, 3, 4] + Array(6...18)
        let cards = [
            card([6], handicap: 30.722, strokeIndexes: indexes), card([5], handicap: 0, strokeIndexes: indexes),
            card([4], handicap: 8.118, strokeIndexes: indexes), card([5], handicap: 0, strokeIndexes: indexes),
        ]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Cal", "Ben", "Dev"],
            rules: Games.Rules(formats: [.fourBallStableford], sides: [[0, 2], [1, 3]], stake: 1))
        let four = try result(standings, .fourBallStableford)
        #expect(four.holes.first?.text == "Ann & Ben 3, Cal & Dev 1", "\(four.holes)")
        #expect(four.summary == "Ann & Ben 3 v Cal & Dev 1 points thru 1")
        #expect(four.units == [0, 0, 0, 0], "nothing is settled before the last hole")
        #expect(!four.complete)
    }

    @Test func fourBallStablefordSettlesOnTheTotal() throws {
        let cards = (0..<4).map { player in card(Array(repeating: player == 0 ? 3 : 4, count: 18), handicap: 0) }
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Cal", "Ben", "Dev"],
            rules: Games.Rules(formats: [.fourBallStableford], sides: [[0, 2], [1, 3]], stake: 1))
        let four = try result(standings, .fourBallStableford)
        #expect(four.complete)
        #expect(four.lines.map(\.value) == ["54 points", "36 points"])
        #expect(four.units == [1, -1, 1, -1], "one unit a player of a side, as in a match")
        #expect(standings.players.map(\.units) == [1, -1, 1, -1])
    }

    @Test func fourBallStablefordNeedsTwoSidesOfTwo() {
        let cards = (0..<4).map { _ in card([4], handicap: 0) }
        let standings = Games.standings(
            cards: cards, names: ["A", "B", "C", "D"], rules: Games.Rules(formats: [.fourBallStableford]))
        #expect(standings.notes.contains { $0.hasPrefix("four-ball Stableford needs two sides of two") })
        #expect(standings.results.first?.scored == false)
    }

    // Best two of four (beezergolf.com's Am-Am, scored in Stableford points at Appendix C's 85% for best 2 of 4):
    // points 3, 2, 2 and 0 on a hole make the team's 5.
    @Test func teamStablefordCountsTheBestTwo() throws {
        let cards = [card([3], handicap: 0), card([4], handicap: 0), card([4], handicap: 0), card([6], handicap: 0)]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben", "Cal", "Dev"], rules: Games.Rules(formats: [.teamStableford]))
        let team = try result(standings, .teamStableford)
        #expect(team.sides == [[0, 1, 2, 3]], "without sides the four are one team")
        #expect(team.lines.first?.value == "5 points")
        #expect(team.units == [0, 0, 0, 0], "one team plays the field: nothing to settle in the group")
    }

    // The Wolf (thewolfgametv.com): the Wolf and a partner who win take a unit each from the two who lose; a Lone
    // Wolf doubles it (golfsnap.app: two units from each opponent). The Wolf goes in card order: Ann on the 1st, Ben
    // on the 2nd.
    @Test func wolfWithPartnerAndLoneWolfDoubles() throws {
        let cards = [
            card([4, 5, 4], handicap: 0), card([5, 3, 4], handicap: 0), card([5, 4, 4], handicap: 0),
            card([6, 4, 4], handicap: 0),
        ]
        let rules = Games.Rules(
            formats: [.wolf], stake: 1, choices: ["wolf": [0: .player(1), 1: .lone]])
        let standings = Games.standings(cards: cards, names: ["Ann", "Ben", "Cal", "Dev"], rules: rules)
        let wolf = try result(standings, .wolf)
        #expect(wolf.holes.map(\.text) == ["Ann & Ben won", "Ben (lone) won", "Cal is the Wolf: no partner entered yet"])
        // Hole 1: +1 +1 -1 -1; hole 2: Ben +6, the others -2 each.
        #expect(wolf.units == [-1, 7, -3, -3])
        #expect(wolf.units.reduce(0, +) == 0)
        #expect(wolf.column?.values == ["-1", "+7", "-3", "-3"])
        #expect(wolf.summary == "Ben leads, +7 after 2 holes")
        #expect(!wolf.complete)
        // A Lone Wolf who loses pays each of the others two units.
        let lost = Games.standings(
            cards: [card([6], handicap: 0), card([5], handicap: 0), card([5], handicap: 0), card([6], handicap: 0)],
            names: ["Ann", "Ben", "Cal", "Dev"], rules: Games.Rules(formats: [.wolf], choices: ["wolf": [0: .lone]]))
        #expect(try result(lost, .wolf).units == [-6, 2, 2, 2])
    }

    @Test func wolfCannotChooseThemselves() {
        let wolf = WolfFormat()
        let names = ["Ann", "Ben", "Cal", "Dev"]
        #expect(wolf.refusal(entry: WolfFormat.entry, position: 1, player: 1, names: names)?.hasPrefix("Ben is the Wolf") == true)
        #expect(wolf.refusal(entry: WolfFormat.entry, position: 1, player: 2, names: names) == nil)
        #expect(WolfFormat.wolf(position: 4, players: 4) == 0, "the turn comes round again on the 5th")
        // A partner entered before the turns moved (a renamed player, a changed roster) who is now the Wolf is not
        // scored as a Lone Wolf: the hole waits for the choice again.
        let cards = (0..<4).map { _ in card([4], handicap: 0) }
        let standings = Games.standings(
            cards: cards, names: names, rules: Games.Rules(formats: [.wolf], choices: ["wolf": [0: .player(0)]]))
        let result = standings.results.first
        #expect(result?.holes.map(\.text) == ["Ann is the Wolf: enter the partner again"])
        #expect(result?.units == [0, 0, 0, 0])
    }

    // Bingo Bango Bongo (golf.com): one point each for first on the green, closest once all are on, first in. Totals
    // of 20, 15, 12 and 7 over 18 holes settle on the differences: at a unit a point Ann is up 5 + 8 + 13 = 26.
    @Test func bingoBangoBongoSettlesOnTheDifferences() throws {
        // 54 points handed out in turn until each player has their total.
        var left = [20, 15, 12, 7]
        var choices: [String: [Int: Games.Choice]] = [:]
        var next = 0
        for position in 0..<18 {
            for key in ["bingo", "bango", "bongo"] {
                while left[next % 4] == 0 { next += 1 }
                choices[key, default: [:]][position] = .player(next % 4)
                left[next % 4] -= 1
                next += 1
            }
        }
        let cards = (0..<4).map { _ in card([], handicap: 0) }
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben", "Cal", "Dev"],
            rules: Games.Rules(formats: [.bingoBangoBongo], stake: 1, choices: choices))
        let bbb = try result(standings, .bingoBangoBongo)
        #expect(bbb.column?.values == ["20", "15", "12", "7"])
        #expect(bbb.units == [26, 6, -6, -26])
        #expect(bbb.complete)
        #expect(standings.transfers.reduce(0) { $0 + $1.units } == 32, "26 to Ann and 6 to Ben")
    }

    // A tie is named as a tie in every summary that names a leader: never "Ann leads" while Ben has as much.
    @Test func summariesNameTiesAsTies() throws {
        let names = ["Ann", "Ben", "Cal", "Dev"]
        let bbb = Games.standings(
            cards: (0..<4).map { _ in card([], handicap: 0) }, names: names,
            rules: Games.Rules(formats: [.bingoBangoBongo], choices: ["bingo": [0: .player(0)], "bango": [0: .player(1)]]))
        #expect(try result(bbb, .bingoBangoBongo).summary == "Ann and Ben share the lead with 1 point")
        let wolf = Games.standings(
            cards: [
                card([4, 5], handicap: 0), card([5, 4], handicap: 0), card([5, 6], handicap: 0), card([6, 6], handicap: 0),
            ],
            names: names, rules: Games.Rules(formats: [.wolf], choices: ["wolf": [0: .player(2), 1: .player(0)]]))
        // Hole 1: Ann & Cal beat Ben & Dev; hole 2: Ben & Ann beat Cal & Dev. Ann +2, Ben 0, Cal 0, Dev -2.
        #expect(try result(wolf, .wolf).summary == "Ann leads, +2 after 2 holes")
        let level = Games.standings(
            cards: [
                card([4, 5], handicap: 0), card([5, 4], handicap: 0), card([5, 6], handicap: 0), card([6, 4], handicap: 0),
            ],
            names: names, rules: Games.Rules(formats: [.wolf], choices: ["wolf": [0: .player(2), 1: .player(3)]]))
        // Hole 1: Ann & Cal +1 each; hole 2: Ben & Dev beat Ann & Cal: everyone back to 0.
        #expect(try result(level, .wolf).summary == "all level after 2 holes")
        let split = Games.standings(
            cards: [card([4], handicap: 0), card([4], handicap: 0), card([5], handicap: 0), card([6], handicap: 0)],
            names: names, rules: Games.Rules(formats: [.wolf], choices: ["wolf": [0: .player(1)]]))
        #expect(try result(split, .wolf).summary == "Ann and Ben share the lead, +1 after 1 hole")
        let even = Games.standings(
            cards: [card([4], handicap: 0), card([4], handicap: 0), card([5], handicap: 0), card([], handicap: 0)],
            names: names, rules: Games.Rules(formats: [.stroke, .stableford]))
        #expect(try result(even, .stableford).summary == "Ann and Ben share the lead with 2 points")
        #expect(try result(even, .stroke).summary == "Ann and Ben share the lead on net, E")
        let none = Games.standings(
            cards: (0..<4).map { _ in card([], handicap: 0) }, names: names, rules: Games.Rules(formats: [.stableford]))
        #expect(try result(none, .stableford).summary == "not started")
    }

    // Chapman at 60% of the lower Course Handicap and 40% of the higher (Appendix C; Golf Canada's example): 5 and
    // 10 make 7, 14 and 17 make 15.2, so 15; in match play the second side receives the difference, 8 strokes, on
    // stroke indexes 1-8 of its first player's card.
    @Test func chapmanTeamHandicapsAndStrokes() throws {
        let gross = Array(repeating: 5, count: 18)
        let cards = [
            card(gross, handicap: 5), card(gross, handicap: 10), card(gross, handicap: 14), card([], handicap: 17),
        ]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben", "Cal", "Dev"],
            rules: Games.Rules(formats: [.chapman], sides: [[0, 1], [2, 3]], stake: 1))
        let chapman = try result(standings, .chapman)
        #expect(chapman.lines.map(\.value) == ["team handicap 7", "team handicap 15"])
        // One ball each side, both 5s: the 8 strokes win holes 1-8 for Cal & Dev, the rest are halved, and 8 up
        // with 7 to play after the 11th decides it.
        #expect(chapman.holes.prefix(8).allSatisfy { $0.text == "Cal & Dev won" })
        #expect(chapman.holes.dropFirst(8).first?.text == "halved", "\(chapman.holes.map(\.text))")
        #expect(chapman.summary == "Cal & Dev won 8&7")
        #expect(chapman.units == [-1, -1, 1, 1])
        #expect(chapman.notes.isEmpty, "Dev has no score of his own: the side's one score is Cal's")
    }

    // Greensomes at 60% of the lower Course Handicap and 40% of the higher, as Chapman (Appendix C, whose example is
    // 8.0 and 20.0: 12.8, so 13): against 10.0 and 12.0 (10.8, so 11) the first side receives 2 strokes, on stroke
    // indexes 1 and 2 of Ann's card. Level 4s everywhere: Ann & Ben win the first two holes and halve the rest, 2 up
    // with 1 to play after the 17th.
    @Test func greensomesSixtyFortyLikeChapman() throws {
        let gross = Array(repeating: 4, count: 18)
        let cards = [
            card(gross, handicap: 8.0), card([], handicap: 20.0), card(gross, handicap: 10.0), card([], handicap: 12.0),
        ]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben", "Cal", "Dev"],
            rules: Games.Rules(formats: [.greensomes], sides: [[0, 1], [2, 3]], stake: 1))
        let greensomes = try result(standings, .greensomes)
        #expect(greensomes.lines.map(\.value) == ["team handicap 13", "team handicap 11"])
        #expect(greensomes.holes.prefix(2).allSatisfy { $0.text == "Ann & Ben won" }, "\(greensomes.holes.map(\.text))")
        #expect(greensomes.holes.dropFirst(2).allSatisfy { $0.text == "halved" })
        #expect(greensomes.summary == "Ann & Ben won 2&1")
        #expect(greensomes.units == [1, 1, -1, -1])
        #expect(Games.Format.greensomes.definition.players == 4...4 && Games.Format.greensomes.definition.oneBall)
    }

    // Foursomes at 50% of the combined Course Handicaps (Donabate Golf Club's example): 6 + 10 make 8, 15 + 20 make
    // 17.5, so 18: the second side receives 10.
    @Test func foursomesHalfTheCombinedHandicaps() throws {
        let cards = [card([4], handicap: 6), card([], handicap: 10), card([4], handicap: 15), card([5], handicap: 20)]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben", "Cal", "Dev"],
            rules: Games.Rules(formats: [.foursomes], sides: [[0, 1], [2, 3]]))
        let foursomes = try result(standings, .foursomes)
        #expect(foursomes.lines.map(\.value) == ["team handicap 8", "team handicap 18"])
        #expect(foursomes.holes.first?.text == "Cal & Dev won", "net 3 against 4")
        #expect(foursomes.notes.first?.contains("Cal & Dev have different scores on hole 1") == true)
    }

    // The scramble (USGA's example): Course Handicaps 10.335, 15.353, 28.255 and 37.574 at 25/20/15/10% make
    // 13.650, a team handicap of 14, off the team's gross.
    @Test func scrambleTeamHandicap() throws {
        let cards = [
            card(Array(repeating: 4, count: 18), handicap: 10.335), card([], handicap: 15.353),
            card([], handicap: 28.255), card([], handicap: 37.574),
        ]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben", "Cal", "Dev"], rules: Games.Rules(formats: [.scramble]))
        let scramble = try result(standings, .scramble)
        #expect(scramble.lines.first?.value == "net 58 (-14) thru 18, team handicap 14")
        #expect(scramble.complete)
        #expect(scramble.units == [0, 0, 0, 0])
    }

    @Test func aFormatForMorePlayersThanItTakesIsNotScored() {
        let cards = (0..<2).map { _ in card([4], handicap: 0) }
        let standings = Games.standings(cards: cards, names: ["A", "B"], rules: Games.Rules(formats: [.wolf]))
        #expect(standings.notes.contains("Wolf takes 3 to 5 players: this game has 2"))
    }
}
