import CaddieCore
import Synchronization

/// Which fork-branch ops (OpStore+Branches.swift) each peer device acknowledged from this node, per space, and
/// when: a session sends a branch op only to a peer not known to hold it, so a forked device's branches cross a
/// link once rather than in every session (second security review, "fork branches without bound").
///
/// Kept in memory: a node that restarts sends its branches once more. What a peer acknowledged is forgotten after
/// a day (``memoryNanoseconds``), so a peer whose home was restored from an older copy, and lost branches, gets
/// them again.
final class BranchLedger: Sendable {
    struct Key: Hashable {
        let space: SpaceID
        let peer: PublicKey
    }

    /// How long an acknowledgement stands: a day.
    static let memoryNanoseconds: UInt64 = 86_400 * 1_000_000_000

    private let held = Mutex<[Key: [Digest32: UInt64]]>([:])

    /// The branch ops `peer` acknowledged in `space` within the last day (`now`: uptime in nanoseconds).
    func delivered(space: SpaceID, peer: PublicKey, now: UInt64) -> Set<Digest32> {
        held.withLock { held in
            Set((held[Key(space: space, peer: peer)] ?? [:]).filter { now &- $0.value < Self.memoryNanoseconds }.keys)
        }
    }

    /// `peer` acknowledged a batch holding these branch ops; stale acknowledgements of that peer are dropped.
    func record(space: SpaceID, peer: PublicKey, _ hashes: [Digest32], now: UInt64) {
        held.withLock { held in
            let key = Key(space: space, peer: peer)
            var known = (held[key] ?? [:]).filter { now &- $0.value < Self.memoryNanoseconds }
            for hash in hashes { known[hash] = now }
            held[key] = known
        }
    }
}
