import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation

/// What `caddie space remove` did.
public struct RemovalOutcome: Sendable, Equatable, Codable {
    /// The user removed, as shown.
    public let name: String
    /// Their user key.
    public let user: PublicKey
    /// How many of their devices the removal names (their ops up to now stay valid).
    public let devices: Int
    /// The new key's epoch.
    public let epoch: UInt32
    /// How many remaining member devices the new key was sealed to.
    public let sealedTo: Int
}

extension SpaceService {
    /// The owner of a space and the salt that proves it, if the space has one (spaces made before owners have not).
    func owner(of space: SpaceID) throws(NodeError) -> (user: PublicKey, salt: [UInt8])? {
        let record = try run { try store.record(space, kind: .space, id: .spaceRecord) } ?? [:]
        guard case .bytes(let salt)? = record["ownerSalt"], case .bytes(let user)? = record["owner"], user.count == 32,
            let key = PublicKey(bytes: user), Membership.ownedSpaceID(owner: key, salt: salt) == space
        else { return nil }
        return (key, salt)
    }

    /// The member of a space that `text` names (their name, or the start of their user key), checked as one this
    /// user may remove: this user owns the space, and the member is someone else, not removed yet. It needs no keys,
    /// so a command calls it before asking for the passphrase.
    public func removableMember(space: SpaceID, _ text: String) throws(NodeError) -> PublicKey {
        try removal(space: space, text).user
    }

    /// What a removal is checked against and then made from: the user `text` names, the owner's salt, the
    /// members and the users already removed.
    private func removal(
        space: SpaceID, _ text: String
    ) throws(NodeError) -> (user: PublicKey, salt: [UInt8], members: [MemberRecord], removed: Set<PublicKey>) {
        guard let me = try identity().userKey else { throw .file("identity.json is damaged: restore it from a backup") }
        guard let owner = try owner(of: space) else {
            throw .conflict(
                "this space was made before members could be removed, so it has no owner: to leave someone out, "
                    + "create a new space and invite the others to it")
        }
        let members = try run { try store.members(space) }
        guard owner.user == me else {
            let name = members.first { $0.user == owner.user }?.displayName ?? "user \(owner.user.short)"
            throw .refused("only the space's owner, \(name), can remove members")
        }
        let removed = try run { try store.removedUsers(space) }
        let lowered = text.lowercased()
        let users = Set(
            members.filter {
                $0.userName.caseInsensitiveCompare(text) == .orderedSame
                    || $0.displayName.caseInsensitiveCompare(text) == .orderedSame
                    || (lowered.count >= 4 && $0.user.hex.hasPrefix(lowered))
            }.map(\.user))
        guard users.count == 1, let user = users.first else {
            if users.isEmpty {
                throw .notFound("no member of this space is called '\(text)' (a name, or the start of a user key)")
            }
            throw .ambiguous("'\(text)' names \(users.count) users: give the start of the user key (see `caddie log`)")
        }
        guard user != me else { throw .refused("the space's owner cannot remove themselves") }
        guard !removed.contains(user) else { throw .conflict("\(text) was already removed from this space") }
        return (user, owner.salt, members, removed)
    }

    /// Removes a user from a space: only its owner may (this calls ``removableMember(space:_:)``, which a command
    /// may call first, before it asks for the passphrase). One op, signed by this device, records the removal (each of the user's devices known here keeps its
    /// ops up to now) and a new space key sealed to every other member device, so the removed user's devices are
    /// refused by every node that has the op, and an old key admits no newcomer there.
    func removeMember(space: SpaceID, user text: String, keys: UnlockedKeys) throws(NodeError) -> RemovalOutcome {
        let (user, salt, members, removed) = try removal(space: space, text)
        let vector = try run { try store.vector(space) }
        let theirs = members.filter { $0.user == user }
        let cutoffs = theirs.map { Change.Removal.Cutoff(device: $0.device, lastValidSeq: vector[$0.device]) }
        let rotation = try newKey(space: space, members: members, removed: removed.union([user]), salt: salt)
        try append(
            space: space, keys: keys,
            changes: [
                .remove(Change.Removal(user: user, ownerSalt: salt, devices: cutoffs)), .rotate(rotation),
            ])
        let name = theirs.first?.displayName ?? text
        return RemovalOutcome(
            name: name, user: user, devices: cutoffs.count, epoch: rotation.epoch,
            sealedTo: rotation.sealed.count)
    }

    /// The owner and salt a new key of the space is signed with, when this user is its owner; otherwise an error
    /// that says why not. It needs no keys, so a command calls it before asking for the passphrase.
    @discardableResult
    public func rotationOwner(_ space: SpaceID) throws(NodeError) -> (user: PublicKey, salt: [UInt8]) {
        guard let me = try identity().userKey else { throw .file("identity.json is damaged: restore it from a backup") }
        guard let owner = try owner(of: space) else {
            throw .conflict("this space was made before owners, so its key cannot be changed: create a new space")
        }
        guard owner.user == me else { throw .refused("only the space's owner can give it a new key") }
        return owner
    }

    /// A fresh space key sealed to every member device that is neither removed nor revoked, one epoch above any seen.
    private func newKey(
        space: SpaceID, members: [MemberRecord], removed: Set<PublicKey>, salt: [UInt8]
    )
        throws(NodeError) -> Change.Rotation
    {
        let remaining = Set(members.filter { !removed.contains($0.user) && $0.revokedAfter == nil }.map(\.device))
        let key = SecureRandom.bytes(32)
        let sealed = remaining.sorted().compactMap { device in
            DeviceBox.seal(key, to: device).map { Change.Rotation.Sealed(device: device, box: $0) }
        }
        let epoch = (try run { try store.sealedSpaceKeys(space) }.map(\.epoch).max() ?? 0) + 1
        return Change.Rotation(epoch: epoch, ownerSalt: salt, keyCheck: Membership.keyCheck(key), sealed: sealed)
    }

    /// Gives the space a new key (the owner only): sealed to every member device that is neither removed nor
    /// revoked, so that keys on a revoked (stolen) device admit no newcomer once the new key has arrived.
    func rotateKey(space: SpaceID, keys: UnlockedKeys) throws(NodeError) -> Change.Rotation {
        let owner = try rotationOwner(space)
        let rotation = try newKey(
            space: space, members: try run { try store.members(space) },
            removed: try run { try store.removedUsers(space) }, salt: owner.salt)
        try append(space: space, keys: keys, changes: [.rotate(rotation)])
        return rotation
    }

    /// On the owner's devices: when the current key was sealed to a device of a removed user (two removals made
    /// offline on two of the owner's devices, each sealing its key to the user the other removed), seals a new
    /// one to the members that remain. Returns the new epoch, or nil when nothing needed doing.
    @discardableResult
    func renewExposedKey(space: SpaceID, keys: UnlockedKeys) throws(NodeError) -> UInt32? {
        guard let me = try identity().userKey, let owner = try owner(of: space), owner.user == me,
            let current = home.keyring(space, keys: keys)?.current
        else { return nil }
        let members = try run { try store.members(space) }
        let removed = try run { try store.removedUsers(space) }
        let exposed = members.contains { removed.contains($0.user) && current.recipients.contains($0.device) }
        guard exposed else { return nil }
        let rotation = try newKey(space: space, members: members, removed: removed, salt: owner.salt)
        try append(space: space, keys: keys, changes: [.rotate(rotation)])
        return rotation.epoch
    }

}
