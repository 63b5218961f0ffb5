import Foundation
import Testing

@testable import CaddieServices

@Suite("Handicap: strokes by stroke index, net double bogey, net scores and Stableford")
struct HandicapStrokesTests {
    /// An 18-hole card of par-4 holes whose stroke index is the hole number.
    static func parFourCard(strokes: [Int?]) -> [Handicap.HoleScore] {
        strokes.enumerated().map { Handicap.HoleScore(par: 4, strokeIndex: $0.offset + 1, strokes: $0.element) }
    }

    @Test("24 strokes: 2 on stroke indexes 1-6, 1 elsewhere")
    func twentyFour() throws {
        // Rivermont WGA "Handicap Helper": course handicap 24, 24 - 18 = 6, two strokes on stroke allocations 1-6.
        let allocation = try Handicap.strokeAllocation(playingHandicap: 24)
        #expect(allocation.strokesByStrokeIndex == [2, 2, 2, 2, 2, 2] + Array(repeating: 1, count: 12))
        #expect(try allocation.strokes(onStrokeIndex: 7) == 1)
    }

    @Test("over 36: 40 gives 3 on stroke indexes 1-4 and 2 elsewhere")
    func overThirtySix() throws {
        // HANDICAP.md §8: floor(ph/18) on every hole plus one on SI <= ph mod 18 [computed generalisation].
        let allocation = try Handicap.strokeAllocation(playingHandicap: 40)
        #expect(allocation.strokesByStrokeIndex == [3, 3, 3, 3] + Array(repeating: 2, count: 14))
        #expect(allocation.strokesByStrokeIndex.reduce(0, +) == 40)
    }

    @Test("plus 2 gives strokes back on stroke indexes 18 and 17")
    func plusHandicapGivesBackFromEighteen() throws {
        // R&A Appendix C: "a player with a Playing Handicap of +2 would give strokes back to the course at the holes
        // with stroke index 18 and 17".
        let allocation = try Handicap.strokeAllocation(playingHandicap: -2)
        #expect(allocation.strokesByStrokeIndex == Array(repeating: 0, count: 16) + [-1, -1])
        #expect(try Handicap.strokesReceived(handicap: -2, strokeIndex: 16) == 0)
        #expect(try Handicap.strokesReceived(handicap: -20, strokeIndex: 17) == -2)
        #expect(try Handicap.strokesReceived(handicap: -20, strokeIndex: 1) == -1)
    }

    @Test("9 holes: the nine's 18-hole stroke indexes are ranked 1-9")
    func nineHoleRanking() throws {
        // HANDICAP.md §8 (RoH Appendix E): use the 18-hole stroke indexes of the nine played, ranked [inferred].
        let ranked = try Handicap.rankedStrokeIndexes([7, 1, 15, 3, 11, 17, 5, 13, 9])
        #expect(ranked == [4, 1, 8, 2, 6, 9, 3, 7, 5])
        let allocation = try Handicap.strokeAllocation(playingHandicap: 5, holes: 9)
        #expect(allocation.strokesByStrokeIndex == [1, 1, 1, 1, 1, 0, 0, 0, 0])
    }

    @Test("net double bogey: course handicap 24 on a par 4 at stroke index 5 is 8")
    func netDoubleBogey() throws {
        // Rivermont WGA: course handicap 24, hole 1 par 4 stroke allocation 5: 4 + 2 + 2 = 8; hole 17 par 3 stroke
        // allocation 18: 3 + 2 + 1 = 6.
        #expect(try Handicap.maximumHoleScore(courseHandicap: 24, par: 4, strokeIndex: 5).value == 8)
        #expect(try Handicap.maximumHoleScore(courseHandicap: 24, par: 3, strokeIndex: 18).value == 6)
        // Simsbury Farms Men's Club: course handicap 12, par 4, stroke index 10: 4 + 2 + 1 = 7.
        let simsbury = try Handicap.maximumHoleScore(courseHandicap: 12, par: 4, strokeIndex: 10)
        #expect(simsbury.value == 7)
        #expect(simsbury.limit == .netDoubleBogey)
        // A plus 1 gives a stroke back on stroke index 18: 4 + 2 - 1 = 5 (R&A Rule 3.1b).
        #expect(try Handicap.maximumHoleScore(courseHandicap: -1, par: 4, strokeIndex: 18).value == 5)
    }

    @Test("no index: par + 5; over 54 with 4 or more strokes on the hole: par + 5")
    func parPlusFive() throws {
        // R&A Rule 3.1a: par + 5 until a Handicap Index exists. Rule 3.1b: Course Handicap over 54 and 4 or more
        // strokes received: par + 5. Course handicap 60 gets 4 strokes on SI 1-6, so 4 + 2 + 4 = 10 is held at 9.
        let newPlayer = try Handicap.maximumHoleScore(courseHandicap: nil, par: 4, strokeIndex: 1)
        #expect(newPlayer.value == 9)
        #expect(newPlayer.limit == .parPlusFive)
        let high = try Handicap.maximumHoleScore(courseHandicap: 60, par: 4, strokeIndex: 1)
        #expect(high.value == 9)
        #expect(high.strokesReceived == 4)
        #expect(high.limit == .parPlusFiveForHighHandicap)
        #expect(try Handicap.maximumHoleScore(courseHandicap: 60, par: 5, strokeIndex: 7).value == 10)
    }

    @Test("adjusted gross score caps each hole at net double bogey")
    func adjustedGrossScore() throws {
        // R&A Rule 3.1b with course handicap 24 (2 strokes on SI 1-6): an 11 at SI 1 counts 8, a 9 at SI 18 counts 7.
        var strokes: [Int?] = Array(repeating: 5, count: 18)
        strokes[0] = 11
        strokes[17] = 9
        let score = try Handicap.adjustedGrossScore(holes: Self.parFourCard(strokes: strokes), courseHandicap: 24)
        #expect(score.total == 16 * 5 + 8 + 7)
        #expect(score.strokesRemoved == 5)
        #expect(score.holes[0].adjusted == 8)
        #expect(score.holes[17].adjusted == 7)
    }

    @Test("net par for a hole not played, where authorised")
    func netParForHoleNotPlayed() throws {
        // USGA RoH 3.2 note: net par = par minus a stroke given back (par 4, +1 handicap at that hole: 3); plus
        // strokes received for a receiving player (HANDICAP.md §5).
        var strokes: [Int?] = Array(repeating: 4, count: 18)
        strokes[17] = nil
        let plus = try Handicap.adjustedGrossScore(
            holes: Self.parFourCard(strokes: strokes), courseHandicap: -1, netParForHolesNotPlayed: true
        )
        #expect(plus.holes[17].adjusted == 3)
        #expect(plus.holes[17].isNetPar)
        #expect(plus.total == 17 * 4 + 3)
        let withoutNetPar = try Handicap.adjustedGrossScore(
            holes: Self.parFourCard(strokes: strokes), courseHandicap: 10
        )
        #expect(withoutNetPar.holes[17].adjusted == nil)
        #expect(withoutNetPar.holesWithoutScore == 1)
        #expect(withoutNetPar.holesPlayed == 17)
    }

    @Test("Stableford: playing handicap 23, par 4 at stroke index 1, gross 5 scores 3 points")
    func stablefordHole() throws {
        // Rules of Golf 21.1 (HANDICAP.md §9): points = max(0, 2 + par - net). 23 gives 2 strokes at SI 1, net 3,
        // a net birdie: 3 points (the Caddie CLI's documented example).
        let hole = try Handicap.netHole(playingHandicap: 23, par: 4, strokeIndex: 1, gross: 5)
        #expect(hole.strokesReceived == 2)
        #expect(hole.net == 3)
        #expect(hole.points == 3)
        // Net double bogey or worse 0, net bogey 1, net par 2, net eagle 4; no score 0.
        #expect(try Handicap.netHole(playingHandicap: 0, par: 4, strokeIndex: 1, gross: 7).points == 0)
        #expect(try Handicap.netHole(playingHandicap: 0, par: 4, strokeIndex: 1, gross: 5).points == 1)
        #expect(try Handicap.netHole(playingHandicap: 0, par: 4, strokeIndex: 1, gross: 4).points == 2)
        #expect(try Handicap.netHole(playingHandicap: 0, par: 5, strokeIndex: 1, gross: 3).points == 4)
        #expect(try Handicap.netHole(playingHandicap: 18, par: 4, strokeIndex: 1, gross: nil).points == 0)
    }

    @Test("a net round: totals and Stableford points")
    func netRound() throws {
        // Rules of Golf 21.1; strokes from the stroke index (HANDICAP.md §8). Playing handicap 18 is one stroke a
        // hole: gross 5 on every par 4 is net 4, 2 points a hole, 36 points; a picked-up hole scores nothing.
        var strokes: [Int?] = Array(repeating: 5, count: 18)
        strokes[3] = nil
        let round = try Handicap.netRound(holes: Self.parFourCard(strokes: strokes), playingHandicap: 18)
        #expect(round.grossTotal == 85)
        #expect(round.netTotal == 68)
        #expect(round.points == 34)
    }

    @Test("a 9-hole net round ranks the stroke indexes within the nine")
    func nineHoleNetRound() throws {
        // Appendix E ranking [inferred]: playing handicap 1 on the back nine gets its stroke on the hole with the
        // lowest 18-hole stroke index (2 here).
        let indexes = [12, 2, 16, 8, 18, 4, 14, 6, 10]
        let holes = indexes.map { Handicap.HoleScore(par: 4, strokeIndex: $0, strokes: 5) }
        let round = try Handicap.netRound(holes: holes, playingHandicap: 1)
        #expect(round.holes.map(\.strokesReceived) == [0, 1, 0, 0, 0, 0, 0, 0, 0])
        #expect(round.points == 10)
    }
}
