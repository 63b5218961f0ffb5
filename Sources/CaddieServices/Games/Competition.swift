/// A club competition's board: every entrant's card ranked by the competition's scoring (medal net, medal gross or
/// Stableford), per division, with ties among finished cards decided by a named countback, no returns and
/// disqualifications listed last, and the twos. Pure: cards in, board out (docs/competitions.md has the rules and
/// their sources).
public enum Competition {
    /// How the competition is scored.
    public enum Scoring: String, CaseIterable, Sendable, Codable {
        /// Medal, net: gross less the Playing Handicap, lowest wins.
        case net
        /// Medal, gross: strokes, lowest wins.
        case gross
        /// Stableford: points per hole on net scores, highest wins.
        case stableford

        /// The scoring in words.
        public var title: String {
            switch self {
            case .net: "medal (net)"
            case .gross: "medal (gross)"
            case .stableford: "Stableford"
            }
        }
    }

    /// How a tie between finished cards is decided by matching them (a countback).
    public enum Countback: String, CaseIterable, Sendable, Codable {
        /// The R&A's method (Committee Procedures 5A(6)): holes 10-18, 13-18, 16-18 and the 18th, then the last six,
        /// three and one of the first nine, by hole number whatever the start; in net play 1/2, 1/3, 1/6 and 1/18 of
        /// the Playing Handicap deducted, fractions kept. A 9-hole competition: the last 6, 3 and 1 with 2/3, 1/3,
        /// 1/9.
        case randa = "r-and-a"
        /// As `r-and-a`, with each fraction of the handicap rounded to a whole stroke (.5 up) before it is deducted.
        case rounded = "r-and-a-rounded"
        /// As `r-and-a`, with the last nine, six, three and one being the holes each player played last (from their
        /// own start hole in a shotgun), not holes 10-18.
        case lastPlayed = "last-played"

        /// The policy in words.
        public var title: String {
            switch self {
            case .randa: "R&A (holes 10-18, 13-18, 16-18, 18; fractions of the handicap kept)"
            case .rounded: "R&A with the fractions of the handicap rounded to whole strokes"
            case .lastPlayed: "the last 9, 6, 3 and 1 holes each player played"
            }
        }
    }

    /// A result the committee or the card gives instead of a position.
    public enum Status: String, Sendable, Codable {
        /// No return: a medal card with a hole not holed out, or the committee said so.
        case noReturn = "NR"
        /// Disqualified, by the committee.
        case disqualified = "DQ"
    }

    /// What the committee chose.
    public struct Settings: Sendable, Equatable, Codable {
        /// The scoring.
        public var scoring: Scoring
        /// The countback policy.
        public var countback: Countback
        /// The handicap allowance, percent of the Course Handicap (95 for individual stroke play and Stableford,
        /// WHS Appendix C).
        public var allowance: Int
        /// The highest Playing Handicap of each division but the last, ascending; empty: one division.
        public var divisions: [Int]
        /// Whether the twos are shared per division (else across the field).
        public var twosByDivision: Bool

        /// The settings.
        public init(
            scoring: Scoring = .stableford, countback: Countback = .randa, allowance: Int = 95, divisions: [Int] = [],
            twosByDivision: Bool = false
        ) {
            self.scoring = scoring
            self.countback = countback
            self.allowance = allowance
            self.divisions = divisions
            self.twosByDivision = twosByDivision
        }
    }

    /// One entrant's card.
    public struct Entrant: Sendable, Equatable {
        /// The card, in the order the player played the holes.
        public let card: Games.PlayerCard
        /// The number of the hole at each place of the card.
        public let holes: [Int]
        /// What the committee marked, if anything.
        public let status: Status?
        /// The division the entry list names, if any: when any entrant has one, the board's divisions are these
        /// names (in the order first met), not the handicap bands.
        public let division: String?

        /// An entrant.
        public init(card: Games.PlayerCard, holes: [Int], status: Status? = nil, division: String? = nil) {
            self.card = card
            self.holes = holes
            self.status = status
            self.division = division
        }

        /// The entrant as a public board shows them: the card's last `holes` places (the holes they play last, from
        /// their own start) left out, scores and pick-ups alike, so a board in the clubhouse does not give the
        /// finish away.
        public func hidingLast(_ holes: Int) -> Entrant {
            guard holes > 0 else { return self }
            let kept = max(0, card.gross.count - holes)
            let shown = Games.PlayerCard(
                pars: card.pars, strokeIndexes: card.strokeIndexes, courseHandicap: card.courseHandicap,
                gross: card.gross.indices.map { $0 < kept ? card.gross[$0] : nil }, pickUps: card.pickUps.filter { $0 < kept })
            return Entrant(card: shown, holes: self.holes, status: status, division: division)
        }
    }

    /// One entrant's line on the board.
    public struct Line: Sendable, Equatable {
        /// The entrant's index in the input.
        public let entrant: Int
        /// The position, 1 for the leader; nil for a card not started, a no return or a disqualification.
        public let position: Int?
        /// Whether another line shares the position.
        public let tied: Bool
        /// Holes entered (a pick-up counts).
        public let thru: Int
        /// Whether every hole has an entry.
        public let complete: Bool
        /// The Playing Handicap (the allowance of the Course Handicap), nil without a Course Handicap.
        public let playingHandicap: Int?
        /// Strokes on the holes holed out, and against their par.
        public let gross: Int, grossToPar: Int
        /// Net strokes and net against par on the holes holed out (strokes received by stroke index).
        public let net: Int, netToPar: Int
        /// Stableford points on the holes entered.
        public let points: Int
        /// NR or DQ.
        public let status: Status?
        /// How a tie with this line was decided, e.g. "last 6: 17 v 18 points"; nil when there was none.
        public let decidedBy: String?
    }

    /// One division's lines, in board order.
    public struct Division: Sendable, Equatable {
        /// 1 for the lowest handicaps, or the first named.
        public let number: Int
        /// The Playing Handicaps it takes, e.g. "up to 12", "13-20", "21+"; nil when the field is one division or
        /// the divisions are named.
        public let range: String?
        /// The division's name from the entry list, nil for handicap bands.
        public let name: String?
        /// The lines.
        public let lines: [Line]
    }

    /// A gross 2.
    public struct Two: Sendable, Equatable {
        /// The entrant.
        public let entrant: Int
        /// The hole number.
        public let hole: Int
        /// The division whose pool it shares in, when the twos are per division.
        public let division: Int?
    }

    /// The board.
    public struct Board: Sendable, Equatable {
        /// The divisions, lowest handicaps first.
        public let divisions: [Division]
        /// Every gross 2, by division (when per division), then entrant and hole.
        public let twos: [Two]
    }

    /// The board for these entrants.
    public static func board(_ entrants: [Entrant], settings: Settings) -> Board {
        let scored = entrants.enumerated().map { Scored(index: $0.offset, entrant: $0.element, settings: settings) }
        let bounds = settings.divisions.sorted()
        // Named divisions (the entry list's) win over handicap bands; an entrant without a name joins the last.
        var names: [String] = []
        for entrant in entrants { if let name = entrant.division, !names.contains(name) { names.append(name) } }
        func division(_ line: Scored) -> Int {
            if !names.isEmpty {
                return line.entrant.division.flatMap { names.firstIndex(of: $0) }.map { $0 + 1 } ?? names.count
            }
            let handicap = line.playingHandicap ?? 0
            return (bounds.firstIndex { handicap <= $0 } ?? bounds.count) + 1
        }
        var divisions: [Division] = []
        for number in 1...(names.isEmpty ? bounds.count + 1 : names.count) {
            let members = scored.filter { division($0) == number }
            let range: String? =
                bounds.isEmpty || !names.isEmpty
                ? nil
                : number == 1
                    ? "up to \(bounds[0])"
                    : number == bounds.count + 1
                        ? "\(bounds[number - 2] + 1)+" : "\(bounds[number - 2] + 1)-\(bounds[number - 1])"
            divisions.append(
                Division(
                    number: number, range: range, name: names.isEmpty ? nil : names[number - 1],
                    lines: rank(members, settings: settings)))
        }
        var twos: [Two] = []
        for line in scored where line.status != .disqualified {
            for (place, score) in line.entrant.card.gross.enumerated() where score == 2 {
                twos.append(
                    Two(
                        entrant: line.index, hole: line.entrant.holes[place],
                        division: settings.twosByDivision ? division(line) : nil))
            }
        }
        twos.sort { ($0.division ?? 0, $0.entrant, $0.hole) < ($1.division ?? 0, $1.entrant, $1.hole) }
        return Board(divisions: divisions, twos: twos)
    }

    /// One entrant's figures.
    struct Scored {
        let index: Int
        let entrant: Entrant
        let playingHandicap: Int?
        let thru: Int
        let gross: Int, grossToPar: Int, net: Int, netToPar: Int, points: Int
        /// Each hole's gross (nil: not entered or picked up) and points.
        let holePoints: [Int]
        let status: Status?

        init(index: Int, entrant: Entrant, settings: Settings) {
            self.index = index
            self.entrant = entrant
            let card = entrant.card
            let handicap = Games.playingHandicap(card.courseHandicap, percent: settings.allowance)
            playingHandicap = handicap
            let strokes = Games.allocation(handicap ?? 0, card: card)
            var thru = 0, gross = 0, toPar = 0, net = 0, points: [Int] = []
            for place in card.gross.indices {
                if card.entered(place) { thru += 1 }
                guard let score = card.gross[place] else {
                    points.append(0)
                    continue
                }
                gross += score
                toPar += score - card.pars[place]
                net += score - strokes[place]
                points.append(max(0, 2 + card.pars[place] - (score - strokes[place])))
            }
            self.thru = thru
            self.gross = gross
            grossToPar = toPar
            self.net = net
            netToPar = toPar - (gross - net)
            holePoints = points
            self.points = points.reduce(0, +)
            if let status = entrant.status {
                self.status = status
            } else if settings.scoring != .stableford, !card.pickUps.isEmpty {
                status = .noReturn
            } else {
                status = nil
            }
        }

        var complete: Bool { entrant.card.complete }

        /// The figure the board ranks by, lower first.
        func key(_ scoring: Scoring) -> Int {
            switch scoring {
            case .net: netToPar
            case .gross: grossToPar
            case .stableford: -points
            }
        }

        func line(position: Int?, tied: Bool, decidedBy: String?) -> Line {
            Line(
                entrant: index, position: position, tied: tied, thru: thru, complete: complete,
                playingHandicap: playingHandicap, gross: gross, grossToPar: grossToPar, net: net, netToPar: netToPar,
                points: points, status: status, decidedBy: decidedBy)
        }
    }

    /// A division's lines: ranked cards, then cards not started, then NR, then DQ.
    static func rank(_ members: [Scored], settings: Settings) -> [Line] {
        let ranked = members.filter { $0.status == nil && $0.thru > 0 }
        var lines: [Line] = []
        var ahead = 0
        let keys = Set(ranked.map { $0.key(settings.scoring) }).sorted()
        for key in keys {
            let equal = ranked.filter { $0.key(settings.scoring) == key }
            // A countback decides only between finished cards: while one of them is still out, the tie stands.
            let tiers: [(members: [Scored], decidedBy: String?)] =
                equal.count > 1 && equal.allSatisfy(\.complete)
                ? countback(equal, settings: settings)
                : [(equal, nil)]
            for tier in tiers {
                for member in tier.members {
                    lines.append(member.line(position: ahead + 1, tied: tier.members.count > 1, decidedBy: tier.decidedBy))
                }
                ahead += tier.members.count
            }
        }
        lines += members.filter { $0.status == nil && $0.thru == 0 }.map { $0.line(position: nil, tied: false, decidedBy: nil) }
        lines += members.filter { $0.status == .noReturn }.map { $0.line(position: nil, tied: false, decidedBy: nil) }
        lines += members.filter { $0.status == .disqualified }.map { $0.line(position: nil, tied: false, decidedBy: nil) }
        return lines
    }

    /// One step of a countback: a part of the card and the share of the handicap that goes with it.
    struct Step {
        /// "last 9", "last 6", ...
        let name: String
        /// How many holes, and from which end of the order.
        let holes: Int
        /// Whether the part is of the first nine (the steps after the last hole).
        let firstNine: Bool
    }

    /// The steps for a card of `count` holes (9 or 18): R&A Committee Procedures 5A(6).
    static func steps(count: Int) -> [Step] {
        if count == 18 {
            return [
                Step(name: "last 9", holes: 9, firstNine: false), Step(name: "last 6", holes: 6, firstNine: false),
                Step(name: "last 3", holes: 3, firstNine: false), Step(name: "last hole", holes: 1, firstNine: false),
                Step(name: "first nine's last 6", holes: 6, firstNine: true),
                Step(name: "first nine's last 3", holes: 3, firstNine: true),
                Step(name: "first nine's last hole", holes: 1, firstNine: true),
            ]
        }
        return [
            Step(name: "last 6", holes: 6, firstNine: false), Step(name: "last 3", holes: 3, firstNine: false),
            Step(name: "last hole", holes: 1, firstNine: false),
        ]
    }

    /// Splits equal finished cards into tiers by the countback's steps, in order; each tier says the step that set
    /// it apart and the figures compared there. Cards equal after every step share one tier.
    static func countback(_ tied: [Scored], settings: Settings) -> [(members: [Scored], decidedBy: String?)] {
        let count = tied[0].entrant.card.gross.count
        // Every card of a competition has the same length; a mix (never made by the node) is left tied.
        guard tied.allSatisfy({ $0.entrant.card.gross.count == count }) else { return [(tied, nil)] }
        func split(_ group: [Scored], from stepIndex: Int) -> [(members: [Scored], decidedBy: String?)] {
            let ladder = Self.steps(count: count)
            guard group.count > 1 else { return [(group, nil)] }
            var index = stepIndex
            while index < ladder.count {
                let step = ladder[index]
                let values = group.map { value($0, step: step, count: count, settings: settings) }
                let distinct = Set(values).sorted()
                if distinct.count > 1 {
                    let words =
                        "\(step.name): "
                        + distinct.map { describe($0, settings.scoring) }.joined(separator: " v ")
                        + (settings.scoring == .stableford ? " points" : "")
                    var tiers: [(members: [Scored], decidedBy: String?)] = []
                    for figure in distinct {
                        let members = zip(group, values).filter { $0.1 == figure }.map(\.0)
                        let deeper = members.count > 1 ? split(members, from: index + 1) : [(members, nil)]
                        // A member still tied carries its deeper step's words, else this step's.
                        tiers += deeper.map { ($0.members, $0.decidedBy ?? words) }
                    }
                    return tiers
                }
                index += 1
            }
            return [(group, "equal after every countback step")]
        }
        return split(tied, from: 0)
    }

    /// A player's figure for a step in eighteenths of a stroke or point, lower better: strokes less the step's share
    /// of the Playing Handicap (net), strokes (gross), or points negated (Stableford).
    static func value(_ scored: Scored, step: Step, count: Int, settings: Settings) -> Int {
        let places = places(scored.entrant, step: step, count: count, countback: settings.countback)
        switch settings.scoring {
        case .stableford:
            return -18 * places.reduce(0) { $0 + scored.holePoints[$1] }
        case .gross, .net:
            let strokes = places.reduce(0) { $0 + (scored.entrant.card.gross[$1] ?? 0) }
            guard settings.scoring == .net else { return 18 * strokes }
            let handicap = scored.playingHandicap ?? 0
            if settings.countback == .rounded {
                return 18 * (strokes - roundedQuotient(handicap * step.holes, count))
            }
            // handicap × holes / count, in eighteenths: exact, since count is 9 or 18.
            return 18 * strokes - handicap * step.holes * (18 / count)
        }
    }

    /// The places of the card a step compares.
    static func places(_ entrant: Entrant, step: Step, count: Int, countback: Countback) -> [Int] {
        // The order the step reads: as played, or by hole number.
        let order =
            countback == .lastPlayed
            ? Array(entrant.holes.indices)
            : entrant.holes.indices.sorted { entrant.holes[$0] < entrant.holes[$1] }
        let end = step.firstNine ? min(9, order.count) : order.count
        return Array(order[max(0, end - step.holes)..<end])
    }

    /// `numerator / denominator` rounded to the nearest whole, .5 up.
    static func roundedQuotient(_ numerator: Int, _ denominator: Int) -> Int {
        let doubled = 2 * numerator + denominator
        let divisor = 2 * denominator
        return doubled >= 0 ? doubled / divisor : -((-doubled + divisor - 1) / divisor)
    }

    /// A figure in eighteenths as people read it: "17", "34.5", "31.67".
    static func describe(_ eighteenths: Int, _ scoring: Scoring) -> String {
        let value = scoring == .stableford ? -eighteenths : eighteenths
        if value % 18 == 0 { return String(value / 18) }
        let hundredths = Int((Double(value) / 18 * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, part = abs(hundredths) % 100
        return part % 10 == 0 ? "\(sign)\(whole).\(part / 10)" : "\(sign)\(whole).\(part < 10 ? "0" : "")\(part)"
    }
}
