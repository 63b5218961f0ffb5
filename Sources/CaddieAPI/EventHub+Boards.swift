import CaddieCore
import CaddieNode
import Foundation
import Logging
import Synchronization

/// The public boards' streams: a competition's board is computed only while a stream watches it, sent whole to each
/// new stream and then only the lines each change moved (what each board's streams were last sent is kept, in
/// ``EventHub/BoardMemory``).
extension EventHub {
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

    /// How many public board streams are open.
    public var boardWatcherCount: Int { state.withLock { $0.boardWatchers.count } }

    /// The most public board streams open at once (a clubhouse's TVs and spectators; each holds a connection).
    public static let maxBoardWatchers = 160

    /// The public boards some stream watches.
    func watchedBoards() -> Set<BoardKey> { state.withLock { Set($0.boardWatchers.values.map(\.key)) } }

    /// Sends each watched public board's changes, among those touched, to its streams (only the head if it changed,
    /// and the lines that changed), then the board whole to each stream that has not had it yet.
    func lookAtBoards(_ touched: Set<BoardKey>, gamesChanged: [SpaceID: Set<GameID>?] = [:]) {
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
    func nextEvent(_ type: String, _ data: JSON) -> LiveEvent {
        let id = state.withLock { state in
            state.nextEvent += 1
            return state.nextEvent
        }
        return LiveEvent(id: id, type: type, data: data)
    }
}
