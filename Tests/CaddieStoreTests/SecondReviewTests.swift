import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieStore

/// Findings of the second security review (issue "What a member, an ex-member or a stranger can still do"),
/// each shown by a test that failed on the code before its fix.
@Suite("Second security review: what a member can still do")
struct SecondReviewTests {
    /// A space owned by a new user, with the owner's first device and the space record as `caddie space create`
    /// writes it.
    static func ownedSpace() throws -> (owner: Author, salt: [UInt8]) {
        let user = SigningKey.generate()
        let salt = SecureRandom.bytes(16)
        var owner = try Author(
            "ana", space: TestSpace(id: Membership.ownedSpaceID(owner: user.publicKey, salt: salt)), user: user)
        try owner.edit([
            .set(
                kind: .space, id: .spaceRecord,
                fields: ["name": .text("Saturday"), "owner": .bytes(user.publicKey.bytes), "ownerSalt": .bytes(salt)])
        ])
        return (owner, salt)
    }

    @Test("finding 'any member can switch off removal and rotation': a member's write of the owner fields counts nowhere")
    func ownerFieldsAreTheOwners() throws {
        let (ana, salt) = try Self.ownedSpace()
        var ben = try Author("ben", space: ana.space)
        try ben.pull(from: ana)
        // Ben garbles the salt and renames the space in one op, names himself owner in another, clears both in a
        // third: the renaming is an ordinary member's right and applies, the rest must not.
        try ben.edit([
            .set(kind: .space, id: .spaceRecord, fields: ["ownerSalt": .bytes(SecureRandom.bytes(16)), "name": .text("Ben's")])
        ])
        try ben.edit([
            .set(
                kind: .space, id: .spaceRecord,
                fields: ["owner": .bytes(ben.user.publicKey.bytes), "ownerSalt": .bytes(salt)])
        ])
        try ben.edit([.set(kind: .space, id: .spaceRecord, fields: ["owner": .null, "ownerSalt": .null])])
        let report = try ana.pull(from: ben)
        #expect(report.rejected.isEmpty, "\(report.rejected)")
        // A third node that hears Ben first and Ana after, each in one batch.
        let late = try replica(ana.space)
        for source in [ben.store, ana.store] {
            let ops = try source.ops(space: ana.space.id, notIn: try late.vector(ana.space.id))
            _ = try late.receive(space: ana.space.id, spaceKey: ana.space.key, ops: ops, mode: .tolerant, now: receiverNow)
        }
        for (name, store) in [("Ana's", ana.store), ("Ben's", ben.store), ("a late node's", late)] {
            let record = try #require(try store.record(ana.space.id, kind: .space, id: .spaceRecord), "\(name)")
            #expect(record["owner"] == .bytes(ana.user.publicKey.bytes), "\(name) record names another owner")
            #expect(record["ownerSalt"] == .bytes(salt), "\(name) record lost the owner's salt")
            #expect(record["name"] == .text("Ben's"), "\(name) record: a member may still rename the space")
        }
        #expect(try ana.hash() == (try late.stateHash(ana.space.id)))
    }

    /// The owner's removal of `member` from the owner's space, cutting each of the given devices after `seq`.
    static func removal(_ member: SigningKey, devices: [SigningKey], salt: [UInt8], seq: UInt64 = 1) -> Change {
        .remove(
            Change.Removal(
                user: member.publicKey, ownerSalt: salt,
                devices: devices.map { .init(device: $0.publicKey, lastValidSeq: seq) }))
    }

    @Test("finding 'a removal in one space shuts a device out of all spaces': a stranger space's removal reaches nothing")
    func foreignRemovalReachesNoOtherSpace() throws {
        // Ana's node holds her real space, where Dan plays, and Mal's space "Evil", which she joined.
        let node = try OpStore()
        let ana = try Author("ana", space: TestSpace(), store: node)
        let dan = try Author("dan", space: ana.space)
        try ana.pull(from: dan)
        var (mal, malSalt) = try Self.ownedSpace()
        let anaInEvil = try Author("ana", space: mal.space, user: ana.user, store: node)
        try mal.pull(from: anaInEvil)
        // Mal, owner of Evil, "removes" Dan, who never was in Evil.
        try mal.edit([Self.removal(dan.user, devices: [dan.device], salt: malSalt)])
        let report = try anaInEvil.pull(from: mal)
        #expect(report.rejected.isEmpty, "\(report.rejected)")
        #expect(try node.isRemoved(mal.space.id, user: dan.user.publicKey), "the removal applied in Evil")
        // Dan's device is refused nowhere: not by key across spaces, not in Evil (he never joined it), not in Ana's.
        #expect(try node.deviceRevocation(dan.device.publicKey, presentedUser: dan.user.publicKey) == nil)
        #expect(try node.removedDevice(ana.space.id, device: dan.device.publicKey) == false)
        #expect(try node.removedDevice(mal.space.id, device: dan.device.publicKey) == false)
        // Nor does Dan's own first device, joining a new space, revoke its other device because of it.
        #expect(try node.devicesRevoked(by: dan.user.publicKey).isEmpty)
    }

    @Test("a real removal shuts the member's device out of that space only; their own revocation reaches every space")
    func removalCountsInItsOwnSpace() throws {
        // Ana owns one space; Ben plays there and in a second space of Ana's node, from one phone.
        let (ana, salt) = try Self.ownedSpace()
        let other = try Author("ana", space: TestSpace(), user: ana.user, store: ana.store)
        let benUser = SigningKey.generate()
        let benPhone = SigningKey.generate()
        let ben = try Author("ben", space: ana.space, user: benUser, device: benPhone)
        let benElsewhere = try Author("ben", space: other.space, user: benUser, device: benPhone)
        try ana.pull(from: ben)
        try other.pull(from: benElsewhere)
        var owner = ana
        try owner.edit([Self.removal(benUser, devices: [benPhone], salt: salt)])
        #expect(try ana.store.isRemoved(ana.space.id, user: benUser.publicKey))
        #expect(try ana.store.removedDevice(ana.space.id, device: benPhone.publicKey), "refused in the owner's space")
        #expect(try ana.store.removedDevice(other.space.id, device: benPhone.publicKey) == false)
        #expect(
            try ana.store.deviceRevocation(benPhone.publicKey, presentedUser: benUser.publicKey) == nil,
            "the removal shut Ben's phone out of the other space")
        // Ben's own revocation of his phone is a revocation: it counts in every space, whatever user it presents.
        var benTablet = try Author("ben", space: other.space, user: benUser)
        let signature = benUser.sign(
            Membership.revocationMessage(space: other.space.id, device: benPhone.publicKey, lastValidSeq: 1))
        try benTablet.edit([.revoke(.init(device: benPhone.publicKey, lastValidSeq: 1, userSignature: signature))])
        try other.pull(from: benTablet)
        #expect(try ana.store.deviceRevocation(benPhone.publicKey, presentedUser: SigningKey.generate().publicKey) == 1)
        #expect(try ana.store.devicesRevoked(by: benUser.publicKey) == [benPhone.publicKey])
    }

    @Test("a removal or a key rotation signed by a member who is not the owner is refused by every receiver, in any batch")
    func nonOwnerRemovalRefused() throws {
        let (ana, salt) = try Self.ownedSpace()
        var ben = try Author("ben", space: ana.space)
        let cleo = try Author("cleo", space: ana.space)
        try ben.pull(from: ana)
        try ben.pull(from: cleo)
        // Ben signs Cleo's removal with the owner's salt (it is in the space record for anyone to read), then a new
        // key with it: his user key does not give the space id with that salt, so neither is the owner's.
        try ben.edit([Self.removal(cleo.user, devices: [cleo.device], salt: salt)])
        try ben.edit([
            .rotate(
                Change.Rotation(
                    epoch: 1, ownerSalt: salt, keyCheck: Membership.keyCheck(SecureRandom.bytes(32)), sealed: []))
        ])
        let receiver = try replica(ana.space)
        for source in [ana.store, cleo.store] {
            let ops = try source.ops(space: ana.space.id, notIn: try receiver.vector(ana.space.id))
            _ = try receiver.receive(space: ana.space.id, spaceKey: ana.space.key, ops: ops, mode: .tolerant, now: receiverNow)
        }
        let bens = try ben.store.ops(space: ana.space.id, notIn: try receiver.vector(ana.space.id))
        let report = try receiver.receive(
            space: ana.space.id, spaceKey: ana.space.key, ops: bens, mode: .tolerant, now: receiverNow)
        #expect(report.rejected.contains { $0.contains("only the space's owner may remove a member") }, "\(report)")
        #expect(!(try receiver.isRemoved(ana.space.id, user: cleo.user.publicKey)))
        #expect(try receiver.sealedSpaceKeys(ana.space.id).isEmpty)
        // A rotation alone, from Ben's second device (a chain of its own, so nothing before it is missing), is refused
        // for what it is.
        var tablet = try Author("ben", space: ana.space, user: ben.user)
        try tablet.edit([
            .rotate(
                Change.Rotation(
                    epoch: 1, ownerSalt: salt, keyCheck: Membership.keyCheck(SecureRandom.bytes(32)), sealed: []))
        ])
        let alone = try receiver.receive(
            space: ana.space.id, spaceKey: ana.space.key,
            ops: try tablet.store.ops(space: ana.space.id, notIn: try receiver.vector(ana.space.id)), mode: .tolerant,
            now: receiverNow)
        #expect(alone.rejected.contains { $0.contains("only the space's owner may change the space's key") }, "\(alone)")
        #expect(try receiver.sealedSpaceKeys(ana.space.id).isEmpty)
    }

    @Test("finding 'clock drag': an op stamped just under a day ahead does not drag honest clocks past what others accept")
    func clockDrag() throws {
        let space = TestSpace()
        let hour: UInt64 = 3_600_000
        var ana = try Author("ana", space: space)
        var mal = try Author("mal", space: space)
        mal.clock = receiverNow + 24 * hour - 60_000
        try mal.edit([.set(kind: .player, id: entity(7), fields: ["name": .text("from the future")])])
        ana.clock = receiverNow
        #expect(try ana.pull(from: mal).applied.count == 2, "a day ahead less a minute is still accepted")
        let honest = try ana.edit([.set(kind: .player, id: entity(8), fields: ["name": .text("Ana's next")])])
        #expect(honest.hlc.milliseconds > receiverNow, "still later than Ana's own wall clock")
        #expect(honest.hlc.milliseconds <= receiverNow + hour + 1, "dragged at most an hour: \(honest.hlc)")
        // Ben's clock is two hours behind Ana's: he accepts Ana's op (a dragged clock a day ahead was refused).
        let ben = try replica(space)
        let report = try ben.receive(
            space: space.id, spaceKey: space.key,
            ops: try ana.store.ops(space: space.id, notIn: try ben.vector(space.id)), mode: .tolerant,
            now: receiverNow - 2 * hour)
        #expect(report.rejected.count == 1, "only Mal's op waits for Ben's clock: \(report.rejected)")
        #expect(report.rejected.first?.contains("more than a day ahead") == true)
        #expect(report.applied.contains(honest.id), "Ana's op after Mal's is accepted: \(report)")
        #expect(try ben.records(space.id, kind: .player).values.contains { $0["name"] == .text("Ana's next") })
    }
}
