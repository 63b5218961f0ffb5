import CaddieCore
import CaddieCrypto
import CaddieWire

/// What one session did.
public struct SessionReport: Sendable {
    /// The space synced.
    public var space: SpaceID?
    /// The peer, once it proved itself.
    public var peer: PeerIdentity?
    /// Ops sent to the peer.
    public var sent = 0
    /// Ops received from the peer and newly applied.
    public var received = 0
    /// Whether a full exchange completed (both sides sent all the other lacked).
    public var completed = false
    /// Why the session ended early, if it did.
    public var failure: String?
    /// How a session that did not fail ended, when the peer ended it (its reason for closing).
    public var ending: String?
    /// Whether it ended because one side refused the other (not a member, revoked, refused by the peer):
    /// something that will not change by dialling again soon.
    public var refused = false
    /// Whether it ended because the pair's other session stays (one session per pair of devices and space).
    public var duplicate = false
    /// What the inviting device sent back for a redeemed invite (redeeming side).
    public var welcome: Welcome?
    /// Whether the peer answered the handshake as a node that holds no such key (no such space or invite).
    public var notRecognised = false
    /// The reason given, when one side refused the other.
    public var refusal: String?
    /// The version the peer speaks, when it refused the one this side offered (a dialler then offers that one).
    public var peerVersion: UInt8?
}

/// The inviting device's answer to a redeemed invite.
public struct Welcome: Sendable, Equatable {
    /// The space key.
    public let spaceKey: [UInt8]
    /// The space's name.
    public let name: String
    /// Keys of earlier epochs (after a removal), to check the joins made before.
    public let earlierKeys: [[UInt8]]

    /// Creates a welcome.
    public init(spaceKey: [UInt8], name: String, earlierKeys: [[UInt8]] = []) {
        self.spaceKey = spaceKey
        self.name = name
        self.earlierKeys = earlierKeys
    }
}

/// Why a session ended, beyond the wire's own errors.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer closed before the handshake finished.
    case closedDuringHandshake
    /// The peer closed before the exchange finished.
    case closedEarly
    /// The peer ended the session normally.
    case peerClosed(String)
    /// One side refused the other (revoked device, wrong user).
    case refused(String)
    /// The peer could not be reached.
    case unreachable(String)
    /// The peer sent nothing for too long.
    case silent(seconds: Int)
    /// The two devices hold another session for this space, which stays (one session per pair).
    case duplicate
    /// The node at this address holds no such invite (it answered as it answers any stranger).
    case inviteUnknown(address: String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .closedDuringHandshake: "the peer closed the connection during the handshake"
        case .closedEarly: "the peer closed the connection before the sync finished"
        case .peerClosed(let text): "the peer closed the session: \(text)"
        case .refused(let text): "refused: \(text)"
        case .unreachable(let text): "cannot reach the peer: \(text)"
        case .silent(let seconds): "the peer sent nothing for \(seconds) s and counts as gone"
        case .inviteUnknown(let address):
            "the device at \(address) does not know this invite (it was made on another device, or expired long ago)"
        case .duplicate: "these two devices already hold a session for this space (the one the lower device key dialled stays)"
        }
    }
}
