import CaddieCodes
import CaddieCore
import Foundation
import Logging
import Testing

@testable import CaddieAPI
@testable import CaddieNode

/// The live-event hub over a real home (SQLite on disk): what it reports, from what the store says each commit
/// changed, reading only the cells the change names and keeping nothing between looks.
@Suite("Live events from what changed", .timeLimit(.minutes(10)))
struct EventHubTests {
    /// A home with one space, the sample courses, four players and two games of two players each.
    struct Round {
        let home: Home
        let keys: UnlockedKeys
        let space: SpaceID
        let players: [PlayerID]
        let games: [GameID]
        let invite: InviteCode

        init(at directory: URL, name: String = "Ann") throws {
            let home = try Home(path: directory.path)
            _ = try home.login(name: name, passphrase: "hub test passphrase")
            let invite = try home.spaces.createSpace(name: "Saturday", passphrase: "hub test passphrase")
            let keys = try home.unlock(passphrase: "hub test passphrase")
            let space = invite.space
            for file in try CourseService.sampleCourseFiles() where file.name == "haagsche.json" {
                _ = try home.courses.importCourses(space: space, keys: keys, data: file.data)
            }
            let course = try #require(try home.courses.list(space).first)
            let players = try ["Ann", "Bob", "Cat", "Dan"].map {
                try home.rounds.addPlayer(space: space, keys: keys, name: $0, user: nil, handicapIndex: nil)
            }
            let tee = try #require(course.tees.first).name
            games = try [players[0...1], players[2...3]].map { pair in
                try home.rounds.newGame(space: space, keys: keys, course: course.id, tee: tee, players: Array(pair))
            }
            (self.home, self.keys, self.invite, self.space, self.players) = (home, keys, invite, space, players)
        }

        /// A gross medal named `name` whose groups are these games.
        func medal(_ name: String = "Medal", games: [GameID]) throws -> CompetitionID {
            let medal = try home.execute(
                .newCompetition(space: space, name: name, settings: .init(scoring: .gross)), keys: keys
            ).createdCompetition()
            _ = try home.execute(.setCompetitionGroups(space: space, competition: medal, games: games, add: true), keys: keys)
            return medal
        }

        func score(game: Int, player: Int, hole: Int, strokes: Int) throws {
            try home.rounds.score(
                space: space, keys: keys, game: games[game], player: players[player], hole: hole,
                entry: try ScoreEntry(strokes: strokes))
        }
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-hub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The next `count` events; the suite's time limit (generous: on two busy cores an async test can wait long
    /// for a thread) turns a wait for an event that never comes into a failure.
    static func drain(_ stream: AsyncStream<LiveEvent>, count: Int) async -> [LiveEvent] {
        var events: [LiveEvent] = []
        var iterator = stream.makeAsyncIterator()
        while events.count < count, let event = await iterator.next() { events.append(event) }
        return events
    }

    /// Bob's home, joined to the round's space, holding Ann's log.
    static func bob(joining round: Round, at directory: URL) throws -> (Home, UnlockedKeys) {
        let other = try Home(path: directory.appendingPathComponent("bob").path)
        _ = try other.login(name: "Bob", passphrase: "hub test passphrase")
        _ = try other.spaces.joinSpace(invite: round.invite.text, passphrase: "hub test passphrase")
        let keys = try other.unlock(passphrase: "hub test passphrase")
        let toBob = try round.home.rounds.export(space: round.space, since: VersionVector()).bundle
        _ = try other.rounds.importBundle(keys: keys, bytes: toBob)
        return (other, keys)
    }

    /// What `other` holds that the round's home lacks, carried over as a bundle.
    static func merge(from other: Home, into round: Round) throws {
        let bundle = try other.rounds.export(space: round.space, since: try round.home.store.vector(round.space)).bundle
        _ = try round.home.rounds.importBundle(keys: round.keys, bytes: bundle)
    }

    /// One field of an event's data, as JSON text.
    static func field(_ event: LiveEvent, _ name: String) -> String? {
        guard case .object(let fields) = event.data else { return nil }
        return fields.first { $0.0 == name }?.1.text
    }

    /// The events up to and including the next `standings` event (the last of a change's events for a game).
    static func throughStandings(_ stream: AsyncStream<LiveEvent>) async -> [LiveEvent] {
        var events: [LiveEvent] = []
        var iterator = stream.makeAsyncIterator()
        while let event = await iterator.next() {
            events.append(event)
            if event.type == "standings" { break }
        }
        return events
    }

    @Test("a score reads only its own cell and game, and is reported with its game's card and standings")
    func narrowLook() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try Round(at: directory.appendingPathComponent("home"))
        try round.score(game: 1, player: 2, hole: 1, strokes: 5)
        let hub = EventHub(home: round.home, logger: Logger(label: "test"))
        hub.start()
        let (_, stream) = hub.subscribe()

        hub.look()
        #expect(hub.lastLook == EventHub.LookStats(), "nothing is read before a change")

        try round.score(game: 0, player: 1, hole: 3, strokes: 4)
        hub.look()
        #expect(
            hub.lastLook == EventHub.LookStats(wholeSpaces: 0, gamesRead: 1, cellsRead: 1),
            "a score in one game reads that game's record and the one cell")
        let events = await Self.drain(stream, count: 3)
        #expect(events.map(\.type) == ["score", "card", "standings"])
        #expect(Self.field(events[0], "game") == "\"\(round.games[0].hex)\"")
        #expect(Self.field(events[0], "hole") == "3")
        #expect(Self.field(events[0], "strokes") == "4")
        #expect(Self.field(events[0], "origin") == "\"local\"")
        // The card event carries the game's whole card, the new score in it: an open page needs nothing more.
        #expect(Self.field(events[1], "game") == "\"\(round.games[0].hex)\"")
        let card = try #require(
            try JSONSerialization.jsonObject(with: Data((Self.field(events[1], "card") ?? "").utf8)) as? [String: Any])
        #expect(card["game"] as? String == round.games[0].hex)
        let cells = (card["players"] as? [[String: Any]] ?? []).flatMap { $0["cells"] as? [[String: Any]] ?? [] }
        #expect(cells.contains { $0["hole"] as? Int == 3 && $0["strokes"] as? Int == 4 }, "\(cells)")
        // ...and the game's record as `GET .../games/{game}` gives it, so the page reads no setup after the event.
        let setup = try #require(
            try JSONSerialization.jsonObject(with: Data((Self.field(events[1], "setup") ?? "").utf8)) as? [String: Any])
        #expect(setup["game"] as? String == round.games[0].hex && setup["formats"] is [String], "\(setup)")

        // Nothing new: nothing read, nothing reported.
        hub.look()
        #expect(hub.lastLook == EventHub.LookStats(wholeSpaces: 0, gamesRead: 0))

        // A correction and a player's rename: the rename touches no game's card.
        try round.score(game: 1, player: 2, hole: 1, strokes: 6)
        try round.home.append(
            space: round.space, keys: round.keys,
            changes: [
                .set(round.players[0], fields: ["name": .text("Annie")])
            ])
        hub.look()
        #expect(hub.lastLook == EventHub.LookStats(wholeSpaces: 0, gamesRead: 1, cellsRead: 1))
        let more = await Self.drain(stream, count: 3)
        #expect(more.map(\.type) == ["score", "card", "standings"])
        #expect(Self.field(more[0], "game") == "\"\(round.games[1].hex)\"")
        #expect(Self.field(more[0], "strokes") == "6")
    }

    @Test("ops merged from another home are reported, a new member's join with them reading no more than their cells")
    func mergedOps() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try Round(at: directory.appendingPathComponent("ann"))
        // Bob's home takes Ann's log, then scores on the second game.
        let (other, otherKeys) = try Self.bob(joining: round, at: directory)
        _ = try other.rounds.score(
            space: round.space, keys: otherKeys, game: round.games[1], player: round.players[3],
            hole: 7, entry: try ScoreEntry(strokes: 3))

        let hub = EventHub(home: round.home, logger: Logger(label: "test"))
        hub.start()
        let (_, stream) = hub.subscribe()
        hub.look()

        // Bob's join and his score arrive together: who counts changed, yet no cell but his score's shows another
        // value (a join rebuilds nothing), so that cell alone is read.
        try Self.merge(from: other, into: round)
        hub.look()
        #expect(hub.lastLook == EventHub.LookStats(wholeSpaces: 0, gamesRead: 1, cellsRead: 1))
        let events = await Self.drain(stream, count: 3)
        #expect(events.map(\.type) == ["score", "card", "standings"])
        #expect(Self.field(events[0], "hole") == "7")
        #expect(Self.field(events[0], "origin") == "\"peer\"")

        // His next score arrives alone: one game read.
        _ = try other.rounds.score(
            space: round.space, keys: otherKeys, game: round.games[1], player: round.players[3],
            hole: 8, entry: try ScoreEntry(strokes: 4))
        try Self.merge(from: other, into: round)
        hub.look()
        #expect(hub.lastLook == EventHub.LookStats(wholeSpaces: 0, gamesRead: 1, cellsRead: 1))
        let later = await Self.drain(stream, count: 1)
        #expect(Self.field(later[0], "hole") == "8")
    }

    @Test("a game restored after scores came in while it was deleted sends its card with those scores")
    func restoredGame() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try Round(at: directory.appendingPathComponent("ann"))
        let (other, otherKeys) = try Self.bob(joining: round, at: directory)
        let fromBob = { try Self.merge(from: other, into: round) }
        try fromBob()  // Bob's join

        let hub = EventHub(home: round.home, logger: Logger(label: "test"))
        hub.start()
        let (_, stream) = hub.subscribe()
        // Ann deletes the second game; Bob, who has not seen that, scores on it.
        try round.home.rounds.deleteGame(space: round.space, keys: round.keys, game: round.games[1], force: true)
        hub.look()
        _ = try other.rounds.score(
            space: round.space, keys: otherKeys, game: round.games[1], player: round.players[3], hole: 5,
            entry: try ScoreEntry(strokes: 6))
        try fromBob()
        hub.look()
        // Restored, the game's card goes out with Bob's score in it, then its standings.
        try round.home.rounds.deleteGame(space: round.space, keys: round.keys, game: round.games[1], force: true, restore: true)
        hub.look()
        var events: [LiveEvent] = []
        var iterator = stream.makeAsyncIterator()
        while let event = await iterator.next() {
            events.append(event)
            if event.type == "standings" && Self.field(event, "game") == "\"\(round.games[1].hex)\"" { break }
        }
        // While the game was deleted, Bob's score told no page of it.
        #expect(!events.contains { $0.type == "score" && Self.field($0, "hole") == "5" }, "\(events.map(\.type))")
        let card = try #require(
            events.last { $0.type == "card" && Self.field($0, "game") == "\"\(round.games[1].hex)\"" },
            "\(events.map(\.type))")
        let drawn = try #require(
            try JSONSerialization.jsonObject(with: Data((Self.field(card, "card") ?? "").utf8)) as? [String: Any])
        let cells = (drawn["players"] as? [[String: Any]] ?? []).flatMap { $0["cells"] as? [[String: Any]] ?? [] }
        #expect(cells.contains { $0["hole"] as? Int == 5 && $0["strokes"] as? Int == 6 }, "\(cells)")
    }

    @Test("a dispute is reported when it appears, not again when another value joins it, and when it is settled")
    func disputes() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try Round(at: directory.appendingPathComponent("ann"))
        let (other, otherKeys) = try Self.bob(joining: round, at: directory)
        try Self.merge(from: other, into: round)  // Bob's join
        let hub = EventHub(home: round.home, logger: Logger(label: "test"))
        hub.start()
        let (_, stream) = hub.subscribe()
        func bobScores(_ strokes: Int) throws {
            _ = try other.rounds.score(
                space: round.space, keys: otherKeys, game: round.games[0], player: round.players[1], hole: 2,
                entry: try ScoreEntry(strokes: strokes))
        }
        // Ann enters a 4 for Bob's 2nd; Bob, not having seen it, a 5.
        try round.score(game: 0, player: 1, hole: 2, strokes: 4)
        hub.look()
        #expect(await Self.throughStandings(stream).map(\.type) == ["score", "card", "standings"])
        try bobScores(5)
        try Self.merge(from: other, into: round)
        hub.look()
        let appeared = await Self.throughStandings(stream).map(\.type)
        #expect(appeared.filter { $0 == "conflict" }.count == 1, "\(appeared)")
        #expect(!appeared.contains("conflict-resolved"), "\(appeared)")

        // Bob corrects his own value to a 6: the cell stays disputed, and is not reported disputed again.
        try bobScores(6)
        try Self.merge(from: other, into: round)
        hub.look()
        let joined = await Self.throughStandings(stream).map(\.type)
        #expect(!joined.contains("conflict") && !joined.contains("conflict-resolved"), "\(joined)")
        #expect(try round.home.cells(round.space, game: round.games[0]).first { $0.hole == 2 }?.isConflict == true)

        // Ann enters the hole again having seen both: her value supersedes them, and the dispute is settled.
        try round.score(game: 0, player: 1, hole: 2, strokes: 5)
        hub.look()
        let settled = await Self.throughStandings(stream)
        #expect(settled.map(\.type) == ["score", "conflict-resolved", "card", "standings"], "\(settled.map(\.type))")
        #expect(Self.field(settled[1], "hole") == "2")

        // A correction of a cell nobody disputes settles nothing.
        try round.score(game: 0, player: 1, hole: 2, strokes: 3)
        hub.look()
        #expect(await Self.throughStandings(stream).map(\.type) == ["score", "card", "standings"])
    }

    @Test("a public board's stream: the board whole first, then only the lines that changed; closing it ends the stream")
    func publicBoardStream() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try Round(at: directory.appendingPathComponent("home"))
        let home = round.home
        let medal = try round.medal(games: round.games)
        _ = try home.execute(
            .setBoardAccess(space: round.space, competition: medal, isPublic: true, hiddenHoles: 0), keys: round.keys)
        // Everyone has played the 1st: Ann 4, Bob 5, Cat 6, Dan 7.
        for (player, strokes) in [(0, 4), (1, 5), (2, 6), (3, 7)] {
            try round.score(game: player / 2, player: player, hole: 1, strokes: strokes)
        }
        let hub = EventHub(home: home, logger: Logger(label: "test"))
        hub.start()
        hub.look()
        let (id, stream) = hub.watchBoard(space: round.space, competition: medal)
        var events = stream.makeAsyncIterator()
        hub.look()
        func lines(_ event: LiveEvent?) throws -> [[String: Any]] {
            let text = try #require(event.flatMap { Self.field($0, "lines") })
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        }
        let whole = await events.next()
        #expect(whole?.type == "board")
        #expect(whole.flatMap { Self.field($0, "whole") } == "true")
        #expect(try lines(whole).count == 4)

        // Dan's 9 on the 2nd leaves him last: his line alone changes (and the head: the time of the last entry).
        try round.score(game: 1, player: 3, hole: 2, strokes: 9)
        hub.look()
        let changed = await events.next()
        #expect(changed?.type == "board")
        #expect(changed.flatMap { Self.field($0, "whole") } == "false")
        let sent = try lines(changed)
        #expect(sent.map { $0["name"] as? String } == ["Dan"])
        #expect(sent.first?["thru"] as? Int == 2)
        #expect(sent.first?["gross"] as? Int == 16)
        #expect(changed.flatMap { Self.field($0, "head") } != "null", "the last entry's time changed")

        // A committee's mark changes the competition's record only: Bob's line goes to DQ, Cat and Dan move up.
        _ = try home.execute(
            .setCompetitionStatus(space: round.space, competition: medal, player: round.players[1], status: .disqualified),
            keys: round.keys)
        hub.look()
        let marked = try lines(await events.next())
        #expect(Set(marked.compactMap { $0["name"] as? String }) == ["Bob", "Cat", "Dan"])
        #expect(marked.first { $0["name"] as? String == "Bob" }?["status"] as? String == "DQ")

        // A player's record changes no game, yet the board names them anew (each group's part is kept between
        // looks, and a player's record makes the hub read them all again).
        _ = try home.execute(.editPlayer(space: round.space, player: round.players[3], name: "Daniel"), keys: round.keys)
        hub.look()
        let renamed = try lines(await events.next())
        #expect(renamed.map { $0["name"] as? String } == ["Daniel"])

        // A second stream arriving now gets the board whole; the first gets nothing for it.
        let (second, secondStream) = hub.watchBoard(space: round.space, competition: medal)
        hub.look()
        var secondEvents = secondStream.makeAsyncIterator()
        #expect(try lines(await secondEvents.next()).count == 4)
        hub.unsubscribe(second)

        // A group's game deleted: it is no longer listed, yet its players leave the board at once.
        _ = try home.execute(
            .setDeleted(space: round.space, game: round.games[1], deleted: true, force: true), keys: round.keys)
        hub.look()
        let left = try #require(await events.next())
        let removed = Self.field(left, "removed") ?? ""
        #expect(removed.contains(round.players[2].hex) && removed.contains(round.players[3].hex), "\(removed)")

        // The committee closes the board: its stream hears so and ends.
        _ = try home.execute(
            .setBoardAccess(space: round.space, competition: medal, isPublic: false, hiddenHoles: 0), keys: round.keys)
        hub.look()
        #expect(await events.next()?.type == "board-closed")
        #expect(await events.next() == nil)
        #expect(hub.boardWatcherCount == 0)
        hub.unsubscribe(id)
    }
}
