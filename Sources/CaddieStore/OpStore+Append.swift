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
        try write { db in try appendInTransaction(db, space: space, signer: signer, changes: changes, pred: pred, now: now) }
    }

    /// Appends several ops in one transaction (used by bulk edits and the benchmark).
    public func appendBatch(
        space: SpaceID, signer: SigningKey, edits: [(changes: [Change], pred: [OpID])], now: UInt64
    ) throws(StoreError) -> [SignedOp] {
        try write { db in
            try edits.map { try appendInTransaction(db, space: space, signer: signer, changes: $0.changes, pred: $0.pred, now: now) }
        }
    }

    private func appendInTransaction(
        _ db: Database, space: SpaceID, signer: SigningKey, changes: [Change], pred: [OpID], now: UInt64
    ) throws -> SignedOp {
        let spaceData = Data(space.bytes)
        let device = signer.publicKey
        let deviceData = Data(device.bytes)
        let head = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, hash FROM op WHERE space = ? AND device = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [spaceData, deviceData])
        let seq = head.map { UInt64($0["seq"] as Int64) + 1 } ?? 1
        let prev = head.map { Digest32(unchecked: [UInt8]($0["hash"] as Data)) } ?? .zero
        var author = try Data.fetchOne(db.cachedStatement(sql: "SELECT user FROM member WHERE space = ? AND device = ?"),
                                       arguments: [spaceData, deviceData]).map { PublicKey(unchecked: [UInt8]($0)) }
        if seq == 1 {
            guard case .join(let join)? = changes.first, changes.count == 1 else {
                throw StoreError.invalidOp(op: OpID(device: device, seq: 1), reason: "a device's first op must be its join")
            }
            author = join.user
        }
        if let author, let revoked = try Int64.fetchOne(db, sql: """
            SELECT min(last_valid_seq) FROM revocation WHERE space = ? AND device = ? AND user = ?
            """, arguments: [spaceData, deviceData, Data(author.bytes)]), UInt64(revoked) < seq {
            throw StoreError.revoked(op: OpID(device: device, seq: seq), lastValidSeq: UInt64(revoked))
        }
        let last = HLC(rawValue: UInt64(bitPattern: try Int64.fetchOne(db, sql: "SELECT last FROM clock WHERE id = 1") ?? 0))
        let hlc = HLC.next(after: last, wallClockMilliseconds: now)
        try db.cachedStatement(sql: "UPDATE clock SET last = ? WHERE id = 1").execute(arguments: [Int64(bitPattern: hlc.rawValue)])
        let payload = Payload.encode(changes)
        let unsigned = SignedOp.encodeUnsigned(space: space, device: device, seq: seq, prev: prev, hlc: hlc, pred: pred,
                                                payload: payload)
        let signature = signer.sign(unsigned, context: SignedOp.signingContext)
        let op = try SignedOp(bytes: unsigned + signature)
        let hash = Blake2b.hash(op.bytes)
        try db.cachedStatement(sql: """
            INSERT INTO op (space, device, seq, hash, hlc, bytes, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [spaceData, deviceData, Int64(bitPattern: seq), Data(hash.bytes),
                                     Int64(bitPattern: hlc.rawValue), Data(op.bytes), Int64(bitPattern: now)])
        try Materializer(db: db, space: space).apply(op, changes: changes, author: author)
        return op
    }

    /// Every op of a space not covered by `since`, in (device, seq) order: what a peer or a bundle lacks.
    public func ops(space: SpaceID, notIn since: VersionVector = VersionVector()) throws(StoreError) -> [[UInt8]] {
        try read { db in
            var out: [[UInt8]] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT device, seq, bytes FROM op WHERE space = ? ORDER BY device, seq",
                                           arguments: [Data(space.bytes)])
            while let row = try rows.next() {
                let device = PublicKey(unchecked: [UInt8](row["device"] as Data))
                let seq = UInt64(row["seq"] as Int64)
                if since[device] < seq { out.append([UInt8](row["bytes"] as Data)) }
            }
            return out
        }
    }
}
