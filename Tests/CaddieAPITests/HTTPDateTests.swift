import Foundation
import Testing

@testable import CaddieAPI

/// The `Date` header the node's HTTP servers write, worked out without a timer (``HTTPDate``).
@Suite("the Date header")
struct HTTPDateTests {
    @Test("IMF-fixdate as RFC 9110 spells it, the same as Foundation's formatter across leap years and centuries")
    func matchesFoundation() {
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT", "RFC 9110's own example")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        // 1970 to 2199: 29 February 2000, 28 February and 1 March 2100 (no leap day) among them.
        let days = [11_016, 11_017, 47_540, 47_541, 47_542]
        let samples =
            days.map { $0 * 86_400 + 86_399 } + (0..<2_000).map { _ in Int.random(in: 0..<7_258_118_400, using: &generator) }
        for seconds in samples {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(HTTPDate.format(seconds) == expected, "at \(seconds) s")
        }
        #expect(HTTPDate.now() == formatter.string(from: Date()) || HTTPDate.now() == formatter.string(from: Date()))
    }
}
