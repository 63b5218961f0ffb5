import CSodium
import CaddieCore

/// libsodium, initialised once per process before any other call.
enum Sodium {
    static let ready: Bool = sodium_init() >= 0

    static func ensure() {
        // sodium_init only fails when the system has no usable entropy source; every later call
        // would then be unsafe, so the process must stop rather than sign with bad randomness.
        if !ready { fatalError("libsodium could not be initialised (no entropy source)") }
    }
}

/// Random bytes from the operating system's generator.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        Sodium.ensure()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { if let base = $0.baseAddress { randombytes_buf(base, count) } }
        return out
    }

    /// A random space id.
    public static func spaceID() -> SpaceID { SpaceID(unchecked: bytes(SpaceID.length)) }
    /// A random entity id.
    public static func entityID() -> EntityID { EntityID(unchecked: bytes(EntityID.length)) }
}

/// BLAKE2b-256 hashing.
public enum Blake2b {
    /// The 32-byte BLAKE2b digest of `bytes`.
    public static func hash<C: Collection>(_ bytes: C) -> Digest32 where C.Element == UInt8 {
        Sodium.ensure()
        var out = [UInt8](repeating: 0, count: 32)
        withContiguous(bytes) { input in
            _ = crypto_generichash(&out, 32, input.baseAddress, UInt64(input.count), nil, 0)
        }
        return Digest32(unchecked: out)
    }

    /// The digest of several parts hashed as one stream.
    public static func hash(parts: [[UInt8]]) -> Digest32 {
        var hasher = Blake2bHasher()
        for part in parts { hasher.update(part) }
        return hasher.finalize()
    }
}

/// Incremental BLAKE2b-256: feed bytes, then take the digest once.
public struct Blake2bHasher: ~Copyable {
    private let state: UnsafeMutableRawPointer

    /// Starts a new digest.
    public init() {
        Sodium.ensure()
        state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        _ = crypto_generichash_init(OpaquePointer(state), nil, 0, 32)
    }

    /// Adds bytes.
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let state = self.state
        withContiguous(bytes) { input in
            _ = crypto_generichash_update(
                OpaquePointer(state),
                input.baseAddress, UInt64(input.count))
        }
    }

    /// Adds a length-prefixed field, so that concatenations cannot collide.
    public mutating func field(_ bytes: [UInt8]) {
        var length = ByteWriter(capacity: 4)
        length.u32(UInt32(clamping: bytes.count))
        update(length.bytes)
        update(bytes)
    }

    /// The digest; the hasher is consumed.
    public consuming func finalize() -> Digest32 {
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash_final(OpaquePointer(state), &out, 32)
        return Digest32(unchecked: out)
    }

    deinit { state.deallocate() }
}

/// HMAC-SHA-512-256 with a 32-byte key (libsodium's crypto_auth).
public enum MessageAuthentication {
    /// The 32-byte tag of `message` under `key`.
    public static func tag(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Sodium.ensure()
        precondition(key.count == Int(crypto_auth_KEYBYTES), "MAC keys are 32 bytes")
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_BYTES))
        _ = crypto_auth(&out, message, UInt64(message.count), key)
        return out
    }

    /// Whether `tag` authenticates `message` under `key` (constant time).
    public static func verify(_ tag: [UInt8], message: [UInt8], key: [UInt8]) -> Bool {
        Sodium.ensure()
        guard tag.count == Int(crypto_auth_BYTES), key.count == Int(crypto_auth_KEYBYTES) else { return false }
        return crypto_auth_verify(tag, message, UInt64(message.count), key) == 0
    }
}

/// Runs `body` over the bytes of any collection, copying only when it has no contiguous storage.
func withContiguous<C: Collection, R>(_ bytes: C, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
where C.Element == UInt8 {
    if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
    return Array(bytes).withUnsafeBufferPointer(body)
}

extension MessageAuthentication {
    /// Compares two byte strings in time that depends only on their length.
    public static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return sodium_memcmp(lhs, rhs, lhs.count) == 0
    }
}
