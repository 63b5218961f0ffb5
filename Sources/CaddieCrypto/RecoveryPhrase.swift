import CSodium

/// A 32-byte key seed written as 24 words of the BIP-39 English list, so a person can keep it on paper: 256 bits
/// of the seed and 8 bits of checksum (the first byte of the seed's SHA-256), 11 bits a word.
///
/// Reading is forgiving where it cannot go wrong: any case, extra spaces, commas or line breaks, numbers in
/// front of the words ("1. zoo"), and a word's first four letters, which the list makes unique. Everything else
/// is refused with what to fix: the count of words, a word that is not on the list (with the list's words that
/// begin like it), or a checksum that does not match (a word is wrong, or two are swapped).
public enum RecoveryPhrase {
    /// Words in a phrase.
    public static let wordCount = 24

    /// The list, in order.
    public static let words: [String] = englishList.split(whereSeparator: \.isWhitespace).map(String.init)
    private static let index: [String: Int] = Dictionary(uniqueKeysWithValues: words.enumerated().map { ($1, $0) })
    private static let byPrefix: [String: Int] = Dictionary(
        uniqueKeysWithValues: words.enumerated().map {
            (String($1.prefix(4)), $0)
        })

    /// The 24 words for a 32-byte seed.
    public static func words(for seed: [UInt8]) throws(CryptoError) -> [String] {
        guard seed.count == 32 else { throw .invalidKey("a recovery phrase holds a 32-byte seed, got \(seed.count) bytes") }
        let bits = seed + [sha256(seed)[0]]
        return (0..<wordCount).map { words[value(of: bits, at: $0 * 11)] }
    }

    /// The seed a phrase holds, or what is wrong with it.
    public static func seed(from phrase: String) throws(PhraseError) -> [UInt8] {
        let typed = phrase.lowercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "," })
            .map { $0.drop(while: { $0.isNumber }).drop(while: { $0 == "." || $0 == ")" || $0 == ":" }) }
            .filter { !$0.isEmpty }
            .map(String.init)
        guard typed.count == wordCount else { throw .wordCount(typed.count) }
        var values: [Int] = []
        for (position, word) in typed.enumerated() {
            if let value = index[word] ?? (word.count >= 4 ? byPrefix[String(word.prefix(4))] : nil),
                word.count == 4 || words[value].hasPrefix(word)
            {
                values.append(value)
            } else {
                throw .unknownWord(position: position + 1, word: word, alike: alike(word))
            }
        }
        var bits = [UInt8](repeating: 0, count: 33)
        for (position, value) in values.enumerated() {
            for bit in 0..<11 where value & (1 << (10 - bit)) != 0 {
                let at = position * 11 + bit
                bits[at / 8] |= 0x80 >> UInt8(at % 8)
            }
        }
        let seed = Array(bits[0..<32])
        guard sha256(seed)[0] == bits[32] else { throw .checksum }
        return seed
    }

    /// The list's words that share the longest beginning with `word` (two letters at least), five at most.
    static func alike(_ word: String) -> [String] {
        let common = words.map { zip($0, word).prefix(while: { $0 == $1 }).count }
        guard let longest = common.max(), longest >= 2 else { return [] }
        return Array(zip(words, common).filter { $0.1 == longest }.map(\.0).prefix(5))
    }

    /// The 11-bit number starting at bit `offset` (most significant bit first).
    private static func value(of bits: [UInt8], at offset: Int) -> Int {
        var value = 0
        for at in offset..<(offset + 11) {
            value = value << 1 | Int(bits[at / 8] >> UInt8(7 - at % 8) & 1)
        }
        return value
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Sodium.ensure()
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256(&out, bytes, UInt64(bytes.count))
        return out
    }
}

/// What is wrong with a typed recovery phrase, said so a person can fix it.
public enum PhraseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not 24 words.
    case wordCount(Int)
    /// A word that is not on the list; `alike` are the list's words that begin most like it.
    case unknownWord(position: Int, word: String, alike: [String])
    /// Every word is on the list but the checksum does not match.
    case checksum

    public var description: String {
        switch self {
        case .wordCount(let count):
            "a recovery phrase is \(RecoveryPhrase.wordCount) words; \(count) were given"
        case .unknownWord(let position, let word, let alike):
            "word \(position), '\(word)', is not on the recovery word list"
                + (alike.isEmpty ? "" : "; words that begin like it: \(alike.joined(separator: ", "))")
        case .checksum:
            "the words are all on the list but do not check out: one is wrong or two are swapped; "
                + "compare each with what you wrote down"
        }
    }
}
