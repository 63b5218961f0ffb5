import CSodium
import CaddieCore

/// Secrets sealed with a passphrase: Argon2id (crypto_pwhash) derives a key, XSalsa20-Poly1305
/// (crypto_secretbox) seals the bytes. Layout: "CADDIESB", version 1, opslimit u64, memlimit u64,
/// salt (16), nonce (24), ciphertext.
public enum SealedBox {
    private static let magic = Array("CADDIESB".utf8)
    /// Argon2id cost as libsodium's "interactive" level: about 0.1 s and 64 MiB per unlock.
    public static let defaultOpsLimit = UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE)
    /// Memory cost for Argon2id.
    public static let defaultMemLimit = UInt64(crypto_pwhash_MEMLIMIT_INTERACTIVE)

    /// What one unlock costs: Argon2id's passes and memory. A sealed file records its own, so a file sealed at
    /// other settings than today's defaults still opens, and is sealed again at the same settings.
    public struct Cost: Sendable, Equatable {
        /// Argon2id passes (libsodium's opslimit).
        public let opsLimit: UInt64
        /// Argon2id memory in bytes (libsodium's memlimit).
        public let memLimit: UInt64

        /// A cost inside the range ``SealedBox/open(_:passphrase:)`` accepts, else nil.
        public init?(opsLimit: UInt64, memLimit: UInt64) {
            guard opsLimit >= 1, opsLimit <= 64, memLimit >= 8192, memLimit <= 4 << 30 else { return nil }
            self.opsLimit = opsLimit
            self.memLimit = memLimit
        }

        /// libsodium's "interactive" level, what a new home's keys are sealed with.
        public static let interactive = Cost(opsLimit: defaultOpsLimit, memLimit: defaultMemLimit)!
        /// The least Argon2id allows (one pass, 8 KiB): for throwaway homes in tests only, where a passphrase guards
        /// nothing and each unlock would otherwise cost about 0.1 s of a core.
        public static let least = Cost(opsLimit: 1, memLimit: 8192)!
    }

    /// The cost a sealed file records, or nil when the bytes are not a sealed file this version reads.
    public static func cost(of sealed: [UInt8]) -> Cost? {
        var reader = ByteReader(sealed)
        guard (try? reader.raw(magic.count, "magic")) == magic, (try? reader.u8("version")) == 1,
            let ops = try? reader.u64("opslimit"), let mem = try? reader.u64("memlimit")
        else { return nil }
        return Cost(opsLimit: ops, memLimit: mem)
    }

    /// Seals `plaintext` with `passphrase`, at `cost` (the interactive level unless told).
    public static func seal(
        _ plaintext: [UInt8], passphrase: String, cost: Cost = .interactive
    ) throws(CryptoError)
        -> [UInt8]
    {
        Sodium.ensure()
        let salt = SecureRandom.bytes(Int(crypto_pwhash_SALTBYTES))
        let key = try deriveKey(passphrase, salt: salt, opsLimit: cost.opsLimit, memLimit: cost.memLimit)
        return seal(plaintext, with: SealingKey(key: key, salt: salt, cost: cost))
    }

    /// The key a passphrase derived for one sealed file, with the file's salt and cost: it seals the file again
    /// (``seal(_:with:)``, a fresh nonce each time) without the passphrase, and the passphrase still opens what it
    /// seals. A running node keeps one in memory, so that a space joined while it runs is sealed into its key ring;
    /// it prints as its cost only.
    public struct SealingKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        let key: [UInt8]
        let salt: [UInt8]
        /// The Argon2id cost the key was derived at.
        public let cost: Cost

        public var description: String { "SealingKey(opsLimit: \(cost.opsLimit), memLimit: \(cost.memLimit))" }
        public var debugDescription: String { description }
        public var customMirror: Mirror { Mirror(self, children: ["cost": description]) }
    }

    /// Seals `plaintext` again under a key kept from ``openKeeping(_:passphrase:)``: the same salt and cost, a fresh
    /// nonce, no Argon2id run.
    public static func seal(_ plaintext: [UInt8], with key: SealingKey) -> [UInt8] {
        Sodium.ensure()
        let nonce = SecureRandom.bytes(Int(crypto_secretbox_NONCEBYTES))
        var cipher = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_secretbox_MACBYTES))
        crypto_secretbox_easy(&cipher, plaintext, UInt64(plaintext.count), nonce, key.key)
        var writer = ByteWriter(capacity: cipher.count + 80)
        writer.raw(magic)
        writer.u8(1)
        writer.u64(key.cost.opsLimit)
        writer.u64(key.cost.memLimit)
        writer.raw(key.salt)
        writer.raw(nonce)
        writer.raw(cipher)
        return writer.bytes
    }

    /// Opens bytes sealed by ``seal(_:passphrase:)``.
    public static func open(_ sealed: [UInt8], passphrase: String) throws(CryptoError) -> [UInt8] {
        try openKeeping(sealed, passphrase: passphrase).plain
    }

    /// Opens bytes sealed by ``seal(_:passphrase:)`` and returns, with them, the key that sealed them.
    public static func openKeeping(
        _ sealed: [UInt8], passphrase: String
    ) throws(CryptoError) -> (plain: [UInt8], key: SealingKey) {
        Sodium.ensure()
        var reader = ByteReader(sealed)
        do {
            guard try reader.raw(magic.count, "magic") == magic else {
                throw CryptoError.corruptSealedData("not a Caddie sealed file")
            }
            let version = try reader.u8("version")
            guard version == 1 else { throw CryptoError.corruptSealedData("format version \(version) is unknown") }
            let ops = try reader.u64("opslimit")
            let mem = try reader.u64("memlimit")
            guard let cost = Cost(opsLimit: ops, memLimit: mem) else {
                throw CryptoError.corruptSealedData("key derivation limits are out of range")
            }
            let salt = try reader.raw(Int(crypto_pwhash_SALTBYTES), "salt")
            let nonce = try reader.raw(Int(crypto_secretbox_NONCEBYTES), "nonce")
            let cipher = try reader.raw(reader.remaining, "ciphertext")
            guard cipher.count >= Int(crypto_secretbox_MACBYTES) else { throw CryptoError.corruptSealedData("too short") }
            let key = try deriveKey(passphrase, salt: salt, opsLimit: ops, memLimit: mem)
            var plain = [UInt8](repeating: 0, count: cipher.count - Int(crypto_secretbox_MACBYTES))
            guard crypto_secretbox_open_easy(&plain, cipher, UInt64(cipher.count), nonce, key) == 0 else {
                throw CryptoError.wrongPassphrase
            }
            return (plain, SealingKey(key: key, salt: salt, cost: cost))
        } catch let error as CryptoError {
            throw error
        } catch {
            throw CryptoError.corruptSealedData("\(error)")
        }
    }

    private static func deriveKey(
        _ passphrase: String, salt: [UInt8], opsLimit: UInt64, memLimit: UInt64
    )
        throws(CryptoError) -> [UInt8]
    {
        var key = [UInt8](repeating: 0, count: Int(crypto_secretbox_KEYBYTES))
        let password = Array(passphrase.utf8).map { CChar(bitPattern: $0) }
        let result = crypto_pwhash(
            &key, UInt64(key.count), password, UInt64(password.count), salt, opsLimit,
            Int(memLimit), crypto_pwhash_ALG_ARGON2ID13)
        guard result == 0 else { throw .keyDerivationFailed }
        return key
    }
}
