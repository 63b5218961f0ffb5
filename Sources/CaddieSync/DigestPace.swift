import NIOCore
import Synchronization

/// When a live session next sends its digest (the anti-entropy check and the heartbeat the peer's silence rule
/// listens for). Every ``SyncNode/antiEntropySeconds`` while anything moves; while both sides stay in step it
/// slows by that much at each digest that matches, up to ``slowestSeconds``, so an idle link wakes the node a few
/// times a minute instead of every two seconds. A change, ops, or a digest that differs brings it back to the
/// fastest pace at once. The slowest pace stays well inside the peer's silence limit (15 s).
///
/// The timer is one scheduled task on the connection's event loop: nothing sleeps in a loop.
final class DigestPace: Sendable {
    /// The longest gap between two digests, in seconds.
    static let slowestSeconds: Int64 = 6

    private struct State {
        var seconds = Int64(SyncNode.antiEntropySeconds)
        var timer: Scheduled<Void>?
        var stopped = false
    }

    private let state = Mutex(State())
    private let eventLoop: any EventLoop
    private let tick: @Sendable () -> Void

    /// Calls `tick` on `eventLoop` each time a digest is due, from `start()` until `stop()`.
    init(eventLoop: any EventLoop, tick: @escaping @Sendable () -> Void) {
        self.eventLoop = eventLoop
        self.tick = tick
    }

    /// Seconds until the next digest, as the pace stands.
    var seconds: Int64 { state.withLock { $0.seconds } }

    func start() { schedule() }

    func stop() {
        state.withLock { state in
            state.stopped = true
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// Something moved: digests at the fastest pace again, the next one counted from now.
    func moving() {
        let slowed = state.withLock { state in
            defer { state.seconds = Int64(SyncNode.antiEntropySeconds) }
            return state.seconds > Int64(SyncNode.antiEntropySeconds)
        }
        if slowed { schedule() }
    }

    /// The peer's digest matched this side's: the next gap may be longer.
    func inStep() {
        state.withLock { $0.seconds = min($0.seconds + Int64(SyncNode.antiEntropySeconds), Self.slowestSeconds) }
    }

    private func schedule() {
        state.withLock { state in
            state.timer?.cancel()
            guard !state.stopped else { return }
            state.timer = eventLoop.scheduleTask(in: .seconds(state.seconds)) { [weak self] in self?.fire() }
        }
    }

    private func fire() {
        tick()
        schedule()
    }
}
