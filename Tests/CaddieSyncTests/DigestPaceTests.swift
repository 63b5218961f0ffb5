import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import CaddieSync

@Suite("Digest pace: fast while anything moves, slow while in step, one timer")
struct DigestPaceTests {
    final class Ticks: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
    }

    static func pace() -> (DigestPace, EmbeddedEventLoop, Ticks) {
        let loop = EmbeddedEventLoop()
        let ticks = Ticks()
        let pace = DigestPace(eventLoop: loop) { ticks.count.withLock { $0 += 1 } }
        return (pace, loop, ticks)
    }

    @Test("a digest every 2 s while nothing says the sides are in step")
    func fastByDefault() {
        let (pace, loop, ticks) = Self.pace()
        pace.start()
        loop.advanceTime(by: .milliseconds(1_999))
        #expect(ticks.value == 0)
        loop.advanceTime(by: .milliseconds(1))
        #expect(ticks.value == 1)
        loop.advanceTime(by: .seconds(10))
        #expect(ticks.value == 6)
        pace.stop()
        loop.advanceTime(by: .seconds(60))
        #expect(ticks.value == 6, "a stopped pace never ticks")
    }

    @Test("each matching digest lengthens the gap by 2 s, to 6 s at most")
    func slowsWhileInStep() {
        let (pace, loop, ticks) = Self.pace()
        pace.start()
        pace.inStep()
        // The gap already scheduled stands; the longer one counts from the next digest.
        loop.advanceTime(by: .seconds(2))
        #expect(ticks.value == 1 && pace.seconds == 4)
        pace.inStep()
        loop.advanceTime(by: .seconds(4))
        #expect(ticks.value == 2 && pace.seconds == 6)
        pace.inStep()
        pace.inStep()
        #expect(pace.seconds == DigestPace.slowestSeconds)
        loop.advanceTime(by: .seconds(5))
        #expect(ticks.value == 2)
        loop.advanceTime(by: .seconds(1))
        #expect(ticks.value == 3)
        // An idle minute at the slowest pace: ten digests, where the fixed 2 s pace sent thirty.
        loop.advanceTime(by: .seconds(60))
        #expect(ticks.value == 13)
        #expect(
            DigestPace.slowestSeconds * 2 < Int64(SessionMachine.silenceLimitSeconds), "the peer's silence rule keeps a margin")
    }

    @Test("a change brings the 2 s pace back at once, counted from the change")
    func movingResets() {
        let (pace, loop, ticks) = Self.pace()
        pace.start()
        for _ in 0..<3 { pace.inStep() }
        loop.advanceTime(by: .seconds(2))  // the first digest; the next is due 6 s later
        #expect(ticks.value == 1)
        loop.advanceTime(by: .seconds(1))
        pace.moving()
        loop.advanceTime(by: .seconds(2))
        #expect(ticks.value == 2, "the digest came 2 s after the change, not at the 6 s mark")
        #expect(pace.seconds == Int64(SyncNode.antiEntropySeconds))
        // Moving again while already fast does not push the next digest back.
        loop.advanceTime(by: .seconds(1))
        pace.moving()
        loop.advanceTime(by: .seconds(1))
        #expect(ticks.value == 3)
    }
}
