import CaddieCore
import Testing

/// Names people could mistake for each other share a key; names they would not, do not.
@Suite("name keys")
struct NameKeyTests {
    @Test(
        "look-alikes of Ana share its key",
        arguments: [
            "Ana", "ANA", "ana", "\u{0410}na", "An\u{0430}", "\u{0391}\u{039D}\u{0391}", "\u{00C1}na", "A\u{200B}na",
            "\u{202E}Ana", "\u{FF21}\u{FF4E}\u{FF41}", "Ana\u{0301}",
        ])
    func lookAlikes(name: String) {
        #expect(NameKey.of(name) == "ana", "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("different names keep different keys; spaces count once")
    func different() {
        #expect(NameKey.of("Ana") != NameKey.of("Ann"))
        #expect(NameKey.of("Ben") != NameKey.of("Ana"))
        #expect(NameKey.of("Ana Lee") == NameKey.of("Ana  Lee"))
        #expect(NameKey.of("Ana Lee") != NameKey.of("AnaLee"))
        #expect(NameKey.of("Ol1ver") == NameKey.of("Ollver"))
    }
}
