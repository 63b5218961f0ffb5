import Foundation
import Testing

@testable import CaddieNode

/// A node that starts while another process writes its home (a command that found no node answering) waits for it,
/// and refuses only when the writer stays past the wait.
@Suite("a starting node waits for the home's writer")
struct WriterWaitTests {
    @Test("a second writer of one home waits its time, then is refused as a conflict; once the first lets go it writes")
    func waitsThenRefuses() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-wait-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two opens of one home hold two locks on its file, as two processes would.
        var first: Home? = try Home(path: directory.path)
        try first?.takeWrites()
        let second = try Home(path: directory.path)
        let started = Date()
        #expect {
            try second.takeWrites(waiting: 0.3)
        } throws: { error in
            guard case .conflict(let text, _) = error as? NodeError else { return false }
            return text.contains("another caddie process is writing this home")
        }
        #expect(Date().timeIntervalSince(started) >= 0.3, "it waited before refusing")
        // The first writer goes (its process ends): the second takes the home within its wait.
        first = nil
        try second.takeWrites(waiting: 5)
    }
}
