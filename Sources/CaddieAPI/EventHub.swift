import CaddieCore
import CaddieNode
import Foundation
import Logging
import Synchronization

/// One live event: a type (`score`, `conflict`, `conflict-resolved`, `card`, `standings`, `peer-connected`,
/// `peer-lost`) and its JSON data, numbered in the order this node saw them.
public struct LiveEvent: Sendable {
    public let id: Int
    public let type: String
    public let data: JSON
    /// The event as a server-sent events record: written once, however many streams send it (a public board's
    /// event goes to every TV and phone that watches it).
    public let sse: String

    init(id: Int, type: String, data: JSON) {
        self.id = id
        self.type = type
        self.data = data
        sse = "id: \(id)\nevent: \(type)\ndata: \(data.text)\n\n"
    }
}

/// Fans changes of the merged state out to live subscribers. The store says what each commit changed, whoever
/// made it (an API call, a command through the control socket, ops merged from a peer; ``Home/observe(_:)``): the
/// hub reads what those cells show now and maps it to events (each new shown value, each conflict that appeared and
/// each conflict that was settled), keeping nothing of what it saw and comparing with nothing; then each changed
/// game's whole card (what an open page draws, so it need not ask for it) and, last, its standings. What it keeps is
/// for the public boards only (what each board's streams were last sent, so that a change sends the changed lines).
public final class EventHub: Sendable {
    /// How much one look read.
    struct LookStats: Equatable {
        /// Spaces whose every game's card was sent (their state worked out again).
        var wholeSpaces = 0
        /// Game records read.
        var gamesRead = 0
        /// Score cells read, each by its key.
        var cellsRead = 0
    }

    /// A competition's public board, as streams watch it.
    struct BoardKey: Hashable, Sendable {
        let space: SpaceID
        let competition: CompetitionID
    }

    /// A watched public board: what its streams were last sent, and what each group gave it (a group is read again
    /// only when its game changed).
    struct BoardMemory {
        var sent = Views.PublicBoardSent()
        var groups = BoardGroups()
    }

    /// A stream of one public board: it hears that board's events only.
    struct BoardWatcher {
        let key: BoardKey
        let continuation: AsyncStream<LiveEvent>.Continuation
        /// Not sent the board whole yet: the next look sends it, after any change it publishes.
        var welcomed = false
    }

    struct State {
        var nextEvent = 0
        var nextSubscriber = 0
        var subscribers: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
        var boardWatchers: [Int: BoardWatcher] = [:]
        /// What each watched public board's streams were last sent, and the groups it was read from.
        var boards: [BoardKey: BoardMemory] = [:]
        /// What the store reported since the last look.
        var pending = StoreChange()
        var observation: Int? = nil
        var lastLook = LookStats()
        var closed = false
    }

    let home: Home
    private let device: PublicKey?
    let logger: Logger
    let state = Mutex(State())
    let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    /// A hub over a home, whose own device's ops are reported as `local`.
    public init(home: Home, logger: Logger) {
        self.home = home
        device = try? home.identity().deviceKey
        self.logger = logger
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // A phone waiting for a phone of its user (or `caddie device approve`) to answer its code hears it here, not by
        // asking again and again: which device was answered (its own key, public already), never the certificate.
        home.deviceRequests.onApproval { [weak self] request in
            self?.publish(
                "device-request", .object([("space", .string(request.space.hex)), ("device", .string(request.device.hex))]))
        }
    }

    deinit { state.withLock { $0.observation }.map(home.stopObserving) }

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
        let (plain, board) = state.withLock { state in
            let board = state.boardWatchers.removeValue(forKey: id)
            if let key = board?.key, !state.boardWatchers.values.contains(where: { $0.key == key }) {
                state.boards[key] = nil
            }
            return (state.subscribers.removeValue(forKey: id), board)
        }
        plain?.finish()
        board?.continuation.finish()
    }

    /// How many clients are listening.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Ends every subscription (at shutdown, so that open streams do not hold the server up).
    public func close() {
        let (continuations, observation) = state.withLock { state in
            state.closed = true
            defer {
                state.subscribers = [:]
                state.observation = nil
            }
            defer { state.boardWatchers = [:] }
            return (Array(state.subscribers.values) + state.boardWatchers.values.map(\.continuation), state.observation)
        }
        observation.map(home.stopObserving)
        continuations.forEach { $0.finish() }
        wake.finish()
    }

    func publish(_ type: String, _ data: JSON) {
        let (id, continuations) = state.withLock { state in
            state.nextEvent += 1
            return (state.nextEvent, Array(state.subscribers.values))
        }
        // Written out of the lock: a board's event is tens of kilobytes.
        let event = LiveEvent(id: id, type: type, data: data)
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

    /// Starts taking the home's changes (once): each is kept for the next look, and wakes ``run()``.
    func start() {
        let started = state.withLock { $0.observation != nil || $0.closed }
        guard !started else { return }
        let id = home.observe { [weak self] change in
            guard let self else { return }
            state.withLock { $0.pending.merge(change) }
            wake.yield()
        }
        state.withLock { $0.observation = id }
    }

    /// Reports changes until the hub is closed: a look after each commit the store reports (on the blocking pool:
    /// a look reads SQLite). Nothing polls: an idle hub does not wake, and nothing is read before a change.
    public func run() async {
        start()
        for await _ in wakes {
            if state.withLock({ $0.closed }) { break }
            let started = ContinuousClock.now
            _ = try? await offload { [self] in look() }
            // Under a steady stream of commits (a clubhouse's phones), the changes that arrive during a look and
            // the rest of twice its time are read together at the next: looks take at most a third of a core, and
            // one look's work (the boards ranked, their changes sent) serves many commits. A quiet hub waits for
            // nothing: a look of a millisecond rests two.
            let rest = min((ContinuousClock.now - started) * 2, .milliseconds(250))
            if rest > .milliseconds(1) { try? await Task.sleep(for: rest) }
        }
    }

    /// Publishes what changed since the last look, from what the store said each commit changed, with nothing kept
    /// from an earlier look and nothing compared with it. Of each game a change names it reads the record and only
    /// the cells the change names, each by its key, and maps them to events: a cell whose shown value is an op of the
    /// change is `score`; one that is disputed with a value of the change standing, and was not disputed before it
    /// (its history says, read only then), is `conflict`; one that an op of the change settled is
    /// `conflict-resolved`. Then each such game's card (with its record) and standings. A space whose state was
    /// worked out again (a log cut back or split) sends every game's card, since any cell may have changed. With no
    /// live-event stream open, nothing but the public boards is read.
    func look() {
        let change = state.withLock { state in
            defer { state.pending = StoreChange() }
            return state.pending
        }
        var events: [(String, JSON)] = []
        var changedGames: [(SpaceID, GameID)] = []
        // The competitions whose public board may have changed (their record, or a group's cards or setup), and the
        // games each space's boards read again (nil: all of them).
        var boardsTouched = Set<BoardKey>()
        var gamesChanged: [SpaceID: Set<GameID>?] = [:]
        var stats = LookStats()
        let listening = subscriberCount > 0
        do {
            for (space, narrowed) in change.spaces.sorted(by: { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }) {
                let touched = narrowed.games.union(narrowed.cells.map(\.game))
                if !narrowed.records, !narrowed.whole {
                    boardsTouched.formUnion(narrowed.competitions.map { BoardKey(space: space, competition: $0) })
                    // Only cells changed: those games' groups are read again. A game's record, roster or attestations
                    // changed (a round finished changes its players' Handicap Index, so other groups' handicaps):
                    // every group.
                    gamesChanged[space] = narrowed.games.isEmpty ? touched : .some(nil)
                } else {
                    // Who counts changed, or a player's record changed (a name, an index): every board of the space
                    // again.
                    boardsTouched.formUnion(watchedBoards().filter { $0.space == space })
                    gamesChanged[space] = .some(nil)
                }
                // Any cell may show another value now: every game's card goes out (and every board is read again).
                let everyGame = narrowed.rebuilt
                // With no live-event stream open (a clubhouse whose phones only post, its TV watching the public
                // board), the games are read only for the boards their groups are on.
                let boardsHere = watchedBoards().contains { $0.space == space }
                guard listening || (!everyGame && boardsHere) else { continue }
                if everyGame { stats.wholeSpaces += 1 }
                if !everyGame, touched.isEmpty { continue }
                let games: [GameRecord]
                if everyGame {
                    games = try home.rounds.games(space)
                } else {
                    // The games the change names, each read by its id (a clubhouse's 40 groups are not all read again
                    // for one score); a game not found or deleted is not listed.
                    games = try touched.compactMap { id -> GameRecord? in
                        do { return try home.rounds.game(space, id) } catch let error as NodeError {
                            if case .notFound = error { return nil }
                            throw error
                        }
                    }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
                }
                let landed = Set(narrowed.ops)
                let cellsByGame = Dictionary(grouping: narrowed.cells, by: \.game)
                var players: [PlayerID: String]?
                for game in games {
                    stats.gamesRead += 1
                    if let competition = game.competition {
                        boardsTouched.insert(BoardKey(space: space, competition: competition))
                    }
                    guard listening else { continue }
                    let named = cellsByGame[game.id] ?? []
                    stats.cellsRead += named.count
                    if !named.isEmpty {
                        events += try cellEvents(
                            space: space, game: game.id, cells: named, landed: landed,
                            resolving: narrowed.resolving, players: &players)
                    }
                    // After its cells, record, roster or attestations changed: the game's card, as `GET .../card`
                    // gives it, so that an open page redraws from the event without asking; its standings once every
                    // card is out. Sent whenever the change named a cell, even one whose shown value did not move to
                    // an op of the change: a value a forked device signs is kept under its branch's slot, not its
                    // device, so no `score` event names it, and the card is what shows it.
                    guard everyGame || !named.isEmpty || narrowed.games.contains(game.id) else { continue }
                    if let card = cardEvent(space: space, game: game) { events.append(card) }
                    changedGames.append((space, game.id))
                }
                // A game named but not listed was deleted (or left its competition): a group may have left a board.
                if !everyGame, !touched.isSubset(of: Set(games.map(\.id))) || !narrowed.games.isEmpty {
                    boardsTouched.formUnion(watchedBoards().filter { $0.space == space })
                }
            }
        } catch {
            logger.warning("live events: cannot read the store", metadata: ["error": "\(error)"])
            // Taken again at the next look, in a second if nothing else comes first, rather than lose what this one
            // was to report.
            state.withLock { $0.pending.merge(change) }
            Task { [wake] in
                try? await Task.sleep(for: .seconds(1))
                wake.yield()
            }
            return
        }
        state.withLock { $0.lastLook = stats }
        for (type, data) in events { publish(type, data) }
        for (space, game) in changedGames {
            guard let standings = try? home.handicaps.standings(space: space, game: game),
                case .object(let fields) = Views.standings(standings)
            else { continue }
            publish("standings", .object([("space", .string(space.hex))] + fields))
        }
        lookAtBoards(boardsTouched, gamesChanged: gamesChanged)
    }

    /// The events of a game's cells that a change named (`cells`, with the ops it brought, `landed`): what each
    /// shows now, read by its key, mapped to `score`, `conflict` and `conflict-resolved` (as ``look()`` says).
    /// `players` is the space's player names, read at the first event.
    private func cellEvents(
        space: SpaceID, game: GameID, cells: [StoreChange.Cell], landed: Set<OpID>, resolving: Set<StoreChange.Cell>,
        players: inout [PlayerID: String]?
    ) throws -> [(String, JSON)] {
        var events: [(String, JSON)] = []
        for cell in try home.cells(space, game: game, only: cells) {
            guard let winner = cell.winner else { continue }
            let shownNew = landed.contains(winner.op)
            let joined = cell.values.contains { landed.contains($0.op) }
            let settling =
                !cell.isConflict && shownNew
                && resolving.contains(StoreChange.Cell(game: game, player: cell.player, hole: cell.hole))
            // Was the cell disputed before the change? Its history says (read only where it matters).
            let disputedBefore =
                (cell.isConflict && joined) || settling
                ? try Self.disputed(
                    before: landed,
                    history: home.audit.history(space: space, game: game, player: cell.player, hole: cell.hole))
                : false
            if players == nil { players = try home.rounds.playerNames(space) }
            let base: [(String, JSON)] = [
                ("space", .string(space.hex)), ("game", .string(game.hex)), ("player", .string(cell.player.hex)),
                ("name", .string(players?[cell.player] ?? cell.player.short)), ("hole", .int(cell.hole)),
            ]
            if shownNew {
                events.append(("score", .object(base + scoreFields(winner, space: space, conflict: cell.isConflict))))
            }
            if cell.isConflict, joined, !disputedBefore {
                events.append(("conflict", .object(base + [("values", .array(cell.values.map(Views.scoreValue)))])))
            } else if settling, disputedBefore {
                events.append(("conflict-resolved", .object(base + [("value", Views.scoreValue(winner))])))
            }
        }
        return events
    }

    /// A game's `card` event: its card as `GET .../card` gives it, and its record as `GET .../games/{game}` gives it
    /// (formats, hole choices), so that an open page draws the card and the hole's choices asking for nothing.
    private func cardEvent(space: SpaceID, game: GameRecord) -> (String, JSON)? {
        guard let card = try? home.rounds.card(space: space, game: game.id),
            let net = try? home.handicaps.playingHandicap(card: card, space: space, allowancePercent: 95)
        else { return nil }
        return (
            "card",
            .object([
                ("space", .string(space.hex)), ("game", .string(game.id.hex)), ("card", Views.card(card, net: net)),
                ("setup", Views.game(game)),
            ])
        )
    }

    /// A `score` event's fields of the value a cell shows: the entry, who entered it, and where its op came from
    /// (`local`: this node's device; `phone`: a phone this node hosts; `peer`: merged from another node).
    private func scoreFields(_ winner: ScoreValue, space: SpaceID, conflict: Bool) -> [(String, JSON)] {
        let origin =
            winner.op.device == device ? "local" : home.hosts(winner.op.device, in: space) ? "phone" : "peer"
        return [
            ("strokes", .optional(winner.entry.holed)), ("pickUp", .bool(winner.entry.pickedUp)),
            ("putts", .optional(winner.entry.putts)), ("penalties", .optional(winner.entry.penalties)),
            ("author", .string(winner.author)), ("op", .string(Views.opName(winner.op))), ("origin", .string(origin)),
            ("conflict", .bool(conflict)),
        ]
    }

    /// Whether a cell was disputed before the ops `landed` came: its values then were those not of `landed` that
    /// nothing but ops of `landed` supersedes, and they disagreed.
    static func disputed(before landed: Set<OpID>, history: [ScoreHistoryEntry]) -> Bool {
        let standing = history.filter { entry in
            !landed.contains(entry.value.op) && entry.supersededBy.allSatisfy(landed.contains)
        }
        return Set(standing.map(\.value.entry)).count > 1
    }

    /// Whether a change waits for the next look (for tests).
    var changePending: Bool { state.withLock { !$0.pending.isEmpty } }

    /// What the last look read: spaces whose every card was sent, game records and cells read (for tests and the log).
    var lastLook: LookStats { state.withLock { $0.lastLook } }
}
