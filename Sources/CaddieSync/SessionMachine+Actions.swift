import CaddieCore
import CaddieWire

/// What a ``SessionMachine`` decides: the actions the session carries out, and the words of two of them.
extension SessionMachine {
    /// Where the digest timer should go.
    enum Pace: Equatable {
        /// Something moved: fastest pace.
        case moving
        /// The peer's digest matched: the next gap may be longer.
        case inStep
    }

    /// What this side's vector is read for.
    enum VectorUse: Equatable {
        /// The session's opening vector.
        case open
        /// A tick's digest (the heartbeat).
        case digest
        /// The peer's digest, to compare.
        case answer(Digest32)
        /// After a push: ask with this side's vector when the peer's vector holds ops this side lacks.
        case askIfBehind([WireMessage.VectorEntry])
        /// Tell the peer that this node's company changed (whether it wants everything relayed).
        case announce
    }

    /// What the session should do, in order. An answer to a question (`readVector`, `lookUpHeads`, `fetchOps`,
    /// `apply`, `checkAdmission`) comes back through the method of the same name, and the actions it returns run
    /// before the ones that followed the question.
    enum Action: Equatable {
        /// Seal and send one message.
        case send(WireMessage)
        /// Read this side's vector and call ``vectorRead`` (`SyncSession` serves it from the node's heads, kept
        /// from each commit's change: ``SyncNode/heads(_:)``).
        case readVector(for: VectorUse)
        /// Look up this side's ops at these entries' seqs and call ``headsLookedUp`` with the ones whose hash
        /// differs from the entry's head (a forked device).
        case lookUpHeads([WireMessage.VectorEntry])
        /// Fetch the next batch of ops after `after` (only those of `onlyDevices`, when given) and call ``fetched``.
        case fetchOps(after: VersionVector, onlyDevices: Set<PublicKey>?)
        /// Restore and apply a received batch and call ``applied``.
        case apply(batch: UInt32, wantsAck: Bool, [WireOp])
        /// Check whether the peer is still admitted and call ``admission``.
        case checkAdmission
        /// The peer acknowledged a batch of these fork-branch ops: remember that it holds them (``BranchLedger``).
        case branchesDelivered([Digest32])
        /// Record the session's progress in the peer table.
        case recordProgress
        /// Move the digest timer.
        case pace(Pace)
        /// Tell the node whether the last digest matched (for `caddie peers`).
        case inStep(Bool)
        /// Reset the connection (the peer stopped reading: an orderly close would queue behind unread bytes).
        case reset
        /// The session ends with this error.
        case end(SyncError)
        /// The session ends normally.
        case finish
    }
}
