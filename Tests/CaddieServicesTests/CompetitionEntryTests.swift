import Testing

@testable import CaddieServices

/// A competition's entry list read from CSV (whole or not at all, the bad line named) and its draw (group sizes,
/// tee times from one or two tees, a shotgun, markers in rotation), and divisions named by the list on the board.
@Suite("competition entries and draw")
struct CompetitionEntryTests {
    @Test func entryListReadsQuotedFieldsAnyColumnOrderAndPlusHandicaps() throws {
        let list = try EntryList(
            csv:
                "\u{FEFF}Tee,NAME,index,club,division\r\n1,\"Brown, Bob\",14.25,1002,Men\r\n2,\"Cat \"\"Kit\"\" Day\",+1.2,,\r\n\r\n"
        )
        #expect(
            list.entries == [
                EntryList.Entry(name: "Brown, Bob", index: 14.3, tee: "1", division: "Men", club: "1002"),
                EntryList.Entry(name: "Cat \"Kit\" Day", index: -1.2, tee: "2", division: nil, club: nil),
            ])
    }

    @Test(
        "a bad row refuses the list, naming its line and what to write",
        arguments: [
            ("", "line 1: the file is empty"),
            ("name,index\nAnn,3\n", "line 1: the header has no 'tee' column"),
            ("name,index,tee,handicap\n", "line 1: column 'handicap' is not one Caddie reads"),
            ("name,index,tee\n", "the list has a header and no entries"),
            ("name,index,tee\nAnn,8.4,1\nBob,abc,1\n", "line 3: Bob's index 'abc' is not a Handicap Index"),
            ("name,index,tee\nAnn,8.4,1\nBob,60,1\n", "line 3: Bob's index '60'"),
            ("name,index,tee\nAnn,8.4,1\nann,9,1\n", "line 3: ann is entered twice (line 2 too)"),
            ("name,index,tee\nAnn,8.4\n", "line 2: has 2 fields where the header has 3"),
            ("name,index,tee\n,8.4,1\n", "line 2: the name is empty"),
            ("name,index,tee\nAnn,8.4,\n", "line 2: Ann's tee is empty"),
            ("name,index,tee\n\"Ann,8.4,1\n", "line 2: a double quote is never closed"),
            ("name,index,tee\n\"Ann\"x,8.4,1\n", "line 2: text after a closing double quote"),
            ("name,index,tee\n\"Ann\nLee\",8.4,1\n", "line 2: Ann\nLee's name holds a tab or a line break"),
            ("name,index,tee,club\nAnn,8.4,1,\"10\n01\"\nBob,x,1,2\n", "line 2: Ann's club id holds a tab"),
        ])
    func badRows(text: String, said: String) {
        do {
            _ = try EntryList(csv: text)
            Issue.record("\(text) was read")
        } catch {
            #expect(error.description.contains(said), "\(error)")
        }
    }

    @Test func groupSizesAreAsEvenAsTheyCanBe() {
        #expect(Draw.sizes(count: 10, size: 4) == [4, 3, 3])
        #expect(Draw.sizes(count: 12, size: 4) == [4, 4, 4])
        #expect(Draw.sizes(count: 7, size: 3) == [3, 2, 2])
        #expect(Draw.sizes(count: 160, size: 4).count == 40)
        #expect(Draw.sizes(count: 1, size: 4) == [1])
    }

    @Test func teeTimesFromOneTeeOrTwoAndAShotgun() {
        let one = Draw.groups(count: 9, size: 3, start: .teeTimes(first: 480, interval: 10, twoTees: false), holes: 18)
        #expect(one.map(\.teeTime) == [480, 490, 500])
        #expect(one.map(\.startHole) == [1, 1, 1])
        #expect(one.map(\.members) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]])
        // The group marks in rotation: each by the next, the last by the first.
        #expect(one[0].markers.map(\.player) == [0, 1, 2] && one[0].markers.map(\.marker) == [1, 2, 0])
        let two = Draw.groups(count: 16, size: 4, start: .teeTimes(first: 480, interval: 8, twoTees: true), holes: 18)
        #expect(two.map(\.startHole) == [1, 10, 1, 10])
        #expect(two.map { $0.teeTime.map(Draw.clock) } == ["08:00", "08:00", "08:08", "08:08"])
        let nine = Draw.groups(count: 8, size: 4, start: .teeTimes(first: 480, interval: 8, twoTees: true), holes: 9)
        #expect(nine.map(\.startHole) == [1, 1] && nine.map(\.teeTime) == [480, 488], "a 9-hole course has no 10th")
        let shotgun = Draw.groups(count: 80, size: 4, start: .shotgun, holes: 18)
        #expect(shotgun.count == 20 && shotgun.allSatisfy { $0.teeTime == nil })
        #expect(shotgun.map(\.label).prefix(3) == ["1A", "2A", "3A"])
        #expect(shotgun.map(\.label).suffix(2) == ["1B", "2B"])
        #expect(shotgun[18].startHole == 1)
        #expect(Draw.minutes("8:05") == 485 && Draw.minutes("08:5") == nil && Draw.minutes("24:00") == nil)
    }

    /// Divisions the list names win over handicap bands: each entrant on their division's board, in the order the
    /// names were first met.
    @Test func namedDivisionsFromTheList() {
        func entrant(_ score: Int, division: String?) -> Competition.Entrant {
            let card = Games.PlayerCard(
                pars: Array(repeating: 4, count: 18), strokeIndexes: Array(1...18), courseHandicap: 0,
                gross: Array(repeating: score, count: 18))
            return Competition.Entrant(card: card, holes: Array(1...18), division: division)
        }
        let board = Competition.board(
            [entrant(5, division: "Men"), entrant(4, division: "Ladies"), entrant(4, division: "Men")],
            settings: .init(scoring: .gross, divisions: [12]))
        #expect(board.divisions.map(\.name) == ["Men", "Ladies"])
        #expect(board.divisions.map(\.range) == [nil, nil])
        #expect(board.divisions.map { $0.lines.map(\.entrant) } == [[2, 0], [1]])
    }
}
