import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The keys of one space as this device holds them, and what a changed key asks of peers
/// (docs/identity-and-spaces.md, "Removing a member").
public struct SpaceKeyring: Sendable {
    /// Every key of the space held here, the current one first (the one to dial with).
    public let keys: [[UInt8]]
    /// Once a member was removed: the check of the current key and the devices it was sealed to. A peer that
    /// opens a session with an older key is admitted only if it is one of them (a member who has not yet heard).
    public let current: Current?
    /// Whether a handshake under an older key is answered (and the older keys' hints advertised): until every
    /// device the current key was sealed to has been seen with it, some member may not have heard yet. After that,
    /// whoever dials with an older key (a removed member) is answered as a stranger is.
    public let answersOlderKeys: Bool

    /// The current key's check and its recipients.
    public struct Current: Sendable {
        /// Membership.keyCheck of the current key.
        public let check: [UInt8]
        /// The devices it was sealed to.
        public let recipients: Set<PublicKey>

        /// Creates it.
        public init(check: [UInt8], recipients: Set<PublicKey>) {
            self.check = check
            self.recipients = recipients
        }
    }

    /// Creates a keyring.
    public init(keys: [[UInt8]], current: Current?, answersOlderKeys: Bool = true) {
        self.keys = keys
        self.current = current
        self.answersOlderKeys = answersOlderKeys
    }
}

/// How a node answers invites its device made (the node layer fills it in: the sync layer keeps no invites).
public struct InviteDesk: Sendable {
    /// The invites a handshake may be made under (working or recently ended, so a late joiner hears why).
    public let open: @Sendable () -> [HandshakeResponder.OpenInvite]
    /// Takes one use of an invite for a peer and returns the welcome, or throws `SyncError.refused` with the reason.
    public let redeem: @Sendable (_ invite: [UInt8], _ space: SpaceID, _ peer: PeerIdentity) throws -> Welcome

    /// Creates a desk.
    public init(
        open: @escaping @Sendable () -> [HandshakeResponder.OpenInvite],
        redeem: @escaping @Sendable ([UInt8], SpaceID, PeerIdentity) throws -> Welcome
    ) {
        self.open = open
        self.redeem = redeem
    }
}

/// What a node holds of each space's keys and invites, and whom it admits.
extension SyncNode {
    /// Lets this node answer the redemption of the invites its device made.
    public func serveInvites(_ desk: InviteDesk) { inviteDesk.withLock { $0 = desk } }

    /// The invites a handshake may be made under: read afresh for each incoming connection, so an invite made
    /// while the node runs works at once. Reading them must not fail a handshake: on an error there are none.
    func openInvites() -> [HandshakeResponder.OpenInvite] {
        guard let desk = inviteDesk.withLock({ $0 }) else { return [] }
        return desk.open()
    }

    /// Redeems an invite for a proven peer: the welcome, or `SyncError.refused` saying why not.
    func redeem(_ invite: [UInt8], space: SpaceID, peer: PeerIdentity) async throws -> Welcome {
        guard let desk = inviteDesk.withLock({ $0 }) else { throw SyncError.refused("this node does not answer invites") }
        return try await blocking { try desk.redeem(invite, space, peer) }
    }

    /// Redeems an invite at the device that made it: dials it, proves the invite's secret in the handshake, and
    /// returns the space key it sends back.
    public func redeemInvite(
        host: String, port: Int, space: SpaceID, secret: [UInt8], inviter: PublicKey
    )
        async throws -> Welcome
    {
        let channel = try await connect(host: host, port: port)
        var session = SyncSession(
            node: self, role: .redeemer(space: space, secret: secret, inviter: inviter),
            address: "\(host):\(port)", foundBy: "invite", oneShot: true, logger: logger)
        let report = await session.run(channel)
        if let welcome = report.welcome { return welcome }
        if report.notRecognised { throw SyncError.inviteUnknown(address: "\(host):\(port)") }
        if let refusal = report.refusal { throw SyncError.refused(refusal) }
        throw SyncError.peerClosed(report.failure ?? "no answer")
    }

    /// Lets this node read each space's keys afresh (a removal changes them while the node runs).
    public func useKeyrings(_ source: @escaping @Sendable (SpaceID) -> SpaceKeyring?) { keyringSource.withLock { $0 = source } }

    /// The keys of a space: from the keyring source, else the one key the node started with.
    public func keyring(_ space: SpaceID) -> SpaceKeyring {
        if let source = keyringSource.withLock({ $0 }), let ring = source(space), !ring.keys.isEmpty { return ring }
        return SpaceKeyring(keys: spaceKeys[space].map { [$0] } ?? [], current: nil)
    }

    /// Every (space, key) pair a handshake may be made under: the current key of each space, and the older ones
    /// while some member may not have heard of it (``SpaceKeyring/answersOlderKeys``).
    func allSpaceKeys() -> [(SpaceID, [UInt8])] {
        served.withLock { $0 }.flatMap { space in
            let ring = keyring(space)
            return (ring.answersOlderKeys ? ring.keys : Array(ring.keys.prefix(1))).map { (space, $0) }
        }
    }

    /// A peer's session under the current key of a space whose key changed: remembered, so that once every member
    /// has been seen with it the older keys are no longer answered.
    func keySeen(_ peer: PeerIdentity, in space: SpaceID, keyCheck: [UInt8]?) async {
        guard let keyCheck, let current = keyring(space).current, keyCheck == current.check else { return }
        let store = self.store
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        _ = try? await blocking { try store.recordKeySeen(space, device: peer.device, keyCheck: keyCheck, now: now) }
    }

    func key(for space: SpaceID) throws -> [UInt8] {
        guard let key = keyring(space).keys.first else { throw SyncError.refused("no key for space \(space.short)") }
        return key
    }

    /// Why a proven peer may not sync this space, if it may not: a device this space knows under another user, a
    /// removed user, a revoked device, or a newcomer on a key that a removal replaced (`keyCheck`: the check of the
    /// key the session was opened with). The text goes to the refused device: it speaks to the person there, says
    /// what happened to them and what they can do.
    func refusal(of peer: PeerIdentity, in space: SpaceID, keyCheck: [UInt8]? = nil) async throws -> String? {
        // A node that reaches itself (its own address as a static peer, or its own mDNS advert under another
        // address) would sync with itself for ever.
        if peer.device == credentials.device.publicKey { return "this is this node itself: it does not sync with itself" }
        let store = self.store
        if let member = try await blocking({ try store.member(space, device: peer.device) }), member.user != peer.user {
            return "this device (\(peer.device.short)) belongs to another user in this space"
        }
        // A removal also revokes the devices it lists: say which it was.
        if try await blocking({ try store.isRemoved(space, user: peer.user) }) {
            return "you were removed from this space by its owner, and this device no longer syncs it. What you "
                + "entered before stays on the group's card; to play with the group again, ask the owner for a new invite"
        }
        // A removal counts in its own space only, for the devices that joined it under the removed user, whatever
        // user such a device presents now.
        if try await blocking({ try store.removedDevice(space, device: peer.device) }) {
            return "this device (\(peer.device.short)) was removed from this space with its user by the space's owner, "
                + "and no longer syncs it: to play with the group again, ask the owner for a new invite"
        }
        // Revocations count even before the device's join has arrived here, and by device key in every space this
        // node holds: a revoked device presenting a fresh user, or a space its user could not reach, is refused.
        // Only its own user's revocations reach every space; a removal reaches none but its own.
        if let revoked = try await blocking({ try store.deviceRevocation(peer.device, presentedUser: peer.user) }) {
            return "this device (\(peer.device.short)) was revoked by its user after its op \(revoked), and no longer "
                + "syncs: if it is yours and was not lost, pair it again from another of your devices "
                + "(`caddie device add` there)"
        }
        // After a removal, an older key admits only the devices the new one was sealed to: members that have not
        // yet heard of it. Anyone else holding an old key (an old shared-key code, a removed member's new device)
        // needs a new invite.
        if let keyCheck, let current = keyring(space).current, keyCheck != current.check,
            !current.recipients.contains(peer.device)
        {
            return "this space's key changed when a member was removed, and this device (\(peer.device.short)) was not "
                + "a member then: ask a member for a new invite"
        }
        return nil
    }
}
