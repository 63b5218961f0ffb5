import Dispatch

/// Runs blocking work (SQLite, signature checks) off the cooperative thread pool, so a long batch does not
/// stall other sessions' tasks.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
