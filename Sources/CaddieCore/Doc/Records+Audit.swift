import Foundation

// Records the store and the sync node make and the node hands up to the CLI and the API as they are: values only,
// kept here, below every layer, so that the layers above the node read them without importing the store or the
// sync engine.

/// One op that failed re-verification.
public struct VerificationFailure: Hashable, Sendable, CustomStringConvertible {
    /// The op, as far as it could be read.
    public let op: OpID
    /// What failed.
    public let reason: String

    /// `op abcd1234:5: reason`.
    public var description: String { "op \(op): \(reason)" }

    public init(op: OpID, reason: String) {
        self.op = op
        self.reason = reason
    }
}

/// A peer as `caddie peers` lists it.
public struct PeerRecord: Sendable, Equatable {
    /// The space synced.
    public let space: SpaceID
    /// The peer's device.
    public let device: PublicKey
    /// Where it was reached or came from.
    public let address: String
    /// "static" (--peer), "mdns", or "incoming".
    public let foundBy: String
    /// The peer user's name, when its join is known.
    public let userName: String
    /// Last time a session with it was recorded: at admission, after an exchange, at its end (ms since 1970).
    public let lastSeen: UInt64
    /// Last time a sync with it completed an exchange (ms since 1970).
    public let lastSync: UInt64?
    /// Its version vector as last heard.
    public let vector: String
    /// Ops sent to it in the last session.
    public let sent: Int
    /// Ops received from it in the last session.
    public let received: Int

    /// Creates a record.
    public init(
        space: SpaceID, device: PublicKey, address: String, foundBy: String, userName: String, lastSeen: UInt64,
        lastSync: UInt64?, vector: String, sent: Int, received: Int
    ) {
        self.space = space
        self.device = device
        self.address = address
        self.foundBy = foundBy
        self.userName = userName
        self.lastSeen = lastSeen
        self.lastSync = lastSync
        self.vector = vector
        self.sent = sent
        self.received = received
    }
}

/// One score op of a cell's history, superseded or not.
public struct ScoreHistoryEntry: Hashable, Sendable {
    /// The value.
    public let value: ScoreValue
    /// The ops it supersedes.
    public let supersedes: [OpID]
    /// The ops that supersede it (empty while it stands).
    public let supersededBy: [OpID]

    public init(value: ScoreValue, supersedes: [OpID], supersededBy: [OpID]) {
        self.value = value
        self.supersedes = supersedes
        self.supersededBy = supersededBy
    }
}

/// An attestation of a player's card.
public struct AttestationRecord: Hashable, Sendable {
    /// The op that carries it.
    public let op: OpID
    /// The marker's name.
    public let marker: String
    /// The player attested.
    public let player: PlayerID
    /// The card hash signed.
    public let cardHash: Digest32
    /// When the marker signed it: the op's clock.
    public var hlc: HLC = HLC(rawValue: 0)
    /// The marker's user key.
    public var user: PublicKey? = nil

    public init(
        op: OpID, marker: String, player: PlayerID, cardHash: Digest32, hlc: HLC = HLC(rawValue: 0), user: PublicKey? = nil
    ) {
        self.op = op
        self.marker = marker
        self.player = player
        self.cardHash = cardHash
        self.hlc = hlc
        self.user = user
    }
}

/// A session with a proven peer, open now.
public struct LiveSession: Sendable {
    /// A number for this session, unique in this run of the node.
    public let id: Int
    /// The space it syncs.
    public let space: SpaceID
    /// The peer's device and user keys.
    public let device: PublicKey
    public let user: PublicKey
    /// The peer's address, `host:port`.
    public let address: String
    /// How the peer was found: static, mdns or incoming.
    public let foundBy: String
    /// When the session was established.
    public let since: Date
    /// Whether, at the peer's last digest, both sides held the same ops of the space (equal version vectors,
    /// so the same state); nil until a digest has been compared.
    public var inStep: Bool? = nil

    public init(
        id: Int, space: SpaceID, device: PublicKey, user: PublicKey, address: String, foundBy: String, since: Date,
        inStep: Bool? = nil
    ) {
        (self.id, self.space, self.device, self.user) = (id, space, device, user)
        (self.address, self.foundBy, self.since, self.inStep) = (address, foundBy, since, inStep)
    }
}

/// A peer session opening or ending.
public enum PeerEvent: Sendable {
    case connected(LiveSession)
    case lost(LiveSession, reason: String)
}
