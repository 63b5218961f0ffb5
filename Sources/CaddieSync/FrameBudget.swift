import Synchronization

/// How many received frames wait for the session; the reader pauses when the session falls behind, and
/// resumes the moment the session takes a frame (no sleeping and re-checking).
final class FrameBudget: Sendable {
    static let limit = 16

    private struct State {
        var waiting = 0
        var reader: CheckedContinuation<Void, any Error>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Waits until the session has taken enough frames; throws when the reader's task is cancelled.
    func waitForRoom() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled { return .failure(CancellationError()) }
                    if state.waiting < Self.limit {
                        state.waiting += 1
                        return .success(())
                    }
                    state.reader = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let reader = state.withLock { state in
                state.cancelled = true
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(throwing: CancellationError())
        }
    }

    func consumed() {
        let reader = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.waiting = max(0, state.waiting - 1)
            guard let reader = state.reader, state.waiting < Self.limit else { return nil }
            state.reader = nil
            state.waiting += 1
            return reader
        }
        reader?.resume()
    }
}
