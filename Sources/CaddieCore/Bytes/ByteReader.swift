/// Reads the layouts written by ``ByteWriter``, failing with ``DecodeError`` instead of trapping on
/// short or malformed input: every byte it sees may come from a peer or a file.
public struct ByteReader: Sendable {
    /// The whole input.
    public let bytes: ArraySlice<UInt8>
    /// The offset of the next unread byte, from the input's start.
    public private(set) var offset: Int

    /// Creates a reader positioned at the start of `bytes`.
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Creates a reader of a part of a larger buffer (an op's payload inside its bytes), with no copy.
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = 0
    }

    /// How many bytes are left to read.
    public var remaining: Int { bytes.count - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int, _ what: String) throws(DecodeError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else {
            throw DecodeError(what: what, reason: "truncated: needs \(count) bytes at offset \(offset), has \(remaining)")
        }
        defer { offset += count }
        let start = bytes.startIndex + offset
        return bytes[start..<(start + count)]
    }

    /// Reads one byte.
    public mutating func u8(_ what: String) throws(DecodeError) -> UInt8 { try take(1, what).first ?? 0 }

    /// Reads a big-endian 16-bit unsigned integer.
    public mutating func u16(_ what: String) throws(DecodeError) -> UInt16 {
        try take(2, what).reduce(0) { $0 << 8 | UInt16($1) }
    }

    /// Reads a big-endian 32-bit unsigned integer.
    public mutating func u32(_ what: String) throws(DecodeError) -> UInt32 {
        try take(4, what).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Reads a big-endian 64-bit unsigned integer.
    public mutating func u64(_ what: String) throws(DecodeError) -> UInt64 {
        try take(8, what).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads an identifier of its fixed length, into place (no array).
    public mutating func fixed<ID: FixedBytes>(_ type: ID.Type, _ what: String) throws(DecodeError) -> ID {
        ID(unchecked: try take(ID.length, what))
    }

    /// Steps over `count` bytes that must be there (read later in place, by their offset).
    public mutating func skip(_ count: Int, _ what: String) throws(DecodeError) { _ = try take(count, what) }

    /// Reads `count` raw bytes.
    public mutating func raw(_ count: Int, _ what: String) throws(DecodeError) -> [UInt8] { Array(try take(count, what)) }

    /// Reads a UTF-8 string with a 16-bit length prefix, rejecting invalid UTF-8.
    public mutating func string16(_ what: String) throws(DecodeError) -> String {
        let count = Int(try u16(what))
        return try utf8(take(count, what), what)
    }

    /// Reads a UTF-8 string with an 8-bit length prefix, rejecting invalid UTF-8.
    public mutating func string8(_ what: String) throws(DecodeError) -> String {
        let count = Int(try u8(what))
        return try utf8(take(count, what), what)
    }

    private func utf8(_ slice: ArraySlice<UInt8>, _ what: String) throws(DecodeError) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw DecodeError(what: what, reason: "is not valid UTF-8")
        }
        return text
    }

    /// Reads a counted list: a 16-bit count, at most `limit` (else an error naming `what`), then each element as
    /// `element` reads it.
    public mutating func list<Element>(
        _ what: String, limit: Int, _ element: (inout ByteReader) throws(DecodeError) -> Element
    ) throws(DecodeError) -> [Element] {
        let count = Int(try u16(what))
        guard count <= limit else { throw DecodeError(what: what, reason: "(\(count)) is more than \(limit)") }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try element(&self)) }
        return elements
    }

    /// Fails unless every byte has been consumed; trailing bytes mean the input is not what it claims.
    public func expectEnd(_ what: String) throws(DecodeError) {
        guard isAtEnd else { throw DecodeError(what: what, reason: "has \(remaining) unexpected trailing bytes") }
    }
}

/// A byte layout that could not be decoded: says which field and why.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field or structure being decoded.
    public let what: String
    /// Why it failed.
    public let reason: String

    /// Creates a decode error.
    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    /// One line for a person.
    public var description: String { "\(what) \(reason)" }
}
