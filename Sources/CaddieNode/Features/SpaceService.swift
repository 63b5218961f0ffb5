import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation

/// A space this home holds.
public struct SpaceSummary: Sendable, Equatable {
    /// The space id.
    public let id: SpaceID
    /// Its name (the synced name when one has been set, else the name it was created or joined with).
    public let name: String
    /// Ops held.
    public let ops: Int
    /// Member devices.
    public let members: Int
    /// The epoch of the space's current key (0 until a member is removed) and that key's public check.
    public var keyEpoch: UInt32 = 0
    public var keyCheck: [UInt8]? = nil
}

/// Spaces, their members, invites, removals and key rotation.
public struct SpaceService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any SpaceStore { home.store }
}

extension SpaceService {
    /// Creates a space with a fresh random key, joins it, and returns its invite. The key goes into `keys` (sealed
    /// into the home's ring with the key their unlock kept), so a running node serves the space at once.
    func createSpace(name: String, keys: UnlockedKeys) throws(NodeError) -> InviteCode {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 100 else {
            throw .badInput(.spaceName, "must be 1...100 characters")
        }
        guard let owner = try identity().userKey else { throw .file("identity.json is damaged: restore it from a backup") }
        // The id binds the creating user as the space's owner (the one who may remove members): it is a hash of
        // the user key under a random salt, which the space record keeps for the owner's devices to show.
        let salt = SecureRandom.bytes(16)
        let invite = InviteCode(
            space: Membership.ownedSpaceID(owner: owner, salt: salt), key: SecureRandom.bytes(32),
            name: trimmed)
        try enter(invite, keys: keys)
        try append(
            space: invite.space, keys: keys,
            changes: [
                .set(
                    kind: .space, id: .spaceRecord,
                    fields: ["name": .text(trimmed), "owner": .bytes(owner.bytes), "ownerSalt": .bytes(salt)])
            ])
        return invite
    }

    /// Creates a space in a home no node runs on, unlocking its keys with `passphrase` (demos, benches, tests).
    public func createSpace(name: String, passphrase: String) throws(NodeError) -> InviteCode {
        try createSpace(name: name, keys: try unlock(passphrase: passphrase))
    }

    /// The space's shared-key code (CADDIE1): it carries the space key itself.
    func sharedKeyInvite(space: SpaceID, keys: UnlockedKeys) throws(NodeError) -> InviteCode {
        let name = try list().first { $0.id == space }?.name ?? "space"
        // After a removal the key the space began with admits nobody new, and a shared-key code has room for one
        // key only, while a newcomer needs every epoch's to check the joins made before: a ticket carries them.
        if home.keyring(space, keys: keys)?.current != nil {
            throw .conflict(
                "this space's key changed when a member was removed, and a shared-key code cannot carry its earlier "
                    + "keys: make an invite with `caddie space invite` (without --shared-key)")
        }
        return InviteCode(space: space, key: try keys.key(for: space), name: name)
    }

    /// Joins a space from its shared-key code (CADDIE1).
    func joinSpace(invite text: String, keys: UnlockedKeys) throws(NodeError) -> InviteCode {
        let invite = try NodeError.reading { () throws(CodeError) in try InviteCode(parsing: text) }
        if keys.spaceKeys[invite.space] != nil, (try? store.vector(invite.space)) != nil,
            try list().contains(where: { $0.id == invite.space })
        {
            throw .conflict("this home is already in space \(invite.name) (\(invite.space.short))")
        }
        try enter(invite, keys: keys)
        return invite
    }

    /// Joins a space from its shared-key code in a home no node runs on, unlocking its keys with `passphrase`.
    public func joinSpace(invite text: String, passphrase: String) throws(NodeError) -> InviteCode {
        try joinSpace(invite: text, keys: try unlock(passphrase: passphrase))
    }

    /// Takes a space's key into `keys` (and the home's sealed ring), records the space, and writes this device's
    /// join op: the join's commit is what tells a running node's sessions that the space is there to serve.
    func enter(_ invite: InviteCode, keys: UnlockedKeys, earlier: [[UInt8]] = []) throws(NodeError) {
        try keys.take(space: invite.space, key: invite.key, earlier: earlier, in: home)
        do {
            try store.addSpace(invite.space, name: invite.name, now: Home.now())
        } catch {
            throw .store(error)
        }
        try home.ensureJoined(invite.space, keys: keys)
    }

    /// The spaces this home holds.
    public func list() throws(NodeError) -> [SpaceSummary] {
        do {
            return try store.spaces().map { space throws(StoreError) in
                let synced = try store.record(space.id, kind: .space, id: .spaceRecord)
                // Members are the devices that may still take part: not revoked, and not of a removed user.
                let removed = try store.removedUsers(space.id)
                let members = try store.members(space.id).filter { $0.revokedAfter == nil && !removed.contains($0.user) }
                var summary = SpaceSummary(
                    id: space.id, name: synced?["name"]?.text ?? space.name,
                    ops: try store.opCount(space.id), members: members.count)
                if let current = Home.currentRotation(try store.sealedSpaceKeys(space.id)) {
                    summary.keyEpoch = current.value[0].epoch
                    summary.keyCheck = current.value[0].keyCheck
                }
                return summary
            }
        } catch {
            throw .store(error)
        }
    }

    /// The spaces by id and name only: what naming a space or walking the spaces needs, without `list`'s counts of
    /// members and ops (which read every member of a space: a clubhouse's hundreds, on every request of a phone).
    public func named() throws(NodeError) -> [(id: SpaceID, name: String)] {
        do {
            return try store.spaces().map { space throws(StoreError) in
                (space.id, try store.record(space.id, kind: .space, id: .spaceRecord)?["name"]?.text ?? space.name)
            }
        } catch {
            throw .store(error)
        }
    }

    /// The space a command means: the one named by `option` (id, id prefix or name), or the only one.
    public func resolveSpace(_ option: String?) throws(NodeError) -> SpaceID {
        let all = try named()
        guard !all.isEmpty else { throw .noSpace }
        guard let option, !option.isEmpty else {
            if all.count == 1 { return all[0].id }
            throw .spaceAmbiguous(all.map { "\($0.name) \($0.id.short)" })
        }
        let lowered = option.lowercased()
        let matches = all.filter {
            $0.id.hex.hasPrefix(lowered) || $0.name.caseInsensitiveCompare(option) == .orderedSame
        }
        guard matches.count == 1 else {
            if matches.isEmpty {
                throw .notFound(
                    "no space matches '\(option)'", .list(.spaces))
            }
            throw .spaceAmbiguous(matches.map { "\($0.name) \($0.id.short)" })
        }
        return matches[0].id
    }

}

extension SpaceService {
    /// The name this user's other devices go by in a space, when it is not the name this device gave (a user
    /// brought back with `login --recover --name` under another name: the space knew them as "Ana", this device
    /// says "Zed"). Nil when they agree, or when the space holds no other device of this user.
    public func nameElsewhere(_ space: SpaceID) throws(NodeError) -> String? {
        let identity = try identity()
        let others = try run { try store.members(space) }
            .filter { $0.user.hex == identity.user && $0.device.hex != identity.device }
        let names = Set(others.map(\.userName)).filter { $0.lowercased() != identity.name.lowercased() }
        return names.sorted().first
    }

    /// The note to show when ``nameElsewhere(_:)`` finds another name, else nil.
    public func nameNote(_ space: SpaceID) -> String? {
        guard let known = try? nameElsewhere(space), let mine = try? identity().name else { return nil }
        let spaceName = (try? list())?.first { $0.id == space }?.name ?? space.short
        return "In \(spaceName) your user is known as \(known), and this device calls you \(mine): the group sees "
            + "\(mine) on what you enter here. To be \(known) here too, recover again in a new home with "
            + "--name \(known)."
    }
}
