import NIOPosix

/// The threads every blocking call of a node runs on: SQLite reads and writes, a unit of work, the checks of a
/// received batch. A fixed pool, started once and never stopped, so that a burst of phones or a hub's many sessions
/// do not make threads without bound, and no blocking call holds a thread of the cooperative pool that every task of
/// the node (sessions, HTTP handlers, the event hub) shares.
enum BlockingPool {
    /// Eight threads: SQLite gives at most five readers at once (GRDB's pool) and one writer, so more would only wait
    /// there; fewer would keep a quick read waiting behind slow ones (a clubhouse's standings, a large batch).
    static let threads = 8

    static let shared: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    struct Stopped: Error {}
}

/// Runs blocking work on the node's blocking pool (``BlockingPool``) and returns its result. The work runs even if the
/// calling task is cancelled meanwhile (a session ending at shutdown still records what it synced).
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        BlockingPool.shared.submit { state in
            guard case .active = state else {
                continuation.resume(throwing: BlockingPool.Stopped())
                return
            }
            continuation.resume(with: Result { try body() })
        }
    }
}
