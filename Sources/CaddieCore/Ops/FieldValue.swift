/// The value of one last-writer-wins field.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
    /// The field was cleared.
    case null
    /// Text, such as a name.
    case text(String)
    /// A whole number, such as a par or a slope.
    case integer(Int64)
    /// A decimal number, such as a course rating or a handicap index.
    case number(Double)
    /// Raw bytes, such as a user key or an encoded position list.
    case bytes([UInt8])

    /// The value as a person reads it.
    public var description: String {
        switch self {
        case .null: "(cleared)"
        case .text(let text): text
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bytes(let bytes): Hex.encode(bytes)
        }
    }

    /// The text, if this is text.
    public var text: String? { if case .text(let text) = self { text } else { nil } }
    /// The value as an integer, if it is a whole number.
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        default: nil
        }
    }
    /// The value as a double, if it is a number of either kind.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    func encode(into writer: inout ByteWriter) {
        switch self {
        case .null: writer.u8(0)
        case .text(let text):
            writer.u8(1)
            writer.string16(text)
        case .integer(let value):
            writer.u8(2)
            writer.u64(UInt64(bitPattern: value))
        case .number(let value):
            writer.u8(3)
            writer.u64(value.bitPattern)
        case .bytes(let bytes):
            writer.u8(4)
            writer.u32(UInt32(clamping: bytes.count))
            writer.raw(bytes)
        }
    }

    static func decode(from reader: inout ByteReader) throws(DecodeError) -> FieldValue {
        switch try reader.u8("value tag") {
        case 0: return .null
        case 1: return .text(try reader.string16("text value"))
        case 2: return .integer(Int64(bitPattern: try reader.u64("integer value")))
        case 3:
            let value = Double(bitPattern: try reader.u64("number value"))
            guard value.isFinite else { throw DecodeError(what: "number value", reason: "is not finite") }
            return .number(value)
        case 4:
            let count = Int(try reader.u32("bytes value length"))
            return .bytes(try reader.raw(count, "bytes value"))
        case let tag: throw DecodeError(what: "value tag", reason: "\(tag) is unknown")
        }
    }

    /// The canonical encoding, used to store the value and to hash state.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        encode(into: &writer)
        return writer.bytes
    }

    /// Decodes the canonical encoding.
    public init(encoded: [UInt8]) throws(DecodeError) {
        var reader = ByteReader(encoded)
        self = try FieldValue.decode(from: &reader)
        try reader.expectEnd("value")
    }
}
