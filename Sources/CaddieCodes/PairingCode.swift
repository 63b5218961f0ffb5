import CaddieCore
import CaddieCrypto
import Foundation

/// The one-time code `caddie device add` prints: where the first device listens on the LAN, and a
/// 16-byte secret that authenticates the new device's request and encrypts the certificate and space
/// keys sent back. Layout before base32: version (1), IPv4 address (4), port (u16), secret (16), and
/// a 4-byte BLAKE2b check. Version 2: the exchange is framed as on the sync wire (version 1 sent bare
/// messages; the two do not understand each other).
public struct PairingCode: Sendable, Equatable {
    static let prefix = "CADDIEPAIR1"
    static let version: UInt8 = 2

    /// The four bytes of a dotted IPv4 address in its plain form (`192.168.1.20`), or nil for anything else: no
    /// signs, and no leading zeros, which the system's resolver would read as octal (`010` is 8).
    public static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let bytes = parts.compactMap { part -> UInt8? in
            guard (1...3).contains(part.count), part.allSatisfy({ ("0"..."9").contains($0) }),
                part.count == 1 || part.first != "0"
            else { return nil }
            return UInt8(part)
        }
        return parts.count == 4 && bytes.count == 4 ? bytes : nil
    }

    /// IPv4 address of the first device, dotted.
    public let host: String
    /// TCP port.
    public let port: UInt16
    /// The one-time secret.
    public let secret: [UInt8]

    /// Creates a code.
    public init(host: String, port: UInt16, secret: [UInt8]) {
        self.host = host
        self.port = port
        self.secret = secret
    }

    /// The printable token.
    public var text: String {
        var writer = ByteWriter(capacity: 32)
        writer.u8(Self.version)
        writer.raw(Self.ipv4(host) ?? [0, 0, 0, 0])
        writer.u16(port)
        writer.raw(secret)
        writer.raw(Blake2b.hash(writer.bytes).bytes.prefix(4))
        return Self.prefix + Base32.encode(writer.bytes)
    }

    /// Parses a token, refusing mistyped ones.
    public init(parsing text: String) throws(CodeError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.uppercased().hasPrefix(Self.prefix) else {
            throw .malformed(
                what: "device code",
                "that is not a device code (it starts with \(Self.prefix)); run `caddie device add` on your first device")
        }
        let rest = String(trimmed.dropFirst(Self.prefix.count))
        let size = 1 + 4 + 2 + 16 + 4
        guard let bytes = Base32.decode(rest) else {
            throw .malformed(
                what: "device code",
                "the device code is mistyped: after \(Self.prefix) it holds only letters and the digits 2 to 7; copy it again")
        }
        guard bytes.count == size else {
            let missing = Base32.length(of: size) - Base32.characters(in: rest)
            throw .malformed(
                what: "device code",
                missing > 0
                    ? "the device code is incomplete: \(missing) characters are missing at its end; copy all of it again"
                    : "the device code is \(-missing) characters too long; copy it again")
        }
        guard Array(Blake2b.hash(Array(bytes.prefix(23))).bytes.prefix(4)) == Array(bytes.suffix(4)) else {
            throw .malformed(what: "device code", "the device code is mistyped or incomplete; copy it again")
        }
        guard bytes[0] == Self.version else {
            throw .malformed(
                what: "device code",
                bytes[0] < Self.version
                    ? "this device code comes from an older caddie: update caddie on the first device, then run "
                        + "`caddie device add` there again"
                    : "this device code needs a newer caddie: update caddie on this device")
        }
        host = bytes[1...4].map(String.init).joined(separator: ".")
        port = UInt16(bytes[5]) << 8 | UInt16(bytes[6])
        secret = Array(bytes[7..<23])
    }
}
