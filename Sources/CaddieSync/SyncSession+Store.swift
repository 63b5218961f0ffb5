import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation

/// A session's trips to the store: this side's vector, its copies of forked ops, and a received batch restored
/// and applied (SyncSession.swift drives them).
extension SyncSession {
    /// This side's vector: the node's heads of the space, read once per change for every session
    /// (``SyncNode/heads(_:)``), so an idle link's digests cost no database read.
    func ourVector() async throws -> [WireMessage.VectorEntry] {
        guard let space = session?.space else { return [] }
        return try await node.heads(space)
    }

    /// This side's copies of the ops the peer's vector names under another head (a forked device).
    func forkedCopies(_ entries: [WireMessage.VectorEntry]) async throws -> [(id: OpID, bytes: [UInt8])] {
        guard let space = session?.space else { return [] }
        let store = node.store
        var copies: [(id: OpID, bytes: [UInt8])] = []
        for entry in entries {
            let id = OpID(device: entry.device, seq: entry.seq)
            let ours = try await blocking { try store.opHash(space, id) }
            if let ours, ours != entry.head, let bytes = try await blocking({ try store.opBytes(space, id) }) {
                copies.append((id, bytes))
            }
        }
        return copies
    }

    /// Restores and applies a received batch; the ops that were new here.
    /// Applies a received batch: the ops that were new here, and the devices whose newest op among them was made
    /// within ``freshMilliseconds`` by its clock (devices live now, see ``SessionMachine``).
    /// Also the store's fork mark after it (read in the same transaction).
    func apply(_ wireOps: [WireOp]) async throws -> (applied: [OpID], fresh: Set<PublicKey>, branches: Int) {
        guard let space = session?.space else { return ([], [], branchesSeen) }
        let store = node.store
        let own = node.credentials.device.publicKey
        let (restored, carriesOwn) = try await restore(wireOps, space: space, own: own)
        let keys = node.keyring(space).keys
        guard let key = keys.first else { throw SyncError.refused("no key for space \(space.short)") }
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        // The peer holds what it sent: a power cut may take the batch, and the next session fetches it again. Not
        // so this device's own ops coming back (a home restored from an older copy): lost, its log would go back,
        // and its next edit would sign a seq its peers hold. Those are synced.
        let durability: Durability = carriesOwn ? .synced : .heldByPeer
        var result = try await blocking {
            try store.receive(
                space: space, spaceKey: key, laterKeys: Array(keys.dropFirst()), ops: restored,
                mode: .tolerant, now: now, durability: durability)
        }
        // A batch that brought a new space key (a removal) may also hold joins made with it, checked before the
        // key was known: offer the batch once more with every key now held (what applied is skipped as held).
        if !result.rejected.isEmpty, case let after = node.keyring(space).keys, after.count > keys.count {
            let again = try await blocking {
                try store.receive(
                    space: space, spaceKey: after[0], laterKeys: Array(after.dropFirst()), ops: restored,
                    mode: .tolerant, now: now, durability: durability)
            }
            result.applied += again.applied
            result.rejected = again.rejected
            result.forkMark = again.forkMark
        }
        if !result.rejected.isEmpty {
            logger.warning(
                "refused ops from peer",
                metadata: [
                    "count": "\(result.rejected.count)",
                    "first": "\(result.rejected.first ?? "")",
                ])
        }
        if !result.forks.isEmpty { logger.error("forked device detected", metadata: ["ops": "\(result.forks)"]) }
        return (result.applied, Self.fresh(restored, applied: result.applied, now: now), result.forkMark)
    }

    /// Restores compact ops to their signed bytes, using the previous op of each device; and whether any is an op
    /// of `own` (this device).
    func restore(_ ops: [WireOp], space: SpaceID, own: PublicKey) async throws -> (ops: [[UInt8]], carriesOwn: Bool) {
        let store = node.store
        var last: [PublicKey: (seq: UInt64, hash: Digest32)] = [:]
        var out: [[UInt8]] = []
        var carriesOwn = false
        for op in ops {
            guard let id = op.id else { throw WireError.malformedMessage("an op too short to name its device") }
            if id.device == own { carriesOwn = true }
            var prev = Digest32.zero
            if id.seq > 1 {
                if let known = last[id.device], known.seq == id.seq - 1 {
                    prev = known.hash
                } else if let stored = try await blocking({ try store.opHash(space, OpID(device: id.device, seq: id.seq - 1)) }) {
                    prev = stored
                } else if case .compact = op {
                    continue  // its predecessor is missing here: a later session (or another peer) brings it
                }
            }
            let bytes = op.restore(space: space, prev: prev)
            last[id.device] = (id.seq, Blake2b.hash(bytes))
            out.append(bytes)
        }
        return (out, carriesOwn)
    }
}
