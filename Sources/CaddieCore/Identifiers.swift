/// A fixed-length byte string used as an identifier; printed as lowercase hex.
public protocol FixedBytes: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number of bytes every value has.
    static var length: Int { get }
    /// The bytes.
    var bytes: [UInt8] { get }
    /// Wraps bytes that are already known to have the right length.
    init(unchecked bytes: [UInt8])
}

extension FixedBytes {
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

    /// The identifier as lowercase hex.
    public var hex: String { Hex.encode(bytes) }
    /// The first eight hex digits, for tables meant for people.
    public var short: String { String(hex.prefix(8)) }
    /// The identifier as lowercase hex.
    public var description: String { hex }

    /// Hashes the bytes in one call. (The derived hash fed an array to the hasher a byte at a time: sets and
    /// dictionaries keyed by device keys paid 32 calls a lookup, on every op received.)
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }

    /// Orders identifiers by their bytes, the tie-break used across the CRDT.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
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
    public static let length = 16
    /// The bytes.
    public let bytes: [UInt8]
    /// Wraps 16 bytes.
    public init(unchecked bytes: [UInt8]) { self.bytes = bytes }
}

/// An Ed25519 public key that names a device (it signs ops) or a user (it certifies devices).
public struct PublicKey: FixedBytes, Codable {
    /// 32 bytes.
    public static let length = 32
    /// The bytes.
    public let bytes: [UInt8]
    /// Wraps 32 bytes.
    public init(unchecked bytes: [UInt8]) { self.bytes = bytes }
}

/// The id of a player, course or game inside a space: 8 random (or, for courses, derived) bytes.
public struct EntityID: FixedBytes, Codable {
    /// 8 bytes.
    public static let length = 8
    /// The bytes.
    public let bytes: [UInt8]
    /// Wraps 8 bytes.
    public init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The space's own record (kind `space`, eight zero bytes): its name, and the owner fields that a merge rule
    /// guards (Protocol/op-format.md, "The space record").
    public static let spaceRecord = EntityID(unchecked: [UInt8](repeating: 0, count: 8))
}

/// A 32-byte BLAKE2b digest: op hashes, chain links, card and state hashes.
public struct Digest32: FixedBytes, Codable {
    /// 32 bytes.
    public static let length = 32
    /// All zeros: the chain link of a device's first op.
    public static let zero = Digest32(unchecked: [UInt8](repeating: 0, count: 32))
    /// The bytes.
    public let bytes: [UInt8]
    /// Wraps 32 bytes.
    public init(unchecked bytes: [UInt8]) { self.bytes = bytes }
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
