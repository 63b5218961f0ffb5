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
        Self.code(prefix: Self.prefix, version: 1) { writer in
            writer.raw(space)
            writer.raw(key)
            writer.string8(String(name.prefix(40)))
        }
    }

    /// Parses a token, refusing anything mistyped or truncated.
    public init(parsing text: String) throws(CodeError) {
        self = try Self.read(text, prefix: Self.prefix, version: 1, minimum: 1 + 16 + 32 + 1) { reader in
            InviteCode(
                space: try reader.fixed(SpaceID.self, "space"), key: try reader.raw(32, "key"),
                name: try reader.string8("name"))
        }
    }

    /// A code of either kind: `prefix`, then base32 of a body (`version`, then what `fields` writes) and its 4-byte
    /// BLAKE2b check. ``read(_:prefix:version:minimum:_:)`` reads it back.
    static func code(prefix: String, version: UInt8, _ fields: (inout ByteWriter) -> Void) -> String {
        var writer = ByteWriter(capacity: 192)
        writer.u8(version)
        fields(&writer)
        return prefix + Base32.encode(writer.bytes + Array(Blake2b.hash(writer.bytes).bytes.prefix(4)))
    }

    /// Reads a code of either kind. Refuses a wrong prefix, bad base32, a body under `minimum` bytes, a check that
    /// does not match, another version, and a body `fields` does not read exactly; each with what to do.
    static func read<Code>(
        _ text: String, prefix: String, version: UInt8, minimum: Int, _ fields: (inout ByteReader) throws -> Code
    ) throws(CodeError) -> Code {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.uppercased().hasPrefix(prefix) else {
            throw .malformed(
                what: "invite code",
                "that is not a Caddie invite code (it should start with \(prefix)); ask for the code again")
        }
        let rest = String(trimmed.dropFirst(prefix.count))
        guard let bytes = Base32.decode(rest) else {
            throw .malformed(
                what: "invite code",
                "the invite code is mistyped: after \(prefix) it holds only letters and the digits 2 to 7; copy it again")
        }
        guard bytes.count >= minimum + 4 else {
            let missing = Base32.length(of: minimum + 4) - Base32.characters(in: rest)
            throw .malformed(
                what: "invite code",
                "the invite code is incomplete: at least \(max(1, missing)) characters are missing at its end; "
                    + "copy all of it again")
        }
        let body = Array(bytes.dropLast(4))
        guard Array(Blake2b.hash(body).bytes.prefix(4)) == Array(bytes.suffix(4)) else {
            throw .malformed(
                what: "invite code",
                "the invite code is mistyped or incomplete (its check digits do not match); copy it again")
        }
        var reader = ByteReader(body)
        do {
            let found = try reader.u8("version")
            guard found == version else {
                throw CodeError.malformed(what: "invite code", "invite version \(found) needs a newer caddie")
            }
            let code = try fields(&reader)
            try reader.expectEnd("invite")
            return code
        } catch let error as CodeError {
            throw error
        } catch {
            throw .malformed(what: "invite code", "the invite code is malformed: \(error)")
        }
    }
}
