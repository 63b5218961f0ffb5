import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// Ops that arrive beyond a gap wait in `pending_op` for their predecessors, within bounds, and apply when those
/// come (OpStore+Receive.swift decides which wait).
extension ReceiveSession {
    /// Most bytes of ops a space keeps waiting for missing predecessors; beyond it, ops are refused (a peer
    /// resends them after the gap is filled), so a hostile peer cannot fill the disk with ops nobody can apply.
    static let maxPendingBytes = 16 * 1024 * 1024
    /// Most ops waiting for one device that is a member of the space.
    static let maxPendingPerMember = 5_000
    /// Most ops waiting for one device that has not joined (its join may be among the missing ops).
    static let maxPendingPerStranger = 64
    /// How long an op may wait for its predecessors before it is dropped (a peer offers it again later).
    static let pendingLifetimeMilliseconds: UInt64 = 86_400_000

    /// Stores ops that wait: beyond a gap (for their predecessors), or after the newest valid signature of their
    /// run (for the later op that covers them), within bounds on what one device and the whole space may hold.
    /// Nothing about an op's signature can be judged before the op that covers it arrives; a device key anyone can
    /// make signs as well as a member's, so the bounds, not signatures, are what keep a peer from filling the disk.
    mutating func holdPending(_ ops: [SignedOp]) throws {
        guard let first = ops.first else { return }
        let device = Data(first.device.bytes)
        let (heldBytes, heldOfDevice) =
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT coalesce(sum(length(bytes)), 0) AS bytes,
                               coalesce(sum(CASE WHEN device = ? THEN 1 ELSE 0 END), 0) AS device
                        FROM pending_op WHERE space = ?
                        """), arguments: [device, spaceData]
            ).map { (Int($0["bytes"] as Int64), Int($0["device"] as Int64)) } ?? (0, 0)
        let member = try user(of: first.device) != nil
        let deviceLimit = member ? Self.maxPendingPerMember : Self.maxPendingPerStranger
        var room = max(0, deviceLimit - heldOfDevice)
        var bytesLeft = max(0, Self.maxPendingBytes - heldBytes)
        var kept: [SignedOp] = []
        for op in ops {
            guard room > 0, op.bytes.count <= bytesLeft else { break }
            kept.append(op)
            room -= 1
            bytesLeft -= op.bytes.count
        }
        if kept.count < ops.count {
            report.rejected.append(
                "\(ops.count - kept.count) ops of device \(first.device.short) wait for missing ones "
                    + "and its share of the pending queue is full; they will be accepted when offered again")
        }
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO pending_op (space, device, seq, bytes, received_at, unsigned)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        for op in kept {
            let unsigned = knownUnsigned.contains(Blake2b.hash(op.bytes))
            try statement.execute(arguments: [
                spaceData, device, Int64(bitPattern: op.seq), Data(op.bytes),
                Int64(bitPattern: now), unsigned ? 1 : 0,
            ])
            if db.changesCount == 0 {
                // Another copy waits at this seq. A copy its device validly signed takes the place of one that is
                // not, so a forged op cannot keep the device's own from waiting.
                guard !unsigned else { continue }
                report.signaturesChecked += 1
                guard op.signatureVerifies else { continue }
                try db.cachedStatement(
                    sql: """
                        UPDATE pending_op SET bytes = ?, received_at = ?, unsigned = 0
                        WHERE space = ? AND device = ? AND seq = ?
                        """
                ).execute(arguments: [Data(op.bytes), Int64(bitPattern: now), spaceData, device, Int64(bitPattern: op.seq)])
            }
            report.pending += 1
        }
    }

    /// Drops ops that waited longer than their lifetime for predecessors that never came.
    func expirePending() throws {
        guard now > Self.pendingLifetimeMilliseconds else { return }
        try db.cachedStatement(sql: "DELETE FROM pending_op WHERE space = ? AND received_at < ?")
            .execute(arguments: [spaceData, Int64(bitPattern: now - Self.pendingLifetimeMilliseconds)])
    }

    /// Applies pending ops of `devices` (those the batch carried ops for) whose predecessors have now arrived, until
    /// no more can be. Only a device's own ops can make its waiting ops applicable (the ops before them, the op whose
    /// signature covers them, its join), so a batch never touches what other devices park: its cost does not grow
    /// with what waits. A pass that applies nothing ends it: an op at its device's next seq that no valid signature
    /// covers yet goes back to wait.
    mutating func drainPending(devices: Set<PublicKey>) throws {
        let isReady = try db.cachedStatement(
            sql: """
                SELECT count(*) FROM pending_op p
                WHERE p.space = ? AND p.device = ? AND p.seq = 1 + coalesce(
                    (SELECT max(o.seq) FROM op o WHERE o.space = p.space AND o.device = p.device), 0)
                """)
        while true {
            let appliedBefore = report.applied.count
            let ready = try devices.sorted().filter {
                try Int.fetchOne(isReady, arguments: [spaceData, Data($0.bytes)]) ?? 0 > 0
            }
            guard !ready.isEmpty else { return }
            for device in ready {
                let all = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT bytes, unsigned FROM pending_op WHERE space = ? AND device = ? ORDER BY seq
                        """, arguments: [spaceData, Data(device.bytes)])
                for row in all where (row["unsigned"] as Int64) != 0 {
                    knownUnsigned.insert(Blake2b.hash([UInt8](row["bytes"] as Data)))
                }
                try db.execute(
                    sql: "DELETE FROM pending_op WHERE space = ? AND device = ?",
                    arguments: [spaceData, Data(device.bytes)])
                let ops = try all.map { try SignedOp(bytes: [UInt8]($0["bytes"] as Data)) }
                report.pendingExamined += ops.count
                report.pending -= min(report.pending, ops.count)
                try process(device: device, ops: ops)
            }
            if report.applied.count == appliedBefore { return }
        }
    }

    /// Copies that waited in pending_op and have since arrived directly are no longer needed.
    func forgetPending(_ device: PublicKey, through seq: UInt64) throws {
        try db.cachedStatement(sql: "DELETE FROM pending_op WHERE space = ? AND device = ? AND seq <= ?")
            .execute(arguments: [spaceData, Data(device.bytes), Int64(bitPattern: seq)])
    }
}
