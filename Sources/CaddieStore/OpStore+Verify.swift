import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

extension OpStore {
    /// Re-checks every op of a space one by one: stored hash, the signature that covers it, chain link, payload, the
    /// device's join (certificate, and the membership proof when the space's keys are given: a proof must verify
    /// under one of them, the key of the epoch the device joined in) and revocations.
    public func verify(
        _ space: SpaceID, spaceKeys: [[UInt8]]
    ) throws(StoreError) -> (
        checked: Int, failures: [VerificationFailure]
    ) {
        let rows: [Row] = try read { db in
            try Row.fetchAll(
                db, sql: "SELECT device, seq, hash, bytes FROM op WHERE space = ? ORDER BY device, seq",
                arguments: [Data(space.bytes)])
        }
        let members = Dictionary(try self.members(space).map { ($0.device, $0) }, uniquingKeysWith: { first, _ in first })
        // Each op decoded and hashed once, for the covering signatures and for the checks below.
        let log: [SignedOp.Stored] = rows.map { row in
            let bytes = [UInt8](row["bytes"] as Data)
            let id = OpID(device: PublicKey(unchecked: [UInt8](row["device"] as Data)), seq: UInt64(row["seq"] as Int64))
            return (id, try? SignedOp(bytes: bytes), Blake2b.hash(bytes))
        }
        let covers = SignedOp.covers(log)
        var failures: [VerificationFailure] = []
        var previous: (device: PublicKey, seq: UInt64, hash: Digest32)?
        for (index, row) in rows.enumerated() {
            let (id, decoded, actual) = log[index]
            let (device, seq) = (id.device, id.seq)
            defer { previous = (device, seq, actual) }
            func fail(_ reason: String) { failures.append(VerificationFailure(op: id, reason: reason)) }
            if actual.bytes != [UInt8](row["hash"] as Data) { fail("its bytes no longer match their recorded hash") }
            guard let op = decoded else {
                // Decoded again only to say why it does not.
                do { _ = try SignedOp(bytes: [UInt8](row["bytes"] as Data)) } catch { fail("it does not decode: \(error)") }
                continue
            }
            if op.device != device || op.seq != seq || op.space != space {
                fail("its header names \(op.id) in space \(op.space.short)")
            }
            if covers[index] == nil { fail("no valid signature of its device covers it: its signature does not verify") }
            let before = previous.flatMap { $0.device == device && $0.seq == seq - 1 ? $0.hash : nil }
            if seq > 1, before == nil {
                fail("op \(device.short):\(seq - 1) before it is missing")
            } else if !op.links(to: before) {
                fail("its chain link does not match op \(device.short):\(seq - 1)")
            }
            let changes: [Change]
            do {
                changes = try Payload.decode(op.payload)
            } catch {
                fail("its payload does not decode: \(error)")
                continue
            }
            if seq == 1 {
                if case .join(let join)? = changes.first {
                    if !Membership.verifyCertificate(
                        user: join.user, device: device, certifiedAt: join.certifiedAt,
                        signature: join.certificateSignature)
                    {
                        fail("its device certificate does not verify")
                    }
                    if !spaceKeys.isEmpty,
                        !spaceKeys.contains(where: { key in
                            Membership.verifyMembershipProof(
                                join.membershipProof, space: space, spaceKey: key, device: device, user: join.user)
                        })
                    {
                        fail("its membership proof matches none of the space's keys held here")
                    }
                } else {
                    fail("a device's first op is not its join")
                }
            }
            if let member = members[device], let revoked = member.revokedAfter, seq > revoked {
                fail("its device was revoked after seq \(revoked)")
            }
        }
        let branches = try verifyBranches(space, log: rows)
        return (rows.count + branches.checked, failures + branches.failures)
    }

    /// Re-checks the ops of a space's fork branches: stored hash, header, signature, and a link to the op before it
    /// on its branch (or the device's op before the fork point).
    private func verifyBranches(
        _ space: SpaceID, log: [Row]
    ) throws(StoreError) -> (checked: Int, failures: [VerificationFailure]) {
        let rows: [Row] = try read { db in
            try Row.fetchAll(
                db, sql: "SELECT device, seq, hash, bytes FROM branch_op WHERE space = ? ORDER BY device, seq, hash",
                arguments: [Data(space.bytes)])
        }
        guard !rows.isEmpty else { return (0, []) }
        var held: [OpID: Set<Digest32>] = [:]
        for row in log + rows {
            let id = OpID(device: PublicKey(unchecked: [UInt8](row["device"] as Data)), seq: UInt64(row["seq"] as Int64))
            held[id, default: []].insert(Digest32(unchecked: [UInt8](row["hash"] as Data)))
        }
        var failures: [VerificationFailure] = []
        for row in rows {
            let id = OpID(device: PublicKey(unchecked: [UInt8](row["device"] as Data)), seq: UInt64(row["seq"] as Int64))
            let bytes = [UInt8](row["bytes"] as Data)
            func fail(_ reason: String) { failures.append(VerificationFailure(op: id, reason: reason)) }
            if Blake2b.hash(bytes).bytes != [UInt8](row["hash"] as Data) { fail("its bytes no longer match their recorded hash") }
            guard let op = try? SignedOp(bytes: bytes) else {
                fail("it does not decode")
                continue
            }
            if op.id != id || op.space != space { fail("its header names \(op.id) in space \(op.space.short)") }
            if !op.signatureVerifies { fail("its signature does not verify") }
            let before = held[OpID(device: id.device, seq: id.seq - 1)] ?? []
            if id.seq == 1 ? !op.links(to: nil) : !before.contains(where: { op.links(to: $0) }) {
                fail("its chain link names no op held at seq \(id.seq - 1) of its device")
            }
        }
        return (rows.count, failures)
    }

    /// A digest of the materialised state of a space: equal on every replica that holds the same ops.
    ///
    /// It covers members and revocations, every last-writer-wins field with its winning op, the
    /// standing roster, every standing score value, attestations, removals and sealed space keys, each in a
    /// fixed order.
    public func stateHash(_ space: SpaceID) throws(StoreError) -> Digest32 {
        try read { db in
            var hasher = Blake2bHasher()
            let arguments: StatementArguments = [Data(space.bytes)]
            let sections: [(String, String)] = [
                ("members", "SELECT device, user, user_name, certified_at FROM member WHERE space = ? ORDER BY device"),
                (
                    "revocations",
                    """
                    SELECT user, device, last_valid_seq, by_device, by_seq FROM revocation WHERE space = ?
                    ORDER BY by_device, by_seq, device
                    """
                ),
                ("fields", "SELECT kind, id, field, value, hlc, device, seq FROM lww WHERE space = ? ORDER BY kind, id, field"),
                (
                    "roster",
                    """
                    SELECT DISTINCT a.game, a.player FROM roster_tag a WHERE a.space = ? AND NOT EXISTS (
                        SELECT 1 FROM roster_cancel c WHERE c.space = a.space AND c.game = a.game AND c.player = a.player
                        AND \(Self.names("c", "a")))
                    ORDER BY a.game, a.player
                    """
                ),
                (
                    "scores",
                    """
                    SELECT s.game, s.player, s.hole, s.device, s.seq, s.hlc, s.strokes, s.putts, s.penalties
                    FROM score s WHERE s.space = ? AND NOT EXISTS (
                        SELECT 1 FROM superseded x WHERE x.space = s.space AND \(Self.names("x", "s"))
                        AND x.game = s.game AND x.player = s.player AND x.hole = s.hole)
                    ORDER BY s.game, s.player, s.hole, s.device, s.seq
                    """
                ),
                (
                    "attestations",
                    """
                    SELECT device, seq, user, game, player, card_hash FROM attestation WHERE space = ? ORDER BY device, seq
                    """
                ),
                ("removals", "SELECT user, by_device, by_seq FROM removal WHERE space = ? ORDER BY user, by_device, by_seq"),
                (
                    "space keys",
                    """
                    SELECT epoch, key_check, device, sealed, by_device, by_seq FROM space_key WHERE space = ?
                    ORDER BY by_device, by_seq, device
                    """
                ),
            ]
            for (name, sql) in sections {
                hasher.field(Array(name.utf8))
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() {
                    for value in row.databaseValues {
                        switch value.storage {
                        case .null: hasher.field([0])
                        case .int64(let number): hasher.field([1] + withUnsafeBytes(of: number.bigEndian, Array.init))
                        case .double(let number): hasher.field([2] + withUnsafeBytes(of: number.bitPattern.bigEndian, Array.init))
                        case .string(let text): hasher.field([3] + Array(text.utf8))
                        case .blob(let data): hasher.field([4] + [UInt8](data))
                        }
                    }
                }
            }
            return hasher.finalize()
        }
    }
}
