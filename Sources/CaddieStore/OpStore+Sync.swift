import CaddieCore
import Foundation
import GRDB

extension OpStore {
    /// Per device: the highest contiguous seq held and the hash of that op.
    public func heads(_ space: SpaceID) throws(StoreError) -> [(device: PublicKey, seq: UInt64, hash: Digest32)] {
        try read { db in
            // Every device with ops has a member row (its first op is its join), and the newest op of each is
            // one index probe: this stays fast however long the log grows.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT m.device,
                        (SELECT seq FROM op WHERE space = m.space AND device = m.device ORDER BY seq DESC LIMIT 1) AS seq,
                        (SELECT hash FROM op WHERE space = m.space AND device = m.device ORDER BY seq DESC LIMIT 1) AS hash
                    FROM member m WHERE m.space = ? ORDER BY m.device
                    """, arguments: [Data(space.bytes)]
            ).compactMap { row in
                guard let seq = row["seq"] as Int64?, let hash = row["hash"] as Data? else { return nil }
                return (try PublicKey(column: row["device"] as Data), UInt64(seq), try Digest32(column: hash))
            }
        }
    }

    /// Ops a peer lacks: per device, those after the peer's seq, oldest first, at most `limit` ops and about
    /// `maxBytes` bytes in all (always at least one op when any is lacking).
    /// `heads`: this store's heads of the space when the caller has them at hand (read now when nil).
    public func ops(
        space: SpaceID, after peer: VersionVector, limit: Int, maxBytes: Int = .max,
        onlyDevices: Set<PublicKey>? = nil, heads known: [(device: PublicKey, seq: UInt64)]? = nil
    ) throws(StoreError)
        -> [(id: OpID, bytes: [UInt8])]
    {
        let heads: [(device: PublicKey, seq: UInt64)]
        if let known { heads = known } else { heads = try self.heads(space).map { ($0.device, $0.seq) } }
        return try read { db in
            var out: [(id: OpID, bytes: [UInt8])] = []
            var size = 0
            let statement = try db.cachedStatement(
                sql: """
                    SELECT seq, bytes FROM op WHERE space = ? AND device = ? AND seq > ? ORDER BY seq LIMIT ?
                    """)
            devices: for head in RecentOps.wanted(heads, onlyDevices) where head.seq > peer[head.device] {
                let rows = try Row.fetchCursor(
                    statement,
                    arguments: [
                        Data(space.bytes), Data(head.device.bytes),
                        Int64(bitPattern: peer[head.device]), limit - out.count,
                    ])
                // Columns by position: a lookup by name compares names case-insensitively, for every op sent.
                while let row = try rows.next() {
                    let bytes = [UInt8](row[1] as Data)
                    if !out.isEmpty, size + bytes.count > maxBytes { break devices }
                    size += bytes.count
                    out.append((OpID(device: head.device, seq: UInt64(row[0] as Int64)), bytes))
                    if out.count >= limit { break devices }
                }
            }
            return out
        }
    }

    /// What ``ops(space:after:limit:maxBytes:onlyDevices:heads:)`` gives, and the space's fork mark when that is
    /// nothing, from what the store keeps in memory (``RecentOps``): no SQLite read, no blocking. Nil when some of it
    /// is not kept; then read the store. `heads` in device order, as the node keeps them.
    public func keptOps(
        space: SpaceID, after peer: VersionVector, limit: Int, maxBytes: Int = .max, onlyDevices: Set<PublicKey>? = nil,
        heads: [(device: PublicKey, seq: UInt64)]
    ) -> (ops: [(id: OpID, bytes: [UInt8])], forkMark: Int?)? {
        // Only in the file's one writer: there no other process's commit (a cut log, a new fork) can be missing from
        // what is kept. Elsewhere SQLite is read each time.
        guard keepsRecent else { return nil }
        guard
            let ops = recorder.recent.ops(
                space: space, after: peer, limit: limit, maxBytes: maxBytes, onlyDevices: onlyDevices, heads: heads)
        else { return nil }
        guard ops.isEmpty else { return (ops, nil) }
        guard let mark = recorder.recent.forkMark(space) else { return nil }
        return ([], mark)
    }

    /// The last valid seq of `device` by its user's revocations, if any (also for a device not yet seen).
    public func revokedAfter(_ space: SpaceID, device: PublicKey, user: PublicKey) throws(StoreError) -> UInt64? {
        try read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT min(last_valid_seq) FROM revocation WHERE space = ? AND device = ? AND user = ?
                    """, arguments: [Data(space.bytes), Data(device.bytes), Data(user.bytes)]
            ).map { UInt64(bitPattern: $0) }
        }
    }

    /// Whether `device` has been revoked by its own user in any space this home holds, whatever user it presents
    /// now: the lowest last valid seq of those revocations, if any.
    ///
    /// A revocation by user U counts against the device key when the device itself has acknowledged U: it
    /// presents U's certificate now, or its join under U is held in some space. So a revoked phone cannot get
    /// back in by presenting a fresh self-certified user, in this space or another, while a member cannot lock
    /// out somebody else's device by "revoking" a key that never acknowledged them. A removal's cut of the
    /// removed user's devices is not a revocation here: it is one space owner's word about one space and counts
    /// only there (``removedDevice(_:device:)``), so no space's owner can shut a device out of the others. This
    /// is a session decision, local to this node; which ops a space accepts stays a rule of that space's own log
    /// (convergence).
    public func deviceRevocation(_ device: PublicKey, presentedUser user: PublicKey) throws(StoreError) -> UInt64? {
        try read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT min(r.last_valid_seq) FROM revocation r
                    WHERE r.device = ? AND (r.user = ? OR EXISTS (
                        SELECT 1 FROM member m WHERE m.device = r.device AND m.user = r.user))
                    AND NOT \(Self.fromRemoval)
                    """, arguments: [Data(device.bytes), Data(user.bytes)]
            ).map { UInt64(bitPattern: $0) }
        }
    }

    /// The devices `user` has revoked in any space this home holds (for carrying revocations into a new space):
    /// their own revocations only, not the devices a space's owner cut by removing them from that space.
    public func devicesRevoked(by user: PublicKey) throws(StoreError) -> [PublicKey] {
        try read { db in
            try Data.fetchAll(
                db, sql: "SELECT DISTINCT device FROM revocation r WHERE r.user = ? AND NOT \(Self.fromRemoval) ORDER BY device",
                arguments: [Data(user.bytes)]
            ).map { try PublicKey(column: $0) }
        }
    }

    /// Devices of `user` that joined a space held here with a certificate made before `time` (ms since 1970).
    public func devicesCertified(by user: PublicKey, before time: UInt64) throws(StoreError) -> [PublicKey] {
        try read { db in
            try Data.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT device FROM member WHERE user = ? AND certified_at < ? ORDER BY device
                    """, arguments: [Data(user.bytes), Int64(bitPattern: time)]
            ).map { try PublicKey(column: $0) }
        }
    }

    /// The hash of one held op.
    public func opHash(_ space: SpaceID, _ id: OpID) throws(StoreError) -> Digest32? {
        try read { db in
            try Data.fetchOne(
                db, sql: "SELECT hash FROM op WHERE space = ? AND device = ? AND seq = ?",
                arguments: [Data(space.bytes), Data(id.device.bytes), Int64(bitPattern: id.seq)]
            )
            .map { try Digest32(column: $0) }
        }
    }

    /// The bytes of one held op.
    public func opBytes(_ space: SpaceID, _ id: OpID) throws(StoreError) -> [UInt8]? {
        try read { db in
            try Data.fetchOne(
                db, sql: "SELECT bytes FROM op WHERE space = ? AND device = ? AND seq = ?",
                arguments: [Data(space.bytes), Data(id.device.bytes), Int64(bitPattern: id.seq)]
            )
            .map { [UInt8]($0) }
        }
    }

    /// Records a session with a peer. A record without a completed sync keeps the time of the last one.
    public func recordPeer(_ peer: PeerRecord) throws(StoreError) {
        try write("peer") { db in
            var row = PeerRow(peer)
            if row.lastSync == nil {
                row.lastSync = try PeerRow.fetchOne(db, key: ["space": peer.space, "device": peer.device])?.lastSync
            }
            try row.save(db)
        }
    }

    /// Peers known to this home, the most recently seen first.
    public func peers() throws(StoreError) -> [PeerRecord] {
        try read { db in try PeerRow.order(Column("last_seen").desc).fetchAll(db).map(\.peer) }
    }
}
