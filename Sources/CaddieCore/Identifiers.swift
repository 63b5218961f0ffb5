/// The bytes of an identifier held in place, as machine words: an identifier is a plain value with no heap storage,
/// so copying one, comparing two or hashing one touches no reference count (a bundle's import copies and hashes
/// device keys, op ids and score cells hundreds of thousands of times: docs/performance.md).
public protocol ByteStorage: BitwiseCopyable, Hashable, Sendable {
    /// All zeros.
    init()
}

/// Eight bytes in place.
public struct Bytes8: ByteStorage {
    @usableFromInline var word: UInt64 = 0
    @inlinable public init() {}
}

/// Sixteen bytes in place.
public struct Bytes16: ByteStorage {
    @usableFromInline var words: (UInt64, UInt64) = (0, 0)
    @inlinable public init() {}
    @inlinable public static func == (lhs: Bytes16, rhs: Bytes16) -> Bool { lhs.words == rhs.words }
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }
}

/// Thirty-two bytes in place.
public struct Bytes32: ByteStorage {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @inlinable public init() {}
    @inlinable public static func == (lhs: Bytes32, rhs: Bytes32) -> Bool { lhs.words == rhs.words }
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}

/// A fixed-length byte string used as an identifier; printed as lowercase hex.
public protocol FixedBytes: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Where the bytes are held.
    associatedtype Storage: ByteStorage
    /// The bytes, in place.
    var storage: Storage { get }
    /// Wraps bytes held in place.
    init(storage: Storage)
}

extension FixedBytes {
    /// The number of bytes every value has.
    @inlinable public static var length: Int { MemoryLayout<Storage>.size }

    /// Wraps bytes that are already known to have the right length (a wrong length is a programming error).
    @inlinable public init(unchecked bytes: [UInt8]) {
        self.init(unchecked: bytes[...])
    }

    /// Wraps bytes that are already known to have the right length (a wrong length is a programming error).
    @inlinable public init(unchecked bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == Self.length, "an identifier of \(Self.length) bytes, given \(bytes.count)")
        var storage = Storage()
        withUnsafeMutableBytes(of: &storage) { target in bytes.withUnsafeBytes { target.copyMemory(from: $0) } }
        self.init(storage: storage)
    }

    /// Wraps bytes, or nil if they have the wrong length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        self.init(unchecked: bytes)
    }

    /// Parses lowercase or uppercase hex of exactly the right length.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex), bytes.count == Self.length else { return nil }
        self.init(unchecked: bytes)
    }

    /// The bytes, as a new array (``withBytes(_:)`` reads them in place).
    @inlinable public var bytes: [UInt8] { withUnsafeBytes(of: storage) { Array($0) } }

    /// Calls `body` with the bytes in place.
    @inlinable public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: storage, body)
    }

    /// The identifier as lowercase hex.
    public var hex: String { withBytes { Hex.encode($0) } }
    /// The first eight hex digits, for tables meant for people.
    public var short: String { String(hex.prefix(8)) }
    /// The identifier as lowercase hex.
    public var description: String { hex }

    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }

    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(storage) }

    /// Orders identifiers by their bytes, the tie-break used across the CRDT.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool {
        withUnsafeBytes(of: lhs.storage) { left in
            withUnsafeBytes(of: rhs.storage) { right in left.lexicographicallyPrecedes(right) }
        }
    }
}

/// Identifiers in JSON and other coded forms: lowercase hex of exactly the right length.
extension FixedBytes where Self: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let value = Self(hex: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \(Self.length * 2) hex digits")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

/// The id of a space: 16 random bytes.
public struct SpaceID: FixedBytes, Codable {
    /// 16 bytes.
    public let storage: Bytes16
    @inlinable public init(storage: Bytes16) { self.storage = storage }
}

/// An Ed25519 public key that names a device (it signs ops) or a user (it certifies devices).
public struct PublicKey: FixedBytes, Codable {
    /// 32 bytes.
    public let storage: Bytes32
    @inlinable public init(storage: Bytes32) { self.storage = storage }
}

/// The id of a player, course or game inside a space: 8 random (or, for courses, derived) bytes.
public struct EntityID: FixedBytes, Codable {
    /// 8 bytes.
    public let storage: Bytes8
    @inlinable public init(storage: Bytes8) { self.storage = storage }

    /// The space's own record (kind `space`, eight zero bytes): its name, and the owner fields that a merge rule
    /// guards (Protocol/op-format.md, "The space record").
    public static let spaceRecord = EntityID(storage: Bytes8())
}

/// A 32-byte BLAKE2b digest: op hashes, chain links, card and state hashes.
public struct Digest32: FixedBytes, Codable {
    /// All zeros: the chain link of a device's first op.
    public static let zero = Digest32(storage: Bytes32())
    /// 32 bytes.
    public let storage: Bytes32
    @inlinable public init(storage: Bytes32) { self.storage = storage }
}

/// The id of an op: the device that signed it and its sequence number in that device's log.
public struct OpID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The signing device.
    public let device: PublicKey
    /// The op's position in the device's log, from 1.
    public let seq: UInt64

    /// Creates an op id.
    public init(device: PublicKey, seq: UInt64) {
        self.device = device
        self.seq = seq
    }

    /// Orders by device, then seq.
    public static func < (lhs: OpID, rhs: OpID) -> Bool {
        lhs.device == rhs.device ? lhs.seq < rhs.seq : lhs.device < rhs.device
    }

    /// `devicehex:seq`, with the device shortened.
    public var description: String { "\(device.short):\(seq)" }
}
