import Testing

@testable import CaddieCore

@Suite("Byte codecs")
struct CodecTests {
    @Test("hex round-trips and rejects odd or non-hex text")
    func hexRoundTrip() {
        let bytes: [UInt8] = [0, 1, 0xab, 0xff]
        #expect(Hex.encode(bytes) == "0001abff")
        #expect(Hex.decode("0001ABff") == bytes)
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test("base32 follows RFC 4648 test vectors without padding")
    func base32Vectors() {
        // RFC 4648 section 10.
        #expect(Base32.encode(Array("f".utf8)) == "MY")
        #expect(Base32.encode(Array("fooba".utf8)) == "MZXW6YTB")
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.decode("mzxw6ytboi") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW-6YTB OI") == Array("foobar".utf8))
        #expect(Base32.decode("MZ1") == nil)
    }

    @Test("the reader reports truncation with the field name instead of trapping")
    func truncatedRead() {
        var reader = ByteReader([1, 2, 3])
        #expect(throws: DecodeError.self) { try reader.u64("seq") }
        var reader2 = ByteReader([0, 5, 0x61])
        do {
            _ = try reader2.string16("name")
            Issue.record("a string longer than its bytes must not decode")
        } catch {
            #expect(error.what == "name")
        }
    }

    @Test("the reader rejects invalid UTF-8")
    func invalidUTF8() {
        var reader = ByteReader([2, 0xff, 0xfe])
        #expect(throws: DecodeError.self) { try reader.string8("name") }
    }

    @Test("a hybrid logical clock never runs backwards and moves with the wall clock")
    func hybridClock() {
        let start = HLC(milliseconds: 1000, counter: 0)
        let sameMillisecond = HLC.next(after: start, wallClockMilliseconds: 1000)
        #expect(sameMillisecond > start)
        #expect(sameMillisecond.counter == 1)
        let wallBehind = HLC.next(after: HLC(milliseconds: 5000, counter: 3), wallClockMilliseconds: 10)
        #expect(wallBehind == HLC(milliseconds: 5000, counter: 4))
        let wallAhead = HLC.next(after: start, wallClockMilliseconds: 2000)
        #expect(wallAhead == HLC(milliseconds: 2000, counter: 0))
        let overflow = HLC.next(after: HLC(milliseconds: 7, counter: .max), wallClockMilliseconds: 0)
        #expect(overflow == HLC(milliseconds: 8, counter: 0))
    }

    @Test("a version vector round-trips through its text form and rejects junk")
    func vectorText() throws {
        let key = PublicKey(unchecked: [UInt8](repeating: 7, count: 32))
        let vector = VersionVector([key: 12])
        #expect(try VersionVector(parsing: vector.description) == vector)
        #expect(try VersionVector(parsing: "") == VersionVector())
        #expect(throws: CoreError.self) { try VersionVector(parsing: "abc:1") }
        #expect(throws: CoreError.self) { try VersionVector(parsing: "\(key.hex):x") }
        #expect(vector.covers(OpID(device: key, seq: 12)))
        #expect(!vector.covers(OpID(device: key, seq: 13)))
    }
}
