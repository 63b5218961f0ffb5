import CaddieCore
import CaddieServices
import CaddieStore
import Foundation

/// Handicap Index and playing handicaps from the merged games, standings and statistics.
public struct HandicapService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any HandicapStore { home.store }
}

extension HandicapService {
    /// A player's Handicap Index recomputed from the finished games of every space this home holds, with the games
    /// behind it.
    ///
    /// The index is never synced as a number (HANDICAP.md pitfall 4): each home derives it from the merged games, so
    /// homes holding the same games agree on it.
    public struct HandicapRecord: Sendable, Equatable {
        /// A finished game that became a round of the scoring record.
        public struct RecordedGame: Sendable, Equatable {
            /// The space the game is in.
            public let space: SpaceID
            /// The space's name.
            public let spaceName: String
            /// The game.
            public let game: GameID
            /// The player's id in that space (the same person may have a different id in each space).
            public let player: PlayerID
            /// When the game was created (ms since 1970): the round's date.
            public let createdAt: UInt64
            /// The course's name.
            public let course: String
            /// The tee played.
            public let tee: String
        }

        /// A finished game of the player that could not count, and why.
        public struct SkippedGame: Sendable, Equatable {
            /// The space the game is in.
            public let space: SpaceID
            /// The space's name.
            public let spaceName: String
            /// The game.
            public let game: GameID
            /// When the game was created (ms since 1970).
            public let createdAt: UInt64
            /// Why it does not count, in words a user can act on.
            public let reason: String
        }

        /// The player as named in the space asked about.
        public let player: PlayerRecord
        /// The space asked about.
        public let space: SpaceID
        /// The calculation over the rounds, with the working of each.
        public let calculation: Handicap.RecordCalculation
        /// The games in the order given to the calculation: `Handicap.RoundWorking.position` indexes this list.
        public let games: [RecordedGame]
        /// Finished games that could not count.
        public let skipped: [SkippedGame]

        /// The current Handicap Index, or nil before there are enough acceptable rounds.
        public var index: Double? { calculation.index }

        /// The game behind a round of the working.
        public func game(of round: Handicap.RoundWorking) -> RecordedGame? {
            games.indices.contains(round.position) ? games[round.position] : nil
        }

        /// The Handicap Index in effect before `date`: the one after the last round played earlier, as the Rules
        /// recalculate the index after each score (Rule 5.2); nil if there was none yet.
        public func index(before date: Date) -> Double? {
            calculation.rounds.last(where: { $0.date < date && $0.indexAfter != nil })?.indexAfter
        }
    }

    /// The Handicap Index of a player of `space` from their finished games in every space this home holds
    /// (``resolvePlayerAnywhere(_:space:)`` finds the player from what a person typed). The same person is found in
    /// other spaces by their user key when the player has one; a player without a user key counts only their games
    /// in their own space. Each finished game the player is on the roster of becomes a round from the course and
    /// tee's ratings and the card's shown strokes, dated by its creation; games on tees without ratings are reported
    /// as skipped.
    public func handicapRecord(for player: PlayerRecord, in space: SpaceID) throws(NodeError) -> HandicapRecord {
        guard let record = try handicapRecords(for: [player], in: space)[player.id] else {
            throw .notFound("no handicap record for \(player.name)")
        }
        return try record.get()
    }

    /// The records of several players of `space` from one pass over the finished games of every space: each game's
    /// roster, course and cards are read once, however many of the players it counts for (a card's standings and
    /// net scores need every player's record). A player whose rounds cannot make an index gets its error, so one
    /// bad record does not hide the others.
    func handicapRecords(
        for players: [PlayerRecord], in space: SpaceID
    ) throws(NodeError) -> [PlayerID: Result<HandicapRecord, NodeError>] {
        var entries: [PlayerID: [(round: Handicap.Round, game: HandicapRecord.RecordedGame)]] = [:]
        var skipped: [PlayerID: [HandicapRecord.SkippedGame]] = [:]
        for summary in try spaces.named().sorted(by: { $0.id < $1.id }) {
            // Who each player is in this space: the players with their user key, or themselves in their own space.
            let users = Set(players.compactMap(\.user))
            let sameUser = users.isEmpty ? [] : try rounds.players(summary.id).filter { $0.user.map(users.contains) ?? false }
            var idsOf: [PlayerID: Set<PlayerID>] = [:]
            for player in players {
                if let user = player.user {
                    idsOf[player.id] = Set(sameUser.filter { $0.user == user }.map(\.id))
                } else if summary.id == space {
                    idsOf[player.id] = [player.id]
                }
            }
            guard idsOf.values.contains(where: { !$0.isEmpty }) else { continue }
            // A group plays the same few courses: each is read (and its geometry decoded) once a space.
            var coursesRead: [CourseID: CourseRecord?] = [:]
            for game in try rounds.games(summary.id) where game.finished {
                let roster = try run { try store.roster(summary.id, game: game.id) }
                var cells: [ScoreCell]?
                for player in players {
                    guard let ids = idsOf[player.id], let playerID = roster.first(where: { ids.contains($0) }) else {
                        continue
                    }
                    if cells == nil { cells = try run { try store.cells(summary.id, game: game.id) } }
                    let course: CourseRecord?
                    if let id = game.course, let read = coursesRead[id] {
                        course = read
                    } else {
                        course = try courses.course(of: game, in: summary.id)
                        if let id = game.course { coursesRead[id] = course }
                    }
                    switch try assessForHandicap(game, player: playerID, space: summary, course: course, cells: cells ?? []) {
                    case .round(let round, let recorded):
                        entries[player.id, default: []].append((round, recorded))
                    case .skipped(let reason):
                        skipped[player.id, default: []].append(
                            HandicapRecord.SkippedGame(
                                space: summary.id, spaceName: summary.name,
                                game: game.id, createdAt: game.createdAt,
                                reason: reason))
                    }
                }
            }
        }
        var records: [PlayerID: Result<HandicapRecord, NodeError>] = [:]
        for player in players {
            // A fixed order for rounds of the same date, so every home replays the record the same way.
            let played = (entries[player.id] ?? []).sorted {
                ($0.game.createdAt, $0.game.space, $0.game.game) < ($1.game.createdAt, $1.game.space, $1.game.game)
            }
            let passed = (skipped[player.id] ?? []).sorted {
                ($0.createdAt, $0.space, $0.game) < ($1.createdAt, $1.space, $1.game)
            }
            do {
                let calculation = try Handicap.handicapIndex(rounds: played.map { $0.round })
                records[player.id] = .success(
                    HandicapRecord(
                        player: player, space: space, calculation: calculation, games: played.map { $0.game },
                        skipped: passed))
            } catch {
                // The finished games as they stand cannot make an index (a tee's ratings, the holes played).
                records[player.id] = .failure(.conflict(error.description))
            }
        }
        return records
    }

    /// Each player's course and playing handicap for a game's card, with net scores and Stableford points per hole.
    ///
    /// The index is the one computed from the merged state as it stood when the game was created (the rounds before
    /// it), else the index entered for the player; players with neither, and every player on a course whose tee has
    /// no ratings or whose holes lack par or stroke index, get no entry.
    /// - Parameters:
    ///   - card: the game's card (`rounds.card(space:game:)`).
    ///   - space: the space the game is in.
    ///   - allowancePercent: the handicap allowance, 1...100; 100 by default (the Rules recommend 95 for individual
    ///     stroke play and Stableford: `Handicap.Format.individualStrokePlay.allowancePercent`).
    public func playingHandicap(
        card: Scorecard, space: SpaceID, allowancePercent: Int = 100
    ) throws(NodeError)
        -> [PlayerID: NetCard]
    {
        guard let course = card.course, let tee = course.tee(named: card.game.tee), let rating = tee.rating,
            let slope = tee.slope, let par = tee.par
        else { return [:] }
        let holes = course.holes.sorted { $0.number < $1.number }
        guard holes.count == 9 || holes.count == 18 else { return [:] }
        var layout: [(number: Int, par: Int, strokeIndex: Int)] = []
        for hole in holes {
            guard let holePar = hole.par(tee: tee.name), let strokeIndex = hole.strokeIndex(tee: tee.name) else { return [:] }
            layout.append((hole.number, holePar, strokeIndex))
        }
        var cards: [PlayerID: NetCard] = [:]
        let records = try handicapRecords(for: card.players, in: space)
        for player in card.players {
            guard let (index, source) = Self.indexForGame(player, game: card.game, records: records) else { continue }
            let scores = layout.map {
                Handicap.HoleScore(
                    par: $0.par, strokeIndex: $0.strokeIndex,
                    strokes: card.cell(player.id, $0.number)?.winner?.entry.holed)
            }
            let handicap: Handicap.CourseHandicap
            let round: Handicap.NetRound
            do {
                handicap = try Handicap.courseHandicap(
                    handicapIndex: index, slopeRating: slope, courseRating: rating, par: par, holes: layout.count,
                    allowancePercent: allowancePercent
                )
                round = try Handicap.netRound(holes: scores, playingHandicap: handicap.playingHandicap)
            } catch {
                continue
            }
            var strokes: [Int: Int] = [:]
            var net: [Int: Int] = [:]
            var points: [Int: Int] = [:]
            for (hole, scored) in zip(layout, round.holes) {
                strokes[hole.number] = scored.strokesReceived
                if let value = scored.net {
                    net[hole.number] = value
                    points[hole.number] = scored.points
                }
            }
            cards[player.id] = NetCard(
                player: player.id, indexUsed: index, indexSource: source,
                unroundedCourseHandicap: handicap.unrounded, courseHandicap: handicap.courseHandicap,
                allowancePercent: handicap.allowancePercent, playingHandicap: handicap.playingHandicap,
                strokesReceived: strokes, net: net, points: points, netTotal: round.netTotal,
                pointsTotal: round.points
            )
        }
        return cards
    }

    /// The player named `text` in `space`, or, with no space, in the one space (or the one user) it names. A text
    /// that fits several players of one space is ambiguous there, whatever the other spaces hold.
    public func resolvePlayerAnywhere(_ text: String, space: SpaceID?) throws(NodeError) -> (player: PlayerRecord, space: SpaceID)
    {
        if let space { return (try rounds.resolvePlayer(space, text), space) }
        let all = try spaces.list().sorted { $0.id < $1.id }
        guard !all.isEmpty else { throw .noSpace }
        if all.count == 1 { return (try rounds.resolvePlayer(all[0].id, text), all[0].id) }
        var found: [(player: PlayerRecord, space: SpaceSummary)] = []
        for summary in all {
            do {
                found.append((try rounds.resolvePlayer(summary.id, text), summary))
            } catch .notFound {
                continue
            } catch .ambiguous(let message) {
                throw .ambiguous("\(message), in space \(summary.name) (\(summary.id.short)); or give --space")
            }
        }
        guard let first = found.first else {
            throw .notFound(
                "no player '\(text)' in any space of this home", .list(.playersOfEachSpace))
        }
        let samePerson = found.allSatisfy { $0.player.user != nil && $0.player.user == first.player.user }
        guard found.count == 1 || samePerson else {
            throw .spaceAmbiguous(found.map { "\($0.space.name) \($0.space.id.short)" })
        }
        return (first.player, first.space.id)
    }

    /// A finished game as a round of a player's scoring record, or why it cannot be one.
    private func assessForHandicap(
        _ game: GameRecord, player: PlayerID, space: (id: SpaceID, name: String), course: CourseRecord?, cells: [ScoreCell]
    )
        throws(NodeError) -> HandicapAssessment
    {
        guard let course else {
            return .skipped("its course has not arrived yet: merge with the home that imported it")
        }
        guard let tee = course.tee(named: game.tee) else {
            return .skipped("course \(course.name) has no tee '\(game.tee)'")
        }
        guard let rating = tee.rating, let slope = tee.slope, let par = tee.par else {
            let missing = [
                ("course rating", tee.rating == nil), ("slope rating", tee.slope == nil),
                ("par", tee.par == nil),
            ].filter { $0.1 }.map { $0.0 }
            return .skipped(
                "tee \(tee.name) of \(course.name) has no \(missing.joined(separator: " or ")): "
                    + "only rounds on rated tees count (add them to the course file and import it again)")
        }
        let holes = course.holes.sorted { $0.number < $1.number }
        guard holes.count == 9 || holes.count == 18 else {
            return .skipped("\(course.name) has \(holes.count) holes: only 9- and 18-hole rounds count")
        }
        var shown: [Int: ScoreEntry] = [:]
        for cell in cells where cell.player == player {
            if let winner = cell.winner { shown[cell.hole] = winner.entry }
        }
        var scores: [Handicap.HoleScore] = []
        for hole in holes {
            guard let holePar = hole.par(tee: tee.name), let strokeIndex = hole.strokeIndex(tee: tee.name) else {
                return .skipped("hole \(hole.number) of \(course.name) has no par or stroke index")
            }
            // A pick-up counts net double bogey (its maximum hole score, Rule 3.3).
            scores.append(
                shown[hole.number]?.pickedUp == true
                    ? Handicap.HoleScore(par: holePar, strokeIndex: strokeIndex, pickedUp: ())
                    : Handicap.HoleScore(par: holePar, strokeIndex: strokeIndex, strokes: shown[hole.number]?.holed))
        }
        // Check the round on its own, so that one bad course skips one game instead of failing the whole record.
        do {
            _ = try Handicap.courseHandicap(
                handicapIndex: 0, slopeRating: slope, courseRating: rating, par: par, holes: holes.count
            )
            _ = try Handicap.adjustedGrossScore(holes: scores, courseHandicap: nil)
        } catch {
            return .skipped(error.description)
        }
        let round = Handicap.Round(
            date: Date(timeIntervalSince1970: Double(game.createdAt) / 1000), holes: holes.count,
            score: .holeByHole(scores), courseRating: rating, slopeRating: slope, par: par
        )
        return .round(
            round,
            HandicapRecord.RecordedGame(
                space: space.id, spaceName: space.name, game: game.id, player: player, createdAt: game.createdAt,
                course: course.name, tee: tee.name
            ))
    }
}

/// What a finished game is to a player's scoring record.
private enum HandicapAssessment {
    /// A round, with the game it came from.
    case round(Handicap.Round, HandicapService.HandicapRecord.RecordedGame)
    /// Not a round, and why.
    case skipped(String)
}
