import CaddieCore
import CaddieStore
import Foundation

/// Which fork-branch ops (OpStore+Branches.swift) each peer device acknowledged from this node, per space, and
/// when: a session sends a branch op only to a peer not known to hold it, so a forked device's branches cross a
/// link once rather than in every session (second security review, "fork branches without bound").
///
/// Kept in the home's database (`branch_ack`, a local table), so a restart or a one-shot `caddie sync` does not send
/// them again (third review, M3). Both run off the session's task (`blocking`): the write may wait on another
/// process's write lock. What a peer acknowledged is forgotten after a day (``memoryMilliseconds``), so a
/// peer whose home was restored from an older copy, and lost branches, gets them again.
struct BranchLedger: Sendable {
    /// How long an acknowledgement stands: a day.
    static let memoryMilliseconds: UInt64 = 86_400 * 1000

    let store: OpStore

    /// The wall clock, milliseconds since 1970.
    static func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }

    /// The branch ops `peer` acknowledged in `space` within the last day. A store that cannot be read gives none:
    /// the branches are sent again, which costs bytes and loses nothing.
    func delivered(space: SpaceID, peer: PublicKey, now: UInt64 = Self.now()) async -> Set<Digest32> {
        let store = store
        return (try? await blocking { try store.branchAcks(space, peer: peer, since: now &- Self.memoryMilliseconds) }) ?? []
    }

    /// `peer` acknowledged a batch holding these branch ops; its acknowledgements older than a day are dropped.
    func record(space: SpaceID, peer: PublicKey, _ hashes: [Digest32], now: UInt64 = Self.now()) async {
        let store = store
        _ = try? await blocking {
            try store.recordBranchAcks(space, peer: peer, hashes, now: now, forgetBefore: now &- Self.memoryMilliseconds)
        }
    }
}
