import CaddieStore
import Foundation
import Synchronization

/// Tells every session when the home's database changed, whoever changed it: a session that applied a
/// peer's batch, or a `caddie score` run in another process. The kernel reports the writes (inotify, through
/// `FileWatch`); nothing polls, so an idle node does not wake for it.
final class ChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])
    private let changes = Atomic<Int>(0)

    /// How many changes the feed has announced: unchanged between two reads means no write it saw in between.
    var generation: Int { changes.load(ordering: .acquiring) }
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
        changes.add(1, ordering: .releasing)
        let all = subscribers.withLock { Array($0.values) }
        for continuation in all { continuation.yield() }
    }

    /// Watches the database until cancelled. Where the kernel cannot watch it (no inotify, or its limit of
    /// watches reached), it falls back to reading data_version every 10 ms.
    func run() async {
        guard let monitor else { return }
        if let watch = try? monitor.watch({ [self] in notify() }) {
            defer { watch.stop() }
            await untilCancelled()
            return
        }
        var last = (try? monitor.version()) ?? 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
            guard let now = try? monitor.version(), now != last else { continue }
            last = now
            notify()
        }
    }
}

/// Returns when the calling task is cancelled, without waking before.
func untilCancelled() async {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    await withTaskCancellationHandler {
        for await _ in stream {}
    } onCancel: {
        continuation.finish()
    }
}
