import Foundation
import Testing

@testable import CaddieCore

/// Identifiers keep their bytes as machine words: every property the CRDT and the store lean on must be the bytes'
/// own (their order is the merge's tie-break; their equality and hash key every set and dictionary of ids).
@Suite("Identifiers held in place")
struct IdentifierTests {
    /// Byte strings of `length` that differ in every position, in the first and the last byte alone, and not at all.
    private func samples(_ length: Int) -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        var out: [[UInt8]] = [[UInt8](repeating: 0, count: length), [UInt8](repeating: 0xff, count: length)]
        for _ in 0..<40 { out.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        var first = out[2]
        first[0] ^= 0x80
        var last = out[2]
        last[length - 1] ^= 0x01
        var high = [UInt8](repeating: 0, count: length)
        high[0] = 0x01
        var low = [UInt8](repeating: 0, count: length)
        low[length - 1] = 0xff
        return out + [first, last, high, low, out[2]]
    }

    private func check<ID: FixedBytes>(_ type: ID.Type) {
        let all = samples(ID.length)
        for left in all {
            let a = ID(unchecked: left)
            #expect(a.bytes == left)
            #expect(a.hex == Hex.encode(left))
            #expect(ID(hex: a.hex) == a)
            #expect(a.withBytes { Array($0) } == left)
            var reader = ByteReader(left)
            #expect((try? reader.fixed(ID.self, "id")) == a)
            var writer = ByteWriter(capacity: ID.length)
            writer.raw(a)
            #expect(writer.bytes == left)
            for right in all {
                let b = ID(unchecked: right)
                #expect((a == b) == (left == right))
                #expect((a < b) == left.lexicographicallyPrecedes(right), "\(left) < \(right)")
                if left == right { #expect(a.hashValue == b.hashValue) }
            }
        }
        #expect(Set(all.map { ID(unchecked: $0) }).count == Set(all).count)
        #expect(ID(bytes: [UInt8](repeating: 1, count: ID.length + 1)) == nil)
        var short = ByteReader([UInt8](repeating: 1, count: ID.length - 1))
        #expect(throws: DecodeError.self) { try short.fixed(ID.self, "id") }
    }

    @Test("order, equality, hash, hex and the byte round trips are those of the bytes, for every length")
    func followTheBytes() {
        #expect(SpaceID.length == 16)
        #expect(PublicKey.length == 32)
        #expect(Digest32.length == 32)
        #expect(EntityID.length == 8)
        #expect(GameID.length == 8)
        check(SpaceID.self)
        check(PublicKey.self)
        check(Digest32.self)
        check(EntityID.self)
        check(GameID.self)
        #expect(Digest32.zero.bytes == [UInt8](repeating: 0, count: 32))
        #expect(EntityID.spaceRecord.bytes == [UInt8](repeating: 0, count: 8))
        let game = GameID(unchecked: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(GameID(game.entity) == game)
        #expect(game.entity.bytes == game.bytes)
    }

    @Test("identifiers in JSON are their hex, and a wrong length is refused")
    func codable() throws {
        let key = PublicKey(unchecked: (0..<32).map { UInt8($0) })
        let data = try JSONEncoder().encode([key])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(key.hex)\"]")
        #expect(try JSONDecoder().decode([PublicKey].self, from: data) == [key])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([PublicKey].self, from: Data("[\"abcd\"]".utf8)) }
    }

    @Test("an op reads its fields from its bytes, and two ops are equal when their bytes are")
    func opEquality() throws {
        let space = SpaceID(unchecked: [UInt8](repeating: 7, count: 16))
        let device = PublicKey(unchecked: [UInt8](repeating: 9, count: 32))
        let unsigned = SignedOp.encodeUnsigned(
            space: space, device: device, seq: 3, prev: .zero, hlc: HLC(rawValue: 42),
            pred: [OpID(device: device, seq: 2)], payload: [1, 2, 3])
        let bytes = unsigned + [UInt8](repeating: 0, count: SignedOp.signatureLength)
        let op = try SignedOp(bytes: bytes)
        let again = try SignedOp(bytes: bytes)
        #expect(op == again && op.hashValue == again.hashValue)
        #expect(op.space == space && op.device == device && op.seq == 3 && op.hlc.rawValue == 42)
        #expect(op.pred == [OpID(device: device, seq: 2)] && op.payload == [1, 2, 3] && op.bytes == bytes)
        var other = bytes
        other[other.count - 1] = 1
        #expect(try SignedOp(bytes: other) != op)
    }
}
