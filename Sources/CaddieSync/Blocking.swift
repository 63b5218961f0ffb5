import Dispatch

/// Runs blocking work (SQLite, a unit of work, the checks of a received batch) off the cooperative thread pool, so
/// that a long batch does not stall other sessions' tasks; every blocking call of the node goes through here. The
/// work runs even if the calling task is cancelled meanwhile (a session ending at shutdown still records what it
/// synced). A fixed pool of eight threads (NIO's `NIOThreadPool`) was tried in its place: the 64-peer hub then spent
/// 38-52 us of CPU per op delivered against 24-28 us with Dispatch's threads (docs/performance.md), so it was not kept.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
