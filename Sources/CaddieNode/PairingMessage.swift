import CaddieCodes
import CaddieCore
import CaddieCrypto
import Foundation

extension PairingCode {
    /// The key of the new device's request MAC.
    var macKey: [UInt8] { Blake2b.hash(parts: [Array("caddie-pair-mac".utf8), secret]).bytes }
    /// The key that seals the first device's grant.
    var boxKey: [UInt8] { Blake2b.hash(parts: [Array("caddie-pair-box".utf8), secret]).bytes }
}

/// The messages of the pairing exchange (docs/identity-and-spaces.md, "Adding a device"), each one frame as on
/// the sync wire (a u32 length, then the body; `FrameExchange` in CaddieSync carries them):
///
///     new device -> first:  "CPR1" ‖ device key (32) ‖ HMAC(macKey, "caddie-pair-request" ‖ device key) (32)
///     first -> new device:  "CPA1" ‖ secretbox(boxKey, grant JSON)     on success
///                           "CPX1" ‖ UTF-8 reason                       on refusal
enum PairingMessage {
    static let requestLength = 4 + 32 + 32
    /// Seconds for connecting, and for each side's message to arrive whole.
    static let readTimeout: Int64 = 10
    static let granted = Array("CPA1".utf8)
    static let refused = Array("CPX1".utf8)

    static func refusal(_ reason: String) -> [UInt8] { refused + Array(reason.utf8) }

    struct Grant: Codable {
        var name: String
        var user: String
        var certifiedAt: UInt64
        var certificate: String
        var spaces: [GrantedSpace]
    }

    struct GrantedSpace: Codable {
        var id: String
        /// The space's current key (after a removal, the newest epoch's).
        var key: String
        var name: String
        /// The keys of earlier epochs, newest first, so that the new device can check joins made under them.
        var earlier: [String]? = nil
    }

    static func request(device: PublicKey, code: PairingCode) -> [UInt8] {
        Array("CPR1".utf8) + device.bytes
            + MessageAuthentication.tag(Array("caddie-pair-request".utf8) + device.bytes, key: code.macKey)
    }

    /// The device key of a valid request, or nil.
    static func parseRequest(_ bytes: [UInt8], code: PairingCode) -> PublicKey? {
        guard bytes.count == requestLength, Array(bytes.prefix(4)) == Array("CPR1".utf8) else { return nil }
        let device = PublicKey(unchecked: Array(bytes[4..<36]))
        guard
            MessageAuthentication.verify(
                Array(bytes[36...]), message: Array("caddie-pair-request".utf8) + device.bytes,
                key: code.macKey)
        else { return nil }
        return device
    }
}
