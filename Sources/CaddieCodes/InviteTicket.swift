import CaddieCore
import CaddieCrypto
import Foundation

/// An invite as a ticket: it names the space and the member device that made it and carries a secret that only
/// works at that device, which checks on redemption that the invite is neither used up, expired nor revoked and
/// then sends the space key. The code itself never carries the space key.
///
/// Layout before base32: version 2, space id (16), invite id (8), secret (32), inviting device (32), expiry
/// (u64, ms since 1970), space name and inviter's name (u8 length + UTF-8 each), and a 4-byte BLAKE2b check.
public struct InviteTicket: Sendable, Equatable {
    static let prefix = "CADDIE2"

    /// The space.
    public let space: SpaceID
    /// The invite's id (its record in the space's log has the same id).
    public let id: InviteID
    /// The secret the redemption proves.
    public let secret: [UInt8]
    /// The device that made the invite and is the only one that redeems it.
    public let inviter: PublicKey
    /// When it stops working, ms since 1970 (the inviting device's clock decides).
    public let expiresAt: UInt64
    /// The space's name.
    public let spaceName: String
    /// The inviting member's name.
    public let inviterName: String

    /// Creates a ticket.
    public init(
        space: SpaceID, id: InviteID, secret: [UInt8], inviter: PublicKey, expiresAt: UInt64,
        spaceName: String, inviterName: String
    ) {
        self.space = space
        self.id = id
        self.secret = secret
        self.inviter = inviter
        self.expiresAt = expiresAt
        self.spaceName = spaceName
        self.inviterName = inviterName
    }

    /// The code to share (uppercase base32 fits a QR code's alphanumeric mode).
    public var text: String {
        InviteCode.code(prefix: Self.prefix, version: 2) { writer in
            writer.raw(space)
            writer.raw(id)
            writer.raw(secret)
            writer.raw(inviter)
            writer.u64(expiresAt)
            writer.string8(String(spaceName.prefix(40)))
            writer.string8(String(inviterName.prefix(40)))
        }
    }

    /// Parses a code, refusing anything mistyped or truncated.
    public init(parsing text: String) throws(CodeError) {
        let minimum = 1 + 16 + 8 + 32 + 32 + 8 + 1 + 1
        self = try InviteCode.read(text, prefix: Self.prefix, version: 2, minimum: minimum) { reader in
            InviteTicket(
                space: try reader.fixed(SpaceID.self, "space"), id: try reader.fixed(InviteID.self, "invite id"),
                secret: try reader.raw(32, "secret"), inviter: try reader.fixed(PublicKey.self, "inviting device"),
                expiresAt: try reader.u64("expiry"), spaceName: try reader.string8("space name"),
                inviterName: try reader.string8("inviter name"))
        }
    }
}

/// What `caddie space join` was given: a ticket (`CADDIE2`, redeemed at the inviting device), or a shared-key
/// code (`CADDIE1`, which carries the space key itself and works offline, for anyone who sees it).
public enum Invitation: Sendable, Equatable {
    case ticket(InviteTicket)
    case sharedKey(InviteCode)

    /// Parses either kind of code.
    public init(parsing text: String) throws(CodeError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        if trimmed.hasPrefix(InviteTicket.prefix) {
            self = .ticket(try InviteTicket(parsing: text))
        } else if trimmed.hasPrefix(InviteCode.prefix) {
            self = .sharedKey(try InviteCode(parsing: text))
        } else {
            throw .malformed(
                what: "invite code",
                "that is not a Caddie invite code (it should start with \(InviteTicket.prefix)); "
                    + "ask for the code again")
        }
    }
}
