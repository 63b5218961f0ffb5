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
/// hub reads the changed cells of the games concerned, compares them with what it last saw, and reports each new
/// shown value, each conflict that appeared and each conflict that was settled; then each changed game's whole
/// card (what an open page draws, so it need not ask for it) and, last, its standings.
public final class EventHub: Sendable {
    private struct CellState: Equatable {
        let winner: OpID?
        let conflict: Bool
    }

    /// What the hub saw at its last look: per game ("space/game"), each cell ("player/hole") and the game's
    /// record.
    private struct Memory {
        var cells: [String: [String: CellState]] = [:]
        var games: [String: GameRecord] = [:]
    }

    /// How much one look read.
    struct LookStats: Equatable {
        var wholeSpaces = 0
        var gamesRead = 0
    }

    /// A competition's public board, as streams watch it.
    struct BoardKey: Hashable, Sendable {
        let space: SpaceID
        let competition: CompetitionID
    }

    /// A watched public board: what its streams were last sent, and what each group gave it (a group is read again
    /// only when its game changed).
    private struct BoardMemory {
        var sent = Views.PublicBoardSent()
        var groups = BoardGroups()
    }

    /// A stream of one public board: it hears that board's events only.
    private struct BoardWatcher {
        let key: BoardKey
        let continuation: AsyncStream<LiveEvent>.Continuation
        /// Not sent the board whole yet: the next look sends it, after any change it publishes.
        var welcomed = false
    }

    private struct State {
        var nextEvent = 0
        var nextSubscriber = 0
        var subscribers: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
        var boardWatchers: [Int: BoardWatcher] = [:]
        /// What each watched public board's streams were last sent, and the groups it was read from.
        var boards: [BoardKey: BoardMemory] = [:]
        var memory: Memory? = nil
        /// What the store reported since the last look.
        var pending = StoreChange()
        var observation: Int? = nil
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

    /// A stream of one competition's public board (`board` events, ``Views/boardEvent(space:competition:head:lines:removed:whole:)``):
    /// the board whole first, then what changed at each commit that touched it; a `board-closed` event, and the end,
    /// when the committee makes it private. Boards are computed only while a stream watches them.
    /// A hub that is closed, or holds ``maxBoardWatchers`` streams already, gives a stream that has ended.
    public func watchBoard(space: SpaceID, competition: CompetitionID) -> (Int, AsyncStream<LiveEvent>) {
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = state.withLock { state -> Int? in
            // Streams anyone may open without signing in hold a connection each: there are only so many.
            guard !state.closed, state.boardWatchers.count < Self.maxBoardWatchers else { return nil }
            state.nextSubscriber += 1
            state.boardWatchers[state.nextSubscriber] = BoardWatcher(
                key: BoardKey(space: space, competition: competition), continuation: continuation)
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return (0, stream)
        }
        // The hub's own task sends the board whole, in order with the changes it publishes.
        wake.yield()
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

    /// How many public board streams are open.
    public var boardWatcherCount: Int { state.withLock { $0.boardWatchers.count } }

    /// The most public board streams open at once (a clubhouse's TVs and spectators; each holds a connection).
    public static let maxBoardWatchers = 160

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

    /// Reports changes until the hub is closed: a first look at everything, then a look after each commit the
    /// store reports. Nothing polls: an idle hub does not wake.
    public func run() async {
        start()
        // Each look reads SQLite: on the blocking pool, not on a thread the node's other tasks share.
        _ = try? await offload { [self] in look() }
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

    /// Publishes what changed since the last look. The first look reads every game and reports nothing. After it,
    /// the hub reads only what the store said changed: in each space, the games whose cells, record, roster or
    /// attestations changed, and of those games' cells it compares only the changed ones with what it last saw. A
    /// space whose change cannot be narrowed so (a join, a revocation, a removal, a new key, a rebuilt state), and
    /// every space after another process's commit, are read whole and every cell compared.
    func look() {
        let (memory, change) = state.withLock { state in
            defer { state.pending = StoreChange() }
            return (state.memory, state.pending)
        }
        var next = memory ?? Memory()
        var events: [(String, JSON)] = []
        var changedGames: [(SpaceID, GameID)] = []
        // The competitions whose public board may have changed (their record, or a group's cards or setup), and the
        // games each space's boards read again (nil: all of them).
        var boardsTouched = Set<BoardKey>()
        var gamesChanged: [SpaceID: Set<GameID>?] = [:]
        var stats = LookStats()
        // With no live-event stream open (a clubhouse whose phones only post, its TV watching the public board), no
        // card or standings is worked out for anyone: the cells are still compared, so the memory stays right.
        let listening = subscriberCount > 0
        do {
            for space in try home.spaces.named() {
                let narrowed: StoreChange.Space?
                if memory == nil || change.external {
                    narrowed = nil
                } else if let spaceChange = change.spaces[space.id] {
                    narrowed = spaceChange.whole ? nil : spaceChange
                } else {
                    continue  // nothing changed in this space
                }
                if narrowed == nil { stats.wholeSpaces += 1 }
                let touched = narrowed.map { $0.games.union($0.cells.map(\.game)) }
                if let narrowed, !narrowed.records, let touched {
                    boardsTouched.formUnion(narrowed.competitions.map { BoardKey(space: space.id, competition: $0) })
                    // Only cells changed: those games' groups are read again. A game's record, roster or attestations
                    // changed (a round finished changes its players' Handicap Index, so other groups' handicaps):
                    // every group.
                    gamesChanged[space.id] = narrowed.games.isEmpty ? touched : .some(nil)
                } else {
                    // Read whole, or a player's record changed (a name, an index): every board of the space again.
                    boardsTouched.formUnion(watchedBoards().filter { $0.space == space.id })
                    gamesChanged[space.id] = .some(nil)
                }
                if let touched, touched.isEmpty { continue }
                var players: [PlayerID: String]?
                var seen = Set<GameID>()
                // The games the change names, each read by its id (a clubhouse's 40 groups are not all read again for
                // one score); a game not found or deleted is not listed. Read whole: every game.
                let games: [GameRecord]
                if let touched {
                    games = try touched.compactMap { id -> GameRecord? in
                        do { return try home.rounds.game(space.id, id) } catch let error as NodeError {
                            if case .notFound = error { return nil }
                            throw error
                        }
                    }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
                } else {
                    games = try home.rounds.games(space.id)
                }
                for game in games {
                    seen.insert(game.id)
                    let gameKey = "\(space.id.hex)/\(game.id.hex)"
                    next.games[gameKey] = game
                    stats.gamesRead += 1
                    if players == nil { players = try home.rounds.playerNames(space.id) }
                    let eventsBefore = events.count
                    // Read whole, the game's cells are compared all and kept afresh (a cut log can take a cell
                    // away); so are those of a game the hub did not know or whose record changed (its scores may
                    // have come before it, or while it was deleted). Otherwise only the changed cells are compared,
                    // over what the hub kept.
                    let readAll =
                        narrowed == nil || memory?.games[gameKey] == nil || narrowed?.games.contains(game.id) == true
                    var cells = readAll ? [:] : memory?.cells[gameKey] ?? [:]
                    let before = memory.map { $0.cells[gameKey] ?? [:] }
                    for cell in try home.cells(space.id, game: game.id) {
                        if !readAll, let narrowed,
                            !narrowed.cells.contains(StoreChange.Cell(game: game.id, player: cell.player, hole: cell.hole))
                        {
                            continue
                        }
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
                                            ("strokes", .optional(winner.entry.holed)),
                                            ("pickUp", .bool(winner.entry.pickedUp)), ("putts", .optional(winner.entry.putts)),
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
                    next.cells[gameKey] = cells
                    // After its scores, record, roster or attestations changed (not on the first look): the game's
                    // card, as `GET .../card` gives it, so that an open page redraws from the event without asking;
                    // its standings once every card is out.
                    let setupChanged = memory?.games[gameKey] != game || narrowed?.games.contains(game.id) == true
                    if memory != nil, events.count > eventsBefore || setupChanged {
                        if listening, let card = try? home.rounds.card(space: space.id, game: game.id),
                            let net = try? home.handicaps.playingHandicap(card: card, space: space.id, allowancePercent: 95)
                        {
                            events.append(
                                (
                                    "card",
                                    .object([
                                        ("space", .string(space.id.hex)), ("game", .string(game.id.hex)),
                                        ("card", Views.card(card, net: net)),
                                        // The game's record as `GET .../games/{game}` gives it (formats, hole
                                        // choices): the page draws the hole's choices from it, asking for nothing.
                                        ("setup", Views.game(game)),
                                    ])
                                ))
                        }
                        changedGames.append((space.id, game.id))
                        for competition in [game.competition, memory?.games[gameKey]?.competition].compactMap({ $0 }) {
                            boardsTouched.insert(BoardKey(space: space.id, competition: competition))
                        }
                    }
                }
                // A game named but not listed was deleted: a group may have left a board.
                if let touched, !touched.isSubset(of: seen) {
                    boardsTouched.formUnion(watchedBoards().filter { $0.space == space.id })
                }
            }
        } catch {
            logger.warning("live events: cannot read the store", metadata: ["error": "\(error)"])
            // Read it all again at the next look, in a second if nothing else comes first, rather than lose what this
            // one was to report.
            state.withLock { $0.pending.merge(StoreChange(external: true)) }
            Task { [wake] in
                try? await Task.sleep(for: .seconds(1))
                wake.yield()
            }
            return
        }
        state.withLock {
            $0.memory = next
            $0.lastLook = stats
        }
        for (type, data) in events { publish(type, data) }
        for (space, game) in changedGames where listening {
            guard let standings = try? home.handicaps.standings(space: space, game: game),
                case .object(let fields) = Views.standings(standings)
            else { continue }
            publish("standings", .object([("space", .string(space.hex))] + fields))
        }
        lookAtBoards(boardsTouched, gamesChanged: gamesChanged)
    }

    /// The public boards some stream watches.
    private func watchedBoards() -> Set<BoardKey> { state.withLock { Set($0.boardWatchers.values.map(\.key)) } }

    /// Sends each watched public board's changes, among those touched, to its streams (only the head if it changed,
    /// and the lines that changed), then the board whole to each stream that has not had it yet.
    private func lookAtBoards(_ touched: Set<BoardKey>, gamesChanged: [SpaceID: Set<GameID>?] = [:]) {
        let (watched, unwelcomed) = state.withLock { state in
            (
                Set(state.boardWatchers.values.map(\.key)),
                Set(state.boardWatchers.values.filter { !$0.welcomed }.map(\.key))
            )
        }
        for key in watched where touched.contains(key) || unwelcomed.contains(key) {
            // Only this task changes a board's memory (``unsubscribe`` may drop it meanwhile: then it starts afresh).
            var memory = state.withLock { $0.boards[key] } ?? BoardMemory()
            switch gamesChanged[key.space] {
            case .some(.some(let games)): memory.groups.forget(games)
            case .some(.none): memory.groups.forgetAll()
            case .none: break
            }
            let board: CompetitionBoard
            do {
                board = try home.competitions.board(
                    space: key.space, competition: key.competition, publicView: true, kept: &memory.groups)
            } catch {
                // Another failure (the store busy, a record this version cannot read) keeps the streams: the next
                // change tries again.
                guard case .notFound = error else {
                    logger.warning("public board: cannot read it", metadata: ["error": "\(error)"])
                    continue
                }
                // No longer public (or gone): its streams hear so and end.
                let ended = state.withLock { state in
                    state.boards[key] = nil
                    let ids = state.boardWatchers.filter { $0.value.key == key }.map(\.key)
                    return ids.compactMap { state.boardWatchers.removeValue(forKey: $0)?.continuation }
                }
                let event = nextEvent(
                    "board-closed",
                    .object([("space", .string(key.space.hex)), ("competition", .string(key.competition.hex))]))
                for continuation in ended {
                    continuation.yield(event)
                    continuation.finish()
                }
                continue
            }
            let change = memory.sent.take(board, space: key.space)
            let (told, welcome) = state.withLock {
                state -> ([AsyncStream<LiveEvent>.Continuation], [AsyncStream<LiveEvent>.Continuation]) in
                if state.boardWatchers.values.contains(where: { $0.key == key }) { state.boards[key] = memory }
                var told: [AsyncStream<LiveEvent>.Continuation] = []
                var welcome: [AsyncStream<LiveEvent>.Continuation] = []
                for (id, watcher) in state.boardWatchers where watcher.key == key {
                    if watcher.welcomed {
                        told.append(watcher.continuation)
                    } else {
                        welcome.append(watcher.continuation)
                        state.boardWatchers[id]?.welcomed = true
                    }
                }
                return (told, welcome)
            }
            if let change {
                let event = nextEvent("board", change)
                // A stream that fell so far behind that its oldest event was dropped would show a wrong board: it
                // ends, and its page, reconnecting, is sent the board whole.
                for continuation in told { if case .dropped = continuation.yield(event) { continuation.finish() } }
            }
            guard !welcome.isEmpty, let whole = memory.sent.whole(space: key.space) else { continue }
            let wholeEvent = nextEvent("board", whole)
            welcome.forEach { $0.yield(wholeEvent) }
        }
    }

    /// An event with the next number.
    private func nextEvent(_ type: String, _ data: JSON) -> LiveEvent {
        let id = state.withLock { state in
            state.nextEvent += 1
            return state.nextEvent
        }
        return LiveEvent(id: id, type: type, data: data)
    }

    /// What the last look read: spaces read whole and games whose cards were read (for tests and the log).
    var lastLook: LookStats { state.withLock { $0.lastLook } }
}
