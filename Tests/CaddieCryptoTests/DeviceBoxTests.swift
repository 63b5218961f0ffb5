import CaddieCore
import Testing

@testable import CaddieCrypto

@Suite("Keys sealed to a device, and spaces bound to their owner")
struct DeviceBoxTests {
    @Test("a key sealed to a device opens with that device's key only, and an altered box does not open")
    func sealedToOneDevice() throws {
        let (ana, ben) = (SigningKey.generate(), SigningKey.generate())
        let secret = SecureRandom.bytes(32)
        let box = try #require(DeviceBox.seal(secret, to: ana.publicKey))
        #expect(box.count == 80)
        #expect(DeviceBox.open(box, with: ana) == secret)
        #expect(DeviceBox.open(box, with: ben) == nil)
        var altered = box
        altered[40] ^= 1
        #expect(DeviceBox.open(altered, with: ana) == nil)
        #expect(DeviceBox.seal(secret, to: ana.publicKey) != box, "each seal uses a fresh ephemeral key")
    }

    @Test("a space id names its owner: the salt proves it for that user key and no other")
    func ownedSpaceID() {
        let (owner, other) = (SigningKey.generate().publicKey, SigningKey.generate().publicKey)
        let salt = SecureRandom.bytes(16)
        let space = Membership.ownedSpaceID(owner: owner, salt: salt)
        #expect(Membership.ownedSpaceID(owner: owner, salt: salt) == space)
        #expect(Membership.ownedSpaceID(owner: other, salt: salt) != space)
        #expect(Membership.ownedSpaceID(owner: owner, salt: SecureRandom.bytes(16)) != space)
        #expect(Membership.keyCheck([UInt8](repeating: 1, count: 32)).count == 8)
        #expect(Membership.keyCheck([UInt8](repeating: 1, count: 32)) != Membership.keyCheck([UInt8](repeating: 2, count: 32)))
    }
}
