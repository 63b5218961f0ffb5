import CaddieCore
import CaddieCrypto
import CaddieStore

// A phone that signs its own entries: a device with its own keys that holds no space key and no database, and
// reaches the group through the node its browser is signed in to (the web app). The node admits its device into
// a space, as an invite admits a new home, and takes the ops it signed, checked exactly as a peer's are.
extension RoundService {
    /// The membership proof a browser's device needs for its join op. The user's certificate of the device must
    /// verify (so the phone holds that user's key); the device must not be this home's own, nor one removed or
    /// revoked in this space. The proof is made with the space's current key, as this home's own join would be.
    public func admit(
        space: SpaceID, keys: UnlockedKeys, user: PublicKey, device: PublicKey, certifiedAt: UInt64, certificate: [UInt8]
    ) throws(NodeError) -> [UInt8] {
        guard Membership.verifyCertificate(user: user, device: device, certifiedAt: certifiedAt, signature: certificate) else {
            throw .badInput(
                .certificate,
                "does not verify: it must be the user key's Ed25519 signature over caddie-cert-v1, the user key, the "
                    + "device key and the time (Protocol/op-format.md)")
        }
        guard device != keys.device.publicKey else {
            throw .refused("that is this node's own device: a phone makes a device key of its own")
        }
        let members = try run { try store.members(space) }
        if let known = members.first(where: { $0.device == device }) {
            guard known.user == user, known.revokedAfter == nil else {
                throw .refused("device \(device.short) is already in this space for another user, or was revoked there")
            }
        }
        if try run({ try store.isRemoved(space, user: user) }) {
            throw .refused("user \(user.short) was removed from this space by its owner: no device of theirs can join it")
        }
        if try run({ try store.removedDevice(space, device: device) }) {
            throw .refused("device \(device.short) was removed from this space by its owner: it cannot join again")
        }
        var key = home.keyring(space, keys: keys)?.keys.first ?? []
        if key.isEmpty { key = try keys.key(for: space) }
        return Membership.membershipProof(space: space, spaceKey: key, device: device, user: user)
    }

    /// The name a user's devices joined `space` under, while one of them is neither revoked nor removed; nil for
    /// anyone else. A phone adds a device of its user only when that user is such a member.
    public func memberName(space: SpaceID, user: PublicKey) throws(NodeError) -> String? {
        try members(space: space).first { $0.user == user }?.name
    }

    /// The users of a space with a device in it that is neither revoked nor removed, by name: each with the name shown
    /// (a fingerprint added when two users share a name) and how many such devices they have. A phone about to make a
    /// new user checks its name against these.
    public func members(space: SpaceID) throws(NodeError) -> [SpaceMember] {
        var users: [PublicKey: SpaceMember] = [:]
        for member in try run({ try store.members(space) }) where member.revokedAfter == nil {
            let shown = member.displayName.isEmpty ? member.userName : member.displayName
            users[member.user, default: SpaceMember(user: member.user, name: member.userName, shown: shown, devices: 0)]
                .devices += 1
        }
        var kept: [SpaceMember] = []
        for member in users.values where !(try run { try store.isRemoved(space, user: member.user) }) { kept.append(member) }
        return kept.sorted { ($0.name, $0.user.hex) < ($1.name, $1.user.hex) }
    }

    /// The change that makes `user` the player `player` is (a phone checking in for its player): refused when the
    /// player is someone else's already, or `user` is another player's, or not a member of the space. A phone never
    /// becomes a device of someone else: it claims a player nobody has claimed. Signs nothing: the phone signs it.
    public func claimChanges(space: SpaceID, player: PlayerID, user: PublicKey) throws(NodeError) -> [Change] {
        let claimed = try self.player(space, player)
        guard try memberName(space: space, user: user) != nil else {
            throw .badInput(.user, "\(user.short) is not a member of this space: the phone joins it first, then checks in")
        }
        if let owner = claimed.user, owner != user {
            throw .refused(
                "\(claimed.name) has checked in already, on another phone: a phone checks in for a player nobody has "
                    + "claimed. If you are \(claimed.name), make this phone another device of yours (your recovery words, "
                    + "or your other phone's code)")
        }
        if let mine = try players(space).first(where: { $0.user == user && $0.id != claimed.id }) {
            throw .refused(
                "this phone is \(mine.name)'s already: it checks in for its own player only, never as someone else")
        }
        return claimed.user == user ? [] : [.set(claimed.id, fields: ["user": .bytes(user.bytes)])]
    }

    /// Takes ops that a browser's device signed, in the order given, checked as a bundle from a peer is: every op
    /// is verified first, and one that fails any check (or leaves a gap in its device's log) refuses them all,
    /// with the check's own words. Ops this home already holds count as duplicates.
    public func receiveSigned(space: SpaceID, keys: UnlockedKeys, ops: [[UInt8]]) throws(NodeError) -> ReceivedOps {
        guard !ops.isEmpty else { throw .badInput(.ops, "is empty: give at least one op") }
        // This node is the origin of the phone's ops from the moment they commit, so it records the phone before the
        // commit wakes its live sessions (they push them at once, as its own), and forgets it if they are refused.
        let added = home.hosted.host(ops.compactMap { try? SignedOp(bytes: $0).device }, in: space)
        do {
            return ReceivedOps(try receiveStrict(space: space, keys: keys, ops: ops))
        } catch {
            home.hosted.forget(added, in: space)
            throw error
        }
    }
}

/// What taking a batch of signed ops did: the ops newly applied, in order, and how many were held already.
public struct ReceivedOps: Sendable, Equatable {
    public let applied: [OpID]
    public let duplicates: Int

    init(_ report: ReceiveReport) {
        applied = report.applied
        duplicates = report.duplicates
    }
}

/// A user of a space, as its devices joined it.
public struct SpaceMember: Sendable, Equatable {
    public let user: PublicKey
    /// The name the user's devices joined under.
    public let name: String
    /// The name as shown: with the user key's fingerprint when another user has the same name.
    public let shown: String
    /// Devices of the user in the space, neither revoked nor removed.
    public var devices: Int
}
