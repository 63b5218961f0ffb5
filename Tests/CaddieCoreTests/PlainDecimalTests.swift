import Testing

@testable import CaddieCore

@Suite("PlainDecimal: numbers as a person types them")
struct PlainDecimalTests {
    @Test("signs, fractions and whole numbers parse to their value")
    func accepted() {
        #expect(PlainDecimal.parse("-37.951") == -37.951)
        #expect(PlainDecimal.parse("144") == 144)
        #expect(PlainDecimal.parse("+0.5") == 0.5)
        #expect(PlainDecimal.parse(".5") == 0.5)
        #expect(PlainDecimal.parse("-0") == 0)
        #expect(PlainDecimal.parse("12.") == 12)
    }

    @Test("hexadecimal, exponents, nan, inf, spaces, commas and empty text are refused, though Double(_:) takes some")
    func refused() {
        for text in [
            "0x10", "1e3", "1E3", "nan", "inf", "-inf", "infinity", " 1", "1 ", "1,5", "", "-", ".", "+-1", "1-",
            "1..2", "1.2.3", "٣", "１",
        ] {
            #expect(PlainDecimal.parse(text) == nil, "'\(text)' should be refused")
        }
        #expect(Double("0x10") == 16)  // why the parser exists
        #expect(PlainDecimal.parse(String(repeating: "9", count: 33)) == nil)
        #expect(PlainDecimal.problem("0x10").contains("'0x10' is not a decimal number"))
    }
}
