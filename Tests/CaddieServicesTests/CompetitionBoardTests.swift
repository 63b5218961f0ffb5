import Testing

@testable import CaddieServices

/// A competition's board: positions per division, ties among finished cards decided by the countback policies of
/// docs/competitions.md (R&A Committee Procedures 5A(6) and two variants clubs use), NR and DQ last, the twos. Each
/// card is worked by hand in the comments: par 4 on every hole, stroke index = hole number.
@Suite("competition board: positions, countback, divisions, twos")
struct CompetitionBoardTests {
    /// A card played from `start` (hole numbers in order of play, wrapping), from scores by hole number.
    private func entrant(
        _ scores: [Int: Int], handicap: Double?, holes: Int = 18, start: Int = 1, pickUps: Set<Int> = [],
        status: Competition.Status? = nil
    ) -> Competition.Entrant {
        let order = (0..<holes).map { (start - 1 + $0) % holes + 1 }
        let card = Games.PlayerCard(
            pars: Array(repeating: 4, count: holes), strokeIndexes: order, courseHandicap: handicap,
            gross: order.map { scores[$0] }, pickUps: Set(order.indices.filter { pickUps.contains(order[$0]) }))
        return Competition.Entrant(card: card, holes: order, status: status)
    }

    /// Scores by hole number from runs of holes: `[1: [5, 5, 4], 10: [...]]` sets holes 1-3, 10-...
    private func scores(_ runs: [Int: [Int]]) -> [Int: Int] {
        var scores: [Int: Int] = [:]
        for (first, run) in runs { for (offset, score) in run.enumerated() { scores[first + offset] = score } }
        return scores
    }

    private func lines(_ board: Competition.Board, division: Int = 0) -> [Competition.Line] {
        board.divisions[division].lines
    }

    /// Net medal, R&A: both net 70 (Ann 82 off 12, Ben 88 off 18). Last 9 (holes 10-18): Ann 41 - 6 = 35, Ben
    /// 44 - 9 = 35, equal. Last 6 (13-18): Ann 27 - 4 = 23, Ben 28 - 6 = 22: Ben wins.
    @Test func netTieDecidedOnTheLastSixWithAThirdOfTheHandicap() {
        let ann = entrant(
            scores([1: [5, 5, 5, 4, 4, 5, 4, 5, 4], 10: [5, 5, 4], 13: [5, 4, 5, 4, 5, 4]]), handicap: 12)
        let ben = entrant(
            scores([1: [5, 5, 5, 5, 5, 5, 5, 5, 4], 10: [5, 6, 5], 13: [5, 5, 5, 4, 5, 4]]), handicap: 18)
        let board = Competition.board([ann, ben], settings: .init(scoring: .net, allowance: 100))
        let lines = lines(board)
        #expect(lines.map(\.entrant) == [1, 0])
        #expect(lines.map(\.net) == [70, 70])
        #expect(lines.map(\.netToPar) == [-2, -2])
        #expect(lines.map(\.position) == [1, 2])
        #expect(lines.map(\.tied) == [false, false])
        #expect(lines.map(\.decidedBy) == ["last 6: 22 v 23", "last 6: 22 v 23"])
    }

    /// The fraction kept or rounded decides differently. Net 69 each (Ann 82 off 13, Ben 81 off 12). Last 9: Ann
    /// 40 - 6.5 = 33.5, Ben 39 - 6 = 33: Ben wins under the R&A. Rounded, Ann's 6.5 is 7: 33 v 33, equal; last 6:
    /// Ann 26 - 4 (4.33) = 22, Ben 27 - 4 = 23: Ann wins.
    @Test func keptAndRoundedFractionsDecideDifferently() {
        let ann = entrant(
            scores([1: [5, 5, 5, 5, 4, 4, 5, 5, 4], 10: [5, 5, 4], 13: [4, 5, 4, 5, 4, 4]]), handicap: 13)
        let ben = entrant(
            scores([1: [5, 5, 5, 5, 4, 4, 5, 5, 4], 10: [4, 4, 4], 13: [5, 4, 5, 4, 5, 4]]), handicap: 12)
        let kept = lines(Competition.board([ann, ben], settings: .init(scoring: .net, countback: .randa, allowance: 100)))
        #expect(kept.map(\.entrant) == [1, 0])
        #expect(kept[0].decidedBy == "last 9: 33 v 33.5")
        let rounded = lines(
            Competition.board([ann, ben], settings: .init(scoring: .net, countback: .rounded, allowance: 100)))
        #expect(rounded.map(\.entrant) == [0, 1])
        #expect(rounded[0].decidedBy == "last 6: 22 v 23")
    }

    /// A shotgun: both start on the 5th and score 80 gross. The R&A counts holes 10-18 whatever the start (Ann 40,
    /// Ben 41); `last-played` counts the nine each played last, holes 14-18 and 1-4 (Ann 40, Ben 36).
    @Test func shotgunStartCountsHolesTenToEighteenOrTheLastPlayed() {
        let ann = entrant(
            scores([1: [4, 4, 4, 4], 5: [5, 5, 5, 5, 4], 10: [4, 4, 4, 4], 14: [5, 5, 5, 5, 4]]), handicap: 0, start: 5)
        let ben = entrant(
            scores([1: [4, 4, 4, 3], 5: [5, 5, 5, 5, 4], 10: [5, 5, 5, 5], 14: [4, 4, 4, 4, 5]]), handicap: 0, start: 5)
        #expect(ann.card.gross.compactMap { $0 }.reduce(0, +) == 80)
        #expect(ben.card.gross.compactMap { $0 }.reduce(0, +) == 80)
        let randa = lines(Competition.board([ann, ben], settings: .init(scoring: .gross, countback: .randa)))
        #expect(randa.map(\.entrant) == [0, 1])
        #expect(randa[0].decidedBy == "last 9: 40 v 41")
        let played = lines(Competition.board([ann, ben], settings: .init(scoring: .gross, countback: .lastPlayed)))
        #expect(played.map(\.entrant) == [1, 0])
        #expect(played[0].decidedBy == "last 9: 36 v 40")
    }

    /// Stableford off scratch, 36 points each. Ann: 2 a hole. Ben: a birdie on the 1st, a bogey on the 18th (19 +
    /// 17). Cal: a pick-up on the 1st (0 points, not a no return) and a 2 on the 2nd (4 points), 18 + 18. Last 9:
    /// Ann 18, Cal 18, Ben 17: Ben is third; Ann and Cal match on every step and share first.
    @Test func stablefordCountsBackOnPointsAndATieCanSurviveEveryStep() {
        let flat = scores([1: Array(repeating: 4, count: 18)])
        var ben = flat
        ben[1] = 3
        ben[18] = 5
        var cal = flat
        cal[1] = nil
        cal[2] = 2
        let board = Competition.board(
            [
                entrant(flat, handicap: 0), entrant(ben, handicap: 0), entrant(cal, handicap: 0, pickUps: [1]),
            ], settings: .init(scoring: .stableford))
        let lines = lines(board)
        #expect(lines.map(\.points) == [36, 36, 36])
        #expect(lines.map(\.entrant) == [0, 2, 1])
        #expect(lines.map(\.position) == [1, 1, 3])
        #expect(lines.map(\.tied) == [true, true, false])
        #expect(lines[0].decidedBy == "equal after every countback step")
        #expect(lines[2].decidedBy == "last 9: 18 v 17 points")
        #expect(lines[1].status == nil, "a pick-up scores 0 points in Stableford: not a no return")
        #expect(board.twos == [Competition.Two(entrant: 2, hole: 2, division: nil)])
    }

    /// The order of the lines: ranked cards (a tie with a card still out stands, no countback), then a card not
    /// started, then NR (a medal card with a pick-up), then DQ.
    @Test func cardsStillOutNoReturnsAndDisqualificationsInTheirPlaces() {
        let par = scores([1: Array(repeating: 4, count: 18)])
        var underPar = par
        underPar[7] = 3
        var picked = par
        picked[3] = nil
        let front = scores([1: Array(repeating: 4, count: 9)])
        let board = Competition.board(
            [
                entrant(par, handicap: 0),  // complete, level
                entrant(picked, handicap: 0, pickUps: [3]),  // NR
                entrant(par, handicap: 0, status: .disqualified),
                entrant([:], handicap: 0),  // not started
                entrant(front, handicap: 0),  // level thru 9
                entrant(underPar, handicap: 0),  // 1 under
            ], settings: .init(scoring: .gross))
        let lines = lines(board)
        #expect(lines.map(\.entrant) == [5, 0, 4, 3, 1, 2])
        #expect(lines.map(\.position) == [1, 2, 2, nil, nil, nil])
        #expect(lines.map(\.tied) == [false, true, true, false, false, false])
        #expect(lines[1].decidedBy == nil, "a tie with a card still out is not counted back")
        #expect(lines.map(\.thru) == [18, 18, 9, 0, 18, 18])
        #expect(lines.map(\.status) == [nil, nil, nil, nil, .noReturn, .disqualified])
        #expect(lines.map(\.grossToPar) == [-1, 0, 0, 0, 0, 0])
    }

    /// A 9-hole competition: the last 6, 3 and 1 holes with 2/3, 1/3 and 1/9 of the handicap. Net 36 each (Ann 45
    /// off 9, Ben 42 off 6). Last 6 (holes 4-9): Ann 30 - 6 = 24, Ben 28 - 4 = 24. Last 3: Ann 15 - 3 = 12, Ben
    /// 13 - 2 = 11: Ben wins.
    @Test func nineHoleCompetitionUsesTwoThirdsAThirdAndANinth() {
        let ann = entrant(scores([1: [5, 5, 5, 5, 5, 5, 5, 5, 5]]), handicap: 9, holes: 9)
        let ben = entrant(scores([1: [5, 5, 4, 5, 5, 5, 5, 4, 4]]), handicap: 6, holes: 9)
        let lines = lines(Competition.board([ann, ben], settings: .init(scoring: .net, allowance: 100)))
        #expect(lines.map(\.net) == [36, 36])
        #expect(lines.map(\.entrant) == [1, 0])
        #expect(lines[0].decidedBy == "last 3: 11 v 12")
    }

    /// Divisions by Playing Handicap (95% of the Course Handicap): up to 12, then 13 and over; the twos per
    /// division.
    @Test func divisionsByPlayingHandicapAndTwosPerDivision() {
        var two = scores([1: Array(repeating: 4, count: 18)])
        two[16] = 2
        let board = Competition.board(
            [
                entrant(two, handicap: 12.6),  // 12.6 x 95% = 11.97: 12, division 1
                entrant(two, handicap: 13.2),  // 12.54: 13, division 2
                entrant(scores([1: Array(repeating: 5, count: 18)]), handicap: 30),
            ], settings: .init(scoring: .stableford, divisions: [12], twosByDivision: true))
        #expect(board.divisions.map(\.range) == ["up to 12", "13+"])
        #expect(board.divisions.map { $0.lines.map(\.entrant) } == [[0], [1, 2]])
        #expect(board.divisions[0].lines[0].playingHandicap == 12)
        #expect(board.divisions[1].lines.map(\.playingHandicap) == [13, 29])
        // Off 13, 4s and a 2 on the 16th: 3 points on holes 1-13, 2 on 14-18, 2 more on the 16th: 51. Off 29
        // (28.5 rounds up) with 5s: a stroke on every hole and a second on the 11 hardest: 11 x 3 + 7 x 2 = 47.
        #expect(board.divisions[1].lines.map(\.points) == [51, 47])
        #expect(
            board.twos == [
                Competition.Two(entrant: 0, hole: 16, division: 1), Competition.Two(entrant: 1, hole: 16, division: 2),
            ])
    }

    /// Figures as the board prints them: whole, halves, thirds and sixths of a stroke.
    @Test func figuresInEighteenths() {
        #expect(Competition.describe(18 * 33, .net) == "33")
        #expect(Competition.describe(18 * 33 + 9, .net) == "33.5")
        #expect(Competition.describe(18 * 21 + 12, .net) == "21.67")
        #expect(Competition.describe(18 * 21 + 3, .net) == "21.17")
        #expect(Competition.describe(-18 * 17, .stableford) == "17")
        #expect(Competition.roundedQuotient(13 * 9, 18) == 7)
        #expect(Competition.roundedQuotient(-3, 2) == -1)
        #expect(Competition.roundedQuotient(13 * 6, 18) == 4)
    }

    /// A public board hides each card's last holes as the player plays them. Gross medal: Ann (from the 1st) 4s
    /// with a 2 on the 18th; Ben (shotgun from the 10th) 4s with a 7 on the 9th, his last hole. Hiding three: Ann is
    /// shown thru 15, holes 16-18 gone (and her two with them); Ben thru 15, holes 7-9 gone (the 7 too). Neither
    /// card is finished, so no countback runs; the pick-up on Ann's 17th, hidden, makes no NR.
    @Test func publicBoardHidesTheHolesPlayedLast() {
        var annScores = Dictionary(uniqueKeysWithValues: (1...18).map { ($0, 4) })
        annScores[18] = 2
        annScores[17] = nil
        var benScores = Dictionary(uniqueKeysWithValues: (1...18).map { ($0, 4) })
        benScores[9] = 7
        let ann = entrant(annScores, handicap: nil, pickUps: [17])
        let ben = entrant(benScores, handicap: nil, start: 10)
        let settings = Competition.Settings(scoring: .gross)
        let full = Competition.board([ann, ben], settings: settings)
        #expect(lines(full).map(\.status) == [nil, .noReturn])
        #expect(full.twos.map(\.hole) == [18])

        let hidden = Competition.board([ann.hidingLast(3), ben.hidingLast(3)], settings: settings)
        let shown = lines(hidden)
        #expect(shown.map(\.entrant) == [0, 1])
        #expect(shown.map(\.thru) == [15, 15])
        #expect(shown.map(\.gross) == [60, 60])
        #expect(shown.map(\.complete) == [false, false])
        #expect(shown.map(\.status) == [nil, nil])
        #expect(shown.map(\.tied) == [true, true], "equal, and no countback before the cards are finished")
        #expect(hidden.twos.isEmpty)
        #expect(ann.hidingLast(0) == ann)
        #expect(ann.hidingLast(30).card.gross.allSatisfy { $0 == nil })
    }
}
