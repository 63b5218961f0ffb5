import CaddieStore
import Foundation
import Synchronization

/// Tells every session when the home's database changed, whoever changed it: a session that applied a
/// peer's batch, or a `caddie score` run in another process. It watches SQLite's data_version every 10 ms.
final class ChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])
    private let monitor: ChangeMonitor?

    init(monitor: ChangeMonitor?) { self.monitor = monitor }

    /// A stream that yields after each change (coalesced: a burst of changes may yield once).
    func subscribe() -> (UUID, AsyncStream<Void>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        subscribers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        let continuation = subscribers.withLock { $0.removeValue(forKey: id) }
        continuation?.finish()
    }

    func notify() {
        let all = subscribers.withLock { Array($0.values) }
        for continuation in all { continuation.yield() }
    }

    /// Polls the database until cancelled.
    func run() async {
        guard let monitor else { return }
        var last = (try? monitor.version()) ?? 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
            guard let now = try? monitor.version() else { continue }
            if now != last {
                last = now
                notify()
            }
        }
    }
}
