import CSodium
import CaddieCore

/// X25519 ephemeral keys for the sync handshake's Diffie-Hellman: forward secrecy for every session.
public struct EphemeralKey: Sendable {
    /// The public half, sent in the clear.
    public let publicKey: [UInt8]
    let secret: [UInt8]

    /// A fresh random key.
    public static func generate() -> EphemeralKey {
        Sodium.ensure()
        // crypto_scalarmult_base clamps the scalar itself, so 32 random bytes are a valid secret.
        let secret = SecureRandom.bytes(32)
        return EphemeralKey(secret: secret)
    }

    /// The key with a given secret (fixed handshake test vectors only).
    public init(secret: [UInt8]) {
        Sodium.ensure()
        self.secret = secret
        var point = [UInt8](repeating: 0, count: 32)
        _ = crypto_scalarmult_base(&point, secret)
        publicKey = point
    }

    /// The shared secret with a peer's public key; nil for a low-order point (an all-zero result).
    public func sharedSecret(with peer: [UInt8]) -> [UInt8]? {
        guard peer.count == 32 else { return nil }
        var shared = [UInt8](repeating: 0, count: 32)
        guard crypto_scalarmult(&shared, secret, peer) == 0 else { return nil }
        return shared
    }
}

/// XChaCha20-Poly1305 (IETF) authenticated encryption with a caller-managed nonce.
public enum AEAD {
    /// Key length.
    public static let keyLength = 32
    /// Nonce length.
    public static let nonceLength = 24
    /// Bytes the tag adds.
    public static let overhead = 16

    /// The nonce for message number `counter`: 16 zero bytes and the counter big-endian.
    public static func nonce(_ counter: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 24)
        writer.raw([UInt8](repeating: 0, count: 16))
        writer.u64(counter)
        return writer.bytes
    }

    /// Encrypts and authenticates.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8] = []) -> [UInt8] {
        Sodium.ensure()
        var out = [UInt8](repeating: 0, count: plaintext.count + overhead)
        var length: UInt64 = 0
        crypto_aead_xchacha20poly1305_ietf_encrypt(
            &out, &length, plaintext, UInt64(plaintext.count), associated,
            UInt64(associated.count), nil, nonce, key)
        return out
    }

    /// Decrypts; nil if anything was altered, replayed with another nonce, or the key is wrong.
    public static func open(_ ciphertext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8] = []) -> [UInt8]? {
        Sodium.ensure()
        guard ciphertext.count >= overhead, key.count == keyLength, nonce.count == nonceLength else { return nil }
        var out = [UInt8](repeating: 0, count: ciphertext.count - overhead)
        var length: UInt64 = 0
        guard
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                &out, &length, nil, ciphertext, UInt64(ciphertext.count),
                associated, UInt64(associated.count), nonce, key) == 0
        else { return nil }
        return out
    }
}

extension Blake2b {
    /// Keyed BLAKE2b-256 (a MAC and key-derivation function) over the concatenated parts.
    public static func keyed(_ key: [UInt8], _ parts: [[UInt8]]) -> [UInt8] {
        Sodium.ensure()
        // BLAKE2b keys are 16...64 bytes; Caddie's are always 32. Anything else is hashed into a key first
        // rather than silently producing zeros.
        guard (16...64).contains(key.count) else { return keyed(hash(key).bytes, parts) }
        let message = parts.flatMap { $0 }
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&out, 32, message, UInt64(message.count), key, key.count)
        return out
    }
}

/// A secret sealed to one device, by anyone, for that device alone: libsodium's anonymous box (crypto_box_seal,
/// X25519 and XSalsa20-Poly1305) to the X25519 form of the device's Ed25519 key. Used to hand a space's new key
/// to each remaining member device when a member is removed.
public enum DeviceBox {
    /// Bytes a sealed secret adds.
    public static let overhead = Int(crypto_box_PUBLICKEYBYTES) + Int(crypto_box_MACBYTES)

    /// Seals `secret` to `device`; nil if the key is not a valid Ed25519 point.
    public static func seal(_ secret: [UInt8], to device: PublicKey) -> [UInt8]? {
        Sodium.ensure()
        var x25519 = [UInt8](repeating: 0, count: Int(crypto_box_PUBLICKEYBYTES))
        guard crypto_sign_ed25519_pk_to_curve25519(&x25519, device.bytes) == 0 else { return nil }
        var sealed = [UInt8](repeating: 0, count: secret.count + overhead)
        guard crypto_box_seal(&sealed, secret, UInt64(secret.count), x25519) == 0 else { return nil }
        return sealed
    }

    /// Opens what was sealed to this device's key; nil if it was sealed to another device or altered.
    public static func open(_ sealed: [UInt8], with device: SigningKey) -> [UInt8]? {
        Sodium.ensure()
        guard sealed.count >= overhead else { return nil }
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_box_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_box_SECRETKEYBYTES))
        guard crypto_sign_ed25519_pk_to_curve25519(&publicKey, device.publicKey.bytes) == 0,
            crypto_sign_ed25519_sk_to_curve25519(&secretKey, device.secret) == 0
        else { return nil }
        defer { sodium_memzero(&secretKey, secretKey.count) }
        var opened = [UInt8](repeating: 0, count: sealed.count - overhead)
        guard crypto_box_seal_open(&opened, sealed, UInt64(sealed.count), publicKey, secretKey) == 0 else { return nil }
        return opened
    }
}
