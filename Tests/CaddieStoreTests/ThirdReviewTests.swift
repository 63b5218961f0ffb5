import CaddieCore
import CaddieCrypto
import Testing

@testable import CaddieStore

/// The third security review (docs/security.md), in the store: what ends a partner's browser session
/// (`OpStore.personEnded`, asked at each of that session's requests).
@Suite("Third security review: what ends a partner's browser session")
struct ThirdReviewTests {
    @Test(
        "another member's 'revocation' of a device, or a removal from a space the user never joined, ends nothing; the user's own revocation does"
    )
    func personEnded() throws {
        let node = try OpStore()
        let ana = try Author("ana", space: TestSpace(), store: node)
        let dan = try Author("dan", space: ana.space)
        var mal = try Author("mal", space: ana.space)
        try ana.pull(from: dan)
        try ana.pull(from: mal)
        let ended = { try node.personEnded(user: dan.user.publicKey, device: dan.device.publicKey) }
        #expect(try ended() == false)
        // Mal signs a revocation of Dan's device with his own user key: it is stored under Mal, and is none of Dan's.
        let forged = mal.user.sign(
            Membership.revocationMessage(space: ana.space.id, device: dan.device.publicKey, lastValidSeq: 1))
        try mal.edit([.revoke(.init(device: dan.device.publicKey, lastValidSeq: 1, userSignature: forged))])
        try ana.pull(from: mal)
        #expect(try ended() == false, "another member's revocation ended Dan's session")
        // The owner of a space Dan never joined, which Ana's node also holds, removes him there.
        var (evil, evilSalt) = try SecondReviewTests.ownedSpace()
        let anaInEvil = try Author("ana", space: evil.space, user: ana.user, store: node)
        try evil.pull(from: anaInEvil)
        try evil.edit([SecondReviewTests.removal(dan.user, devices: [dan.device], salt: evilSalt)])
        try anaInEvil.pull(from: evil)
        #expect(try node.isRemoved(evil.space.id, user: dan.user.publicKey))
        #expect(try ended() == false, "a removal from a space Dan never joined ended his session")
        // Dan revokes his own device, from his tablet: that ends it.
        var danTablet = try Author("dan", space: ana.space, user: dan.user)
        let own = dan.user.sign(
            Membership.revocationMessage(space: ana.space.id, device: dan.device.publicKey, lastValidSeq: 1))
        try danTablet.edit([.revoke(.init(device: dan.device.publicKey, lastValidSeq: 1, userSignature: own))])
        try ana.pull(from: danTablet)
        #expect(try ended(), "Dan's own revocation of his device ends its session")
    }
}
