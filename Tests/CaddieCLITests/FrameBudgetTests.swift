import Foundation
import Synchronization
import Testing

@testable import CaddieSync

/// The reader's back-pressure: it waits while 16 frames are unconsumed, wakes as soon as one is taken, and a
/// cancelled reader ends (a cancellation swallowed here once made a finished session spin at full CPU).
@Suite("FrameBudget: back-pressure without sleeping")
struct FrameBudgetTests {
    @Test("the 17th frame waits until one is consumed, then goes at once")
    func waitsForRoom() async throws {
        let budget = FrameBudget()
        for _ in 0..<FrameBudget.limit { try await budget.waitForRoom() }
        let passed = Mutex(false)
        let reader = Task {
            try await budget.waitForRoom()
            passed.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(passed.withLock { $0 } == false, "the reader must wait while the session is behind")
        budget.consumed()
        try await reader.value
        #expect(passed.withLock { $0 } == true)
    }

    @Test("a waiting reader that is cancelled throws CancellationError and does not spin")
    func cancelled() async throws {
        let budget = FrameBudget()
        for _ in 0..<FrameBudget.limit { try await budget.waitForRoom() }
        let reader = Task { try await budget.waitForRoom() }
        try await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        // A later wait on the same budget (the session is over) fails at once too.
        await #expect(throws: CancellationError.self) { try await budget.waitForRoom() }
    }
}
