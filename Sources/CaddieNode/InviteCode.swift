import CaddieCore
import CaddieCrypto
import Foundation

/// The invite to a space: one token carrying the space id, the space key and its name, that can be
/// pasted into a message or shown as a QR code (uppercase base32 fits QR's alphanumeric mode).
///
/// Layout before base32: version (1), space id (16), space key (32), name (u8 length + UTF-8), and a
/// 4-byte BLAKE2b check so that a mistyped code is refused rather than joining a wrong space.
public struct InviteCode: Sendable, Equatable {
    static let prefix = "CADDIE1"

    /// The space.
    public let space: SpaceID
    /// The 32-byte space key.
    public let key: [UInt8]
    /// The space's name as created.
    public let name: String

    /// Creates an invite.
    public init(space: SpaceID, key: [UInt8], name: String) {
        self.space = space
        self.key = key
        self.name = name
    }

    /// The token.
    public var text: String {
        var writer = ByteWriter(capacity: 128)
        writer.u8(1)
        writer.raw(space.bytes)
        writer.raw(key)
        writer.string8(String(name.prefix(40)))
        return Self.code(writer.bytes, prefix: Self.prefix)
    }

    /// A code of either kind: `prefix`, then base32 of `body` and its 4-byte BLAKE2b check (``body(of:prefix:minimum:)``
    /// reads it back).
    static func code(_ body: [UInt8], prefix: String) -> String {
        prefix + Base32.encode(body + Array(Blake2b.hash(body).bytes.prefix(4)))
    }

    /// The bytes of a code of either kind: `prefix`, then base32 of a body and its 4-byte BLAKE2b check. Refuses a
    /// wrong prefix, bad base32, a body under `minimum` bytes, or a check that does not match.
    static func body(of text: String, prefix: String, minimum: Int) throws(NodeError) -> [UInt8] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.uppercased().hasPrefix(prefix), let bytes = Base32.decode(String(trimmed.dropFirst(prefix.count))),
            bytes.count >= minimum + 4
        else {
            throw .invalid("that is not a Caddie invite code (it should start with \(prefix)); ask for the code again")
        }
        let body = Array(bytes.dropLast(4))
        guard Array(Blake2b.hash(body).bytes.prefix(4)) == Array(bytes.suffix(4)) else {
            throw .invalid("the invite code is mistyped or incomplete (its check digits do not match); copy it again")
        }
        return body
    }

    /// Parses a token, refusing anything mistyped or truncated.
    public init(parsing text: String) throws(NodeError) {
        let body = try InviteCode.body(of: text, prefix: Self.prefix, minimum: 1 + 16 + 32 + 1)
        var reader = ByteReader(body)
        do {
            let version = try reader.u8("version")
            guard version == 1 else { throw NodeError.invalid("invite version \(version) needs a newer caddie") }
            space = SpaceID(unchecked: try reader.raw(16, "space"))
            key = try reader.raw(32, "key")
            name = try reader.string8("name")
            try reader.expectEnd("invite")
        } catch let error as NodeError {
            throw error
        } catch {
            throw .invalid("the invite code is malformed: \(error)")
        }
    }
}
