import CaddieCore
import CaddieServices
import CaddieStore
import Foundation
import Synchronization
import Testing

@testable import CaddieNode

/// Commands in: what the CLI hands the node (``NodeCommand``) reads back as written, its errors keep their kind
/// across the control socket, and run against a real home (a SQLite file, real keys, no process launched) each
/// command gives the change it names, or refuses with a remedy worded for its edge.
@Suite("node commands")
struct NodeCommandTests {
    let space = SpaceID(unchecked: [UInt8](repeating: 3, count: 16))
    let game = GameID(unchecked: [UInt8](repeating: 1, count: 8))
    let player = PlayerID(unchecked: [UInt8](repeating: 2, count: 8))
    let other = PlayerID(unchecked: [UInt8](repeating: 8, count: 8))

    /// A setup with every setting given.
    var setup: GameSetup<PlayerID> {
        var setup = GameSetup<PlayerID>()
        (setup.tee, setup.start, setup.holes, setup.formats, setup.skins) = ("White", 10, 9, ["match", "skins"], "net")
        (setup.skinsValidation, setup.teams, setup.stake) = (true, [[player], [other]], 2.5)
        setup.playerTees = [(other, "Red")]
        return setup
    }

    @Test("every command reads back as written")
    func roundTrip() throws {
        let entry = try ScoreEntry(strokes: 5, putts: 2, penalties: 1, fairway: .left, greenInRegulation: false)
        let commands: [NodeCommand] = [
            .score(space: space, game: game, player: player, hole: 7, entry: entry),
            .score(space: space, game: game, player: player, hole: 1, entry: try ScoreEntry(strokes: 3)),
            .score(
                space: space, game: game, player: player, hole: 2, entry: try ScoreEntry(strokes: 4),
                seen: [OpID(device: PublicKey(unchecked: [UInt8](repeating: 5, count: 32)), seq: 9)]),
            .attest(space: space, game: game, player: player),
            .setFinished(space: space, game: game, finished: true),
            .setInRoster(space: space, game: game, player: player, inRoster: false),
            .addPlayer(space: space, name: "Ana"),
            .addPlayer(
                space: space, name: "Ben", user: PublicKey(unchecked: [UInt8](repeating: 6, count: 32)), handicapIndex: -1.5),
            .newGame(space: space, course: CourseID(unchecked: [UInt8](repeating: 4, count: 8)), tee: "White", players: [player]),
            .newGame(
                space: space, course: CourseID(unchecked: [UInt8](repeating: 4, count: 8)), tee: "White",
                players: [player, other], markers: [.init(player: player, marker: other), .init(player: other, marker: player)],
                setup: setup),
            .setup(space: space, game: game, setup: setup),
            .editPlayer(space: space, player: player, name: "Ann"),
            .editPlayer(space: space, player: player, handicapIndex: 12.5),
            .editPlayer(space: space, player: player, clearIndex: true),
            .setDeleted(space: space, game: game, deleted: true, force: true),
            .setDeleted(space: space, game: game, deleted: false),
            .setMarker(space: space, game: game, pair: .init(player: player, marker: other)),
            .revokeDevice(PublicKey(unchecked: [UInt8](repeating: 8, count: 32))),
            .revokeLostDevices,
            .mark(space: space, game: game, player: player, point: try GeoPoint(latitude: 36.56, longitude: -121.95), shot: true),
            .createInvite(space: space, uses: 3, seconds: 3600),
            .sharedKeyInvite(space: space),
            .revokeInvite("ab12"),
            .revokeInvite("ab12", space: space),
            .removeMember(space: space, member: "Ben"),
            .rotateKey(space: space),
            .importBundle(path: "/tmp/ben.bundle"),
            .sync(space: space, host: "192.168.1.20", port: 7400),
            .importCourses(
                space: space, courses: try CourseService.read(try #require(CourseService.sampleCourseFiles().first).data)),
        ]
        let device = PublicKey(unchecked: [UInt8](repeating: 7, count: 32))
        for command in commands {
            let decoded = try NodeCommand.decode(command.encoded(device: device))
            #expect(decoded.command == command && decoded.device == device)
        }
    }

    @Test("a request of another version is named as such: an older CLI's, or another version number")
    func otherVersions() throws {
        let space = SpaceID(unchecked: [UInt8](repeating: 3, count: 16))
        func refusal(_ bytes: [UInt8]) -> NodeError? {
            do {
                _ = try NodeCommand(decoding: bytes)
                return nil
            } catch { return error }
        }
        let older = refusal(Array(#"CMD1{"command":"import","path":"/tmp/round.bundle"}"#.utf8))
        #expect(
            older?.kind == .invalid && older?.description.contains("from an older caddie") == true, "\(String(describing: older))"
        )
        let next = refusal(Array(#"CMD2{"v":3,"command":{"rotateKey":{"space":"\#(space.hex)"}}}"#.utf8))
        #expect(next?.description.contains("of version 3, this node reads version 2") == true, "\(String(describing: next))")
        // The envelope as written: the version, the device, the command under its own name.
        let device = PublicKey(unchecked: [UInt8](repeating: 7, count: 32))
        let bytes = NodeCommand.rotateKey(space: space).encoded(device: device)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes.dropFirst(4))) as? [String: Any])
        #expect(Array(bytes.prefix(4)) == Array("CMD2".utf8))
        #expect(json["v"] as? Int == 2 && json["device"] as? String == device.hex)
        #expect((json["command"] as? [String: Any])?.keys.sorted() == ["rotateKey"])
    }

    @Test("a revocation of an invite from a CLI of the version before the space was named still reads, with no space")
    func revokeInviteBefore() throws {
        let device = PublicKey(unchecked: [UInt8](repeating: 7, count: 32))
        let bytes = Array(#"CMD2{"v":2,"device":"\#(device.hex)","command":{"revokeInvite":{"_0":"ab12"}}}"#.utf8)
        let decoded = try NodeCommand.decode(bytes)
        #expect(decoded.command == .revokeInvite("ab12") && decoded.device == device)
        let space = SpaceID(unchecked: [UInt8](repeating: 3, count: 16))
        let named = try NodeCommand.decode(NodeCommand.revokeInvite("ab12", space: space).encoded(device: device))
        #expect(named.command == .revokeInvite("ab12", space: space) && named.command != .revokeInvite("ab12"))
    }

    @Test("a damaged or unknown command is refused saying what was wrong, with the kind invalid")
    func badRequests() {
        func refusal(_ bytes: [UInt8]) -> NodeError? {
            do {
                _ = try NodeCommand(decoding: bytes)
                return nil
            } catch { return error }
        }
        func says(_ bytes: [UInt8], _ words: String) -> Bool {
            guard let error = refusal(bytes) else { return false }
            return error.kind == .invalid && error.description.contains(words)
        }
        #expect(says(Array("CTL1{}".utf8), "must start with CMD2"))
        #expect(says(Array("CMD2{not json".utf8), "does not read"))
        let ids = #""space":"\#(space.hex)","game":"\#(game.hex)""#
        #expect(says(Array(#"CMD2{"v":2,"command":{"deleteEverything":{\#(ids)}}}"#.utf8), "not a command this node runs"))
        #expect(
            says(
                Array(#"CMD2{"v":2,"command":{"score":{\#(ids),"hole":3,"entry":{"strokes":4}}}}"#.utf8),
                "'command.score.player' is missing"))
        let tooMany = #"CMD2{"v":2,"command":{"score":{\#(ids),"player":"\#(player.hex)","hole":3,"entry":{"strokes":99}}}}"#
        #expect(says(Array(tooMany.utf8), "strokes must be between 1 and 30"))
        let fairway =
            #"CMD2{"v":2,"command":{"score":{\#(ids),"player":"\#(player.hex)","hole":3,"entry":{"strokes":4,"fairway":"bunker"}}}}"#
        #expect(says(Array(fairway.utf8), "'fairway' must be hit, left or right, got 'bunker'"))
        let noDevice = #"CMD2{"v":2,"command":{"rotateKey":{"space":"\#(space.hex)"}}}"#
        #expect(throws: NodeError.self) { try NodeCommand.decode(Array(noDevice.utf8)) }
    }

    @Test("an error crosses the control socket with its kind and its words")
    func replies() throws {
        let conflict = NodeError.conflict("game 01010101 is finished", .reopen(game, then: .toScore))
        #expect {
            try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.failure(conflict)))
        } throws: { ($0 as? NodeError) == conflict }
        // Every part the CLI words crosses as a value: the input of a bad one, the remedy of a refusal.
        for error in [
            NodeError.badInput(.holes, "must be 9 or 18, got 7"), .notFound("no course 'x'", .list(.courses)),
            .refused(
                "only the committee",
                .committeeCorrects(
                    CompetitionID(unchecked: [UInt8](repeating: 3, count: 8)),
                    player: PlayerID(unchecked: [UInt8](repeating: 4, count: 8)), hole: 7)),
            .notLoggedIn(home: "/h"), .spaceAmbiguous(["A", "B"]), .malformed(what: "code", "is short"),
        ] {
            #expect(throws: error) { try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.failure(error))) }
        }
        // The store's error crosses as its one line, in its kind.
        #expect {
            try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.failure(.store(.diskFull("the disk is full")))))
        } throws: { ($0 as? NodeError)?.kind == .storage }
        // An older node's reply (a kind, then its line in the CLI's words) still reads.
        #expect(throws: NodeError.conflict("game 01010101 is finished: reopen it")) {
            try NodeCommandResult.result(
                fromReply: [1, NodeError.Kind.conflict.rawValue] + Array("game 01010101 is finished: reopen it".utf8))
        }
        #expect {
            try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.failure(.notFound("no game 'x'"))))
        } throws: { ($0 as? NodeError) == .notFound("no game 'x'") }
        let op = OpID(device: PublicKey(unchecked: [UInt8](repeating: 9, count: 32)), seq: 42)
        #expect(try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.success(.op(op)))) == .op(op))
        #expect(try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.success(.unchanged))) == .unchanged)
        #expect(try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.success(.player(player)))) == .player(player))
        #expect(try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.success(.game(game)))) == .game(game))
        #expect(throws: NodeError.self) { try NodeCommandResult.unchanged.startedGame() }
        #expect(try NodeCommandResult.result(fromReply: NodeCommandResult.reply(.success(.replayed(op)))) == .replayed(op))
        #expect(throws: NodeError.self) { try NodeCommandResult.result(fromReply: [7, 1, 2]) }
        // An older node's refusal (its text, no kind byte) keeps its whole text, and is known for what it is.
        let legacy = [UInt8(1)] + Array("the command's request was damaged: does not start with CTL1".utf8)
        #expect(Home.isLegacyRefusal(legacy))
        // A node of the version before a command was added refuses it by name, cannot read its fields, or lacks one
        // named since: the command then stops, asking for the node to be restarted with this version.
        #expect(Home.isLegacyRefusal([1, 0] + Array("'setup' is not a command this node runs: update caddie".utf8)))
        #expect(Home.isLegacyRefusal([1, 0] + Array("the command's JSON does not read: keyNotFound(game)".utf8)))
        #expect(Home.isLegacyRefusal([1, 4] + Array("the revoke command needs 'user'".utf8)))
        #expect(!Home.isLegacyRefusal([1, 3] + Array("game 01010101 is finished".utf8)))
        // A node whose commands were not yet data reads CMD1 only; one of a later version names its version.
        #expect(Home.isLegacyRefusal([1, 0] + Array("a command request must start with CMD1".utf8)))
        #expect(Home.isLegacyRefusal([1, 0] + Array("the command is of version 3, this node reads version 2: run".utf8)))
        #expect {
            try NodeCommandResult.result(fromReply: legacy)
        } throws: { ($0 as? NodeError)?.description.hasPrefix("the command's request") == true }
    }

    /// A real home in a temporary directory (a SQLite file, sealed keys), logged in as Ana, with one space.
    static func home() throws -> (URL, Home, SpaceID, UnlockedKeys) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-node-\(UUID().uuidString)")
        let home = try Home(path: directory.path)
        let passphrase = "correct horse battery staple"
        _ = try home.login(name: "Ana", passphrase: passphrase)
        _ = try home.spaces.createSpace(name: "Saturday", passphrase: passphrase)
        let space = try #require(try home.spaces.list().first).id
        return (directory, home, space, try home.unlock(passphrase: passphrase))
    }

    /// A nine-hole course with a Yellow tee, imported into `space`.
    static func nineHoles(_ home: Home, _ space: SpaceID, _ keys: UnlockedKeys) throws -> CourseID {
        let course = """
            {"name": "Nine", "source": "made up for a test", "asOf": "2026-11",
             "tees": [{"name": "Yellow", "rating": 35.0, "slope": 120, "par": 36}],
             "holes": [\((1...9).map { #"{"number": \#($0), "par": 4, "strokeIndex": \#($0)}"# }.joined(separator: ","))]}
            """
        return try #require(try home.courses.importCourses(space: space, keys: keys, data: Data(course.utf8)).first).id
    }

    @Test("run against a real home, each command gives its change; a finished game refuses with each edge's remedy")
    func executes() throws {
        let (directory, home, space, keys) = try Self.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let courseID = try Self.nineHoles(home, space, keys)
        let ana = try home.rounds.addPlayer(space: space, keys: keys, name: "Ana", user: nil, handicapIndex: 12)
        let ben = try home.rounds.addPlayer(space: space, keys: keys, name: "Ben", user: nil, handicapIndex: 20)
        let game = try home.rounds.newGame(space: space, keys: keys, course: courseID, tee: "Yellow", players: [ana])

        let scored = try home.execute(
            .score(space: space, game: game, player: ana, hole: 3, entry: try ScoreEntry(strokes: 5, putts: 2)), keys: keys)
        #expect(scored.op?.device == keys.device.publicKey)
        #expect(try home.rounds.card(space: space, game: game).cell(ana, 3)?.winner?.entry.strokes == 5)

        // Ben is not in the game: a conflict, whose remedy the CLI words as a command and the API as a request.
        #expect {
            try home.execute(
                .score(space: space, game: game, player: ben, hole: 3, entry: try ScoreEntry(strokes: 4)), keys: keys)
        } throws: { error in
            guard let error = error as? NodeError else { return false }
            return error.kind == .conflict && error.remedy == .addToGame(game, player: ben)
                && error.description.contains("is not playing in game") && !error.description.contains("caddie")
        }
        #expect(try home.execute(.setInRoster(space: space, game: game, player: ben, inRoster: true), keys: keys).op != nil)
        #expect(try home.rounds.card(space: space, game: game).players.map(\.id).contains(ben))

        #expect(try home.execute(.setFinished(space: space, game: game, finished: true), keys: keys).op != nil)
        #expect(try home.execute(.setFinished(space: space, game: game, finished: true), keys: keys) == .unchanged)
        let before = try home.rounds.card(space: space, game: game).cell(ana, 4)
        #expect {
            try home.execute(
                .score(space: space, game: game, player: ana, hole: 4, entry: try ScoreEntry(strokes: 4)), keys: keys)
        } throws: { error in
            guard let error = error as? NodeError else { return false }
            return error.kind == .conflict && error.remedy == .reopen(game, then: .toScore)
                && error.description == "game \(game.short) is finished"
        }
        #expect(try home.rounds.card(space: space, game: game).cell(ana, 4) == nil && before == nil)
        let attested = try home.execute(.attest(space: space, game: game, player: ana), keys: keys)
        guard case .attested(let op, let card) = attested else {
            Issue.record("attest gave \(attested)")
            return
        }
        let expected = RoundService.cardHash(try home.rounds.card(space: space, game: game), player: ana)
        #expect(op != nil)
        #expect(card == expected)
    }

    @Test(
        "a command's checks and its append are one unit of work: a commit that would land between them (the game finished) waits, so no score enters a finished game"
    )
    func checksAndAppendTogether() throws {
        // Another writer of this process (a peer's batch, a phone, another command).
        try Self.finishBetweenChecksAndAppend { home, _ in home }
    }

    @Test(
        "a command is one SQLite transaction: another process's commit that would land between its checks and its append (the game finished) waits for it"
    )
    func checksAndAppendOneTransaction() throws {
        // A second process on the same home (its own connections, its own locks: no lock of this process holds it), as
        // a command that writes the file itself does.
        try Self.finishBetweenChecksAndAppend { _, directory in try Home(path: directory.path) }
    }

    /// Scores hole 1 while, between the score's checks (the game is open) and its append, `finisher`'s home finishes
    /// the game: it starts then and is given 300 ms to commit. The score must commit first, and count.
    static func finishBetweenChecksAndAppend(_ finisher: (Home, URL) throws -> Home) throws {
        let (directory, home, space, keys) = try Self.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ana = try home.rounds.addPlayer(space: space, keys: keys, name: "Ana", user: nil, handicapIndex: 12)
        let game = try home.rounds.newGame(
            space: space, keys: keys, course: try Self.nineHoles(home, space, keys), tee: "Yellow", players: [ana])
        let other = try finisher(home, directory)
        let finished = Mutex<OpID?>(nil)
        home.afterChecks.withLock {
            $0 = {
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    let op = try? other.rounds.setFinished(space: space, keys: keys, game: game, finished: true)
                    finished.withLock { $0 = op ?? nil }
                    done.signal()
                }
                _ = done.wait(timeout: .now() + .milliseconds(300))
            }
        }
        let scored = try #require(
            try home.execute(
                .score(space: space, game: game, player: ana, hole: 1, entry: try ScoreEntry(strokes: 5)), keys: keys
            ).op)
        home.afterChecks.withLock { $0 = nil }
        var finish: OpID?
        for _ in 0..<200 where finish == nil {
            finish = finished.withLock { $0 }
            if finish == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let finishing = try #require(finish, "the game was finished")
        // Both are this device's ops: their seqs are the order they committed in. The score was checked against an
        // open game, so it must have committed first.
        #expect(
            scored.seq < finishing.seq, "the score (seq \(scored.seq)) committed after the game finished (seq \(finishing.seq))")
        #expect(try home.rounds.game(space, game).finished)
        #expect(try home.rounds.card(space: space, game: game).cell(ana, 1)?.winner?.entry.strokes == 5)
    }

    @Test("a unit of work that fails keeps nothing it wrote, and publishes no change")
    func unitOfWorkAllOrNothing() throws {
        let (directory, home, space, keys) = try Self.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try home.vector(space)
        let published = Published()
        let observation = home.observe { change in published.changes.withLock { $0.append(change) } }
        defer { home.stopObserving(observation) }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try home.unitOfWork {
                _ = try home.rounds.addPlayer(space: space, keys: keys, name: "Ana", user: nil, handicapIndex: 12)
                // The player is there inside the unit of work: its reads see its own writes.
                #expect(try home.rounds.players(space).map(\.name) == ["Ana"])
                throw Refused()
            }
        }
        #expect(try home.rounds.players(space).isEmpty)
        #expect(try home.vector(space) == before)
        #expect(published.take().isEmpty)
        // The same write in a unit of work that succeeds commits, and is published once.
        let ben = try home.unitOfWork {
            try home.rounds.addPlayer(space: space, keys: keys, name: "Ben", user: nil, handicapIndex: 20)
        }
        #expect(try home.rounds.players(space).map(\.id) == [ben])
        #expect(published.take().count == 1)
    }

    /// The changes a home's store published, in order.
    final class Published: Sendable {
        let changes = Mutex<[StoreChange]>([])
        /// What was published since the last call, emptied.
        func take() -> [StoreChange] {
            changes.withLock { all in
                defer { all = [] }
                return all
            }
        }
    }

    @Test("each command's commit is published once as the change it names; a refusal and a no-op publish nothing")
    func commandsGiveChanges() throws {
        let (directory, home, space, keys) = try Self.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try #require(try CourseService.sampleCourseFiles().first { $0.name == "haagsche.json" })
        _ = try home.courses.importCourses(space: space, keys: keys, data: file.data)
        let course = try #require(try home.courses.list(space).first)
        let ana = try home.rounds.addPlayer(space: space, keys: keys, name: "Ana", user: nil, handicapIndex: 12)
        let ben = try home.rounds.addPlayer(space: space, keys: keys, name: "Ben", user: nil, handicapIndex: 20)
        let game = try home.rounds.newGame(
            space: space, keys: keys, course: course.id, tee: try #require(course.tees.first).name, players: [ana])
        let published = Published()
        let observation = home.observe { change in published.changes.withLock { $0.append(change) } }
        defer { home.stopObserving(observation) }

        // A player and a game made by commands: a player names no game; a new game names its own.
        let cat = try home.execute(.addPlayer(space: space, name: "Cat", handicapIndex: 30), keys: keys).addedPlayer()
        #expect(try home.rounds.player(space, cat).handicapIndex == 30)
        var made = published.take()
        #expect(made.count == 1 && made.first?.spaces[space]?.games.isEmpty == true && made.first?.spaces[space]?.ops.count == 1)
        let second = try home.execute(
            .newGame(space: space, course: course.id, tee: try #require(course.tees.first).name, players: [cat, ben]), keys: keys
        ).startedGame()
        made = published.take()
        #expect(made.count == 1 && made.first?.spaces[space]?.games == [second])
        #expect(Set(try home.rounds.card(space: space, game: second).players.map(\.id)) == [cat, ben])
        #expect(throws: NodeError.self) { try home.execute(.addPlayer(space: space, name: "cat"), keys: keys) }
        #expect(published.take().isEmpty, "a refused player published a change")

        // A setup names its game; a player's correction names none; a correction to what already is signs nothing.
        var teams = GameSetup<PlayerID>()
        (teams.formats, teams.teams) = (["match"], [[cat], [ben]])
        #expect(try home.execute(.setup(space: space, game: second, setup: teams), keys: keys).op != nil)
        #expect(published.take().first?.spaces[space]?.games == [second])
        #expect(try home.rounds.game(space, second).formats == ["match"])
        #expect(try home.execute(.editPlayer(space: space, player: cat, handicapIndex: 28.5), keys: keys).op != nil)
        made = published.take()
        #expect(made.count == 1 && made.first?.spaces[space]?.games.isEmpty == true)
        #expect(try home.rounds.player(space, cat).handicapIndex == 28.5)
        #expect(try home.execute(.editPlayer(space: space, player: cat, handicapIndex: 28.5), keys: keys) == .unchanged)
        #expect(published.take().isEmpty)
        #expect(
            try home.execute(.setMarker(space: space, game: second, pair: .init(player: cat, marker: ben)), keys: keys).op != nil)
        #expect(published.take().first?.spaces[space]?.games == [second])
        #expect(try home.execute(.setDeleted(space: space, game: second, deleted: true), keys: keys).op != nil)
        #expect(published.take().first?.spaces[space]?.games == [second])
        #expect(throws: NodeError.self) { try home.execute(.setDeleted(space: space, game: second, deleted: true), keys: keys) }
        #expect(published.take().isEmpty, "a refused delete published a change")
        #expect(try home.execute(.setDeleted(space: space, game: second, deleted: false), keys: keys).op != nil)
        #expect(published.take().first?.spaces[space]?.games == [second])

        let scored = try #require(
            try home.execute(.score(space: space, game: game, player: ana, hole: 3, entry: ScoreEntry(strokes: 5)), keys: keys).op
        )
        var changes = published.take()
        #expect(changes.count == 1)
        #expect(changes.first?.spaces[space]?.ops == [scored])
        #expect(changes.first?.spaces[space]?.cells == [StoreChange.Cell(game: game, player: ana, hole: 3)])
        #expect(changes.first?.spaces[space]?.games.isEmpty == true)

        // A correction names the same cell again.
        _ = try home.execute(
            .score(space: space, game: game, player: ana, hole: 3, entry: try ScoreEntry(strokes: 4)), keys: keys)
        #expect(published.take().first?.spaces[space]?.cells == [StoreChange.Cell(game: game, player: ana, hole: 3)])

        _ = try home.execute(.setInRoster(space: space, game: game, player: ben, inRoster: true), keys: keys)
        changes = published.take()
        #expect(changes.count == 1 && changes.first?.spaces[space]?.games == [game])
        #expect(changes.first?.spaces[space]?.cells.isEmpty == true)

        _ = try home.execute(.setFinished(space: space, game: game, finished: true), keys: keys)
        #expect(published.take().first?.spaces[space]?.games == [game])
        #expect(try home.execute(.setFinished(space: space, game: game, finished: true), keys: keys) == .unchanged)
        #expect(published.take().isEmpty, "a command that signed nothing published a change")
        #expect(throws: NodeError.self) {
            try home.execute(
                .score(space: space, game: game, player: ana, hole: 4, entry: try ScoreEntry(strokes: 4)), keys: keys)
        }
        #expect(published.take().isEmpty, "a refused command published a change")

        _ = try home.execute(.setFinished(space: space, game: game, finished: false), keys: keys)
        _ = published.take()
        _ = try home.execute(.attest(space: space, game: game, player: ana), keys: keys)
        #expect(published.take().first?.spaces[space]?.games == [game])
    }
}
