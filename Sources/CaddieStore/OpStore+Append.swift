import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

extension OpStore {
    /// Signs and applies a new op of this device in one transaction: the next seq, linked to the
    /// device's previous op, stamped with the home's hybrid logical clock.
    @discardableResult
    public func append(
        space: SpaceID, signer: SigningKey, changes: [Change], pred: [OpID] = [], now: UInt64
    ) throws(StoreError) -> SignedOp {
        try write("append") { db in
            try appendInTransaction(db, space: space, signer: signer, changes: changes, pred: pred, now: now)
        }
    }

    /// Appends several ops in one transaction (used by bulk edits and the benchmark).
    public func appendBatch(
        space: SpaceID, signer: SigningKey, edits: [(changes: [Change], pred: [OpID])], now: UInt64
    ) throws(StoreError) -> [SignedOp] {
        try write("append") { db in
            try edits.map {
                try appendInTransaction(db, space: space, signer: signer, changes: $0.changes, pred: $0.pred, now: now)
            }
        }
    }

    private func appendInTransaction(
        _ db: Database, space: SpaceID, signer: SigningKey, changes: [Change], pred: [OpID], now: UInt64
    ) throws -> SignedOp {
        let spaceData = Data(space.bytes)
        let device = signer.publicKey
        let deviceData = Data(device.bytes)
        // One query for what the new op depends on: the device's head, its user, its revocation,
        // and the home's clock (`home_clock`: the newest clock of any op held; every op was taken at most a day ahead
        // of the clock that took it, and the drag limit below keeps what is signed within an hour of this one's).
        let state = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT o.seq, o.hash, o.hlc, m.user,
                        (SELECT min(r.last_valid_seq) FROM revocation r
                         WHERE r.space = m.space AND r.device = m.device AND r.user = m.user) AS revoked,
                        (SELECT hlc FROM home_clock WHERE id = 1) AS clock,
                        (SELECT min(seq) FROM fork WHERE space = ?1 AND device = ?2) AS forked
                    FROM (SELECT 1) LEFT JOIN op o ON o.space = ?1 AND o.device = ?2
                        AND o.seq = (SELECT max(seq) FROM op WHERE space = ?1 AND device = ?2)
                    LEFT JOIN member m ON m.space = ?1 AND m.device = ?2
                    """), arguments: [spaceData, deviceData])
        var seq = (state?["seq"] as Int64?).map { UInt64($0) + 1 } ?? 1
        var prev = try (state?["hash"] as Data?).map { try Digest32(column: $0) } ?? .zero
        var author = try (state?["user"] as Data?).map { try PublicKey(column: $0) }
        var ownHLC = UInt64(bitPattern: (state?["hlc"] as Int64?) ?? 0)
        // This device's own log forked (it was restored from an older copy, and its peers held what it had signed
        // since): it goes on from the newest op of its branches, so what it signs next is a branch op every node
        // accepts, and no further fork.
        var tip: Row?
        if let forked = state?["forked"] as Int64? {
            // A revoked device's branches do not count (OpStore+Branches.swift): what it signed would apply nowhere.
            if state?["revoked"] as Int64? != nil {
                throw StoreError.cannotSign(
                    "it was revoked and its log forked at seq \(forked); use another device of yours, or pair a "
                        + "new one (`caddie device add` on a device that is not revoked)")
            }
            tip = try Row.fetchOne(
                db,
                sql: """
                    SELECT seq, hash, hlc, user, user_name FROM branch_op WHERE space = ? AND device = ?
                    ORDER BY hlc DESC, seq DESC, hash LIMIT 1
                    """, arguments: [spaceData, deviceData])
            if let tip {
                seq = UInt64(tip["seq"] as Int64) + 1
                prev = try Digest32(column: tip["hash"] as Data)
                author = try PublicKey(column: tip["user"] as Data)
                ownHLC = UInt64(bitPattern: tip["hlc"] as Int64)
            } else {
                throw StoreError.cannotSign(
                    "its log forked at seq \(forked) and none of its branches is held here; "
                        + "sync with a device of the group first")
            }
        }
        if seq == 1 {
            guard case .join(let join)? = changes.first, changes.count == 1 else {
                throw StoreError.invalidOp(op: OpID(device: device, seq: 1), reason: "a device's first op must be its join")
            }
            author = join.user
        }
        if let revoked = state?["revoked"] as Int64?, UInt64(bitPattern: revoked) < seq {
            throw StoreError.cannotSign(
                "it was revoked after its op \(UInt64(bitPattern: revoked)); use another device of yours, or pair a "
                    + "new one (`caddie device add` on a device that is not revoked)")
        }
        // Never behind this device's own last op, even if that was stamped while its wall clock ran ahead; after the
        // ops held, but never dragged more than an hour past the wall clock by them (`HLC.dragLimit`).
        let held = min(UInt64(bitPattern: (state?["clock"] as Int64?) ?? 0), HLC.dragLimit(now: now).rawValue)
        let last = HLC(rawValue: max(ownHLC, held))
        let hlc = HLC.next(after: last, wallClockMilliseconds: now)
        let payload = Payload.encode(changes)
        // What this device signs must be what every receiver accepts: decode it as they will.
        do {
            guard try Payload.decode(payload) == changes else {
                throw StoreError.invalidOp(op: OpID(device: device, seq: seq), reason: "its changes do not survive encoding")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.invalidOp(op: OpID(device: device, seq: seq), reason: "it would not decode: \(error)")
        }
        let unsigned = SignedOp.encodeUnsigned(
            space: space, device: device, seq: seq, prev: prev, hlc: hlc, pred: pred,
            payload: payload)
        let signature = signer.sign(unsigned, context: SignedOp.signingContext)
        let op = try SignedOp(bytes: unsigned + signature)
        let hash = Blake2b.hash(op.bytes)
        if let tip {
            try db.execute(
                sql: """
                    INSERT INTO branch_op (space, device, seq, hash, user, user_name, hlc, bytes, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    spaceData, deviceData, Int64(bitPattern: seq), Data(hash.bytes), tip["user"] as Data,
                    tip["user_name"] as String, Int64(bitPattern: hlc.rawValue), Data(op.bytes), Int64(bitPattern: now),
                ])
            try db.advanceClock(to: hlc)
            try Materializer(db: db, space: space, recorder: recorder).apply(op, changes: changes, author: author, slot: hash)
            return op
        }
        try db.insertLogOp(space: spaceData, op, hash: hash, now: now)
        try db.advanceClock(to: hlc)
        try Materializer(db: db, space: space, recorder: recorder).apply(op, changes: changes, author: author, hash: hash)
        return op
    }

    /// Every op of a space not covered by `since`, in (device, seq) order, then every fork-branch op: what a peer or a
    /// bundle lacks.
    public func ops(space: SpaceID, notIn since: VersionVector = VersionVector()) throws(StoreError) -> [[UInt8]] {
        try read { db in
            var out: [[UInt8]] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT device, seq, bytes FROM op WHERE space = ? ORDER BY device, seq",
                arguments: [Data(space.bytes)])
            while let row = try rows.next() {
                let device = try PublicKey(column: row["device"] as Data)
                let seq = UInt64(row["seq"] as Int64)
                if since[device] < seq { out.append([UInt8](row["bytes"] as Data)) }
            }
            // A forked device's branches: a vector cannot say which of them the peer holds, so all go.
            out += try Data.fetchAll(
                db, sql: "SELECT bytes FROM branch_op WHERE space = ? ORDER BY device, seq, hash", arguments: [Data(space.bytes)]
            ).map { [UInt8]($0) }
            return out
        }
    }
}
