import Foundation

/// Text as course search compares it: lower case, accents and ligatures removed (NFKD without combining marks,
/// plus letters that do not decompose: ß, æ, ø, ł, ...), apostrophes dropped so that "D'El" reads "del", and
/// everything that is not a letter or digit a word break.
enum CourseTextFolding {
    private static let letters: [Character: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h",
    ]
    private static let apostrophes: Set<Character> = ["'", "’", "‘", "`", "´", "ʼ"]

    /// The folded words of `text`.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        let decomposed = text.lowercased().decomposedStringWithCompatibilityMapping
        for character in decomposed {
            if apostrophes.contains(character) { continue }
            if let mapped = letters[character] {
                current += mapped
                continue
            }
            let kept = String(character.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark })
            guard let first = kept.first, first.isLetter || first.isNumber else {
                if !current.isEmpty { tokens.append(current) }
                current = ""
                continue
            }
            current += kept
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// The folded text with single spaces between words.
    static func fold(_ text: String) -> String { tokens(text).joined(separator: " ") }
}
