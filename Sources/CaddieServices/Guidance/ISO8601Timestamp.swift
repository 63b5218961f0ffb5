#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses the ISO 8601 timestamps GPX uses (XML Schema `dateTime`): `2024-05-01T08:30:00Z`, with optional
/// fractional seconds and an optional `Z` or `+hh:mm` offset; no offset means UTC, as GPX 1.1 requires.
/// Hand-written so that it needs only FoundationEssentials and accepts exactly this shape.
enum ISO8601Timestamp {
    /// The date, or nil when `text` is not such a timestamp or names an impossible date or time.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.trimmingWhitespace().utf8)
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.skip(UInt8(ascii: "-")),
            let month = reader.number(digits: 2), reader.skip(UInt8(ascii: "-")),
            let day = reader.number(digits: 2), reader.skip(UInt8(ascii: "T")) || reader.skip(UInt8(ascii: "t")),
            let hour = reader.number(digits: 2), reader.skip(UInt8(ascii: ":")),
            let minute = reader.number(digits: 2), reader.skip(UInt8(ascii: ":")),
            let second = reader.number(digits: 2)
        else { return nil }

        var fraction = 0.0
        if reader.skip(UInt8(ascii: ".")) {
            var scale = 0.1
            var count = 0
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }

        var offsetSeconds = 0
        if reader.skip(UInt8(ascii: "Z")) || reader.skip(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.number(digits: 2), reader.skip(UInt8(ascii: ":")),
                let offsetMinutes = reader.number(digits: 2), offsetHours <= 14, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard reader.isAtEnd else { return nil }

        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 24, minute < 60, second <= 60
        else { return nil }
        // 24:00:00 is the end of the day; a leap second (:60) is folded into the next second.
        if hour == 24, minute != 0 || second != 0 || fraction != 0 { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct DigitReader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func digit() -> Int? {
            guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
                return nil
            }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func sign() -> Int? {
            if skip(UInt8(ascii: "+")) { return 1 }
            if skip(UInt8(ascii: "-")) { return -1 }
            return nil
        }
    }
}
