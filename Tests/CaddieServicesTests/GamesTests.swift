import Testing

@testable import CaddieServices

/// The side games, checked against the rules and published examples docs/games.md cites.
@Suite("side games") struct GamesTests {
    private func results(_ text: String) -> [Games.HoleResult] {
        text.map { $0 == "A" ? .a : $0 == "B" ? .b : $0 == "=" ? .halved : .unplayed }
    }

    // Rules of Golf 3.2a(3): a match is won when a player leads by more holes than remain to be played;
    // "3 up with 2 to play" is written 3&2, and holes after that do not count.
    @Test func matchWonThreeAndTwo() {
        let status = Games.match(results("A=A=A===========" + "BB"))
        #expect(status.decidedAfter == 16, "A led by 3 with 2 to play after the 16th")
        #expect(status.summary == "3&2")
        #expect(status.leader == .a)
        #expect(status.isOver)
    }

    // Rule 3.2a(3): a side that leads by exactly as many holes as remain is dormie; it wins 1 up on the last.
    @Test func dormieThenOneUp() {
        let dormie = Games.match(results("A=================".prefix(17) + "."))
        #expect(dormie.dormie)
        #expect(dormie.summary == "1 up thru 17 (dormie)")
        let done = Games.match(results("A=================".prefix(17) + "="))
        #expect(done.summary == "1 up")
        #expect(done.decidedAfter == 18, "won on the last hole, not before it")
        let square = Games.match(results(String(repeating: "=", count: 18)))
        #expect(square.summary == "all square")
        #expect(square.leader == nil)
    }

    // A hole not yet scored counts as still to play, wherever it lies on the card.
    @Test func holesEnteredOutOfOrder() {
        let status = Games.match(results("..AA" + String(repeating: ".", count: 14)))
        #expect(status.played == 2)
        #expect(status.toPlay == 16)
        #expect(status.summary == "2 up thru 2")
    }

    // Rules of Golf 23.2a: in four-ball the side's score is the lower of the partners' scores; a partner
    // without a score leaves the other's.
    @Test func betterBall() {
        #expect(Games.betterBall([[5, nil, 4, nil], [4, 6, 4, nil]]) == [4, 6, 4, nil])
    }

    // golfstakes.com side-game detail, carry-over example: all players tie holes 1-3; on hole 4 player A has
    // the lowest score and wins the pot, now worth 4.
    @Test func skinsCarryOver() {
        let skins = Games.skins([[4, 4, 4], [5, 5, 6], [3, 3, 4], [4, 5, 5], [5, 4, 4]])
        #expect(
            skins.holes.map(\.outcome) == [
                .carried(carry: 1), .carried(carry: 2), .carried(carry: 3), .won(player: 0, skins: 4), .carried(carry: 1),
            ])
        #expect(skins.won == [4, 0, 0])
        #expect(skins.carry == 1, "the last hole's tie leaves one skin unclaimed")
    }

    // A carry depends on the holes before, so a missing score stops the skins there.
    @Test func skinsWaitForMissingScores() {
        let skins = Games.skins([[4, 4], [5, nil], [3, 4]])
        #expect(skins.holes.map(\.outcome) == [.carried(carry: 1), .pending, .pending])
        #expect(!skins.complete)
        #expect(skins.won == [0, 0])
    }

    // Validation (a common house rule, docs/games.md): the winner must tie or beat the next hole's best score.
    @Test func skinsValidation() {
        let validated = Games.skins([[3, 4], [4, 4], [5, 4]], validation: true)
        #expect(validated.holes.map(\.outcome) == [.won(player: 0, skins: 1), .carried(carry: 1), .won(player: 1, skins: 2)])
        let voided = Games.skins([[3, 4], [5, 4], [4, 4]], validation: true)
        // Hole 1's skin is void (5 on hole 2 does not tie the best 4); hole 2 is won with the void skin added,
        // and validated by the tie on hole 3.
        #expect(
            voided.holes.map(\.outcome) == [.wonThenVoided(player: 0, skins: 1), .won(player: 1, skins: 2), .carried(carry: 1)])
        #expect(voided.won == [0, 2])
    }

    // thegolfballfactory.com, "How to score a Nassau with automatic 2 down presses": a team 2 down after the
    // 7th presses for the rest of that nine, the 8th and 9th only. Wikipedia, "Nassau (bet)": a press can
    // itself be pressed; each nine starts all square.
    @Test func nassauAutomaticPress() {
        let front = results("BB=====AA")  // B 2 up after 2; A presses from the 3rd, then wins 8 and 9
        let back = results("=========")
        let nassau = Games.nassau(front + back)
        #expect(nassau.bets.count == 4)
        #expect(nassau.bets[0].status.summary == "all square")
        guard case .press(parent: 0) = nassau.bets[3].kind else {
            Issue.record("expected a press of the front")
            return
        }
        #expect(nassau.bets[3].start == 2)
        #expect(nassau.bets[3].end == 9)
        #expect(nassau.bets[3].pressedBy == .a)
        #expect(nassau.bets[3].winner == .a, "the press covers holes 3-9, where A won two")
        #expect(nassau.unitsToA == 1)

        let late = Games.nassau(results("===BB=B==") + results("========="))
        let press = late.bets.first { if case .press = $0.kind { true } else { false } }
        #expect(press.map { [$0.start, $0.end] } == [5, 9], "2 down after the 5th: the press is holes 6-9")
        let pressOfPress = Games.nassau(results("BB=BB====") + results("========="))
        #expect(pressOfPress.bets.count == 5, "front, back, overall, a press, and a press of the press")
    }

    // golfboxusa.com: in a basic $2 Nassau the side winning all three bets wins $6.
    @Test func nassauAllThreeBets() {
        let nassau = Games.nassau(results("A========") + results("A========"))
        #expect(nassau.unitsToA == 3)
        #expect(nassau.complete)
    }

    private func card(_ gross: [Int?], handicap: Double?, pars: [Int]? = nil) -> Games.PlayerCard {
        Games.PlayerCard(
            pars: pars ?? Array(repeating: 4, count: 18), strokeIndexes: Array(1...18),
            courseHandicap: handicap, gross: gross + Array(repeating: nil, count: 18 - gross.count))
    }

    // Appendix C: match play at 100%, the low player off zero and the other receiving the difference; net
    // skins here use the same strokes off the low at 100%.
    @Test func netSkinsAndMatchStrokesOffTheLow() {
        let ann = card([4, 4], handicap: 2), ben = card([5, 4], handicap: 3.4)
        let standings = Games.standings(
            cards: [ann, ben], names: ["Ann", "Ben"],
            rules: Games.Rules(formats: [.match, .skins], stake: 1))
        #expect(standings.matchStrokes[1].prefix(2) == [1, 0], "Ben gets 3 - 2 = 1 stroke, on stroke index 1")
        #expect(standings.skins?.holes.first?.outcome == .carried(carry: 1), "Ben's net 4 ties Ann's 4")
        #expect(standings.match?.summary == "all square thru 2")
    }

    // Rule 6.1/6.2 via Course Handicaps that include Course Rating minus par: players on different tees get
    // their strokes from their own Course Handicap, and net to par uses their own tee's par.
    @Test func strokePlayAndStablefordAtNinetyFivePercent() {
        let ann = card([5, 5, 3], handicap: 18.4)  // 95% of 18.4 = 17.48 -> 17: a stroke on SI 1-17
        let standings = Games.standings(cards: [ann], names: ["Ann"], rules: Games.Rules(formats: [.stroke, .stableford]))
        let line = standings.players[0]
        #expect(line.playingHandicap == 17)
        #expect(line.thru == 3)
        #expect(line.grossToPar == 1)
        #expect(line.netToPar == -2)
        #expect(line.points == 2 + 2 + 4, "net par, net par, net eagle (Rules of Golf 21.1)")
    }

    // Four-ball match play at 90%, off the low of the four (Appendix C), with the better ball per side.
    @Test func fourBallSidesAndSettlement() {
        let cards = [card([4], handicap: 0), card([6], handicap: 10), card([5], handicap: 0), card([5], handicap: 0)]
        let standings = Games.standings(
            cards: cards, names: ["A", "B", "C", "D"],
            rules: Games.Rules(formats: [.match, .skins], netSkins: false, sides: [[0, 1], [2, 3]], stake: 2))
        #expect(standings.matchStrokes[1][0] == 1, "90% of 10 is 9 strokes: one on stroke index 1")
        #expect(standings.match?.results.first == .a, "side A's better ball 4 beats side B's 5")
        #expect(standings.skins?.won == [1, 0, 0, 0], "A's gross 4 wins the first skin alone")
        #expect(standings.players.map(\.units) == [3, -1, -1, -1], "a skin is a unit from each other player")
        #expect(standings.transfers.count == 3)
    }

    // Rule 6.2b: on tees of different par, formats that compare strokes give the higher-par player the difference.
    @Test func mixedTeesOfDifferentParAddTheDifference() {
        let ann = card([5], handicap: 10, pars: Array(repeating: 4, count: 18))
        let ben = card([5], handicap: 10, pars: [5] + Array(repeating: 4, count: 17))  // par 73
        let standings = Games.standings(cards: [ann, ben], names: ["Ann", "Ben"], rules: Games.Rules(formats: [.match]))
        #expect(standings.matchStrokes[1][0] == 1, "Ben receives the one stroke of par difference, on SI 1")
        #expect(standings.match?.results.first == .b)
        #expect(standings.players[1].grossToPar == 0, "to par uses each player's own par")
    }

    @Test func settlementPayments() {
        #expect(
            Games.settle([3, -1, -1, -1]) == [
                Games.Transfer(from: 1, to: 0, units: 1), Games.Transfer(from: 2, to: 0, units: 1),
                Games.Transfer(from: 3, to: 0, units: 1),
            ])
        #expect(Games.settle([0, 0]) == [])
        // Never more payments than players less one, and every balance ends at zero.
        let balances = [4, 3, -2, -2, -3]
        let payments = Games.settle(balances)
        #expect(payments.count <= balances.count - 1)
        var left = balances
        for payment in payments {
            left[payment.from] += payment.units
            left[payment.to] -= payment.units
        }
        #expect(left == [0, 0, 0, 0, 0])
    }

    @Test func matchNeedsTwoSides() {
        let standings = Games.standings(
            cards: [card([4], handicap: 1), card([4], handicap: 1), card([4], handicap: 1)],
            names: ["A", "B", "C"], rules: Games.Rules(formats: [.nassau]))
        #expect(standings.nassau == nil)
        #expect(standings.notes.contains { $0.contains("two sides") })
    }
}
