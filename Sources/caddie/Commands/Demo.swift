import ArgumentParser
import CaddieCodes
import CaddieCore
import CaddieNode
import CaddieServices
import Foundation
import Logging

/// `caddie demo`: a foursome round across four nodes, start to finish, as a newcomer would want to see it.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play a foursome round across four caddie nodes (four processes, four homes) and show the merged card.",
        discussion: """
            Four players log in on four homes. Ana creates the space, the others join with her invite, and the four \
            nodes sync the setup. Then the network goes away: each player scores their own card for eighteen \
            holes offline, and Ben, marking Dev, disagrees with him on the 7th. The nodes meet again and converge; the \
            demo prints the card with net and Stableford points, each playing handicap, the standings of the net \
            skins and the Nassau with the disputed hole shown as deciding a skin, a guidance callout, the conflict, \
            how Dev settles it, the settlement, and what the audit log says. Static peers on loopback by default; \
            with --lab (as root), four hosts in the network lab find each other over mDNS.
            """)
    @Flag(help: "Run the four nodes in the network lab (Deploy/lab.sh, needs root) and let them find each other over mDNS.")
    var lab = false
    @Flag(help: "Keep the four homes and leave their nodes running, Ana's with the web app, and print a sign-in link.")
    var keep = false
    @Option(help: "Seconds to wait for the nodes to converge before giving up.") var timeout = 60.0
    @Option(
        help: ArgumentHelp(
            "The formats to play, comma-separated (stroke play is always on): \(Games.registry.map(\.name).joined(separator: ", ")).",
            discussion: "Net skins and a Nassau by default. Sides are Ana & Cleo v Ben & Dev; the Wolf's partners and "
                + "Bingo Bango Bongo's points are entered for every hole."))
    var formats: String?
    @Flag(
        help: ArgumentHelp(
            "A club's Stableford instead: 48 entrants from a CSV, a shotgun draw, every card scored, the board with "
                + "its countback, the results and the close, on one clubhouse home (docs/competitions.md)."))
    var club = false

    static let names = ["Ana", "Ben", "Cleo", "Dev"]
    static let indexes = [12.4, 18.0, 7.6, 26.3]
    /// Each player's own card for the eighteen holes (Dev's 7th is the hole Ben disputes).
    static let scores = [
        [5, 4, 5, 3, 6, 4, 4, 3, 5, 5, 4, 3, 6, 4, 5, 3, 5, 5],
        [6, 5, 4, 4, 6, 5, 5, 3, 4, 5, 5, 4, 6, 5, 4, 4, 5, 6],
        [4, 4, 5, 3, 5, 4, 5, 3, 4, 4, 4, 3, 5, 5, 4, 3, 4, 5],
        [7, 4, 6, 3, 6, 5, 4, 4, 5, 6, 5, 4, 7, 5, 5, 4, 5, 6],
    ]
    static let passphrase = "demo passphrase"

    func run() async throws {
        if club {
            return try await guarded {
                let demo = try ClubDemo()
                defer { demo.finish(keep: keep) }
                try await demo.play()
            }
        }
        try await guarded {
            var chosen = ["stroke", "stableford", "skins", "nassau"]
            if let formats {
                chosen = ["stroke"]
                for raw in formats.split(separator: ",") {
                    let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
                    guard Games.Format(rawValue: name) != nil else {
                        throw NodeError.badInput(
                            .formats,
                            "names an unknown format '\(raw)': choose from \(Games.registry.map(\.name).joined(separator: ", "))")
                    }
                    if !chosen.contains(name) { chosen.append(name) }
                }
            }
            let demo = try DemoRun(lab: lab, timeout: timeout, formats: chosen)
            defer { demo.finish(keep: keep) }
            try await demo.play()
        }
    }
}

/// One run of the demo: four homes in a scratch folder, four `caddie serve` processes.
final class DemoRun {
    let lab: Bool
    let timeout: Double
    let formats: [String]
    let folder: URL
    let homes: [Home]
    var nodes: [Process] = []
    let executable: URL
    let labScript: URL?
    let started = Date()

    init(lab: Bool, timeout: Double, formats: [String]) throws {
        self.lab = lab
        self.timeout = timeout
        self.formats = formats
        executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if lab {
            guard getuid() == 0 else { throw NodeError.refused("--lab needs root: it creates network namespaces") }
            labScript = Self.findLabScript(from: executable)
            guard labScript != nil else {
                throw NodeError.file("--lab needs Deploy/lab.sh: run caddie demo from the Caddie checkout")
            }
        } else {
            labScript = nil
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-demo-\(UUID().uuidString.prefix(8))")
        let base = folder
        homes = try Demo.names.map { try Home(path: base.appendingPathComponent($0).path) }
    }

    static func findLabScript(from executable: URL) -> URL? {
        var directory = executable.deletingLastPathComponent()
        let candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Deploy/lab.sh").path) {
                return directory.appendingPathComponent("Deploy/lab.sh")
            }
            directory = directory.deletingLastPathComponent()
        }
        return candidates.map { $0.appendingPathComponent("Deploy/lab.sh") }.first {
            FileManager.default.fileExists(atPath: $0.path)
        }
    }

    func say(_ text: String) { Console.print(text) }

    func play() async throws {
        let (space, game, course) = try await setUp()
        try startNodes()
        say("   the setup reached all four devices in \(seconds(try waitConverged(space)))")
        stopNodes()

        try scoreOffline(space: space, game: game)

        say("\n== Back in range at the clubhouse: the nodes meet" + (lab ? " (found over mDNS in the network lab)" : ""))
        let meet = Date()
        try startNodes()
        _ = try waitConverged(space)
        let converged = Date().timeIntervalSince(meet)
        say(
            "   converged: all four devices hold state \(try homes[0].stateHash(space).short) "
                + "\(seconds(converged)) after the nodes started")

        let card = try homes[0].rounds.card(space: space, game: game)
        let net = try homes[0].handicaps.playingHandicap(card: card, space: space, allowancePercent: 95)
        say("\n== The merged card (Ana's device), net and Stableford at 95% of course handicap")
        say(CardText.render(card, net: net))
        say("\n== Playing handicaps (index, course handicap, 95% allowance)")
        for player in card.players {
            guard let handicap = net[player.id] else { continue }
            say(
                "   \(player.name.padding(toLength: 5, withPad: " ", startingAt: 0)) index \(handicap.indexUsed)  "
                    + "course \(handicap.courseHandicap)  playing \(handicap.playingHandicap)  "
                    + "net \(handicap.netTotal)  \(handicap.pointsTotal) points")
        }

        let open = try homes[0].handicaps.standings(space: space, game: game)
        say(
            "\n== Standings (Ana's device): "
                + open.formats.map { $0.definition.title }.joined(separator: ", ") + ", 1.00 a unit")
        say(StandingsText.render(open))

        try guidance(space: space, course: course)

        let dev = try homes[3].rounds.resolvePlayer(space, "Dev")
        guard let disputed = card.cell(dev.id, 7), disputed.isConflict else {
            throw NodeError.conflict("the demo expected a conflict on Dev's 7th and found none")
        }
        say(
            "\n== The conflict: Dev's 7th holds "
                + disputed.values.map { "\($0.entry.words) by \($0.author)" }
                .joined(separator: " and ") + ", entered concurrently")
        say("   Dev and Ben agree on 5; Dev enters it on his device, which supersedes both values")
        // Dev's node is running: it signs the score with its own keys (a command, as `caddie score` sends it).
        _ = try await homes[3].run(.score(space: space, game: game, player: dev.id, hole: 7, entry: try ScoreEntry(strokes: 5))) {
            try homes[3].unlock(passphrase: Demo.passphrase)
        }
        let settled = Date()
        _ = try waitConverged(space)
        say("   every device has the settled value \(seconds(Date().timeIntervalSince(settled))) later")
        let after = try homes[1].rounds.card(space: space, game: game)
        guard let cell = after.cell(dev.id, 7), !cell.isConflict, cell.winner?.entry.strokes == 5 else {
            throw NodeError.conflict("the demo expected Dev's 7th to be settled at 5 on Ben's device")
        }

        let final = try homes[1].handicaps.standings(space: space, game: game)
        say("\n== Settled: the standings on Ben's device now")
        say(StandingsText.render(final))

        try auditAndSummary(space: space, game: game, dev: dev.id, converged: converged)
        say("demo: converged, all four homes hold the same state")
    }

    /// Out of range: each device scores its player's eighteen holes, Ana's device enters the holes' choices, and Ben
    /// enters a value for Dev's 7th that Dev's own card disagrees with.
    func scoreOffline(space: SpaceID, game: GameID) throws {
        say("\n== On the course, out of range: each player scores their own card for eighteen holes")
        for (index, home) in homes.enumerated() {
            let keys = try home.unlock(passphrase: Demo.passphrase)
            let player = try home.rounds.resolvePlayer(space, Demo.names[index]).id
            for (offset, strokes) in Demo.scores[index].enumerated() {
                _ = try home.execute(
                    .score(
                        space: space, game: game, player: player, hole: offset + 1,
                        entry: try ScoreEntry(strokes: strokes, putts: nil, penalties: nil)),
                    keys: keys)
            }
            say("   \(Demo.names[index]): " + Demo.scores[index].map(String.init).joined(separator: " "))
        }
        try enterHoleChoices(space: space, game: game)
        say("   Ben, marking Dev, writes 6 on the 7th; Dev's own card says 4. Nobody can see the clash yet.")
        _ = try homes[1].execute(
            .score(
                space: space, game: game, player: try homes[1].rounds.resolvePlayer(space, "Dev").id, hole: 7,
                entry: try ScoreEntry(strokes: 6, putts: nil, penalties: nil)),
            keys: try homes[1].unlock(passphrase: Demo.passphrase))
        let distinct = Set(try homes.map { try $0.stateHash(space) }).count
        say("   four devices, \(distinct) different states")

    }

    /// What Cleo's device's audit says of Dev's 7th, every home's signatures checked, and the run in numbers.
    func auditAndSummary(space: SpaceID, game: GameID, dev: PlayerID, converged: TimeInterval) throws {
        say("\n== What the audit log says about Dev's 7th (as Cleo's device sees it)")
        let audit = Dictionary(
            try homes[2].audit.auditLog(space: space, game: game).map { ($0.op, $0) },
            uniquingKeysWith: { first, _ in first })
        for entry in try homes[2].audit.history(space: space, game: game, player: dev, hole: 7) {
            let state =
                entry.supersededBy.isEmpty
                ? "standing" : "replaced by " + entry.supersededBy.map(\.description).joined(separator: ", ")
            let check = audit[entry.value.op].map { $0.verified ? "signature ok" : "SIGNATURE BAD" } ?? "not in log"
            say(
                "   \(Views.time(entry.value.hlc))  \(entry.value.entry.words) by \(entry.value.author) "
                    + "on device \(entry.value.op.device.short) (op \(entry.value.op), \(check)) — \(state)")
        }

        var checked = 0
        for home in homes {
            let result = try home.audit.verify(space: space, keys: try home.unlock(passphrase: Demo.passphrase))
            guard result.failures.isEmpty else {
                throw NodeError.conflict("verify failed on a demo home: \(result.failures)")
            }
            checked += result.checked
        }
        say("\n== Summary")
        say("   four nodes, \(try homes[0].opCount(space)) ops each, \(checked) signatures verified across the four homes")
        say(
            "   converged after the round in \(seconds(converged)); conflict shown and settled; total run \(seconds(Date().timeIntervalSince(started)))"
        )
    }

    func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    /// Logins, the space, the players, the course and the game, all on Ana's device; the others join.
    func setUp() async throws -> (SpaceID, GameID, CourseRecord) {
        say("== Four players log in on four devices (homes under \(folder.path))")
        for (home, name) in zip(homes, Demo.names) {
            let identity = try home.login(name: name, passphrase: Demo.passphrase)
            say("   \(name): user \(identity.user.prefix(12))…, device \(identity.device.prefix(12))…")
        }
        say("== Ana creates the space and an invite for three devices; the others redeem it at her device")
        let space = try homes[0].spaces.createSpace(name: "Saturday foursome", passphrase: Demo.passphrase).space
        let keys = try homes[0].unlock(passphrase: Demo.passphrase)
        let ticket = try InviteTicket(
            parsing: try homes[0].execute(.createInvite(space: space, uses: 3, seconds: 3600), keys: keys).madeInvite())
        var logger = makeLogger("caddie.demo")
        logger.logLevel = .warning
        let anaNode = try homes[0].runtime(keys: keys, logger: logger)
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let serving = Task { try await anaNode.serve(host: "127.0.0.1", port: 0, peers: []) { listening.yield($0) } }
        defer { serving.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw NodeError.unreachable("Ana's node did not start") }
        for (home, name) in zip(homes, Demo.names).dropFirst() {
            let joined = try await home.spaces.join(
                ticket: ticket, at: try HostPort(parsing: "127.0.0.1:\(port)"),
                keys: try home.unlock(passphrase: Demo.passphrase), logger: logger)
            say("   \(name) joined \(joined.name), invited by \(joined.invitedBy ?? "?")")
        }
        serving.cancel()
        _ = try? await serving.value
        let used = try homes[0].spaces.invites(space: space).first { $0.id == ticket.id }
        say("   Ana's invite \(ticket.id.short): \(used?.used ?? 0) of 3 uses taken; a fourth device would be refused")
        say("== Ana adds the players (with their Handicap Index), the course and the game")
        var players: [PlayerID] = []
        for (name, index) in zip(Demo.names, Demo.indexes) {
            players.append(
                try homes[0].execute(.addPlayer(space: space, name: name, handicapIndex: index), keys: keys).addedPlayer())
        }
        let imported = try homes[0].execute(
            .importCourses(space: space, courses: try CourseService.read(Data(Self.demoCourse.utf8))), keys: keys
        ).importedCourses()
        let course = try homes[0].courses.course(space, imported[0].id)
        var setup = GameSetup<PlayerID>()
        setup.formats = formats
        let played = formats.compactMap(Games.Format.init(rawValue:))
        if played.contains(where: { $0.definition.sides != nil }) {
            setup.teams = [[players[0], players[2]], [players[1], players[3]]]
        }
        setup.stake = 1
        let game = try homes[0].execute(
            .newGame(space: space, course: course.id, tee: "Yellow", players: players, setup: setup), keys: keys
        ).startedGame()
        let titles = played.map { $0.definition.title }.joined(separator: ", ")
        say(
            "   course \(course.name), 18 holes, par 72; game \(game.short) from the yellow tee: \(titles)"
                + (setup.teams == nil ? "" : " (Ana & Cleo v Ben & Dev)") + ", 1.00 a unit")
        return (space, game, course)
    }

    /// The choices a format asks for on each hole, entered on Ana's device during the round: the Wolf takes the
    /// next player as partner and goes alone on every sixth hole; Bingo Bango Bongo's points go by the scores (the
    /// lowest score first on the green and first in, the next closest to the pin).
    func enterHoleChoices(space: SpaceID, game: GameID) throws {
        let kinds = formats.compactMap(Games.Format.init(rawValue:)).flatMap { $0.definition.entries.map(\.key) }
        guard !kinds.isEmpty else { return }
        var setup = GameSetup<PlayerID>()
        let ids = try Demo.names.map { try homes[0].rounds.resolvePlayer(space, $0).id }
        for hole in 1...18 {
            let position = hole - 1
            if kinds.contains("wolf") {
                let wolf = WolfFormat.wolf(position: position, players: ids.count)
                setup.entries.append(
                    HoleEntryChange(
                        hole: hole, key: "wolf", player: hole % 6 == 0 ? nil : ids[(wolf + 1 + position % 3) % ids.count],
                        lone: hole % 6 == 0))
            }
            if kinds.contains("bingo") {
                let order = ids.indices.sorted { (Demo.scores[$0][position], $0) < (Demo.scores[$1][position], $1) }
                for (key, rank) in [("bingo", 0), ("bango", 1), ("bongo", 0)] {
                    setup.entries.append(HoleEntryChange(hole: hole, key: key, player: ids[order[rank]]))
                }
            }
        }
        _ = try homes[0].execute(
            .setup(space: space, game: game, setup: setup), keys: try homes[0].unlock(passphrase: Demo.passphrase))
        say("   Ana enters each hole's " + kinds.joined(separator: ", ") + " on her device")
    }

    /// One callout: Ana on the 1st tee, facing up the fairway.
    func guidance(space: SpaceID, course: CourseRecord) throws {
        let goal = try homes[0].guidance.holeTarget(course: course, hole: 1, target: nil)
        guard let tee = course.holes.first(where: { $0.number == 1 })?.teePositions.first else { return }
        let position = try GeoPoint(latitude: tee.latitude, longitude: tee.longitude)
        let bearing = Geodesy.initialBearing(from: position, to: goal.target.point)
        let guidance = Guidance(
            from: GuidanceInput(
                position: position,
                heading: try HeadingReading(
                    degrees: (bearing + 20).truncatingRemainder(dividingBy: 360),
                    source: .compass)),
            to: goal.target, settings: GuidanceSettings(unit: .yards, competitionMode: false))
        say("\n== Guidance: Ana on the 1st tee, phone pointing a little right of the flag")
        say("   \"\(guidance.callout)\"")
    }

    /// A made-up eighteen-hole course laid out on the sea at 0°N 0°E, so that no real club is misdescribed.
    static let demoCourse: String = {
        let pars = [4, 5, 3, 4, 4, 3, 4, 5, 4, 4, 4, 3, 5, 4, 4, 3, 4, 5]
        let strokeIndexes = [5, 1, 17, 9, 3, 15, 7, 11, 13, 6, 2, 18, 10, 4, 16, 8, 12, 14]
        let yards = [362, 498, 164, 388, 405, 142, 351, 512, 376, 371, 402, 171, 521, 390, 344, 155, 366, 503]
        var holes: [String] = []
        var latitude = 0.001
        var longitude = 0.001
        for (index, par) in pars.enumerated() {
            let metres = Double(yards[index]) * 0.9144
            // Holes zig-zag north: odd holes run north-east, even ones north-west.
            let angle = (index % 2 == 0 ? 30.0 : -30.0) * Double.pi / 180
            let greenLatitude = latitude + metres * cos(angle) / 111_320
            let greenLongitude = longitude + metres * sin(angle) / 111_320
            holes.append(
                """
                {"number": \(index + 1), "par": \(par), "strokeIndex": \(strokeIndexes[index]), "yards": {"Yellow": \(yards[index])},
                 "teePositions": [{"lat": \(latitude), "lon": \(longitude)}],
                 "green": {"centre": {"lat": \(greenLatitude), "lon": \(greenLongitude)}}}
                """)
            latitude = greenLatitude + 0.0003
            longitude = greenLongitude
        }
        return """
            {"name": "Caddie Demo Links", "city": "Null Island", "country": "ZZ",
             "source": "Made up for caddie demo: a fictional course, not a real club", "asOf": "2026-11",
             "tees": [{"name": "Yellow", "rating": 70.9, "slope": 128, "par": 72}],
             "holes": [\(holes.joined(separator: ",\n"))]}
            """
    }()
}
