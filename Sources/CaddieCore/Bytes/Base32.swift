/// RFC 4648 base32 without padding, uppercase: the alphabet a QR code's alphanumeric mode carries
/// compactly and a person can read aloud. Used for invite and pairing codes.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Encodes bytes as unpadded uppercase base32.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// How many base32 characters `count` bytes take.
    public static func length(of count: Int) -> Int { (count * 8 + 4) / 5 }

    /// How many base32 characters `text` holds, spaces and dashes left out (as ``decode(_:)`` reads it).
    public static func characters(in text: String) -> Int { text.utf8.filter { $0 != 0x20 && $0 != 0x2d }.count }

    /// Decodes base32 (either case, spaces and dashes ignored); nil on any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for char in text.utf8 {
            let value: UInt8
            switch char {
            case 0x41...0x5a: value = char - 0x41
            case 0x61...0x7a: value = char - 0x61
            case 0x32...0x37: value = char - 0x32 + 26
            case 0x20, 0x2d: continue
            default: return nil
            }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        return out
    }
}
