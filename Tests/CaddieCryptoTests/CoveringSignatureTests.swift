import CaddieCore
import Testing

@testable import CaddieCrypto

@Suite("Which signature covers an op")
struct CoveringSignatureTests {
    /// A device's log of four ops, each linked to the one before; the ops named in `bad` carry another key's signature.
    static func log(bad: Set<UInt64>, brokenLinkAt: UInt64? = nil) throws -> [SignedOp.Stored] {
        let device = SigningKey.generate()
        let space = SpaceID(unchecked: [UInt8](repeating: 1, count: SpaceID.length))
        var previous = Digest32.zero
        var log: [SignedOp.Stored] = []
        for seq in UInt64(1)...4 {
            let prev = seq == brokenLinkAt ? Blake2b.hash([0]) : previous
            let unsigned = SignedOp.encodeUnsigned(
                space: space, device: device.publicKey, seq: seq, prev: prev, hlc: HLC(milliseconds: seq, counter: 0),
                pred: [], payload: [])
            let signer = bad.contains(seq) ? SigningKey.generate() : device
            let bytes = unsigned + signer.sign(unsigned, context: SignedOp.signingContext)
            let op = try SignedOp(bytes: bytes)
            log.append((op.id, op, Blake2b.hash(bytes)))
            previous = Blake2b.hash(bytes)
        }
        return log
    }

    @Test("a later valid signature covers the ops linked before it; the newest op with a bad signature is covered by none")
    func laterSignatureCovers() throws {
        let log = try Self.log(bad: [2, 4])
        let seqs = { (covers: [OpID?]) in covers.map { $0?.seq } }
        #expect(seqs(SignedOp.covers(log)) == [3, 3, 3, nil])
        // Own signature first (the audit): an op names itself whenever its own verifies.
        #expect(seqs(SignedOp.covers(log, ownFirst: true)) == [1, 3, 3, nil])
    }

    @Test("a broken link stops the cover: the op before it answers for itself")
    func brokenLinkStopsCover() throws {
        // Op 3 does not link to op 2, whose own signature fails: nothing covers op 2; op 1's own signature does.
        let log = try Self.log(bad: [2], brokenLinkAt: 3)
        #expect(SignedOp.covers(log).map { $0?.seq } == [1, nil, 4, 4])
    }

    @Test("an op whose bytes do not decode is covered by a later op linked to their hash, and covers nothing itself")
    func undecodableOpIsCoveredByLink() throws {
        var log = try Self.log(bad: [])
        // Op 2 does not decode: op 3's link to its hash lets op 4 cover it; op 2 links nothing, so op 1 covers itself.
        log[1].op = nil
        #expect(SignedOp.covers(log).map { $0?.seq } == [1, 4, 4, 4])
        // Op 4 no longer decodes either: nothing covers it, and op 3 covers itself and op 2.
        log[3].op = nil
        #expect(SignedOp.covers(log).map { $0?.seq } == [1, 3, 3, nil])
    }
}
