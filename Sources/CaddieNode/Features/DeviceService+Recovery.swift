import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation

extension DeviceService {
    /// The user key as its recovery phrase: 24 words that bring the user back on a new device if every device
    /// holding the key is lost. Only the device the user first logged in on holds the key.
    public func recoveryPhrase(passphrase: String) throws(NodeError) -> [String] {
        let keys = try unlock(passphrase: passphrase)
        guard let user = keys.user else {
            throw .refused(
                "this device does not hold the user key: show the recovery phrase on the device you first "
                    + "logged in on")
        }
        do {
            return try RecoveryPhrase.words(for: user.seed)
        } catch {
            throw .crypto(error)
        }
    }

    /// Brings a user back in this empty home from their recovery phrase, with a new device key certified by the
    /// user key. Devices of the user certified before now count as lost: `revokeLostDevices` revokes them.
    public func recover(phrase: String, name: String, passphrase: String) throws(NodeError) -> Identity {
        try home.requireNoIdentity()
        let seed = try Self.recoverySeed(phrase)
        let user: SigningKey
        do {
            user = try SigningKey(seed: seed)
        } catch {
            throw .crypto(error)
        }
        return try home.login(name: name, user: user, recovered: true, passphrase: passphrase)
    }

    /// The seed a typed recovery phrase holds, or what to fix in it (checked before anything is asked or written).
    public static func recoverySeed(_ phrase: String) throws(NodeError) -> [UInt8] {
        do {
            return try RecoveryPhrase.seed(from: phrase)
        } catch {
            throw .malformed(what: "recovery phrase", "\(error.description); nothing was changed")
        }
    }

    /// On a recovered home: revokes, in `only` these spaces or else every space held, each device of this user
    /// certified before the recovery and not yet revoked there. Its ops up to the last one this home holds stay
    /// valid. Returns the devices revoked now. Call it for a space once this home has synced it with the group, so
    /// that it holds the lost device's ops that others hold (a revocation keeps only the ops held where it is made).
    @discardableResult
    func revokeLostDevices(keys: UnlockedKeys, only: [SpaceID]? = nil) throws(NodeError) -> [PublicKey] {
        let identity = try identity()
        guard let since = identity.recoveredAt, let user = keys.user else { return [] }
        let lost = try run { try store.devicesCertified(by: user.publicKey, before: since) }
            .filter { $0 != keys.device.publicKey }
        var revoked: [PublicKey] = []
        for device in lost {
            var any = false
            for space in try spaces.list().map(\.id) where only?.contains(space) ?? true {
                guard try run({ try store.revokedAfter(space, device: device, user: user.publicKey) }) == nil else { continue }
                try home.appendRevocation(of: device, in: space, user: user, keys: keys)
                any = true
            }
            if any { revoked.append(device) }
        }
        return revoked
    }
}
