import Foundation
import Testing

/// Tests that run two sync nodes inside the test process and time their sessions: they need the process to
/// themselves. Among the whole suite's hundreds of parallel tests on two cores, a handshake waited 40 s for a thread
/// and timed out, so they run in a `swift test` of their own after the suite (Deploy/test.sh, step "sync sessions
/// alone"), with `CADDIE_SESSIONS_ALONE=1`; the other nodes of the suite run as processes of their own.
enum SessionsAlone {
    static let enabled = ProcessInfo.processInfo.environment["CADDIE_SESSIONS_ALONE"] == "1"
    static let why: Comment =
        "runs alone, after the suite: CADDIE_SESSIONS_ALONE=1 swift test --filter 'LiveRevocationTests|SyncDurabilityTests'"
}
