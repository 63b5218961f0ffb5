import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieWire

/// Invites, owners, removals and new keys, byte for byte (Protocol/wire.md "Redeeming an invite" and "Space keys
/// after a removal", Protocol/op-format.md `0x03` and `0x04`). CADDIE_WRITE_VECTORS=1 writes
/// Protocol/vectors/membership-v1.json anew (only for a new version).
@Suite("Membership test vectors")
struct MembershipVectorTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/membership-v1.json")

    static func compute() throws -> [String: String] {
        let owner = try SigningKey(seed: [UInt8](repeating: 0x11, count: 32))
        let member = try SigningKey(seed: [UInt8](repeating: 0x44, count: 32))
        let salt = [UInt8](repeating: 0x99, count: 16)
        let space = Membership.ownedSpaceID(owner: owner.publicKey, salt: salt)
        let secret = [UInt8](repeating: 0x55, count: 32)
        let newKey = [UInt8](repeating: 0x33, count: 32)
        let ana = try TestDevice(userSeed: 0x11, deviceSeed: 0x22)
        var redeemer = HandshakeInitiator(
            space: space, inviteSecret: secret, credentials: ana.credentials,
            ephemeral: EphemeralKey(secret: [UInt8](repeating: 0x66, count: 32)))
        // The sealed box is random by construction (an ephemeral key inside): the vector fixes its 80 bytes.
        let payload = Payload.encode([
            .remove(.init(user: member.publicKey, ownerSalt: salt, devices: [.init(device: member.publicKey, lastValidSeq: 5)])),
            .rotate(
                .init(
                    epoch: 1, ownerSalt: salt, keyCheck: Membership.keyCheck(newKey),
                    sealed: [.init(device: owner.publicKey, box: [UInt8](repeating: 0xBB, count: 80))])),
        ])
        return [
            "ownerUserSeed": Hex.encode(owner.seed), "ownerSalt": Hex.encode(salt), "ownedSpaceID": space.hex,
            "inviteSecret": Hex.encode(secret),
            "inviteHandshakeKey": Hex.encode(Handshake.inviteKey(space: space, secret: secret)),
            "inviteMessage1": Hex.encode(redeemer.start()),
            "newKey": Hex.encode(newKey), "keyCheck": Hex.encode(Membership.keyCheck(newKey)),
            "memberUserSeed": Hex.encode(member.seed), "removeAndRotatePayload": Hex.encode(payload),
            "welcome": Hex.encode(
                WireMessage.welcome(
                    spaceKey: newKey, name: "Saturday",
                    earlierKeys: [[UInt8](repeating: 0x77, count: 32)]
                ).encoded),
        ]
    }

    @Test("the committed membership vectors are exactly what this build computes, and decode back")
    func vectorsMatch() throws {
        let computed = try Self.compute()
        if ProcessInfo.processInfo.environment["CADDIE_WRITE_VECTORS"] == "1" {
            try JSONSerialization.data(withJSONObject: computed, options: [.prettyPrinted, .sortedKeys]).write(to: Self.file)
        }
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: String])
        #expect(stored == computed)
        let decoded = try Payload.decode(try #require(Hex.decode(computed["removeAndRotatePayload"] ?? "")))
        #expect(decoded.count == 2)
    }
}
