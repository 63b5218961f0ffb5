import CaddieCore
import Testing

@testable import CaddieCrypto

@Suite("Recovery phrase (BIP-39, 24 words)")
struct RecoveryPhraseTests {
    @Test("the shipped word list is the published English list, byte for byte")
    func wordList() {
        #expect(RecoveryPhrase.words.count == 2048)
        let file = Array((RecoveryPhrase.words.joined(separator: "\n") + "\n").utf8)
        // SHA-256 of bip-0039/english.txt as published.
        #expect(Hex.encode(RecoveryPhrase.sha256(file)) == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
        #expect(Set(RecoveryPhrase.words.map { $0.prefix(4) }).count == 2048, "four letters name every word")
    }

    /// The BIP-39 reference vectors for 256-bit entropy.
    static let vectors: [(seed: String, phrase: String)] = [
        (String(repeating: "00", count: 32), Array(repeating: "abandon", count: 23).joined(separator: " ") + " art"),
        (
            String(repeating: "7f", count: 32),
            "legal winner thank year wave sausage worth useful legal winner thank year "
                + "wave sausage worth useful legal winner thank year wave sausage worth title"
        ),
        (
            String(repeating: "80", count: 32),
            "letter advice cage absurd amount doctor acoustic avoid letter advice cage "
                + "absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless"
        ),
        (String(repeating: "ff", count: 32), Array(repeating: "zoo", count: 23).joined(separator: " ") + " vote"),
        (
            "68a79eaca2324873eacc50cb9c6eca8cc68ea5d936f98787c60c7ebc74e6ce7c",
            "hamster diagram private dutch cause "
                + "delay private meat slide toddler razor book happy fancy gospel tennis maple dilemma loan word shrug "
                + "inflict delay length"
        ),
    ]

    @Test("a seed becomes the reference words, and the words give the seed back")
    func referenceVectors() throws {
        for vector in Self.vectors {
            let seed = try #require(Hex.decode(vector.seed))
            #expect(try RecoveryPhrase.words(for: seed).joined(separator: " ") == vector.phrase)
            #expect(try RecoveryPhrase.seed(from: vector.phrase) == seed)
        }
    }

    @Test("random seeds survive the round trip, and the phrase restores the same signing key")
    func roundTrip() throws {
        for _ in 0..<50 {
            let key = SigningKey.generate()
            let words = try RecoveryPhrase.words(for: key.seed)
            #expect(words.count == 24)
            #expect(try SigningKey(seed: RecoveryPhrase.seed(from: words.joined(separator: " "))).publicKey == key.publicKey)
        }
    }

    @Test("the phrase is read as people write it: case, commas, numbers, line breaks, four-letter beginnings")
    func forgivingReading() throws {
        let seed = try #require(Hex.decode(Self.vectors[4].seed))
        let words = Self.vectors[4].phrase.split(separator: " ")
        let numbered = words.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n")
        #expect(try RecoveryPhrase.seed(from: numbered) == seed)
        #expect(try RecoveryPhrase.seed(from: "  " + words.joined(separator: ",  ").uppercased() + "\n") == seed)
        #expect(try RecoveryPhrase.seed(from: words.map { $0.prefix(4) }.joined(separator: " ")) == seed)
    }

    /// A last word that keeps the seed's bits and changes only the checksum's lowest bit.
    static func checksumBroken(_ last: String) -> String {
        let index = RecoveryPhrase.words.firstIndex(of: last) ?? 0
        return RecoveryPhrase.words[index ^ 1]
    }

    @Test("a wrong phrase says what is wrong: the count, the word and what it may be, or the checksum")
    func refusals() throws {
        let words = Self.vectors[4].phrase.split(separator: " ").map(String.init)
        #expect(throws: PhraseError.wordCount(23)) { try RecoveryPhrase.seed(from: words.dropLast().joined(separator: " ")) }
        var typo = words
        typo[2] = "privte"
        #expect(throws: PhraseError.unknownWord(position: 3, word: "privte", alike: ["private"])) {
            try RecoveryPhrase.seed(from: typo.joined(separator: " "))
        }
        var misspelt = words
        misspelt[0] = "hamstr"
        #expect(throws: PhraseError.unknownWord(position: 1, word: "hamstr", alike: ["hamster"])) {
            try RecoveryPhrase.seed(from: misspelt.joined(separator: " "))
        }
        var swapped = words
        swapped.swapAt(0, 1)
        #expect(throws: PhraseError.checksum) { try RecoveryPhrase.seed(from: swapped.joined(separator: " ")) }
        // The last word's low 8 bits are the checksum: a neighbour in the list keeps the seed, breaks the checksum.
        var changed = words
        changed[23] = RecoveryPhraseTests.checksumBroken(words[23])
        #expect(throws: PhraseError.checksum) { try RecoveryPhrase.seed(from: changed.joined(separator: " ")) }
        // A word's first four letters, and more of it, stand for it; a beginning that is not one is refused.
        var longer = words
        longer[2] = "privat"
        #expect(try RecoveryPhrase.seed(from: longer.joined(separator: " ")) == RecoveryPhrase.seed(from: Self.vectors[4].phrase))
        #expect(PhraseError.checksum.description.contains("swapped"))
        #expect(throws: CryptoError.self) { try RecoveryPhrase.words(for: [1, 2, 3]) }
    }
}
