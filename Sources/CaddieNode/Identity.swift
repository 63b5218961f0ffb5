import CaddieCore
import CaddieCrypto
import Foundation
import Synchronization

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

/// The unlocked keys of a home, for one command's lifetime, or for a running node's.
///
/// The space keys are shared by every copy: a space created or joined while the node runs (``take(space:key:earlier:in:)``)
/// reaches every part holding these keys (its sessions, its invites, its API) at once.
public struct UnlockedKeys: Sendable {
    /// The user key, when this device holds it.
    public let user: SigningKey?
    /// This device's key.
    public let device: SigningKey
    /// The key the ring was sealed with, derived from the passphrase at unlock: it seals the ring again when a
    /// space is added (nil for keys made in memory, which cannot be sealed again without a passphrase).
    let sealing: SealedBox.SealingKey?
    private let shared: SharedRing

    init(ring: KeyRing, sealing: SealedBox.SealingKey? = nil) throws(NodeError) {
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
        self.sealing = sealing
        shared = SharedRing(ring)
    }

    /// The ring as it is now.
    var ring: KeyRing { shared.state.withLock { $0.ring } }
    /// Space keys.
    var spaceKeys: [SpaceID: [UInt8]] { shared.state.withLock { $0.spaceKeys } }
    /// Keys of earlier epochs that this device was given when it joined (see KeyRing.earlierSpaceKeys).
    var earlierKeys: [SpaceID: [[UInt8]]] { shared.state.withLock { $0.earlierKeys } }

    /// The key of a space, or an error saying how to get it.
    public func key(for space: SpaceID) throws(NodeError) -> [UInt8] {
        guard let key = spaceKeys[space] else {
            throw .refused("this home does not hold the key of space \(space.short): join it with its invite code")
        }
        return key
    }

    /// Adds a space's keys and seals the ring again in `home`, with the key kept from the unlock: every copy of these
    /// keys holds the space from now on. On an error nothing changed, in memory or on disk. The key is sealed before
    /// the space is recorded, so a recorded space never lacks its key; if the recording then fails, the ring keeps a
    /// key for a space the home does not hold, which nothing uses (a later join of that space sets it again).
    func take(space: SpaceID, key: [UInt8], earlier: [[UInt8]] = [], in home: Home) throws(NodeError) {
        try change(in: home) { ring in
            ring.spaces[space.hex] = Hex.encode(key)
            if !earlier.isEmpty {
                var all = ring.earlierSpaceKeys ?? [:]
                all[space.hex] = earlier.map(Hex.encode)
                ring.earlierSpaceKeys = all
            }
        }
    }

    /// Changes the ring and seals it in `home` (the file first, then memory), under one lock so that two changes
    /// never lose each other.
    func change(in home: Home, _ body: (inout KeyRing) -> Void) throws(NodeError) {
        guard let sealing else {
            throw .conflict("these keys were not unlocked with the passphrase, so they cannot be sealed again")
        }
        try shared.state.withLock { state throws(NodeError) in
            var ring = state.ring
            body(&ring)
            try home.seal(ring, with: sealing)
            state = SharedRing.State(ring)
        }
    }
}

/// The ring of one unlock and what is read from it, behind a lock.
private final class SharedRing: Sendable {
    struct State {
        var ring: KeyRing
        var spaceKeys: [SpaceID: [UInt8]] = [:]
        var earlierKeys: [SpaceID: [[UInt8]]] = [:]

        init(_ ring: KeyRing) {
            self.ring = ring
            for (id, key) in ring.spaces {
                if let id = SpaceID(hex: id), let key = Hex.decode(key), key.count == 32 { spaceKeys[id] = key }
            }
            for (id, list) in ring.earlierSpaceKeys ?? [:] {
                if let id = SpaceID(hex: id) { earlierKeys[id] = list.compactMap(Hex.decode).filter { $0.count == 32 } }
            }
        }
    }

    let state: Mutex<State>

    init(_ ring: KeyRing) { state = Mutex(State(ring)) }
}

/// Unlocked keys print, log and reflect as the device's public key only: no secret, seed or space key reaches a
/// log line or a debug description.
extension UnlockedKeys: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "UnlockedKeys(device: \(device.publicKey.hex))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["device": device.publicKey.hex]) }
}
