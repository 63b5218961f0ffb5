import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import CaddieWire
import Foundation
import Logging

/// An invite this home made, with its state for `caddie space invite list`.
public struct InviteSummary: Sendable, Equatable {
    /// The invite as kept.
    let invite: StoredInvite
    /// Why it admits nobody now (nil: it still works).
    let refusal: InviteRefusal?
    /// The names of the users it admitted, from the space's log.
    public let admitted: [String]

    /// The invite's id.
    public var id: InviteID { invite.id }
    /// The space it admits to.
    public var space: SpaceID { invite.space }
    /// How many devices it admits, and how many it admitted.
    public var uses: Int { invite.uses }
    public var used: Int { invite.used }
    /// When it was made and when it stops working (Unix seconds).
    public var createdAt: UInt64 { invite.createdAt }
    public var expiresAt: UInt64 { invite.expiresAt }

    /// Its state in one word: open, used, expired, revoked.
    public var state: String {
        switch refusal {
        case nil: "open"
        case .revoked: "revoked"
        case .usedUp: "used"
        case .expired: "expired"
        case .unknown: "unknown"
        }
    }
}

/// What `caddie space join` did.
public struct JoinOutcome: Sendable, Equatable, Codable {
    /// The space joined.
    public let space: SpaceID
    /// Its name.
    public let name: String
    /// Who invited (the inviting member's name), for a ticket.
    public let invitedBy: String?
    /// Where the inviting device answered, for a ticket (a shared-key code joins offline).
    public let inviter: HostPort?
    /// Ops received in the first sync with the inviting device, when the join was a ticket's (nil when it failed:
    /// the next `caddie sync` or `caddie serve` brings the space's ops).
    public let firstSyncReceived: Int?
    /// Why the first sync failed, if it did.
    public let firstSyncFailure: String?
}

extension SpaceService {
    /// How long an invite works unless told otherwise.
    public static let defaultInviteSeconds = 24 * 3600
    /// The longest an invite may work.
    public static let maxInviteSeconds = 30 * 24 * 3600
    /// The most devices one invite may admit.
    public static let maxInviteUses = 100
    /// How long after it ended an invite still gets a handshake answer, so a late joiner is told why it was refused.
    static let endedInviteAnsweredSeconds: UInt64 = 7 * 24 * 3600

    /// Refuses a number of uses or a lifetime an invite may not have (a command checks before it asks for the
    /// passphrase).
    public static func checkInvite(uses: Int, seconds: Int) throws(NodeError) {
        guard (1...Self.maxInviteUses).contains(uses) else {
            throw .badInput(.uses, "must be 1...\(Self.maxInviteUses) (devices the invite may admit)")
        }
        guard (1...Self.maxInviteSeconds).contains(seconds) else {
            throw .badInput(.expires, "must be at most 30 days")
        }
    }

    /// Makes an invite with keys already unlocked (the running node's).
    func createInvite(space: SpaceID, uses: Int, seconds: Int, keys: UnlockedKeys) throws(NodeError) -> InviteTicket {
        try Self.checkInvite(uses: uses, seconds: seconds)
        _ = try keys.key(for: space)
        let identity = try identity()
        let now = Home.now()
        let id = InviteID(SecureRandom.entityID())
        let secret = SecureRandom.bytes(32)
        let expiresAt = now + UInt64(seconds) * 1000
        let sealed: [UInt8]
        do {
            sealed = try SecretBox.seal(secret, key: Self.inviteStoreKey(keys.device))
        } catch {
            throw .crypto(error)
        }
        // The signed record first: an invite is never honoured without its record in the log.
        let fields: [String: FieldValue] = ["expires": .integer(Int64(expiresAt)), "uses": .integer(Int64(uses))]
        try append(space: space, keys: keys, changes: [.set(id, fields: fields)])
        try run {
            try store.addInvite(
                StoredInvite(
                    id: id, space: space, sealedSecret: sealed, createdAt: now,
                    expiresAt: expiresAt, uses: uses))
        }
        let name = try list().first { $0.id == space }?.name ?? "space"
        return InviteTicket(
            space: space, id: id, secret: secret, inviter: keys.device.publicKey, expiresAt: expiresAt,
            spaceName: name, inviterName: identity.name)
    }

    /// The invites this home made (of one space, or of all), newest first, with their state.
    public func invites(space: SpaceID?) throws(NodeError) -> [InviteSummary] {
        let now = Home.now()
        return try run {
            try store.invites(space).map { invite in
                let record = try store.record(invite.space, invite.id) ?? [:]
                let members = try store.members(invite.space)
                let admitted = record.filter { $0.key.hasPrefix(Self.admittedPrefix) }.sorted { $0.key < $1.key }
                    .compactMap { _, value -> String? in
                        guard case .bytes(let bytes) = value, bytes.count == 64 else { return nil }
                        let device = PublicKey(unchecked: Array(bytes.prefix(32)))
                        return members.first { $0.device == device }?.userName ?? "device \(device.short)"
                    }
                return InviteSummary(invite: invite, refusal: invite.refusal(at: now), admitted: admitted)
            }
        }
    }

    /// Revokes an invite with keys already unlocked (the running node's).
    /// Revokes the invite `text` names (its id or the start of it); with `space`, only an invite of that space
    /// (another space's answers not found, and stays as it is).
    func revokeInvite(_ text: String, space: SpaceID? = nil, keys: UnlockedKeys) throws(NodeError) -> InviteID {
        try revokeInvite(text, space: space, keys: { () throws(NodeError) in keys }).id
    }

    private func revokeInvite(
        _ text: String, space: SpaceID? = nil, keys unlockKeys: () throws(NodeError) -> UnlockedKeys
    ) throws(NodeError)
        -> StoredInvite
    {
        let lowered = text.lowercased()
        let matches = try run { try store.invites(space) }.filter { !lowered.isEmpty && $0.id.hex.hasPrefix(lowered) }
        guard matches.count == 1, let invite = matches.first else {
            if matches.isEmpty {
                throw .notFound(
                    "no invite made here matches '\(text)'", .list(.invites))
            }
            throw .ambiguous("'\(text)' matches \(matches.count) invites: give more of the id")
        }
        // Revoked already: nothing to sign again.
        guard !invite.revoked else { throw .conflict("invite \(invite.id.hex) is already revoked: it admits nobody") }
        let keys = try unlockKeys()
        _ = try run { try store.revokeInvite(invite.id) }
        try append(space: invite.space, keys: keys, changes: [.set(invite.id, fields: ["revoked": .integer(1)])])
        return try run { try store.invites(invite.space) }.first { $0.id == invite.id } ?? invite
    }

    /// How the sync node answers the invites this device made: the handshake keys of those that work or ended in
    /// the last week, and the redemption, which takes a use and records whom it admitted, in the log, before
    /// the space key is sent.
    func inviteDesk(keys: UnlockedKeys) -> InviteDesk {
        let storeKey = Self.inviteStoreKey(keys.device)
        return InviteDesk(
            open: { [store] in
                let now = Home.now()
                let invites = (try? store.invites(nil)) ?? []
                return invites.compactMap { invite in
                    guard invite.expiresAt + Self.endedInviteAnsweredSeconds * 1000 > now,
                        let secret = SecretBox.open(invite.sealedSecret, key: storeKey)
                    else { return nil }
                    return HandshakeResponder.OpenInvite(id: invite.id.bytes, space: invite.space, secret: secret)
                }
            },
            redeem: { [self] id, space, peer in
                let invite = InviteID(unchecked: id)
                let now = Home.now()
                if try self.store.vector(space)[peer.device] > 0 {
                    throw SyncError.refused("this device is already a member of the space: sync instead")
                }
                if let refusal = try self.store.claimInvite(invite, now: now) {
                    throw SyncError.refused(Self.describe(refusal))
                }
                do {
                    try self.append(
                        space: space, keys: keys,
                        changes: [
                            .set(invite, fields: [Self.admittedField(peer.device): .bytes(peer.device.bytes + peer.user.bytes)])
                        ])
                    let name = try list().first { $0.id == space }?.name ?? "space"
                    // The current key: after a removal, the one sealed to the remaining members.
                    let all = try home.keyring(space, keys: keys)?.keys ?? [keys.key(for: space)]
                    return Welcome(spaceKey: all[0], name: name, earlierKeys: Array(all.dropFirst()))
                } catch {
                    try? self.store.releaseInvite(invite)
                    throw SyncError.refused("the inviting device could not record the admission: \(error)")
                }
            })
    }

    /// An invite record's fields that name whom it admitted: `admitted.<first 16 bytes of the device key, hex>`
    /// (a field name has at most 64 bytes), holding the device key and the user key.
    static let admittedPrefix = "admitted."

    static func admittedField(_ device: PublicKey) -> String { admittedPrefix + Hex.encode(Array(device.bytes.prefix(16))) }

    /// Why an invite admits nobody, in words for the person who tried it.
    public static func describe(_ refusal: InviteRefusal) -> String {
        switch refusal {
        case .revoked: "this invite was revoked by the member who made it: ask for a new one"
        case .usedUp(let uses):
            uses == 1
                ? "this invite was already used (it admits one device): ask for a new one"
                : "this invite was already used by all \(uses) devices it admits: ask for a new one"
        case .expired(let at):
            "this invite expired at \(Self.dateText(at)): ask for a new one"
        case .unknown: "the inviting device made no such invite"
        }
    }

    static func dateText(_ ms: UInt64) -> String {
        Date(timeIntervalSince1970: Double(ms) / 1000).formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false)
                .dateSeparator(.dash).timeSeparator(.colon).timeZoneSeparator(.omitted)) + " UTC"
    }

    /// The key the invite secrets are sealed with in the store: derived from the device key, so a copy of the
    /// database alone redeems nothing.
    static func inviteStoreKey(_ device: SigningKey) -> [UInt8] {
        Blake2b.keyed(device.seed, [Array("caddie-invite-store-v1".utf8)])
    }

    /// Joins a space with a ticket: redeems it at the inviting device (at `peer`, or found over mDNS within
    /// `searchSeconds` when no address is given), keeps the space key it sends, joins, and syncs once with that
    /// device. Nothing is written unless the inviting device admitted this one.
    public func join(
        ticket: InviteTicket, at peer: HostPort?, searchSeconds: Int = 30, keys: UnlockedKeys,
        logger: Logger
    ) async throws -> JoinOutcome {
        if keys.spaceKeys[ticket.space] != nil, try list().contains(where: { $0.id == ticket.space }) {
            throw NodeError.conflict("this home is already in space \(ticket.spaceName) (\(ticket.space.short))")
        }
        let node = try home.syncNode(keys: keys, logger: logger)
        let (welcome, address): (Welcome, HostPort)
        do {
            if let peer {
                welcome = try await node.redeemInvite(
                    host: peer.host, port: peer.port, space: ticket.space,
                    secret: ticket.secret, inviter: ticket.inviter)
                address = peer
            } else {
                (welcome, address) = try await search(ticket: ticket, node: node, seconds: searchSeconds, logger: logger)
            }
        } catch SyncError.refused(let text) {
            throw NodeError.refused("\(ticket.inviterName)'s device refused the invite: \(text)")
        } catch SyncError.inviteUnknown(let at) {
            throw NodeError.notFound(
                "the device at \(at) does not know this invite: it is redeemed only at "
                    + "\(ticket.inviterName)'s device (\(ticket.inviter.short)), which made it")
        } catch SyncError.unreachable(let text) {
            // The text names the address dialled and why it failed: "127.0.0.1:7400: connection refused (...)".
            throw NodeError.unreachable(
                "cannot reach \(ticket.inviterName)'s device at \(text). It must be running `caddie serve` there, on "
                    + "a network this device shares")
        }
        let invite = InviteCode(space: ticket.space, key: welcome.spaceKey, name: welcome.name)
        try await offload { try self.enter(invite, keys: keys, earlier: welcome.earlierKeys) }
        // The first sync brings the space's players, courses and games; if it fails the join stands (the space
        // key is held) and the next sync brings them.
        do {
            let member = try home.syncNode(keys: keys, logger: logger)
            let report = try await member.syncOnce(host: address.host, port: address.port, space: ticket.space)
            return JoinOutcome(
                space: ticket.space, name: welcome.name, invitedBy: ticket.inviterName, inviter: address,
                firstSyncReceived: report.received, firstSyncFailure: report.completed ? nil : report.failure)
        } catch {
            return JoinOutcome(
                space: ticket.space, name: welcome.name, invitedBy: ticket.inviterName, inviter: address,
                firstSyncReceived: nil, firstSyncFailure: "\(error)")
        }
    }

    /// Looks for the inviting device over mDNS: every Caddie node sighted is asked, once, to redeem the ticket
    /// (a node that did not make it answers as to any stranger, and the next is asked). The adverts name no
    /// space and no device, so there is nothing to match on before asking.
    private func search(
        ticket: InviteTicket, node: SyncNode, seconds: Int, logger: Logger
    ) async throws
        -> (Welcome, HostPort)
    {
        let discovery = try LocalDiscovery(browsingFor: logger)
        defer { discovery.stop() }
        let found = try await withThrowingTaskGroup(of: (Welcome, HostPort)?.self) { group in
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            group.addTask {
                var asked = Set<String>()
                for await sighting in discovery.sightings where !sighting.lost && sighting.port > 0 {
                    guard asked.insert("\(sighting.host):\(sighting.port)").inserted,
                        let address = try? HostPort(
                            parsing: sighting.host.contains(":")
                                ? "[\(sighting.host)]:\(sighting.port)"
                                : "\(sighting.host):\(sighting.port)")
                    else { continue }
                    do {
                        let welcome = try await node.redeemInvite(
                            host: address.host, port: address.port, space: ticket.space,
                            secret: ticket.secret, inviter: ticket.inviter)
                        return (welcome, address)
                    } catch SyncError.inviteUnknown, SyncError.unreachable, SyncError.closedDuringHandshake {
                        continue  // not the inviting device, or gone: ask the next
                    }
                }
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let found else {
            throw NodeError.unreachable(
                "did not find \(ticket.inviterName)'s device on this network within \(seconds) s: it must be "
                    + "running `caddie serve` on the same Wi-Fi; or give its address with --peer HOST:PORT")
        }
        return found
    }
}
