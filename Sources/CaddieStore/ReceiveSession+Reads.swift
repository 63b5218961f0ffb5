import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// What a receive transaction reads of what the home already holds: a device's head and the hashes held at seqs, the
/// user a device joined under, and how far a device's log still counts after revocations and removals.
extension ReceiveSession {
    func head(_ device: PublicKey) throws -> (seq: UInt64, hash: Digest32) {
        let row = try db.cachedStatement(sql: "SELECT seq, hash FROM op WHERE space = ? AND device = ? ORDER BY seq DESC LIMIT 1")
        guard let found = try Row.fetchOne(row, arguments: [spaceData, Data(device.bytes)]) else { return (0, .zero) }
        return (UInt64(found["seq"] as Int64), try Digest32(column: found["hash"] as Data))
    }

    func storedHash(_ id: OpID) throws -> Digest32? {
        let statement = try db.cachedStatement(sql: "SELECT hash FROM op WHERE space = ? AND device = ? AND seq = ?")
        return try Data.fetchOne(statement, arguments: [spaceData, Data(id.device.bytes), Int64(bitPattern: id.seq)])
            .map { try Digest32(column: $0) }
    }

    /// The hashes held in `device`'s log at `seqs` (those it holds): one range query when the seqs are about as many
    /// as the range they span (a batch sent again), else a read each (a few seqs far apart must not read the log
    /// between them).
    func storedHashes(_ device: PublicKey, seqs: some Sequence<UInt64>) throws -> [UInt64: Digest32] {
        let wanted = Array(seqs)
        guard let low = wanted.min(), let high = wanted.max() else { return [:] }
        guard high - low < UInt64(2 * wanted.count + 16) else {
            var hashes: [UInt64: Digest32] = [:]
            for seq in wanted { hashes[seq] = try storedHash(OpID(device: device, seq: seq)) }
            return hashes
        }
        let statement = try db.cachedStatement(
            sql: "SELECT seq, hash FROM op WHERE space = ? AND device = ? AND seq BETWEEN ? AND ?")
        var hashes: [UInt64: Digest32] = [:]
        let rows = try Row.fetchCursor(
            statement,
            arguments: [spaceData, Data(device.bytes), Int64(bitPattern: low), Int64(bitPattern: high)])
        while let row = try rows.next() {
            hashes[UInt64(row["seq"] as Int64)] = try Digest32(column: row["hash"] as Data)
        }
        return hashes
    }

    func user(of device: PublicKey) throws -> PublicKey? {
        let statement = try db.cachedStatement(sql: "SELECT user FROM member WHERE space = ? AND device = ?")
        return try Data.fetchOne(statement, arguments: [spaceData, Data(device.bytes)]).map { try PublicKey(column: $0) }
    }

    /// The last seq of `device` that is still valid: lowered by its user's revocations and by removals.
    func cutoff(of device: PublicKey, user: PublicKey?) throws -> UInt64 {
        var cutoff = UInt64.max
        if let user {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT min(last_valid_seq) FROM revocation WHERE space = ? AND device = ? AND user = ?
                    """)
            if let value = try Int64.fetchOne(statement, arguments: [spaceData, Data(device.bytes), Data(user.bytes)]) {
                cutoff = min(cutoff, UInt64(bitPattern: value))
            }
        }
        // A removed user's device that the removal did not list (the owner had not seen it) keeps nothing.
        if let user {
            let unlisted = try db.cachedStatement(
                sql: """
                    SELECT count(*) FROM removal r WHERE r.space = ? AND r.user = ? AND NOT EXISTS (
                        SELECT 1 FROM revocation v WHERE v.space = r.space AND v.user = r.user AND v.device = ?
                            AND v.by_device = r.by_device AND v.by_seq = r.by_seq)
                    """)
            if try Int.fetchOne(unlisted, arguments: [spaceData, Data(user.bytes), Data(device.bytes)]) ?? 0 > 0 {
                cutoff = 0
            }
        }
        return cutoff
    }
}
