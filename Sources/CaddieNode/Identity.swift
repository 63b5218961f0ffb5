import CaddieCore
import CaddieCrypto
import Foundation

/// The public half of a home's identity, kept in `identity.json`.
public struct Identity: Codable, Sendable, Equatable {
    /// The user's display name.
    public var name: String
    /// The user's public key, hex.
    public var user: String
    /// This device's public key, hex.
    public var device: String
    /// When the user certified this device (ms since 1970).
    public var certifiedAt: UInt64
    /// The user's signature over the device certificate, hex.
    public var certificate: String
    /// When this home restored the user from its recovery phrase (ms since 1970): devices of the user certified
    /// before then count as lost. Absent on a home that was never recovered.
    public var recoveredAt: UInt64?

    /// The user key.
    public var userKey: PublicKey? { PublicKey(hex: user) }
    /// The device key.
    public var deviceKey: PublicKey? { PublicKey(hex: device) }
}

/// The secret half, sealed with the passphrase in `keys.sealed`: never written in the clear.
struct KeyRing: Codable, Sendable {
    /// The user key's seed, hex; absent on a second device, which holds only its own key.
    var userSeed: String?
    /// This device's key seed, hex.
    var deviceSeed: String
    /// Space keys by space id, hex.
    var spaces: [String: String]
    /// Keys of earlier epochs by space id, hex, for a device that joined after a member was removed: they let it
    /// check the joins made before (absent in key rings from before removals existed).
    var earlierSpaceKeys: [String: [String]]?
    /// The key of the home's certificate authority (HTTPS for the web app), hex; absent until `caddie serve --https`
    /// first makes one.
    var authorityKey: String?
}

/// The unlocked keys of a home, for one command's lifetime.
public struct UnlockedKeys: Sendable {
    /// The user key, when this device holds it.
    public let user: SigningKey?
    /// This device's key.
    public let device: SigningKey
    /// Space keys.
    let spaceKeys: [SpaceID: [UInt8]]
    /// Keys of earlier epochs that this device was given when it joined (see KeyRing.earlierSpaceKeys).
    let earlierKeys: [SpaceID: [[UInt8]]]
    fileprivate(set) var ring: KeyRing

    init(ring: KeyRing) throws(NodeError) {
        self.ring = ring
        do {
            user = try ring.userSeed.map { seed throws(CryptoError) in
                guard let bytes = Hex.decode(seed) else { throw CryptoError.invalidKey("user seed is not hex") }
                return try SigningKey(seed: bytes)
            }
            guard let deviceSeed = Hex.decode(ring.deviceSeed) else { throw CryptoError.invalidKey("device seed is not hex") }
            device = try SigningKey(seed: deviceSeed)
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .malformed(what: "keys", "\(error)")
        }
        var keys: [SpaceID: [UInt8]] = [:]
        for (id, key) in ring.spaces {
            if let id = SpaceID(hex: id), let key = Hex.decode(key), key.count == 32 { keys[id] = key }
        }
        spaceKeys = keys
        var earlier: [SpaceID: [[UInt8]]] = [:]
        for (id, list) in ring.earlierSpaceKeys ?? [:] {
            if let id = SpaceID(hex: id) { earlier[id] = list.compactMap(Hex.decode).filter { $0.count == 32 } }
        }
        earlierKeys = earlier
    }

    /// The key of a space, or an error saying how to get it.
    public func key(for space: SpaceID) throws(NodeError) -> [UInt8] {
        guard let key = spaceKeys[space] else {
            throw .refused("this home does not hold the key of space \(space.short): join it with its invite code")
        }
        return key
    }

    func adding(space: SpaceID, key: [UInt8], earlier: [[UInt8]] = []) throws(NodeError) -> UnlockedKeys {
        var ring = self.ring
        ring.spaces[space.hex] = Hex.encode(key)
        if !earlier.isEmpty {
            var all = ring.earlierSpaceKeys ?? [:]
            all[space.hex] = earlier.map(Hex.encode)
            ring.earlierSpaceKeys = all
        }
        return try UnlockedKeys(ring: ring)
    }
}

/// Unlocked keys print, log and reflect as the device's public key only: no secret, seed or space key reaches a
/// log line or a debug description.
extension UnlockedKeys: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "UnlockedKeys(device: \(device.publicKey.hex))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["device": device.publicKey.hex]) }
}
