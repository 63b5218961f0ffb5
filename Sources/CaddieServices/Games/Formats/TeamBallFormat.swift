import Foundation

/// Formats where a side plays one ball and enters one score a hole, off a team handicap (Appendix C): Chapman
/// (Pinehurst), greensomes and foursomes (alternate shot) as match play between two sides of two, the lower team Playing
/// Handicap off zero and the other receiving the difference; the scramble as stroke play, one team against the
/// field or two teams against each other.
///
/// The side's score for a hole is entered on its first player's card (either partner's will do: where both are
/// entered and differ, the first player's counts and a note says so).
public struct TeamBallFormat: GameFormat {
    /// Which team format.
    public let team: Handicap.TeamFormat

    /// Creates the format for Chapman, greensomes, foursomes or the scramble.
    public init(_ team: Handicap.TeamFormat) { self.team = team }

    public var name: String { team.rawValue }

    public var title: String {
        switch team {
        case .chapman: "Chapman (Pinehurst)"
        case .foursomes: "Foursomes (alternate shot)"
        case .greensomes: "Greensomes"
        case .scramble: "Scramble"
        }
    }

    public var summary: String {
        switch team {
        case .chapman: "both drive, swap for the second, then alternate one ball; match play off 60% low + 40% high"
        case .foursomes: "partners alternate shots with one ball; match play off 50% of the pair's handicaps"
        case .greensomes: "both drive, then alternate one ball; match play off 60% low + 40% high"
        case .scramble: "everyone plays from the best shot; one team score off 35/15, 30/20/10 or 25/20/15/10%"
        }
    }

    public var oneBall: Bool { true }

    var format: Games.Format { Games.Format(rawValue: name)! }
    var matchPlay: Bool { team != .scramble }

    public var sides: Games.SideRule? {
        matchPlay
            ? Games.SideRule(sizes: 2...2, equal: true, needs: "\(title) needs two sides of two")
            : Games.SideRule(
                sizes: 2...4, equal: false, oneTeamWithout: true,
                needs: "a scramble needs one team of two to four players, or two sides of that size")
    }

    public var players: ClosedRange<Int> { matchPlay ? 4...4 : 2...Int.max }

    public func score(_ context: Games.Context) -> Games.FormatResult {
        let (valid, note) = context.validSides(for: sides!)
        guard let sides = valid else { return .unscored(format, players: context.cards.count, note: note!) }
        var notes: [String] = []
        // Each side's one score a hole (``Games/pickUpScore`` where the side picked up), and its team handicap.
        let gross = sides.map { side in
            (0..<context.holes).map { hole -> Int? in
                let entered = side.compactMap { player in context.cards[player].played(hole).map { (player, $0) } }
                if Set(entered.map(\.1)).count > 1 {
                    notes.append(
                        "\(context.sideName(side)) have different scores on hole \(context.holeNumbers[hole]): "
                            + "the team's score is \(context.names[entered[0].0])'s (enter one score for the team)")
                }
                return entered.first?.1
            }
        }
        let handicaps = sides.map { side in
            (try? Handicap.teamHandicap(format: team, courseHandicaps: side.map { context.cards[$0].courseHandicap ?? 0 }))?
                .playingHandicap ?? 0
        }
        let names = sides.map(context.sideName)
        var lines = zip(names, handicaps).map { ($0, "team handicap \($1)") }
        let card = { (side: Int) in context.cards[sides[side][0]] }
        if matchPlay {
            let low = handicaps.min() ?? 0
            let strokes = sides.indices.map { Games.allocation(handicaps[$0] - low, card: card($0)) }
            let net = sides.indices.map { side in
                (0..<context.holes).map { hole in
                    gross[side][hole].map { $0 == Games.pickUpScore ? $0 : $0 - strokes[side][hole] }
                }
            }
            let status = Games.match((0..<context.holes).map { Games.HoleResult.compare(net[0][$0], net[1][$0]) })
            let winner = status.isOver ? status.up > 0 ? 0 : status.up < 0 ? 1 : nil : nil
            var result = Games.FormatResult(
                format: format, summary: Games.describe(status, sides: names), lines: lines,
                holes: status.results.enumerated().compactMap { position, hole in
                    switch hole {
                    case .a: (position, "\(names[0]) won")
                    case .b: (position, "\(names[1]) won")
                    case .halved: (position, "halved")
                    case .unplayed: nil
                    }
                },
                units: Games.sideUnits(players: context.cards.count, sides: sides, winner: winner),
                complete: status.isOver, notes: notes)
            result.sides = sides
            return result
        }
        // Scramble: stroke play, the team handicap's strokes by the stroke index of the first player's card.
        // A side that picked up a hole has no return (NR): it cannot win, and loses to a side with a total.
        var totals: [(thru: Int, net: Int, toPar: Int, noReturn: Bool)] = []
        for side in sides.indices {
            let strokes = Games.allocation(handicaps[side], card: card(side))
            var thru = 0, net = 0, toPar = 0, noReturn = false
            for hole in 0..<context.holes {
                guard let score = gross[side][hole] else { continue }
                thru += 1
                guard score != Games.pickUpScore else {
                    noReturn = true
                    continue
                }
                net += score - strokes[hole]
                toPar += score - strokes[hole] - card(side).pars[hole]
            }
            totals.append((thru, net, toPar, noReturn))
        }
        func figure(_ side: Int) -> String {
            totals[side].noReturn ? "NR (picked up)" : "net \(totals[side].net) (\(Games.toPar(totals[side].toPar)))"
        }
        lines = sides.indices.map {
            (names[$0], "\(figure($0)) thru \(totals[$0].thru), team handicap \(handicaps[$0])")
        }
        let complete = totals.allSatisfy { $0.thru == context.holes }
        var winner: Int?
        if sides.count == 2, complete {
            if totals[0].noReturn != totals[1].noReturn {
                winner = totals[0].noReturn ? 1 : 0
            } else if !totals[0].noReturn, totals[0].toPar != totals[1].toPar {
                winner = totals[0].toPar < totals[1].toPar ? 0 : 1
            }
        }
        let summary =
            sides.indices.map {
                totals[$0].noReturn
                    ? "\(names[$0]) NR thru \(totals[$0].thru)"
                    : "\(names[$0]) \(Games.toPar(totals[$0].toPar)) net thru \(totals[$0].thru)"
            }
            .joined(separator: " v ")
        var result = Games.FormatResult(
            format: format, summary: winner.map { "\(names[$0]) won: " + summary } ?? summary, lines: lines,
            units: Games.sideUnits(players: context.cards.count, sides: sides, winner: winner), complete: complete,
            notes: notes)
        result.sides = sides
        return result
    }
}
