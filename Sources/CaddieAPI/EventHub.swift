import CaddieCore
import CaddieNode
import CaddieStore
import CaddieSync
import Foundation
import Logging
import Synchronization

/// One live event: a type (`score`, `conflict`, `conflict-resolved`, `card`, `standings`, `peer-connected`,
/// `peer-lost`) and its JSON data, numbered in the order this node saw them.
public struct LiveEvent: Sendable {
    public let id: Int
    public let type: String
    public let data: JSON

    /// The event as a server-sent events record.
    public var sse: String { "id: \(id)\nevent: \(type)\ndata: \(data.text)\n\n" }
}

/// Fans changes of the merged state out to live subscribers. Whatever changed the store (an API call, a
/// `caddie` command in another process, ops merged from a peer), the hub reads the ops added since its last
/// look, compares the cells of the games they touch with what it last saw, and reports each new shown value,
/// each conflict that appeared and each conflict that was settled; then each changed game's whole card (what an
/// open page draws, so it need not ask for it) and, last, its standings.
public final class EventHub: Sendable {
    private struct CellState: Equatable {
        let winner: OpID?
        let conflict: Bool
    }

    /// What the hub saw at its last look: per game ("space/game"), each cell ("player/hole") and the game's
    /// record; per space, where it stood (``SpaceMark``).
    private struct Look {
        var cells: [String: [String: CellState]] = [:]
        var games: [String: GameRecord] = [:]
        var marks: [SpaceID: SpaceMark] = [:]
    }

    /// How much one look read.
    struct LookStats: Equatable {
        var wholeSpaces = 0
        var gamesRead = 0
    }

    private struct State {
        var nextEvent = 0
        var nextSubscriber = 0
        var subscribers: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
        var look: Look? = nil
        var lastLook = LookStats()
        var closed = false
    }

    private let home: Home
    private let device: PublicKey?
    private let logger: Logger
    private let state = Mutex(State())
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    /// A hub over a home, whose own device's ops are reported as `local`.
    public init(home: Home, logger: Logger) {
        self.home = home
        device = try? home.identity().deviceKey
        self.logger = logger
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// A stream of events from now on, and a number to end it with ``unsubscribe(_:)``.
    public func subscribe() -> (Int, AsyncStream<LiveEvent>) {
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return (0, stream)
        }
        return (id, stream)
    }

    /// Ends one subscription.
    public func unsubscribe(_ id: Int) {
        state.withLock { $0.subscribers.removeValue(forKey: id) }?.finish()
    }

    /// How many clients are listening.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Ends every subscription (at shutdown, so that open streams do not hold the server up).
    public func close() {
        let continuations = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        continuations.forEach { $0.finish() }
        wake.finish()
    }

    /// Says the store may have changed; the hub looks soon.
    public func nudge() { wake.yield() }

    func publish(_ type: String, _ data: JSON) {
        let (event, continuations) = state.withLock { state in
            state.nextEvent += 1
            return (LiveEvent(id: state.nextEvent, type: type, data: data), Array(state.subscribers.values))
        }
        continuations.forEach { $0.yield(event) }
    }

    /// A peer session opened or ended.
    public func peer(_ event: PeerEvent) {
        func json(_ session: LiveSession, reason: String?) -> JSON {
            var fields: [(String, JSON)] = [
                ("space", .string(session.space.hex)), ("device", .string(session.device.hex)),
                ("user", .string(session.user.hex)), ("address", .string(session.address)),
                ("foundBy", .string(session.foundBy)),
            ]
            if let reason { fields.append(("reason", .string(reason))) }
            return .object(fields)
        }
        switch event {
        case .connected(let session): publish("peer-connected", json(session, reason: nil))
        case .lost(let session, let reason): publish("peer-lost", json(session, reason: reason))
        }
    }

    /// Watches the store until the hub is closed: looks after every nudge (this process's writes and merged
    /// batches) and after every commit the kernel reports on the database file (other processes' writes).
    /// Nothing polls: an idle hub does not wake.
    public func run() async {
        let monitor = home.changeMonitor()
        var version = (try? monitor?.version()) ?? 0
        compare()
        let watch = try? monitor?.watch { [wake] in wake.yield() }
        defer { watch?.stop() }
        // Without a kernel watch (no inotify, or its limit reached), look every 0.2 s instead.
        let poll =
            watch == nil && monitor != nil
            ? Task { [wake] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(200))
                    wake.yield()
                }
            } : nil
        defer { poll?.cancel() }
        for await _ in wakes {
            let now = (try? monitor?.version()) ?? version
            if now != version || monitor == nil {
                version = now
                compare()
            }
            if state.withLock({ $0.closed }) { break }
        }
    }

    /// Looks at what changed since the last look and publishes the differences. The first look reads every
    /// score cell. After it, the home says which games the ops added to each space since the last look touch
    /// (``Home/changes(_:since:)``), and only those are read again; the cards of every other game are carried over
    /// unread. A space whose change cannot be narrowed that way (a device's log cut back by a revocation or a fork,
    /// a fork branch's new ops, a new member, a removal, more than ``Home/narrowingLimit`` new ops) is read whole.
    func compare() {
        let last = state.withLock { $0.look }
        var look = Look()
        var events: [(String, JSON)] = []
        var changedGames: [(SpaceID, GameID)] = []
        var stats = LookStats()
        do {
            for space in try home.spaces.list() {
                let (mark, touched) = try home.changes(space.id, since: last?.marks[space.id])
                look.marks[space.id] = mark
                if touched == nil { stats.wholeSpaces += 1 }
                var players: [PlayerID: String]?
                for game in try home.rounds.games(space.id) {
                    let gameKey = "\(space.id.hex)/\(game.id.hex)"
                    look.games[gameKey] = game
                    let before = last.map { $0.cells[gameKey] ?? [:] }
                    if let touched, !touched.contains(game.id), let before, last?.games[gameKey] == game {
                        look.cells[gameKey] = before
                        continue
                    }
                    stats.gamesRead += 1
                    if players == nil {
                        players = Dictionary(
                            try home.rounds.players(space.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                    }
                    let eventsBefore = events.count
                    var cells: [String: CellState] = [:]
                    for cell in try home.cells(space.id, game: game.id) {
                        let key = "\(cell.player.hex)/\(cell.hole)"
                        let now = CellState(winner: cell.winner?.op, conflict: cell.isConflict)
                        cells[key] = now
                        guard let before, before[key] != now else { continue }
                        let previous = before[key]
                        let base: [(String, JSON)] = [
                            ("space", .string(space.id.hex)), ("game", .string(game.id.hex)),
                            ("player", .string(cell.player.hex)), ("name", .string(players?[cell.player] ?? cell.player.short)),
                            ("hole", .int(cell.hole)),
                        ]
                        if let winner = cell.winner, previous?.winner != winner.op {
                            events.append(
                                (
                                    "score",
                                    .object(
                                        base + [
                                            ("strokes", .int(winner.entry.strokes)), ("putts", .optional(winner.entry.putts)),
                                            ("penalties", .optional(winner.entry.penalties)), ("author", .string(winner.author)),
                                            ("op", .string(Views.opName(winner.op))),
                                            ("origin", .string(winner.op.device == device ? "local" : "peer")),
                                            ("conflict", .bool(cell.isConflict)),
                                        ])
                                ))
                        }
                        if now.conflict, previous?.conflict != true {
                            events.append(("conflict", .object(base + [("values", .array(cell.values.map(Views.scoreValue)))])))
                        } else if !now.conflict, previous?.conflict == true, let winner = cell.winner {
                            events.append(("conflict-resolved", .object(base + [("value", Views.scoreValue(winner))])))
                        }
                    }
                    look.cells[gameKey] = cells
                    // After its scores or its setup changed (not on the first look): the game's card, as
                    // `GET .../card` gives it, so that an open page redraws from the event without asking; its
                    // standings once every card is out.
                    if last != nil, events.count > eventsBefore || last?.games[gameKey] != game {
                        if let card = try? home.rounds.card(space: space.id, game: game.id),
                            let net = try? home.handicaps.playingHandicap(card: card, space: space.id, allowancePercent: 95)
                        {
                            events.append(
                                (
                                    "card",
                                    .object([
                                        ("space", .string(space.id.hex)), ("game", .string(game.id.hex)),
                                        ("card", Views.card(card, net: net)),
                                    ])
                                ))
                        }
                        changedGames.append((space.id, game.id))
                    }
                }
            }
        } catch {
            logger.warning("live events: cannot read the store", metadata: ["error": "\(error)"])
            return
        }
        state.withLock {
            $0.look = look
            $0.lastLook = stats
        }
        for (type, data) in events { publish(type, data) }
        for (space, game) in changedGames {
            guard let standings = try? home.handicaps.standings(space: space, game: game),
                case .object(let fields) = Views.standings(standings)
            else { continue }
            publish("standings", .object([("space", .string(space.hex))] + fields))
        }
    }

    /// What the last look read: spaces read whole and games whose cards were read (for tests and the log).
    var lastLook: LookStats { state.withLock { $0.lastLook } }
}
