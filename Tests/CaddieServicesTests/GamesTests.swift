import XCTest

@testable import CaddieServices

/// The side games, checked against the rules and published examples docs/games.md cites.
final class GamesTests: XCTestCase {
    private func results(_ text: String) -> [Games.HoleResult] {
        text.map { $0 == "A" ? .a : $0 == "B" ? .b : $0 == "=" ? .halved : .unplayed }
    }

    // Rules of Golf 3.2a(3): a match is won when a player leads by more holes than remain to be played;
    // "3 up with 2 to play" is written 3&2, and holes after that do not count.
    func testMatchWonThreeAndTwo() {
        let status = Games.match(results("A=A=A===========" + "BB"))
        XCTAssertEqual(status.decidedAfter, 16, "A led by 3 with 2 to play after the 16th")
        XCTAssertEqual(status.summary, "3&2")
        XCTAssertEqual(status.leader, .a)
        XCTAssertTrue(status.isOver)
    }

    // Rule 3.2a(3): a side that leads by exactly as many holes as remain is dormie; it wins 1 up on the last.
    func testDormieThenOneUp() {
        let dormie = Games.match(results("A=================".prefix(17) + "."))
        XCTAssertTrue(dormie.dormie)
        XCTAssertEqual(dormie.summary, "1 up thru 17 (dormie)")
        let done = Games.match(results("A=================".prefix(17) + "="))
        XCTAssertEqual(done.summary, "1 up")
        XCTAssertEqual(done.decidedAfter, 18, "won on the last hole, not before it")
        let square = Games.match(results(String(repeating: "=", count: 18)))
        XCTAssertEqual(square.summary, "all square")
        XCTAssertNil(square.leader)
    }

    // A hole not yet scored counts as still to play, wherever it lies on the card.
    func testHolesEnteredOutOfOrder() {
        let status = Games.match(results("..AA" + String(repeating: ".", count: 14)))
        XCTAssertEqual(status.played, 2)
        XCTAssertEqual(status.toPlay, 16)
        XCTAssertEqual(status.summary, "2 up thru 2")
    }

    // Rules of Golf 23.2a: in four-ball the side's score is the lower of the partners' scores; a partner
    // without a score leaves the other's.
    func testBetterBall() {
        XCTAssertEqual(Games.betterBall([[5, nil, 4, nil], [4, 6, 4, nil]]), [4, 6, 4, nil])
    }

    // golfstakes.com side-game detail, carry-over example: all players tie holes 1-3; on hole 4 player A has
    // the lowest score and wins the pot, now worth 4.
    func testSkinsCarryOver() {
        let skins = Games.skins([[4, 4, 4], [5, 5, 6], [3, 3, 4], [4, 5, 5], [5, 4, 4]])
        XCTAssertEqual(
            skins.holes.map(\.outcome),
            [
                .carried(carry: 1), .carried(carry: 2), .carried(carry: 3), .won(player: 0, skins: 4), .carried(carry: 1),
            ])
        XCTAssertEqual(skins.won, [4, 0, 0])
        XCTAssertEqual(skins.carry, 1, "the last hole's tie leaves one skin unclaimed")
    }

    // A carry depends on the holes before, so a missing score stops the skins there.
    func testSkinsWaitForMissingScores() {
        let skins = Games.skins([[4, 4], [5, nil], [3, 4]])
        XCTAssertEqual(skins.holes.map(\.outcome), [.carried(carry: 1), .pending, .pending])
        XCTAssertFalse(skins.complete)
        XCTAssertEqual(skins.won, [0, 0])
    }

    // Validation (a common house rule, docs/games.md): the winner must tie or beat the next hole's best score.
    func testSkinsValidation() {
        let validated = Games.skins([[3, 4], [4, 4], [5, 4]], validation: true)
        XCTAssertEqual(
            validated.holes.map(\.outcome), [.won(player: 0, skins: 1), .carried(carry: 1), .won(player: 1, skins: 2)])
        let voided = Games.skins([[3, 4], [5, 4], [4, 4]], validation: true)
        // Hole 1's skin is void (5 on hole 2 does not tie the best 4); hole 2 is won with the void skin added,
        // and validated by the tie on hole 3.
        XCTAssertEqual(
            voided.holes.map(\.outcome), [.wonThenVoided(player: 0, skins: 1), .won(player: 1, skins: 2), .carried(carry: 1)])
        XCTAssertEqual(voided.won, [0, 2])
    }

    // thegolfballfactory.com, "How to score a Nassau with automatic 2 down presses": a team 2 down after the
    // 7th presses for the rest of that nine, the 8th and 9th only. Wikipedia, "Nassau (bet)": a press can
    // itself be pressed; each nine starts all square.
    func testNassauAutomaticPress() {
        let front = results("BB=====AA")  // B 2 up after 2; A presses from the 3rd, then wins 8 and 9
        let back = results("=========")
        let nassau = Games.nassau(front + back)
        XCTAssertEqual(nassau.bets.count, 4)
        XCTAssertEqual(nassau.bets[0].status.summary, "all square")
        guard case .press(parent: 0) = nassau.bets[3].kind else { return XCTFail("expected a press of the front") }
        XCTAssertEqual(nassau.bets[3].start, 2)
        XCTAssertEqual(nassau.bets[3].end, 9)
        XCTAssertEqual(nassau.bets[3].pressedBy, .a)
        XCTAssertEqual(nassau.bets[3].winner, .a, "the press covers holes 3-9, where A won two")
        XCTAssertEqual(nassau.unitsToA, 1)

        let late = Games.nassau(results("===BB=B==") + results("========="))
        let press = late.bets.first { if case .press = $0.kind { true } else { false } }
        XCTAssertEqual(press.map { [$0.start, $0.end] }, [5, 9], "2 down after the 5th: the press is holes 6-9")
        let pressOfPress = Games.nassau(results("BB=BB====") + results("========="))
        XCTAssertEqual(pressOfPress.bets.count, 5, "front, back, overall, a press, and a press of the press")
    }

    // golfboxusa.com: in a basic $2 Nassau the side winning all three bets wins $6.
    func testNassauAllThreeBets() {
        let nassau = Games.nassau(results("A========") + results("A========"))
        XCTAssertEqual(nassau.unitsToA, 3)
        XCTAssertTrue(nassau.complete)
    }

    private func card(_ gross: [Int?], handicap: Double?, pars: [Int]? = nil) -> Games.PlayerCard {
        Games.PlayerCard(
            pars: pars ?? Array(repeating: 4, count: 18), strokeIndexes: Array(1...18),
            courseHandicap: handicap, gross: gross + Array(repeating: nil, count: 18 - gross.count))
    }

    // Appendix C: match play at 100%, the low player off zero and the other receiving the difference; net
    // skins here use the same strokes off the low at 100%.
    func testNetSkinsAndMatchStrokesOffTheLow() {
        let ann = card([4, 4], handicap: 2), ben = card([5, 4], handicap: 3.4)
        let standings = Games.standings(
            cards: [ann, ben], names: ["Ann", "Ben"],
            rules: Games.Rules(formats: [.match, .skins], stake: 1))
        XCTAssertEqual(standings.matchStrokes[1].prefix(2), [1, 0], "Ben gets 3 - 2 = 1 stroke, on stroke index 1")
        XCTAssertEqual(standings.skins?.holes.first?.outcome, .carried(carry: 1), "Ben's net 4 ties Ann's 4")
        XCTAssertEqual(standings.match?.summary, "all square thru 2")
    }

    // Rule 6.1/6.2 via Course Handicaps that include Course Rating minus par: players on different tees get
    // their strokes from their own Course Handicap, and net to par uses their own tee's par.
    func testStrokePlayAndStablefordAtNinetyFivePercent() {
        let ann = card([5, 5, 3], handicap: 18.4)  // 95% of 18.4 = 17.48 -> 17: a stroke on SI 1-17
        let standings = Games.standings(cards: [ann], names: ["Ann"], rules: Games.Rules(formats: [.stroke, .stableford]))
        let line = standings.players[0]
        XCTAssertEqual(line.playingHandicap, 17)
        XCTAssertEqual(line.thru, 3)
        XCTAssertEqual(line.grossToPar, 1)
        XCTAssertEqual(line.netToPar, -2)
        XCTAssertEqual(line.points, 2 + 2 + 4, "net par, net par, net eagle (Rules of Golf 21.1)")
    }

    // Four-ball match play at 90%, off the low of the four (Appendix C), with the better ball per side.
    func testFourBallSidesAndSettlement() {
        let cards = [card([4], handicap: 0), card([6], handicap: 10), card([5], handicap: 0), card([5], handicap: 0)]
        let standings = Games.standings(
            cards: cards, names: ["A", "B", "C", "D"],
            rules: Games.Rules(formats: [.match, .skins], netSkins: false, sides: [[0, 1], [2, 3]], stake: 2))
        XCTAssertEqual(standings.matchStrokes[1][0], 1, "90% of 10 is 9 strokes: one on stroke index 1")
        XCTAssertEqual(standings.match?.results.first, .a, "side A's better ball 4 beats side B's 5")
        XCTAssertEqual(standings.skins?.won, [1, 0, 0, 0], "A's gross 4 wins the first skin alone")
        XCTAssertEqual(standings.players.map(\.units), [3, -1, -1, -1], "a skin is a unit from each other player")
        XCTAssertEqual(standings.transfers.count, 3)
    }

    // Rule 6.2b: on tees of different par, formats that compare strokes give the higher-par player the difference.
    func testMixedTeesOfDifferentParAddTheDifference() {
        let ann = card([5], handicap: 10, pars: Array(repeating: 4, count: 18))
        let ben = card([5], handicap: 10, pars: [5] + Array(repeating: 4, count: 17))  // par 73
        let standings = Games.standings(cards: [ann, ben], names: ["Ann", "Ben"], rules: Games.Rules(formats: [.match]))
        XCTAssertEqual(standings.matchStrokes[1][0], 1, "Ben receives the one stroke of par difference, on SI 1")
        XCTAssertEqual(standings.match?.results.first, .b)
        XCTAssertEqual(standings.players[1].grossToPar, 0, "to par uses each player's own par")
    }

    func testSettlementPayments() {
        XCTAssertEqual(
            Games.settle([3, -1, -1, -1]),
            [
                Games.Transfer(from: 1, to: 0, units: 1), Games.Transfer(from: 2, to: 0, units: 1),
                Games.Transfer(from: 3, to: 0, units: 1),
            ])
        XCTAssertEqual(Games.settle([0, 0]), [])
        // Never more payments than players less one, and every balance ends at zero.
        let balances = [4, 3, -2, -2, -3]
        let payments = Games.settle(balances)
        XCTAssertLessThanOrEqual(payments.count, balances.count - 1)
        var left = balances
        for payment in payments {
            left[payment.from] += payment.units
            left[payment.to] -= payment.units
        }
        XCTAssertEqual(left, [0, 0, 0, 0, 0])
    }

    func testMatchNeedsTwoSides() {
        let standings = Games.standings(
            cards: [card([4], handicap: 1), card([4], handicap: 1), card([4], handicap: 1)],
            names: ["A", "B", "C"], rules: Games.Rules(formats: [.nassau]))
        XCTAssertNil(standings.nassau)
        XCTAssertTrue(standings.notes.contains { $0.contains("two sides") })
    }
}
