import CSodium
import CaddieCore

/// An Ed25519 key pair: a user's key (certifies devices) or a device's key (signs ops).
public struct SigningKey: Sendable {
    /// The public half.
    public let publicKey: PublicKey
    /// libsodium's 64-byte secret key (seed followed by public key). Never logged, never written unsealed.
    let secret: [UInt8]

    /// A new random key pair.
    public static func generate() -> SigningKey {
        Sodium.ensure()
        var pk = [UInt8](repeating: 0, count: 32)
        var sk = [UInt8](repeating: 0, count: 64)
        crypto_sign_keypair(&pk, &sk)
        return SigningKey(publicKey: PublicKey(unchecked: pk), secret: sk)
    }

    /// The key pair derived from a 32-byte seed (for recovery phrases and fixed test vectors).
    public init(seed: [UInt8]) throws(CryptoError) {
        Sodium.ensure()
        guard seed.count == 32 else { throw .invalidKey("an Ed25519 seed is 32 bytes, got \(seed.count)") }
        var pk = [UInt8](repeating: 0, count: 32)
        var sk = [UInt8](repeating: 0, count: 64)
        crypto_sign_seed_keypair(&pk, &sk, seed)
        self.init(publicKey: PublicKey(unchecked: pk), secret: sk)
    }

    /// Restores a key pair from its 64-byte secret form.
    public init(secretKey: [UInt8]) throws(CryptoError) {
        guard secretKey.count == 64 else { throw .invalidKey("an Ed25519 secret key is 64 bytes, got \(secretKey.count)") }
        self.init(publicKey: PublicKey(unchecked: Array(secretKey[32..<64])), secret: secretKey)
    }

    private init(publicKey: PublicKey, secret: [UInt8]) {
        self.publicKey = publicKey
        self.secret = secret
    }

    /// The 32-byte seed, for sealing.
    public var seed: [UInt8] { Array(secret[0..<32]) }

    /// Signs `context` followed by `message`, returning the 64-byte signature.
    public func sign<C: Collection>(_ message: C, context: [UInt8] = []) -> [UInt8] where C.Element == UInt8 {
        var signature = [UInt8](repeating: 0, count: 64)
        if context.isEmpty {
            withContiguous(message) { crypto_sign_detached(&signature, nil, $0.baseAddress, UInt64($0.count), secret) }
        } else {
            let data = context + Array(message)
            crypto_sign_detached(&signature, nil, data, UInt64(data.count), secret)
        }
        return signature
    }
}

/// Ed25519 signature checks.
public enum Ed25519 {
    /// Whether `signature` is `key`'s signature over `context` followed by `message`.
    public static func verify<C: Collection>(
        _ signature: [UInt8], message: C, context: [UInt8] = [], key: PublicKey
    ) -> Bool where C.Element == UInt8 {
        Sodium.ensure()
        guard signature.count == 64 else { return false }
        if context.isEmpty {
            return withContiguous(message) {
                crypto_sign_verify_detached(signature, $0.baseAddress, UInt64($0.count), key.bytes) == 0
            }
        }
        let data = context + Array(message)
        return crypto_sign_verify_detached(signature, data, UInt64(data.count), key.bytes) == 0
    }
}

/// What went wrong in a cryptographic operation.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Key material has the wrong shape.
    case invalidKey(String)
    /// The passphrase does not open the sealed file.
    case wrongPassphrase
    /// A sealed file is not in Caddie's format or is damaged.
    case corruptSealedData(String)
    /// The system could not provide memory for key derivation.
    case keyDerivationFailed

    /// One line for a person.
    public var description: String {
        switch self {
        case .invalidKey(let text): "invalid key: \(text)"
        case .wrongPassphrase: "wrong passphrase: the sealed keys did not open; check CADDIE_PASSPHRASE"
        case .corruptSealedData(let text): "sealed key file is damaged: \(text); restore it from a backup"
        case .keyDerivationFailed: "key derivation ran out of memory (Argon2id needs 64 MiB)"
        }
    }
}

/// A signing key prints, logs and reflects as its public key only: its secret never reaches a log line or a
/// debug description (a service group logs its services' descriptions at debug level).
extension SigningKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "SigningKey(publicKey: \(publicKey.hex))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey.hex]) }
}
