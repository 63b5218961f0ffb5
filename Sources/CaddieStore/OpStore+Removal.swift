import CaddieCore
import Foundation
import GRDB

/// One device's entry of a rotation (change 0x04): the space's key of an epoch, sealed to that device.
public struct SealedSpaceKey: Sendable, Equatable {
    /// The epoch.
    public let epoch: UInt32
    /// The key's public check (Membership.keyCheck).
    public let keyCheck: [UInt8]
    /// The device it is sealed to.
    public let device: PublicKey
    /// The sealed key.
    public let sealed: [UInt8]
    /// The op that carried it.
    public let by: OpID
}

extension OpStore {
    /// Records a session with `device` under the space key whose check is `keyCheck` (a local fact, not synced).
    public func recordKeySeen(_ space: SpaceID, device: PublicKey, keyCheck: [UInt8], now: UInt64) throws(StoreError) {
        try write("key seen") { db in
            try db.execute(
                sql: """
                    INSERT INTO key_seen (space, device, key_check, seen_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (space, device, key_check) DO UPDATE SET seen_at = excluded.seen_at
                    """, arguments: [Data(space.bytes), Data(device.bytes), Data(keyCheck), Int64(bitPattern: now)])
        }
    }

    /// The devices this home has had a session with under the space key whose check is `keyCheck`.
    public func devicesSeen(_ space: SpaceID, keyCheck: [UInt8]) throws(StoreError) -> Set<PublicKey> {
        try read { db in
            Set(
                try Data.fetchAll(
                    db, sql: "SELECT device FROM key_seen WHERE space = ? AND key_check = ?",
                    arguments: [Data(space.bytes), Data(keyCheck)]
                ).map { try PublicKey(column: $0) })
        }
    }

    /// Whether the space's owner removed `user`.
    public func isRemoved(_ space: SpaceID, user: PublicKey) throws(StoreError) -> Bool {
        try read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM removal WHERE space = ? AND user = ?",
                arguments: [Data(space.bytes), Data(user.bytes)]) ?? 0 > 0
        }
    }

    /// SQL for "the revocation row `r` was written by a removal" (a removal cuts its user's listed devices with
    /// rows of the same table, under the op that removed them).
    static let fromRemoval = """
        EXISTS (SELECT 1 FROM removal x WHERE x.space = r.space AND x.user = r.user
            AND x.by_device = r.by_device AND x.by_seq = r.by_seq)
        """

    /// Whether the space's owner removed `device` from this space with its user: a removal here lists it, and it
    /// joined this space under the removed user. Such a device is refused in this space whatever user it presents
    /// now, and nowhere else.
    public func removedDevice(_ space: SpaceID, device: PublicKey) throws(StoreError) -> Bool {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM revocation r
                    WHERE r.space = ? AND r.device = ? AND \(Self.fromRemoval)
                    AND EXISTS (SELECT 1 FROM member m WHERE m.space = r.space AND m.device = r.device AND m.user = r.user)
                    """, arguments: [Data(space.bytes), Data(device.bytes)]) ?? 0 > 0
        }
    }

    /// Whether `user` was removed from a space of this home where it is a member, or `device` revoked by `user`
    /// itself: what ends a browser session that is that person's. A revocation row names its signer as the user,
    /// so another member's "revocation" of this device counts for nothing here; the rows a removal writes count
    /// through the removal, and a removal from a space the user never joined ends nothing.
    public func personEnded(user: PublicKey, device: PublicKey) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (
                        SELECT 1 FROM removal y WHERE y.user = ?
                        AND EXISTS (SELECT 1 FROM member m WHERE m.space = y.space AND m.user = y.user)
                    ) OR EXISTS (
                        SELECT 1 FROM revocation r WHERE r.device = ? AND r.user = ? AND NOT \(Self.fromRemoval)
                    )
                    """, arguments: [Data(user.bytes), Data(device.bytes), Data(user.bytes)]) ?? false
        }
    }

    /// The users the space's owner removed.
    public func removedUsers(_ space: SpaceID) throws(StoreError) -> Set<PublicKey> {
        try read { db in
            Set(
                try Data.fetchAll(db, sql: "SELECT DISTINCT user FROM removal WHERE space = ?", arguments: [Data(space.bytes)])
                    .map { try PublicKey(column: $0) })
        }
    }

    /// Every sealed entry of every rotation of the space.
    public func sealedSpaceKeys(_ space: SpaceID) throws(StoreError) -> [SealedSpaceKey] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT epoch, key_check, device, sealed, by_device, by_seq FROM space_key WHERE space = ?
                    """, arguments: [Data(space.bytes)]
            ).map { row in
                SealedSpaceKey(
                    epoch: UInt32(clamping: row["epoch"] as Int64), keyCheck: [UInt8](row["key_check"] as Data),
                    device: try PublicKey(column: row["device"] as Data),
                    sealed: [UInt8](row["sealed"] as Data),
                    by: OpID(
                        device: try PublicKey(column: row["by_device"] as Data),
                        seq: UInt64(bitPattern: row["by_seq"] as Int64)))
            }
        }
    }
}
