/// Appends big-endian integers, length-prefixed strings and raw bytes to a growing buffer.
///
/// Every encoding in Caddie (ops, payloads, bundles) goes through this type so that the layout
/// written in Protocol/ has exactly one implementation.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer, reserving room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Writes one byte.
    public mutating func u8(_ value: UInt8) { bytes.append(value) }

    /// Writes a 16-bit unsigned integer, big-endian.
    public mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Writes a 32-bit unsigned integer, big-endian.
    public mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Writes a 64-bit unsigned integer, big-endian.
    public mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Writes raw bytes with no length prefix.
    public mutating func raw<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }

    /// Writes an identifier's bytes, read in place.
    public mutating func raw(_ id: some FixedBytes) { id.withBytes { bytes.append(contentsOf: $0) } }

    /// Writes a UTF-8 string with a 16-bit length prefix.
    public mutating func string16(_ value: String) {
        let utf8 = Array(value.utf8)
        u16(UInt16(clamping: utf8.count))
        bytes.append(contentsOf: utf8.prefix(Int(UInt16.max)))
    }

    /// Writes a UTF-8 string with an 8-bit length prefix.
    public mutating func string8(_ value: String) {
        let utf8 = Array(value.utf8)
        u8(UInt8(clamping: utf8.count))
        bytes.append(contentsOf: utf8.prefix(Int(UInt8.max)))
    }
}
