import CSodium
import CaddieCore

/// Authenticated encryption with a 32-byte key (XSalsa20-Poly1305, libsodium's crypto_secretbox):
/// the output is a random 24-byte nonce followed by the ciphertext and its tag.
public enum SecretBox {
    /// Key length.
    public static let keyLength = Int(crypto_secretbox_KEYBYTES)

    /// Encrypts and authenticates `plaintext`.
    public static func seal(_ plaintext: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        Sodium.ensure()
        guard key.count == keyLength else { throw .invalidKey("a secretbox key is \(keyLength) bytes") }
        let nonce = SecureRandom.bytes(Int(crypto_secretbox_NONCEBYTES))
        var cipher = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_secretbox_MACBYTES))
        crypto_secretbox_easy(&cipher, plaintext, UInt64(plaintext.count), nonce, key)
        return nonce + cipher
    }

    /// Decrypts bytes made by ``seal(_:key:)``; nil if they were altered or the key is wrong.
    public static func open(_ sealed: [UInt8], key: [UInt8]) -> [UInt8]? {
        Sodium.ensure()
        let nonceLength = Int(crypto_secretbox_NONCEBYTES)
        let macLength = Int(crypto_secretbox_MACBYTES)
        guard key.count == keyLength, sealed.count >= nonceLength + macLength else { return nil }
        let nonce = Array(sealed[0..<nonceLength])
        let cipher = Array(sealed[nonceLength...])
        var plain = [UInt8](repeating: 0, count: cipher.count - macLength)
        guard crypto_secretbox_open_easy(&plain, cipher, UInt64(cipher.count), nonce, key) == 0 else { return nil }
        return plain
    }
}
