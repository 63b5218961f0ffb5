import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieStore

@Suite("Tampered, forged and malformed ops")
struct TamperTests {
    /// Whether an error is the store refusing an op (malformed, invalid, of another space, or after a gap), as
    /// opposed to failing for a reason that says nothing about the op.
    static func refusesTheOp(_ error: StoreError) -> Bool {
        switch error {
        case .malformedOp, .invalidOp, .wrongSpace, .missingOps, .revoked: true
        case .unknownSpace, .cannotSign, .notFound, .diskFull, .database, .otherWriter: false
        }
    }

    func opsAndReceiver() throws -> (TestSpace, Author, [[UInt8]], OpStore) {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        for hole in 1...4 { try author.score(game: entity(1), player: entity(2), hole: hole, strokes: 3 + hole) }
        return (space, author, try author.store.ops(space: space.id), try replica(space))
    }

    func unchanged(_ store: OpStore, _ space: TestSpace, before: Digest32) throws {
        #expect(try store.opCount(space.id) == 0)
        #expect(try store.stateHash(space.id) == before)
    }

    @Test("one flipped byte anywhere in a strict import refuses the whole batch and changes nothing")
    func flippedByte() throws {
        let (space, _, ops, store) = try opsAndReceiver()
        let before = try store.stateHash(space.id)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var bad = ops
            let index = Int.random(in: bad.indices, using: &rng)
            let offset = Int.random(in: bad[index].indices, using: &rng)
            bad[index][offset] ^= UInt8.random(in: 1...255, using: &rng)
            let error = #expect(throws: StoreError.self) {
                try store.receive(space: space.id, spaceKey: space.key, ops: bad, mode: .strict, now: receiverNow)
            }
            // Refused as a bad op, not failed for some other reason (a database error would also throw).
            #expect(error.map(Self.refusesTheOp) == true, "\(String(describing: error))")
            try unchanged(store, space, before: before)
        }
        let good = try store.receive(space: space.id, spaceKey: space.key, ops: ops, mode: .strict, now: receiverNow)
        #expect(good.applied.count == ops.count)
    }

    @Test("a device without the space key cannot join, so none of its ops apply")
    func outsiderRefused() throws {
        let space = TestSpace()
        var outsider = try Author("mallory", space: space, joinWith: SecureRandom.bytes(32))
        try outsider.score(game: entity(1), player: entity(2), hole: 1, strokes: 1)
        let store = try replica(space)
        do {
            _ = try store.receive(
                space: space.id, spaceKey: space.key, ops: try outsider.store.ops(space: space.id),
                mode: .strict, now: receiverNow)
            Issue.record("an outsider's ops were accepted")
        } catch {
            #expect(error.description.contains("not a member"))
        }
        let tolerant = try store.receive(
            space: space.id, spaceKey: space.key, ops: try outsider.store.ops(space: space.id),
            mode: .tolerant, now: receiverNow)
        #expect(tolerant.applied.isEmpty && !tolerant.rejected.isEmpty)
        #expect(try store.opCount(space.id) == 0)
    }

    @Test("an op re-signed by another key, or with a forged certificate, is refused")
    func forgedSignature() throws {
        let space = TestSpace()
        let author = try Author("ana", space: space)
        let join = try #require(try author.store.ops(space: space.id).first)
        let op = try SignedOp(bytes: join)
        let forger = SigningKey.generate()
        let forged = Array(op.signedPortion) + forger.sign(op.signedPortion, context: SignedOp.signingContext)
        let store = try replica(space)
        let error = #expect(throws: StoreError.self) {
            try store.receive(space: space.id, spaceKey: space.key, ops: [forged], mode: .strict, now: receiverNow)
        }
        #expect("\(String(describing: error))".contains("signature"), "\(String(describing: error))")
        // A certificate signed by a key that is not the named user's.
        let device = SigningKey.generate()
        let user = SigningKey.generate()
        let fake = Change.Join(
            user: user.publicKey, userName: "eve", certifiedAt: 1,
            certificateSignature: Membership.certify(device: device.publicKey, by: forger, at: 1),
            membershipProof: Membership.membershipProof(
                space: space.id, spaceKey: space.key,
                device: device.publicKey, user: user.publicKey))
        let unsigned = SignedOp.encodeUnsigned(
            space: space.id, device: device.publicKey, seq: 1, prev: .zero,
            hlc: HLC(rawValue: 1), pred: [], payload: Payload.encode([.join(fake)]))
        let bytes = unsigned + device.sign(unsigned, context: SignedOp.signingContext)
        do {
            _ = try store.receive(space: space.id, spaceKey: space.key, ops: [bytes], mode: .strict, now: receiverNow)
            Issue.record("a forged certificate was accepted")
        } catch {
            #expect(error.description.contains("certificate"))
        }
        #expect(try store.opCount(space.id) == 0)
    }

    @Test("ops of an unknown device (its join missing) are refused by a strict import")
    func unknownDevice() throws {
        let (space, _, ops, store) = try opsAndReceiver()
        #expect(throws: StoreError.missingOps(device: try SignedOp(bytes: ops[0]).device, from: 1, to: 1)) {
            try store.receive(space: space.id, spaceKey: space.key, ops: Array(ops.dropFirst()), mode: .strict, now: receiverNow)
        }
    }

    @Test("a forked log (two ops with one seq) is recorded by import and by sync, and both copies stay in the state")
    func fork() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        let twin = author
        try author.score(game: entity(1), player: entity(2), hole: 1, strokes: 4)
        let branchA = try author.store.ops(space: space.id)
        // The same device signs a different seq 2 in a copy of its store.
        let copy = try OpStore()
        try copy.addSpace(space.id, name: "t", now: 0)
        _ = try copy.receive(space: space.id, spaceKey: space.key, ops: [branchA[0]], mode: .strict, now: receiverNow)
        try copy.append(
            space: space.id, signer: twin.device,
            changes: [.score(game: entity(1), player: entity(2), hole: 1, entry: try ScoreEntry(strokes: 9))],
            now: 5)
        let branchB = try copy.ops(space: space.id)
        for mode in [ReceiveMode.strict, .tolerant] {
            let store = try replica(space)
            _ = try store.receive(space: space.id, spaceKey: space.key, ops: branchA, mode: .strict, now: receiverNow)
            let report = try store.receive(space: space.id, spaceKey: space.key, ops: branchB, mode: mode, now: receiverNow)
            #expect(report.forks == [OpID(device: twin.device.publicKey, seq: 2)])
            #expect(try store.forks(space.id).count == 1)
            #expect(try store.vector(space.id)[twin.device.publicKey] == 1)
            #expect(try store.cells(space.id, game: entity(1)).first?.values.map(\.entry.strokes).sorted() == [4, 9])
        }
    }

    @Test("a revoked device's later ops are rejected, whether the revocation arrives first or last")
    func revocation() throws {
        let space = TestSpace()
        let user = SigningKey.generate()
        var phone = try Author("ana", space: space, user: user)
        var watch = try Author("ana", space: space, user: user)
        try watch.score(game: entity(1), player: entity(2), hole: 1, strokes: 4)
        try phone.pull(from: watch)
        let lastValid = try phone.store.vector(space.id)[watch.device.publicKey]
        // The watch is stolen: later ops from it must not count anywhere.
        try watch.score(game: entity(1), player: entity(2), hole: 2, strokes: 1)
        let signature = user.sign(
            Membership.revocationMessage(
                space: space.id, device: watch.device.publicKey,
                lastValidSeq: lastValid))
        try phone.edit([.revoke(.init(device: watch.device.publicKey, lastValidSeq: lastValid, userSignature: signature))])
        let phoneOps = try phone.store.ops(space: space.id)
        let watchOps = try watch.store.ops(space: space.id)
        #expect(throws: StoreError.self) {
            try phone.store.receive(space: space.id, spaceKey: space.key, ops: watchOps, mode: .strict, now: receiverNow)
        }
        let first = try replica(space)
        _ = try first.receive(space: space.id, spaceKey: space.key, ops: phoneOps, mode: .tolerant, now: receiverNow)
        _ = try first.receive(space: space.id, spaceKey: space.key, ops: watchOps, mode: .tolerant, now: receiverNow)
        let last = try replica(space)
        _ = try last.receive(space: space.id, spaceKey: space.key, ops: watchOps, mode: .tolerant, now: receiverNow)
        #expect(try last.cells(space.id, game: entity(1)).count == 2)
        _ = try last.receive(space: space.id, spaceKey: space.key, ops: phoneOps, mode: .tolerant, now: receiverNow)
        for store in [first, last] {
            #expect(try store.cells(space.id, game: entity(1)).map(\.hole) == [1])
            #expect(try store.vector(space.id)[watch.device.publicKey] == lastValid)
        }
        #expect(try first.stateHash(space.id) == last.stateHash(space.id))
        #expect(try first.stateHash(space.id) == phone.hash())
    }

    @Test("a strict import carrying a revocation removes the revoked device's later ops the importer already held")
    func strictImportOfRevocation() throws {
        let space = TestSpace()
        let user = SigningKey.generate()
        var phone = try Author("ana", space: space, user: user)
        var watch = try Author("ana", space: space, user: user)
        let listener = try Author("ben", space: space)
        try phone.pull(from: watch)
        let lastValid = try phone.store.vector(space.id)[watch.device.publicKey]
        try watch.score(game: entity(1), player: entity(2), hole: 1, strokes: 4)
        _ = try listener.store.receive(
            space: space.id, spaceKey: space.key, ops: try watch.store.ops(space: space.id),
            mode: .strict, now: receiverNow)
        #expect(try listener.store.cells(space.id, game: entity(1)).count == 1)
        let signature = user.sign(
            Membership.revocationMessage(
                space: space.id, device: watch.device.publicKey,
                lastValidSeq: lastValid))
        try phone.edit([.revoke(.init(device: watch.device.publicKey, lastValidSeq: lastValid, userSignature: signature))])
        let report = try listener.store.receive(
            space: space.id, spaceKey: space.key,
            ops: try phone.store.ops(space: space.id), mode: .strict, now: receiverNow)
        #expect(report.removed == 1)
        #expect(try listener.store.cells(space.id, game: entity(1)).isEmpty)
        #expect(try listener.store.vector(space.id)[watch.device.publicKey] == lastValid)
    }

    @Test("a device cannot revoke itself retroactively, which would cancel its own revocation")
    func selfRevocation() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        try author.score(game: entity(1), player: entity(2), hole: 1, strokes: 4)
        let signature = author.user.sign(
            Membership.revocationMessage(
                space: space.id, device: author.device.publicKey,
                lastValidSeq: 1))
        try author.edit([.revoke(.init(device: author.device.publicKey, lastValidSeq: 1, userSignature: signature))])
        let store = try replica(space)
        #expect(throws: StoreError.self) {
            try store.receive(
                space: space.id, spaceKey: space.key, ops: try author.store.ops(space: space.id),
                mode: .strict, now: receiverNow)
        }
    }

    @Test("a revocation signed by someone other than the device's user is refused")
    func foreignRevocation() throws {
        let space = TestSpace()
        var mallory = try Author("mallory", space: space)
        let victim = try Author("ana", space: space)
        try mallory.pull(from: victim)
        let signature = mallory.user.sign(
            Membership.revocationMessage(
                space: space.id, device: victim.device.publicKey,
                lastValidSeq: 0))
        try mallory.edit([.revoke(.init(device: victim.device.publicKey, lastValidSeq: 0, userSignature: signature))])
        let store = try replica(space)
        _ = try store.receive(
            space: space.id, spaceKey: space.key, ops: try mallory.store.ops(space: space.id),
            mode: .tolerant, now: receiverNow)
        #expect(try store.members(space.id).first { $0.device == victim.device.publicKey }?.revokedAfter == nil)
    }

    @Test("bundles round-trip and refuse truncation, damage and other files")
    func bundles() throws {
        let (space, _, ops, _) = try opsAndReceiver()
        let bytes = OpBundle(space: space.id, ops: ops).encoded
        let decoded = try OpBundle(decoding: bytes)
        #expect(decoded.ops == ops && decoded.space == space.id)
        #expect(throws: CoreError.self) { try OpBundle(decoding: Array(bytes.dropLast(10))) }
        var damaged = bytes
        damaged[40] ^= 1
        #expect(throws: CoreError.self) { try OpBundle(decoding: damaged) }
        #expect(throws: CoreError.self) { try OpBundle(decoding: Array("hello".utf8)) }
    }

    @Test("verify names the op whose stored bytes changed, and the link after it")
    func verifyFindsFlip() throws {
        let (space, author, _, _) = try opsAndReceiver()
        #expect(try author.store.verify(space.id, spaceKeys: [space.key]).failures.isEmpty)
        try author.store.db.write { db in
            var bytes = try [UInt8](Data.fetchOne(db, sql: "SELECT bytes FROM op WHERE seq = 3") ?? Data())
            bytes[bytes.count - 80] ^= 0x01
            try db.execute(sql: "UPDATE op SET bytes = ? WHERE seq = 3", arguments: [Data(bytes)])
        }
        let failures = try author.store.verify(space.id, spaceKeys: [space.key]).failures
        #expect(failures.contains { $0.op.seq == 3 && $0.reason.contains("signature") })
        #expect(failures.contains { $0.op.seq == 4 && $0.reason.contains("chain") })
        #expect(!failures.contains { $0.op.seq == 2 })
    }
}
