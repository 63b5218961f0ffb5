/// Numbers as a person types them: an optional sign, digits, and an optional fraction after a point
/// (`-37.951`, `144`, `+0.5`, `.5`). Everything else is refused: hexadecimal (`0x10`), exponents (`1e3`),
/// `nan`, `inf`, spaces, commas and empty text, all of which Swift's `Double(_:)` would take or misread.
/// Used wherever a person or a client types a number: CLI options and HTTP query parameters.
public enum PlainDecimal {
    /// The value of `text`, or nil when it is not a plain decimal number.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0
        var points = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard offset == 0 else { return nil }
            case UInt8(ascii: "."):
                points += 1
                guard points == 1 else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
            default:
                return nil
            }
        }
        // At most 32 digits: a position or a handicap never needs more, and it keeps the conversion exact.
        guard (1...32).contains(digits), let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// What to say about text that `parse` refused.
    public static func problem<S: StringProtocol>(_ text: S, example: String = "-37.951") -> String {
        "'\(text)' is not a decimal number: write digits with an optional minus sign and decimal point, e.g. \(example) "
            + "(no hexadecimal, exponent, spaces or commas)"
    }
}
