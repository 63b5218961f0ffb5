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
        let log: [SignedOp.Stored] = try rows.map { row throws(StoreError) in
            let bytes = [UInt8](row["bytes"] as Data)
            let id = OpID(device: try PublicKey(column: row["device"] as Data), seq: UInt64(row["seq"] as Int64))
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
                changes = try Payload.decode(op.payloadBytes)
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
            let id = OpID(device: try PublicKey(column: row["device"] as Data), seq: UInt64(row["seq"] as Int64))
            held[id, default: []].insert(try Digest32(column: row["hash"] as Data))
        }
        var failures: [VerificationFailure] = []
        for row in rows {
            let id = OpID(device: try PublicKey(column: row["device"] as Data), seq: UInt64(row["seq"] as Int64))
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

    /// What the state hash covers. The columns of each hashed table are read from the schema (all but `space`), so a
    /// column added by a migration is hashed without being named here; a new table must be named in one of the lists
    /// (`StateHashTests` fails otherwise). docs/data-model.md, "State hash", writes it out.
    enum StateHash {
        /// Tables hashed row by row, every column, in this order of rows.
        static let wholeTables: [(table: String, order: String)] = [
            ("member", "device"), ("revocation", "by_device, by_seq, device"), ("lww", "kind, id, field"),
            ("attestation", "device, seq"), ("removal", "user, by_device, by_seq"),
            ("space_key", "by_device, by_seq, device"),
        ]
        /// Tables hashed by the rows that stand (a score entry no later entry of its cell supersedes), every column.
        static let standingTables = ["score"]
        /// Every other table, with why it is not hashed row by row.
        static let unhashed: [String: String] = [
            "space": "the space as this device joined it (its name as typed, when)",
            "op": "the signed log itself: `caddie verify` checks it; the hash is of what it materialises",
            "pending_op": "ops waiting for the ops they follow: not yet state",
            "rejected_op": "ops this device refused, kept for the audit",
            "fork": "a forked device's other branch as this device first saw it",
            "branch_op": "the ops of a fork's other branch, kept for the audit",
            "branch_ack": "which peers acknowledged a fork's branch: this device's bookkeeping",
            "home_clock": "the newest clock of the ops this home holds, which its next op is stamped after",
            "peer": "the peers this device knows and its syncs with them",
            "invite": "the invites this device issued and their uses",
            "key_seen": "which space keys this device saw in use, and when",
            "pending_rebuild": "a rebuild of the materialised tables this device still owes",
            "superseded": "which score entries no longer stand: the score section hashes those that do",
            "roster_add": "a roster entry: the roster section hashes the players who stand on each game",
            "roster_cancel": "a roster removal: the roster section hashes the players who stand on each game",
            "grdb_migrations": "the schema's version",
        ]
    }

    /// A digest of the materialised state of a space: equal on every replica that holds the same ops, and different
    /// when two replicas differ in any value they hold.
    ///
    /// It covers every column of the members, revocations, last-writer-wins fields with their winning ops,
    /// attestations, removals and sealed space keys, the standing roster, and every column of every standing score
    /// entry (statistics included), each section in a fixed order (``StateHash``).
    public func stateHash(_ space: SpaceID) throws(StoreError) -> Digest32 {
        try stateHash(space, rows: nil)
    }

    /// The state hash, telling `rows` each section as it begins (its name, no values) and each of its rows (its name
    /// and the row's values) as they are hashed: for the protocol vector of the hash.
    func stateHash(_ space: SpaceID, rows visit: ((String, [DatabaseValue]?) -> Void)?) throws(StoreError) -> Digest32 {
        try read { db in
            var hasher = Blake2bHasher()
            let arguments: StatementArguments = [Data(space.bytes)]
            func columns(_ table: String, as alias: String) throws -> String {
                try String.fetchAll(
                    db, sql: "SELECT name FROM pragma_table_info(?) WHERE name != 'space' ORDER BY cid", arguments: [table]
                ).map { "\(alias).\($0)" }.joined(separator: ", ")
            }
            var sections: [(String, String)] = try StateHash.wholeTables.map { table, order in
                let selected = try columns(table, as: table)
                return ("\(table): \(selected)", "SELECT \(selected) FROM \(table) WHERE space = ? ORDER BY \(order)")
            }
            sections.append(
                (
                    "roster",
                    """
                    SELECT DISTINCT a.game, a.player FROM roster_tag a WHERE a.space = ? AND NOT EXISTS (
                        SELECT 1 FROM roster_cancel c WHERE c.space = a.space AND c.game = a.game AND c.player = a.player
                        AND \(Self.names("c", "a")))
                    ORDER BY a.game, a.player
                    """
                ))
            let scored = try columns("score", as: "s")
            sections.append(
                (
                    "standing score: \(scored)",
                    """
                    SELECT \(scored) FROM score s WHERE s.space = ? AND \(Self.standing)
                    ORDER BY s.game, s.player, s.hole, s.device, s.seq
                    """
                ))
            for (name, sql) in sections {
                hasher.field(Array(name.utf8))
                visit?(name, nil)
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() {
                    visit?(name, Array(row.databaseValues))
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
