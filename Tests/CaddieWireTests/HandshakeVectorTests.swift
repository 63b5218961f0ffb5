import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieWire

/// The handshake of Protocol/wire.md with fixed keys and ephemerals, byte for byte. Set
/// CADDIE_WRITE_VECTORS=1 to write Protocol/vectors/handshake-v1.json anew (only for a new version).
@Suite("Handshake test vectors")
struct HandshakeVectorTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/handshake-v1.json")

    static func compute() throws -> [String: String] {
        let space = SpaceID(unchecked: Array(0..<16))
        let key = [UInt8](repeating: 0x33, count: 32)
        let ana = try TestDevice(userSeed: 0x11, deviceSeed: 0x22)
        let ben = try TestDevice(userSeed: 0x44, deviceSeed: 0x55)
        let initiatorEphemeral = EphemeralKey(secret: [UInt8](repeating: 0x66, count: 32))
        let responderEphemeral = EphemeralKey(secret: [UInt8](repeating: 0x77, count: 32))
        var client = HandshakeInitiator(space: space, spaceKey: key, credentials: ana.credentials, ephemeral: initiatorEphemeral)
        var server = HandshakeResponder(spaces: [(space, key)], credentials: ben.credentials, ephemeral: responderEphemeral)
        let message1 = client.start()
        guard case .send(let message2) = server.receive(message1),
            case .established(let message3, var clientSession) = client.receive(message2),
            case .established(var serverSession) = server.receive(message3)
        else {
            throw WireError.unexpected("the fixed handshake did not complete")
        }
        let vector = WireMessage.vector([]).encoded
        let firstFromInitiator = clientSession.cipher.seal(vector)
        #expect(try serverSession.cipher.open(firstFromInitiator) == vector)
        let firstFromResponder = serverSession.cipher.seal(WireMessage.done.encoded)
        return [
            "space": space.hex, "spaceKey": Hex.encode(key), "certifiedAt": "7",
            "initiatorUserSeed": Hex.encode(ana.user.seed), "initiatorDeviceSeed": Hex.encode(ana.device.seed),
            "responderUserSeed": Hex.encode(ben.user.seed), "responderDeviceSeed": Hex.encode(ben.device.seed),
            "initiatorEphemeralSecret": Hex.encode([UInt8](repeating: 0x66, count: 32)),
            "responderEphemeralSecret": Hex.encode([UInt8](repeating: 0x77, count: 32)),
            "handshakeKey": Hex.encode(Handshake.handshakeKey(space: space, spaceKey: key)),
            "message1": Hex.encode(message1), "message2": Hex.encode(message2), "message3": Hex.encode(message3),
            "firstInitiatorFrameVectorEmpty": Hex.encode(firstFromInitiator),
            "firstResponderFrameDone": Hex.encode(firstFromResponder),
        ]
    }

    @Test("the committed handshake vectors are exactly what this build sends")
    func vectorsMatch() throws {
        let computed = try Self.compute()
        if ProcessInfo.processInfo.environment["CADDIE_WRITE_VECTORS"] == "1" {
            try JSONSerialization.data(withJSONObject: computed, options: [.prettyPrinted, .sortedKeys]).write(to: Self.file)
        }
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: String])
        #expect(stored == computed)
    }
}
