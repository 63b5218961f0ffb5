import Testing

@testable import CaddieServices

/// A pick-up (the player started the hole and did not hole out) in every kind of format, and in the handicap record:
/// Rules of Golf 3.3b (no return in stroke play), 21.1b (0 Stableford points), 23.2a (four-ball: the partner's
/// score counts) and World Handicap System Rule 3.3 (net double bogey). docs/games.md says the same.
@Suite("pick-ups: an entry with no score, in every format and the handicap record")
struct PickUpTests {
    /// A card of par 4s, stroke indexes 1-18, with the holes of `pickUps` (positions) picked up.
    private func card(_ gross: [Int?], pickUps: Set<Int> = [], handicap: Double? = 0, holes: Int = 18) -> Games.PlayerCard {
        Games.PlayerCard(
            pars: Array(repeating: 4, count: holes), strokeIndexes: Array(1...holes), courseHandicap: handicap,
            gross: gross + Array(repeating: nil, count: holes - gross.count), pickUps: pickUps)
    }

    private func result(_ standings: Games.Standings, _ format: Games.Format) throws -> Games.FormatResult {
        try #require(standings.results.first { $0.format == format })
    }

    /// The case that was never decided: a four-ball Stableford where both partners of a side pick up on the last
    /// hole. Their side scores 0 there, the hole is decided, the game is complete and settled.
    @Test func fourBallStablefordWithBothPartnersPickedUpIsDecided() throws {
        let full = Array(repeating: 4 as Int?, count: 18)
        let short = Array(repeating: 4 as Int?, count: 17) + [nil]
        let cards = [
            card(short, pickUps: [17]), card(full), card(short, pickUps: [17]), card(full),
        ]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Cal", "Ben", "Dev"],
            rules: Games.Rules(formats: [.fourBallStableford], sides: [[0, 2], [1, 3]], stake: 1))
        let four = try result(standings, .fourBallStableford)
        #expect(four.complete, "both partners picked up on the 18th: the hole is decided, 0 points")
        #expect(four.lines.map(\.value) == ["34 points", "36 points"])
        #expect(four.summary == "Cal & Dev won, Ann & Ben 34 v Cal & Dev 36 points")
        #expect(four.units == [-1, 1, -1, 1])
        #expect(four.holes.last?.text == "Ann & Ben 0, Cal & Dev 2")
        // Without the pick-ups the 18th waits for a score and nothing is settled.
        let waiting = Games.standings(
            cards: [card(short), card(full), card(short), card(full)], names: ["Ann", "Cal", "Ben", "Dev"],
            rules: Games.Rules(formats: [.fourBallStableford], sides: [[0, 2], [1, 3]], stake: 1))
        #expect(try !result(waiting, .fourBallStableford).complete)
        #expect(try result(waiting, .fourBallStableford).units == [0, 0, 0, 0])
    }

    /// Stroke play: a player who picked up has no return. They count holes in "thru", are out of the lead and listed
    /// as NR; Stableford gives them 0 on that hole and still counts the rest.
    @Test func strokePlayIsNoReturnAndStablefordIsZero() throws {
        let cards = [card([3, nil, 4], pickUps: [1]), card([5, 5, 5])]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Ben"], rules: Games.Rules(formats: [.stroke, .stableford]))
        let stroke = try result(standings, .stroke)
        #expect(stroke.summary == "Ben leads on net, +3 thru 3", "Ann picked up: her 7 on two holes is no total")
        #expect(stroke.lines.map(\.label) == ["Ann"] && stroke.lines.map(\.value) == ["NR (picked up)"])
        #expect(standings.players[0].thru == 3 && standings.players[0].pickUps == 1 && standings.players[0].noReturn)
        #expect(!standings.players[1].noReturn)
        #expect(standings.players[0].points == 3 + 0 + 2, "a birdie 3, the pick-up 0, a par 2")
        let stableford = try result(standings, .stableford)
        #expect(stableford.summary == "Ann leads with 5 points")
    }

    /// Match play: a pick-up loses the hole to a score and halves with a pick-up; in four-ball the partner's score
    /// counts.
    @Test func matchPlayLosesTheHoleOrHalvesIt() throws {
        let singles = Games.standings(
            cards: [card([nil, nil], pickUps: [0, 1]), card([7, nil], pickUps: [1])], names: ["Ann", "Ben"],
            rules: Games.Rules(formats: [.match]))
        let match = try #require(singles.match)
        #expect(match.results.prefix(2) == [.b, .halved], "a 7 beats a pick-up; two pick-ups halve")
        let fourBall = Games.standings(
            cards: [card([nil], pickUps: [0]), card([5]), card([4]), card([5])], names: ["Ann", "Cal", "Ben", "Dev"],
            rules: Games.Rules(formats: [.match], sides: [[0, 2], [1, 3]]))
        #expect(try #require(fourBall.match).results.first == .a, "Ann picked up, Ben's 4 wins the hole")
    }

    /// Skins: a pick-up never wins a skin, and a hole everyone picked up carries.
    @Test func skinsNeverGoToAPickUp() throws {
        let standings = Games.standings(
            cards: [card([nil, nil], pickUps: [0, 1]), card([6, nil], pickUps: [1]), card([nil, nil], pickUps: [0, 1])],
            names: ["Ann", "Ben", "Cal"], rules: Games.Rules(formats: [.skins], netSkins: false))
        let skins = try #require(standings.skins)
        #expect(skins.won == [0, 1, 0], "Ben's 6 against two pick-ups wins the 1st")
        #expect(Games.describe(skins.holes[1].outcome, names: ["Ann", "Ben", "Cal"]) == "carry 1")
    }

    /// A scramble side that picked up cannot win against a side with a total, whatever the strokes.
    @Test func aScrambleSideThatPickedUpHasNoReturn() throws {
        let holes = 9
        let low = Array(repeating: 3 as Int?, count: 8) + [nil]
        let high = Array(repeating: 6 as Int?, count: 9)
        let cards = [
            card(low, pickUps: [8], holes: holes), card([], holes: holes), card(high, holes: holes), card([], holes: holes),
        ]
        let standings = Games.standings(
            cards: cards, names: ["Ann", "Cal", "Ben", "Dev"],
            rules: Games.Rules(formats: [.scramble], sides: [[0, 1], [2, 3]], stake: 1))
        let scramble = try result(standings, .scramble)
        #expect(scramble.complete)
        #expect(scramble.summary.hasPrefix("Ben & Dev won: Ann & Cal NR thru 9"), "\(scramble.summary)")
        #expect(scramble.units == [-1, -1, 1, 1])
    }

    /// The handicap record: a pick-up counts its maximum hole score, net double bogey (WHS Rule 3.3), and the hole
    /// counts as played. Course Handicap 18 on stroke index 1: par 4 + 2 + 1 stroke = 7; without an index, par + 5.
    @Test func theHandicapRecordCountsNetDoubleBogey() throws {
        let holes = (1...18).map { index in
            index == 1
                ? Handicap.HoleScore(par: 4, strokeIndex: 1, pickedUp: ())
                : Handicap.HoleScore(par: 4, strokeIndex: index, strokes: 5)
        }
        let adjusted = try Handicap.adjustedGrossScore(holes: holes, courseHandicap: 18)
        #expect(adjusted.holes[0].adjusted == 7)
        #expect(adjusted.holesPlayed == 18 && adjusted.holesWithoutScore == 0)
        #expect(adjusted.total == 7 + 17 * 5)
        #expect(adjusted.strokesRemoved == 0, "no strokes were taken off: none were entered")
        let unrated = try Handicap.adjustedGrossScore(holes: holes, courseHandicap: nil)
        #expect(unrated.holes[0].adjusted == 9, "par + 5 without a Handicap Index")
        let notPlayed = try Handicap.adjustedGrossScore(
            holes: [Handicap.HoleScore(par: 4, strokeIndex: 1, strokes: nil)] + holes.dropFirst(), courseHandicap: 18)
        #expect(notPlayed.holesPlayed == 17, "a hole not played is not a pick-up")
    }
}
