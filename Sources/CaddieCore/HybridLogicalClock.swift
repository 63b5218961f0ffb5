/// A hybrid logical clock timestamp: milliseconds since 1970 in the high 48 bits, a counter in the low 16.
///
/// It orders last-writer-wins edits: it never runs backwards on one device, and after a device has
/// seen a peer's op its next timestamp is later than that op's, even when the peer's wall clock is ahead.
public struct HLC: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The packed value as stored and signed.
    public let rawValue: UInt64

    /// Wraps a packed value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Packs wall-clock milliseconds and a counter.
    public init(milliseconds: UInt64, counter: UInt16) {
        rawValue = (milliseconds & 0xFFFF_FFFF_FFFF) << 16 | UInt64(counter)
    }

    /// The wall-clock part in milliseconds since 1970.
    public var milliseconds: UInt64 { rawValue >> 16 }
    /// The logical counter.
    public var counter: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    /// The next timestamp for a local event: later than `last` and not earlier than the wall clock.
    public static func next(after last: HLC, wallClockMilliseconds now: UInt64) -> HLC {
        if now > last.milliseconds { return HLC(milliseconds: now, counter: 0) }
        if last.counter == UInt16.max { return HLC(milliseconds: last.milliseconds + 1, counter: 0) }
        return HLC(milliseconds: last.milliseconds, counter: last.counter + 1)
    }

    /// The latest timestamp a device lets a peer's op push its clock to: a day past its own wall clock, so
    /// that one device with a wrong clock cannot drag every later edit of the group into the far future.
    public static func ceiling(now: UInt64) -> HLC { HLC(milliseconds: now &+ 86_400_000, counter: .max) }

    /// The furthest a held op may drag this device's next timestamp: an hour past its own wall clock. A peer's op
    /// stamped up to a day ahead is accepted, but what this device signs after it is stamped at most an hour
    /// ahead, so a node whose clock is up to 23 hours behind this one still accepts it (a dragged clock passed on
    /// at a day ahead would be refused by every node a little behind).
    public static func dragLimit(now: UInt64) -> HLC { HLC(milliseconds: now &+ 3_600_000, counter: 0) }

    /// Orders by the packed value.
    public static func < (lhs: HLC, rhs: HLC) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `milliseconds.counter`.
    public var description: String { "\(milliseconds).\(counter)" }
}
