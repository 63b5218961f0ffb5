import CaddieCore
import CaddieWire

/// Every decision of a member's sync session after the handshake, with no I/O and no clock: events go in (a
/// message from the peer, a change in the store, a digest tick, the answers to what it asked), actions come out
/// (send a message, read this side's vector, fetch ops after a vector, apply a batch, check the peer's admission,
/// end). ``SyncSession`` carries the actions out against the socket, the store and the node, and feeds each
/// answer back in; the times it passes are its clock's, in nanoseconds.
///
/// The rules kept here, each with a unit test in `SessionMachineTests`:
/// - a live session's first push sends only the ops this node is the origin of: its own device's and those of the
///   phones it hosts (``hosted``), so in a full mesh each log crosses each link once; a one-shot sync, or a peer
///   that asks `wantAll`, gets everything at once;
/// - a live push after a change fetches the ops this node is the origin of, by device, at once to every live peer,
///   never other devices' ops from a guessed starting point; to a peer whose last vector set `wantAll` (it has no other session in the space: a phone
///   that reaches the group only through a clubhouse hub) it relays every device's ops at once;
/// - a live session's vectors set `wantAll` while it is this node's only session in the space, or while a third
///   device whose fresh ops came through this peer has no session with this node (this node is then reached
///   through the peer: a chain, or a group where not everyone reaches everyone); a change in that is announced
///   with a fresh vector, and a device that sent nothing fresh this way for ``relayMemoryNanoseconds`` no
///   longer counts;
/// - while ops are moving, a peer's vector never lowers what this side knows the peer holds (it may have crossed
///   a batch in flight); once the link has been quiet for ``quietNanoseconds`` the peer's vector is the truth,
///   so ops it dropped are sent again;
/// - a digest is answered only on a quiet link, with a vector only when it differs;
/// - a copy of a forked op is sent at most once a session, for the first entry of each device, and every op of a
///   forked device's branches goes whole, once a session;
/// - a peer silent for ``silenceLimitSeconds`` is gone (the connection is reset, not closed); a side busy
///   applying a flood of the peer's batches still sends a digest every ``keepAliveNanoseconds``, so that the peer
///   does not take it for gone while its digest timer waits behind the batches;
/// - a change in the store makes the next tick re-check the peer's admission (a revocation or a removal);
/// - a one-shot sync ends when both sides said `done` and every batch it sent was acknowledged;
/// - the phase is one ``State`` (opening, exchanging, ended); a normal close by the peer ends the session with
///   ``Action/finish``, not an error, and nothing after the end produces an action.
struct SessionMachine {
    /// A live session answers a digest, and trusts a peer's vector, only after this long without ops moving.
    static let quietNanoseconds: UInt64 = 1_000_000_000
    /// While batches keep arriving, a digest goes back at least this often, whatever the digest timer does.
    static let keepAliveNanoseconds: UInt64 = 5_000_000_000
    /// How long a third device counts as reached through this peer after its last fresh op came this way.
    static let relayMemoryNanoseconds: UInt64 = 300 * 1_000_000_000
    /// Seconds without a frame after which the peer counts as gone: it sends a digest at least every
    /// ``DigestPace/slowestSeconds`` while alive.
    static let silenceLimitSeconds: UInt64 = 15
    /// This session's silence limit: ``silenceLimitSeconds`` unless the driver says otherwise.
    let silenceLimit: UInt64

    /// A one-shot sync (`caddie sync`): everything at once, acknowledged, then closed.
    let oneShot: Bool
    /// This device, whose own ops a live push sends.
    let ownDevice: PublicKey
    /// The phones this node hosts in the space (their signed ops came to it over HTTP, not from a peer): a live push
    /// sends theirs at once too, as this device's own. The session sets it before each event.
    var hosted: Set<PublicKey> = []
    /// The devices whose ops this node is the origin of: its own and the phones it hosts.
    var origin: Set<PublicKey> { hosted.union([ownDevice]) }
    /// Whether a live push of one of this device's own ops goes as a `live` message: the session agreed on protocol
    /// version 2 or later (set by the session after the handshake; a one-shot session never does).
    var liveMessages = false

    /// What this side knows the peer holds.
    private(set) var peerKnown = VersionVector()
    /// Ops sent to the peer.
    private(set) var sent = 0
    /// Ops received from the peer and newly applied.
    private(set) var received = 0
    /// Where the session is: every phase-dependent rule reads it, and nothing else says what phase it is in.
    enum State: Equatable {
        /// Started (this side's vector is on its way); the peer's first vector has not come. `peerDone`: the peer
        /// already said it sent all this side lacked.
        case opening(peerDone: Bool)
        /// The peer's first vector came and this side answered it with all the peer lacked, then `done`.
        case exchanging(peerDone: Bool)
        /// The session is over.
        case ended(Ending)
    }

    /// How a session ended without an error.
    enum Ending: Equatable {
        /// A one-shot exchange finished: both sides sent all the other lacked, every batch acknowledged.
        case completed
        /// The peer closed the session with a reason (a live session: it stops, or its user closed the app).
        /// `completed`: a one-shot exchange had finished first.
        case peerClosed(String, completed: Bool)
        /// The connection closed without a close message (a live session).
        case connectionClosed
        /// The pair's other session stays (one session per pair of devices and space).
        case duplicate
    }

    private(set) var state = State.opening(peerDone: false)

    /// Whether a one-shot exchange completed (also when the peer closed the session after it did).
    var completed: Bool {
        switch state {
        case .ended(.completed), .ended(.peerClosed(_, completed: true)): true
        default: false
        }
    }

    /// Whether the session ended because the pair's other session stays.
    var duplicate: Bool { state == .ended(.duplicate) }

    /// How the peer ended the session normally, for the report and the logs; nil otherwise.
    var closedBecause: String? {
        switch state {
        case .ended(.peerClosed(let text, _)): "the peer closed the session: \(text)"
        case .ended(.connectionClosed): "the peer closed the connection"
        default: nil
        }
    }

    private var heardVector: Bool {
        if case .opening = state { false } else { true }
    }

    private var peerDone: Bool {
        switch state {
        case .opening(let done), .exchanging(let done): done
        case .ended: false
        }
    }

    private var isEnded: Bool {
        if case .ended = state { true } else { false }
    }
    /// Whether the peer's last vector set `wantAll`: it has no other source, so this side relays to it at once.
    private var peerWantsAll = false
    /// The peer's device (nil until ``start(peer:company:)``).
    private var peer: PublicKey?
    /// The devices of the node's other sessions in the space (the driver says so; see ``company(_:)``); nil when
    /// not told (some other company, as far as this machine knows).
    private var others: Set<PublicKey>?
    /// Third devices whose fresh ops came through this peer, and when the last one came.
    private var throughPeer: [PublicKey: UInt64] = [:]
    private var batchesSent: UInt32 = 0
    private var awaitingAck = Set<UInt32>()
    private var forkCopiesSent = Set<OpID>()
    /// Fork-branch ops (a forked device's, OpStore+Branches.swift) sent this session, or known to be held by the
    /// peer (it acknowledged them in an earlier session: ``start(peer:company:delivered:)``), by hash.
    private var branchesSent = Set<Digest32>()
    /// The branch ops of each branch batch sent and not yet acknowledged.
    private var branchBatches: [UInt32: [Digest32]] = [:]
    /// Per device whose branch ops wait: the seq the peer must hold first (the fork point − 1).
    private var branchesWaitFor: [PublicKey: UInt64] = [:]
    private var lastHeard: UInt64
    /// When this side last sent a digest (its heartbeat).
    private var lastSpoke: UInt64
    private var lastOpsActivity: UInt64
    private var admissionStale = false

    init(oneShot: Bool, ownDevice: PublicKey, now: UInt64, silenceLimit: UInt64 = silenceLimitSeconds) {
        self.silenceLimit = silenceLimit
        self.oneShot = oneShot
        self.ownDevice = ownDevice
        lastHeard = now
        lastSpoke = now
        lastOpsActivity = now
    }

    /// Both sides have sent all the other lacked, and every batch this side sent was acknowledged.
    var exchangeComplete: Bool { state == .exchanging(peerDone: true) && awaitingAck.isEmpty }

    // MARK: Events

    /// The session is established with `peer`: open with this side's vector. `company`: the devices of the node's
    /// sessions in the space; `delivered`: the fork-branch ops the peer acknowledged in earlier sessions, not sent
    /// again.
    mutating func start(peer: PublicKey? = nil, company: Set<PublicKey>? = nil, delivered: Set<Digest32> = []) -> [Action] {
        self.peer = peer
        branchesSent = delivered
        others = company?.subtracting(peer.map { [$0] } ?? [])
        return [.readVector(for: .open)]
    }

    /// The devices of the node's sessions in the space changed: if that changes whether this side needs the
    /// peer to relay, a fresh vector says so.
    mutating func company(_ devices: Set<PublicKey>) -> [Action] {
        let before = askingAll
        others = devices.subtracting(peer.map { [$0] } ?? [])
        return announceIfChanged(from: before)
    }

    /// What this side's vectors say of `wantAll`: everything at once for a one-shot sync; everything relayed while
    /// this node has no other session in the space, or while a device that reaches it through this peer has no
    /// session with it.
    private var askingAll: Bool {
        guard !oneShot, let others else { return oneShot || !throughPeer.isEmpty }
        return others.isEmpty || throughPeer.keys.contains { !others.contains($0) }
    }

    private func announceIfChanged(from before: Bool) -> [Action] {
        !oneShot && askingAll != before ? [.readVector(for: .announce)] : []
    }

    /// A message from the peer. Throws when it breaks the protocol or ends the session.
    mutating func received(_ message: WireMessage, now: UInt64) throws -> [Action] {
        guard !isEnded else { return [] }
        lastHeard = now
        switch message {
        case .digest(let digest):
            // While ops are moving, vectors would only race the batches in flight: answer a later digest.
            guard quiet(now) else { return [] }
            return [.readVector(for: .answer(digest))]
        case .vector(let entries, let wantAll):
            return receivedVector(entries, wantAll: wantAll, now: now)
        case .ops(let batch, let wantsAck, let ops):
            lastOpsActivity = now
            let actions: [Action] = [.pace(.moving), .apply(batch: batch, wantsAck: wantsAck, ops)]
            // The digest timer's tick waits behind every batch already queued: say something now and then.
            guard !oneShot, now >= lastSpoke, now - lastSpoke >= Self.keepAliveNanoseconds else { return actions }
            lastSpoke = now
            return actions + [.readVector(for: .digest)]
        case .ack(let batch, _):
            guard awaitingAck.remove(batch) != nil else {
                throw WireError.unexpected("an ack for batch \(batch), which was not sent")
            }
            // The peer applied the batch or refused its ops for good: either way, they need not go again.
            return branchBatches.removeValue(forKey: batch).map { [.branchesDelivered($0)] } ?? []
        case .done:
            switch state {
            case .opening: state = .opening(peerDone: true)
            case .exchanging: state = .exchanging(peerDone: true)
            case .ended: break
            }
            return heardVector ? [.recordProgress] : []
        case .close(let reason, let text):
            guard reason == .finished || reason == .shutdown else { throw SyncError.refused(text) }
            if oneShot, !exchangeComplete { throw SyncError.closedEarly }
            // A normal close ends the session; it is no error.
            state = .ended(.peerClosed(text, completed: exchangeComplete))
            return [.finish]
        case .welcome:
            throw WireError.unexpected("a welcome on a member's session")
        case .live(let bytes):
            // The op of the peer's own device, as a batch of one that asks no ack.
            // Only a session that agreed on version 2 carries one (a version-1 node refuses the type).
            guard liveMessages else { throw WireError.unexpected("a live op on a session of protocol version 1") }
            guard let peer else { throw WireError.unexpected("a live op before the session began") }
            return try received(.ops(batch: 0, ack: false, [WireOp.fromLive(bytes, device: peer)]), now: now)
        }
    }

    private mutating func receivedVector(_ entries: [WireMessage.VectorEntry], wantAll: Bool, now: UInt64) -> [Action] {
        let first = !heardVector
        peerWantsAll = wantAll
        // What this session sent is on its way (TCP keeps order), so while ops are moving the peer's vector never
        // lowers what this side knows the peer holds: a vector that crossed a batch in flight causes no resend.
        // Once the link is quiet the peer's vector is the truth: ops it dropped (a compact op whose predecessor
        // it lacked) are then sent again.
        if quiet(now), !first {
            peerKnown = VersionVector(Dictionary(entries.map { ($0.device, $0.seq) }, uniquingKeysWith: max))
        } else {
            for entry in entries where entry.seq > peerKnown[entry.device] { peerKnown.entries[entry.device] = entry.seq }
        }
        var actions: [Action] = []
        // Equal seqs with different heads mean a forked device: its copy is sent whole so the peer records it.
        // Each op at most once a session, and only for the first entry of each device, so a vector that names
        // one large op under many wrong heads cannot make this node send it again and again.
        var seenDevices = Set<PublicKey>()
        let candidates = entries.filter {
            seenDevices.insert($0.device).inserted && !forkCopiesSent.contains(OpID(device: $0.device, seq: $0.seq))
        }
        if !candidates.isEmpty { actions.append(.lookUpHeads(candidates)) }
        // A live session's first push sends only this device's own ops: in a group where everyone is connected to
        // everyone, each log then crosses each link once. Ops from third devices follow at the next digest
        // mismatch. A one-shot sync sends everything at once.
        let onlyOwn = first && !oneShot && !wantAll
        actions.append(.fetchOps(after: peerKnown, onlyDevices: onlyOwn ? origin : nil))
        actions.append(.send(.done))
        // Asking back while batches are still arriving would send a vector that lags them, and a quiet peer
        // would take it as the truth and send those batches again: a live session asks only on a quiet link.
        if !first, oneShot || quiet(now) { actions.append(.readVector(for: .askIfBehind(entries))) }
        // Answered with all the peer lacks, then `done`: the exchange is under way.
        state = .exchanging(peerDone: peerDone)
        if peerDone { actions.append(.recordProgress) }
        return actions
    }

    /// Something changed in the store (an edit here, or a batch applied on another session).
    mutating func changed() -> [Action] {
        guard !isEnded else { return [] }
        // A revocation, or the peer's join under another user, arrives as a change: the next tick (2 s at most,
        // the pace is fast again) checks the peer again. Not here: a burst of edits would pay for a check each,
        // in the latency of the edits behind it.
        admissionStale = true
        // Until the peer's vector arrives this session cannot know what it lacks.
        guard heardVector else { return [.pace(.moving)] }
        // A peer with no other session hears of other devices' ops only from this side: relay them at once.
        // Anyone else gets them from their author (or at the next digest), so each log crosses each link once.
        return [.pace(.moving), .fetchOps(after: peerKnown, onlyDevices: peerWantsAll ? nil : origin)]
    }

    /// The digest timer fired.
    mutating func tick(now: UInt64) -> [Action] {
        guard !isEnded else { return [] }
        let silent = now >= lastHeard ? (now - lastHeard) / 1_000_000_000 : 0
        if silent >= silenceLimit {
            // A gone peer may have left this side's frames unread in the socket: reset, not close.
            return [.reset, .end(.silent(seconds: Int(silent)))]
        }
        var actions: [Action] = []
        if admissionStale {
            admissionStale = false
            actions.append(.checkAdmission)
        }
        // Devices that sent nothing fresh through this peer for a while no longer need its relay.
        let before = askingAll
        throughPeer = throughPeer.filter { now < $0.value || now - $0.value < Self.relayMemoryNanoseconds }
        let announce = announceIfChanged(from: before)
        actions += announce.isEmpty ? [.readVector(for: .digest)] : announce
        lastSpoke = now
        return actions
    }

    /// The pair's other session stays (one session per pair of devices and space).
    mutating func superseded() -> [Action] {
        guard !isEnded else { return [] }
        state = .ended(.duplicate)
        return [.send(.close(.finished, SyncError.duplicate.description)), .end(.duplicate)]
    }

    /// The peer closed the connection without a close message.
    mutating func connectionClosed() throws -> [Action] {
        guard !isEnded else { return [.finish] }
        if oneShot, !exchangeComplete { throw SyncError.closedEarly }
        state = .ended(oneShot ? .completed : .connectionClosed)
        return [.finish]
    }

    /// After an event's actions ran: a one-shot sync that is complete says so and ends.
    mutating func settle() -> [Action] {
        guard oneShot, exchangeComplete else { return [] }
        state = .ended(.completed)
        return [.send(.close(.finished, "sync complete")), .finish]
    }

    // MARK: Answers

    /// This side's vector, read for `use`.
    func vectorRead(_ ours: [WireMessage.VectorEntry], for use: VectorUse) -> [Action] {
        switch use {
        case .open, .announce:
            return [.send(.vector(ours, wantAll: askingAll))]
        case .digest:
            return [.send(.digest(WireMessage.digest(of: ours)))]
        case .answer(let theirs):
            let same = WireMessage.digest(of: ours) == theirs
            return same
                ? [.inStep(true), .pace(.inStep)] : [.inStep(false), .pace(.moving), .send(.vector(ours, wantAll: askingAll))]
        case .askIfBehind(let theirs):
            let held = Dictionary(ours.map { ($0.device, $0.seq) }, uniquingKeysWith: max)
            guard theirs.contains(where: { $0.seq > held[$0.device, default: 0] }) else { return [] }
            return [.send(.vector(ours, wantAll: askingAll))]
        }
    }

    /// The space's fork-branch ops (and fork copies), read when the store's fork mark moved or some wait: those not
    /// sent this session, nor acknowledged by the peer in an earlier one, go whole, once, since a vector cannot say
    /// which branches the peer holds. Each batch asks for an ack, which tells the node the peer holds them. Oldest first, so
    /// each follows its predecessor; a device's wait until the peer holds its log up to the fork point (the lowest
    /// seq among them), so the first of each branch finds what it follows.
    mutating func branchesFetched(_ ops: [(hash: Digest32, id: OpID, bytes: [UInt8])]) -> [Action] {
        var root: [PublicKey: UInt64] = [:]
        for op in ops { root[op.id.device] = min(root[op.id.device] ?? .max, op.id.seq) }
        branchesWaitFor = [:]
        let unsent = ops.filter { op in
            let root = root[op.id.device, default: 1]
            guard peerKnown[op.id.device] + 1 >= root else {
                branchesWaitFor[op.id.device] = root - 1
                return false
            }
            return branchesSent.insert(op.hash).inserted
        }
        guard !unsent.isEmpty else { return [] }
        sent += unsent.count
        var actions: [Action] = []
        var batch: [WireOp] = []
        var hashes: [Digest32] = []
        var size = 0
        func flush() {
            let number = nextBatch()
            awaitingAck.insert(number)
            branchBatches[number] = hashes
            actions.append(.send(.ops(batch: number, ack: true, batch)))
            (batch, hashes, size) = ([], [], 0)
        }
        for op in unsent {
            if !batch.isEmpty, batch.count >= SyncNode.batchOps || size + op.bytes.count > SyncNode.batchBytes { flush() }
            batch.append(.full(op.bytes))
            hashes.append(op.hash)
            size += op.bytes.count
        }
        flush()
        return actions
    }

    /// Some branch ops that waited can go now: the peer holds their device's log up to the fork point. Only then
    /// is reading them again worth it (a wait this side cannot end, a log it holds less of, reads nothing more).
    var branchesReady: Bool { branchesWaitFor.contains { peerKnown[$0.key] >= $0.value } }

    /// This side's copies of ops the peer's vector named under another head.
    mutating func headsLookedUp(forks: [(id: OpID, bytes: [UInt8])]) -> [Action] {
        forks.compactMap { fork in
            guard forkCopiesSent.insert(fork.id).inserted else { return nil }
            return .send(.ops(batch: nextBatch(), ack: oneShot, [.full(fork.bytes)]))
        }
    }

    /// The next batch of ops the peer lacks (empty: nothing more to send).
    mutating func fetched(_ ops: [(id: OpID, bytes: [UInt8])], onlyDevices: Set<PublicKey>?, now: UInt64) -> [Action] {
        guard !ops.isEmpty else { return [] }
        for op in ops where peerKnown[op.id.device] < op.id.seq { peerKnown.entries[op.id.device] = op.id.seq }
        sent += ops.count
        lastOpsActivity = now
        let message: WireMessage =
            if liveMessages, !oneShot, ops.count == 1, ops[0].id.device == ownDevice, let live = WireOp.live(ops[0].bytes) {
                .live(live)
            } else {
                .ops(batch: nextBatch(), ack: oneShot, ops.map { .compacting($0.bytes) })
            }
        return [.pace(.moving), .send(message), .fetchOps(after: peerKnown, onlyDevices: onlyDevices)]
    }

    /// A received batch was applied; `applied` are the ops that were new here, and `fresh` the devices among
    /// them whose newest op was made just now (by its clock): devices live now.
    mutating func applied(batch: UInt32, wantsAck: Bool, _ applied: [OpID], fresh: Set<PublicKey> = []) -> [Action] {
        for id in applied where peerKnown[id.device] < id.seq { peerKnown.entries[id.device] = id.seq }
        received += applied.count
        let before = askingAll
        // A live third device's ops came this way: while this node has no session with it, the peer is its path.
        for device in fresh where device != peer && device != ownDevice { throughPeer[device] = lastOpsActivity }
        let ack: [Action] = wantsAck ? [.send(.ack(batch: batch, applied: UInt32(clamping: applied.count)))] : []
        return ack + announceIfChanged(from: before)
    }

    /// Whether the peer is still admitted: nil, or why not.
    func admission(refusal: String?) -> [Action] {
        guard let refusal else { return [] }
        return [.send(.close(.revoked, refusal)), .end(.refused(refusal))]
    }

    // MARK: Helpers

    private func quiet(_ now: UInt64) -> Bool { now >= lastOpsActivity && now - lastOpsActivity > Self.quietNanoseconds }

    private mutating func nextBatch() -> UInt32 {
        batchesSent &+= 1
        if oneShot { awaitingAck.insert(batchesSent) }
        return batchesSent
    }
}
