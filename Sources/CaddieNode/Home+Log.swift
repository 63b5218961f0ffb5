import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation

/// The home's one way to change the op log: every feature service signs and appends through here, so joining a
/// space first and carrying the user's revocations in happen in one place. The caller is the home's writer: the
/// running node, or a command when no node runs (`Home.run` hands a command to a running node first).
extension Home {
    func run<T>(_ body: () throws -> T) throws(NodeError) -> T {
        do { return try body() } catch { throw NodeError.wrap(error) }
    }

    /// Makes sure this device's first op in the space, its join, is in the log.
    func ensureJoined(_ space: SpaceID, keys: UnlockedKeys) throws(NodeError) {
        let identity = try identity()
        do {
            guard try store.vector(space)[keys.device.publicKey] == 0 else { return }
            guard let user = identity.userKey, let signature = Hex.decode(identity.certificate) else {
                throw NodeError.file("identity.json is damaged: restore it from a backup")
            }
            let key = try keys.key(for: space)
            let join = Change.Join(
                user: user, userName: identity.name, certifiedAt: identity.certifiedAt, certificateSignature: signature,
                membershipProof: Membership.membershipProof(
                    space: space, spaceKey: key, device: keys.device.publicKey,
                    user: user))
            try store.append(space: space, signer: keys.device, changes: [.join(join)], now: Self.now())
        } catch {
            throw NodeError.wrap(error)
        }
        // The device that holds the user key carries the user's revocations into every space it joins, so a
        // revoked device is refused there too (by its key), whichever space the revocation was made in.
        if let userKey = keys.user {
            let revoked = try run { try store.devicesRevoked(by: userKey.publicKey) }
            for device in revoked where device != keys.device.publicKey {
                try appendRevocation(of: device, in: space, user: userKey, keys: keys)
            }
        }
    }

    /// Appends one op of this device, joining the space first if this device has not yet.
    @discardableResult
    func append(
        space: SpaceID, keys: UnlockedKeys, changes: [Change], pred: [OpID] = []
    )
        throws(NodeError) -> SignedOp
    {
        let ops = try appendEdits(space: space, keys: keys, edits: [ControlRequest.Edit(changes: changes, pred: pred)])
        guard let op = ops.first, ops.count == 1 else {
            throw .conflict("one edit wrote \(ops.count) ops; nothing else was changed")
        }
        return op
    }

    /// Appends this user's revocation of `device` to one space: valid through the ops of it held here.
    func appendRevocation(of device: PublicKey, in space: SpaceID, user: SigningKey, keys: UnlockedKeys) throws(NodeError) {
        let lastValid = try run { try store.vector(space) }[device]
        let signature = user.sign(Membership.revocationMessage(space: space, device: device, lastValidSeq: lastValid))
        try append(
            space: space, keys: keys,
            changes: [.revoke(.init(device: device, lastValidSeq: lastValid, userSignature: signature))])
    }

    /// The rotation whose key is current: the highest epoch; two rotations of one epoch (made offline on two of the
    /// owner's devices) are ordered by the op that carried them, so every node picks the same one.
    static func currentRotation(_ rows: [SealedSpaceKey]) -> (key: OpID, value: [SealedSpaceKey])? {
        Dictionary(grouping: rows, by: \.by).max { ($0.value[0].epoch, $0.key) < ($1.value[0].epoch, $1.key) }
            .map { (key: $0.key, value: $0.value) }
    }

    /// The keys of a space this device holds, the current one first, and what the current one asks of peers.
    /// Nil when the home does not hold the space.
    func keyring(_ space: SpaceID, keys: UnlockedKeys) -> SpaceKeyring? {
        guard let ringKey = keys.spaceKeys[space] else { return nil }
        let rows = (try? store.sealedSpaceKeys(space)) ?? []
        let rotations = Dictionary(grouping: rows, by: \.by)
        guard let current = Self.currentRotation(rows) else {
            return SpaceKeyring(keys: [ringKey] + (keys.earlierKeys[space] ?? []), current: nil)
        }
        var held: [(epoch: UInt32, check: [UInt8], key: [UInt8])] = []
        for entries in rotations.values {
            guard let mine = entries.first(where: { $0.device == keys.device.publicKey }),
                let key = DeviceBox.open(mine.sealed, with: keys.device), Membership.keyCheck(key) == mine.keyCheck,
                !held.contains(where: { $0.check == mine.keyCheck })
            else { continue }
            held.append((mine.epoch, mine.keyCheck, key))
        }
        for key in [ringKey] + (keys.earlierKeys[space] ?? []) {
            let check = Membership.keyCheck(key)
            if !held.contains(where: { $0.check == check }) {
                held.append((rows.first { $0.keyCheck == check }?.epoch ?? 0, check, key))
            }
        }
        let currentCheck = current.value[0].keyCheck
        held.sort { ($0.check == currentCheck ? 1 : 0, $0.epoch) > ($1.check == currentCheck ? 1 : 0, $1.epoch) }
        let recipients = Set(current.value.map(\.device))
        // Older keys are answered until every other device the current key was sealed to has had a session with
        // this home under it (second review, "old-key handshakes after a rotation").
        let unheard = recipients.subtracting([keys.device.publicKey])
            .subtracting((try? store.devicesSeen(space, keyCheck: currentCheck)) ?? [])
        return SpaceKeyring(
            keys: held.map(\.key), current: .init(check: currentCheck, recipients: recipients),
            answersOlderKeys: !unheard.isEmpty)
    }
}
