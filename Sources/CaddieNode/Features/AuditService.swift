import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation

/// One line of the audit trail.
public struct AuditEntry: Sendable, Equatable {
    /// The op.
    public let op: OpID
    /// When it was made.
    public let hlc: HLC
    /// The user whose device signed it.
    public let userName: String
    /// What it changed, in words.
    public let summary: String
    /// Games the op touches (for filtering).
    public let games: [GameID]
    /// Whether a valid signature of its device covers it and its chain link verifies.
    public let verified: Bool
    /// The op whose signature covers this one: itself when its own verifies, else the nearest later op of its
    /// device linked to it hash by hash whose signature does (Protocol/op-format.md, "Which signature covers an
    /// op"); nil when none does.
    public var coveredBy: OpID? = nil
    /// Whether its bytes and its changes could be read; an op that cannot is listed, marked, with the reason as
    /// its summary, never left out.
    public var readable = true
    /// Why the op is not part of the state, for one kept as evidence: removed by a revocation or a fork, or the
    /// other copy of a fork. Nil for an op of the log.
    public var removed: String? = nil
    /// Whether its device's log forked at or before this op's seq: the op is in the state, on one of the device's
    /// branches (both branches of a fork stay; OpStore+Branches.swift).
    public var forkBranch = false
}

/// One op the audit lists: of the log, or kept beside it as evidence.
private struct Listed {
    let bytes: [UInt8]
    let id: OpID
    let hlc: UInt64
    let removed: String?
    let forkCopy: Bool
    var branch = false
}

/// The audit trail, a cell's history, and re-verification of the log.
public struct AuditService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any AuditStore { home.store }
}

extension AuditService {
    /// The audit trail of a space, oldest first, optionally only the ops that touch one game.
    public func auditLog(space: SpaceID, game filter: GameID?) throws(NodeError) -> [AuditEntry] {
        let names = Dictionary(try rounds.players(space).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let members = Dictionary(
            try run { try store.members(space) }.map { ($0.device, $0.displayName) },
            uniquingKeysWith: { first, _ in first })
        // The log, a forked device's branches (in the state, marked), and beside them what a revocation took out of
        // the state or a fork copy that never applied: an auditor sees all of it, marked.
        let log = try run { try store.storedOps(space) }.map {
            Listed(bytes: $0.bytes, id: $0.id, hlc: $0.hlc, removed: nil, forkCopy: false)
        }
        let branches = try run { try store.storedBranchOps(space) }.map {
            Listed(bytes: $0.bytes, id: $0.id, hlc: $0.hlc, removed: nil, forkCopy: false, branch: true)
        }
        let evidence = try run { try store.evidence(space) }.map {
            Listed(
                bytes: $0.bytes, id: $0.id, hlc: (try? SignedOp(bytes: $0.bytes))?.hlc.rawValue ?? 0, removed: $0.removed,
                forkCopy: $0.forkCopy)
        }
        // Chain links are checked against the log's own ops first; a removed op stands in only where the log no
        // longer holds its seq (a fork's other copy never does). An op held again after it was removed is listed
        // once, as part of the log.
        // A fork branch's op follows an op of the log or of a branch at the seq before it.
        let logHashes = Dictionary(log.map { ($0.id, Blake2b.hash($0.bytes)) }, uniquingKeysWith: { first, _ in first })
        var hashes = logHashes.mapValues { [$0] }
        for entry in branches { hashes[entry.id, default: []].append(Blake2b.hash(entry.bytes)) }
        for entry in evidence where !entry.forkCopy && hashes[entry.id] == nil { hashes[entry.id] = [Blake2b.hash(entry.bytes)] }
        let listed = log + branches + evidence.filter { $0.forkCopy || logHashes[$0.id] != Blake2b.hash($0.bytes) }
        let covers = Self.covers(log)
        var entries: [AuditEntry] = []
        for entry in listed.sorted(by: { ($0.hlc, $0.id, $0.removed ?? "") < ($1.hlc, $1.id, $1.removed ?? "") }) {
            let op: SignedOp
            do {
                op = try SignedOp(bytes: entry.bytes)
            } catch {
                // Only a damaged or altered database holds such bytes: the auditor must see them.
                if filter != nil { continue }
                entries.append(
                    AuditEntry(
                        op: entry.id, hlc: HLC(rawValue: entry.hlc),
                        userName: members[entry.id.device] ?? "device \(entry.id.device.short)",
                        summary: "UNREADABLE op: its stored bytes do not parse (\(error))", games: [],
                        verified: false, coveredBy: entry.branch || entry.removed != nil ? nil : covers[entry.id],
                        readable: false, removed: entry.removed))
                continue
            }
            let changes: [Change]
            var unreadable: String?
            do {
                changes = try Payload.decode(op.payloadBytes)
            } catch {
                changes = []
                unreadable = "UNREADABLE changes: the op's payload does not decode (\(error))"
            }
            if unreadable != nil, filter != nil { continue }
            let games = changes.compactMap(\.game)
            if let filter, !games.contains(filter) { continue }
            // A branch op or a kept copy answers for itself; an op of the log may be covered by a later one.
            let cover = entry.branch || entry.removed != nil ? (op.signatureVerifies ? op.id : nil) : covers[op.id]
            let before = hashes[OpID(device: op.device, seq: op.seq - 1)] ?? []
            let chainOK = op.seq == 1 ? op.links(to: nil) : before.contains { op.links(to: $0) }
            let user = members[op.device] ?? changes.compactMap(\.joinName).first ?? "device \(op.device.short)"
            let summary =
                unreadable ?? changes.map { describe($0, op: op, names: names, members: members) }.joined(separator: "; ")
            entries.append(
                AuditEntry(
                    op: op.id, hlc: op.hlc, userName: user, summary: summary, games: games,
                    verified: cover != nil && chainOK, coveredBy: cover, readable: unreadable == nil,
                    removed: entry.removed, forkBranch: entry.branch))
        }
        return entries
    }

    /// For each op of the log, the op whose signature covers it (see ``AuditEntry/coveredBy``): its own first.
    private static func covers(_ log: [Listed]) -> [OpID: OpID] {
        let ordered: [SignedOp.Stored] = log.map { ($0.id, try? SignedOp(bytes: $0.bytes), Blake2b.hash($0.bytes)) }
            .sorted { ($0.id.device, $0.id.seq) < ($1.id.device, $1.id.seq) }
        var covers: [OpID: OpID] = [:]
        for (entry, cover) in zip(ordered, SignedOp.covers(ordered, ownFirst: true)) { covers[entry.id] = cover }
        return covers
    }

    private func describe(_ change: Change, op: SignedOp, names: [PlayerID: String], members: [PublicKey: String]) -> String {
        func player(_ id: PlayerID) -> String { names[id] ?? "player \(id.short)" }
        switch change {
        case .join(let join): return "\(join.userName)'s device \(op.device.short) joined the space"
        case .revoke(let revocation):
            return "revoked device \(revocation.device.short) after its op \(revocation.lastValidSeq)"
        case .remove(let removal):
            let name = removal.devices.lazy.compactMap { members[$0.device] }.first
            return "removed \(name.map { "\($0) (user \(removal.user.short))" } ?? "user \(removal.user.short)") from the space, "
                + "with \(removal.devices.count == 1 ? "one device" : "\(removal.devices.count) devices")"
        case .rotate(let rotation):
            return
                "new space key (epoch \(rotation.epoch)) for \(rotation.sealed.count == 1 ? "one device" : "\(rotation.sealed.count) devices")"
        case .set(let kind, let id, let fields):
            if kind == .player {
                let shown = fields.sorted { $0.key < $1.key }.map { key, value in
                    key == "user" ? "user=\(String(value.description.prefix(8)))" : "\(key)=\(value)"
                }
                return "player \(id.short): " + shown.joined(separator: ", ")
            }
            if kind == .game, fields.count == 1, let finished = fields["finished"]?.integer {
                return finished != 0 ? "finished game \(id.short)" : "reopened game \(id.short)"
            }
            if kind == .invite {
                if fields["revoked"] != nil { return "revoked invite \(id.short)" }
                let admitted = fields.compactMap { key, value -> String? in
                    guard key.hasPrefix("admitted."), case .bytes(let bytes) = value, bytes.count == 64 else { return nil }
                    let device = PublicKey(unchecked: Array(bytes.prefix(32)))
                    return "\(members[device] ?? "a device")'s device \(device.short)"
                }.sorted()
                if !admitted.isEmpty { return "admitted \(admitted.joined(separator: ", ")) with invite \(id.short)" }
                let uses = fields["uses"]?.integer ?? 1
                return "invite \(id.short) for \(uses == 1 ? "one device" : "\(uses) devices"), expires "
                    + (fields["expires"]?.integer.map { SpaceService.dateText(UInt64(max(0, $0))) } ?? "?")
            }
            if kind == .course { return "course \(fields["name"]?.text ?? id.short) (\(id.short)): \(fields.count) fields" }
            if kind == .competition {
                let record = CompetitionRecord(id: CompetitionID(id), fields: fields)
                if !record.corrections.isEmpty, record.corrections.count == fields.count {
                    return record.corrections.map {
                        "committee's correction in competition \(id.short): \(player($0.player))'s \(Dispute.ordinal($0.hole)), "
                            + "\"\($0.reason)\""
                    }.joined(separator: "; ")
                }
            }
            if kind == .game { return Self.gameChange(id, fields, player: player) }
            return "\(kind) \(id.short): "
                + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ", ")
        case .rosterAdd(let game, let id): return "added \(player(id)) to game \(game.short)"
        case .rosterRemove(let game, let id, _): return "removed \(player(id)) from game \(game.short)"
        case .score(let game, let id, let hole, let entry):
            let replaced = op.pred.isEmpty ? "" : " (replaces \(op.pred.map(\.description).joined(separator: ", ")))"
            return "score \(player(id)) hole \(hole): \(entry.summary) in game \(game.short)\(replaced)"
        case .attest(let game, let id, let hash):
            return "attested \(player(id))'s card in game \(game.short) (card \(hash.short))"
        }
    }

    /// A game's `set` in words: a new game with its course and tee, a deletion or restore, or the fields it changed
    /// (hole choices name the player they choose).
    static func gameChange(_ id: EntityID, _ fields: [String: FieldValue], player: (PlayerID) -> String) -> String {
        if fields["created"] != nil {
            return "new game \(id.short) from tee \(fields["tee"]?.text ?? "?")"
        }
        if fields.count == 1, let deleted = fields["deleted"]?.integer {
            return deleted != 0 ? "deleted game \(id.short)" : "restored game \(id.short)"
        }
        let shown = fields.sorted { $0.key < $1.key }.map { key, value -> String in
            if key.hasPrefix("hole."), case .bytes(let bytes) = value, bytes.count == PlayerID.length {
                return "\(key)=\(player(PlayerID(unchecked: bytes)))"
            }
            return "\(key)=\(value)"
        }
        return "game \(id.short): " + shown.joined(separator: ", ")
    }

    /// Every value one cell has had.
    public func history(
        space: SpaceID, game: GameID, player: PlayerID, hole: Int
    )
        throws(NodeError) -> [ScoreHistoryEntry]
    {
        try run { try store.history(space, game: game, player: player, hole: hole) }
    }

    /// Re-verifies every op of every space (or one); when unlocked, the space's keys of every epoch held here
    /// check the membership proofs (a join made after a removal proves the new key, one made before it the old).
    public func verify(space: SpaceID, keys: UnlockedKeys?) throws(NodeError) -> (checked: Int, failures: [VerificationFailure]) {
        let ring = keys.map { keys in home.keyring(space, keys: keys)?.keys ?? [(try? keys.key(for: space))].compactMap { $0 } }
        return try run { try store.verify(space, spaceKeys: ring ?? []) }
    }
}

extension Change {
    /// The game a change touches, if any (the audit's game filter).
    var game: GameID? {
        switch self {
        case .set(.game, let id, _): GameID(id)
        case .rosterAdd(let game, _), .rosterRemove(let game, _, _), .score(let game, _, _, _), .attest(let game, _, _): game
        default: nil
        }
    }

    var joinName: String? { if case .join(let join) = self { join.userName } else { nil } }
}
