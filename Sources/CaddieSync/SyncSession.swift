import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import NIOCore
import Synchronization

/// One connection's sync session: the handshake, then vectors, batches of ops, acks and live pushes.
///
/// The session runs as one task that handles one event at a time (a frame from the peer, a change in the
/// store, an anti-entropy tick), so its ciphers and its picture of the peer need no locks.
struct SyncSession {
    enum Role {
        case initiator(space: SpaceID, spaceKey: [UInt8])
        /// Redeems an invite at the device that made it (`inviter`), under the invite's secret.
        case redeemer(space: SpaceID, secret: [UInt8], inviter: PublicKey)
        case responder
    }

    enum Event {
        case frame([UInt8])
        case changed
        case tick
        /// The pair's other session stays: close this one.
        case superseded
        /// The peer devices of the node's sessions in this session's space changed: these are they now.
        case company(Set<PublicKey>)
        case closed(Error?)
    }

    let node: SyncNode
    let role: Role
    let address: String
    let foundBy: String
    let oneShot: Bool
    /// The protocol version this side offers when it dials (``Handshake/oldest`` unless the dialler says otherwise).
    let offer: UInt8
    var logger: Logger

    var session: EstablishedSession?
    /// The change feed's ``ChangeFeed/membershipGeneration`` when the peer's admission was last read (nil: not yet).
    var admittedAt: Int?
    /// The check of the space key the session was opened with (for the admission rule after a removal).
    private var keyCheck: [UInt8]?
    private var liveID: Int?
    /// The connection, for the send watchdog.
    private var connection: (any Channel)?
    /// The slot of an incoming connection, marked proven once the peer is a member.
    var incomingID: Int?
    /// Every decision of the exchange (see ``SessionMachine``); this type carries out its actions.
    private var machine: SessionMachine
    /// When the next digest is due (live sessions).
    private var pace: DigestPace?
    private var outboundClosed = false
    /// What the peer table last got from this session (``recordProgress(quiet:)``): nothing yet.
    private var lastRecorded = (sent: -1, received: -1, at: DispatchTime(uptimeNanoseconds: 0))
    /// The session's counters at the digest tick before: whether the link has gone quiet since.
    private var countsAtLastTick = (sent: 0, received: 0)
    /// The shortest time between two writes of the session's peer row while ops move.
    static let peerRowSeconds: UInt64 = 10
    private var report = SessionReport()
    /// The store's fork mark when this session last looked (``OpStore/forkMark(_:)``; it reads the branches when
    /// this moves).
    private(set) var branchesSeen = 0

    init(
        node: SyncNode, role: Role, address: String, foundBy: String, oneShot: Bool, offer: UInt8 = Handshake.oldest,
        logger: Logger
    ) {
        self.node = node
        self.role = role
        self.address = address
        self.foundBy = foundBy
        self.oneShot = oneShot
        self.offer = offer
        self.logger = logger
        self.logger[metadataKey: "peer.address"] = "\(address)"
        machine = SessionMachine(
            oneShot: oneShot, ownDevice: node.credentials.device.publicKey, now: Self.now(),
            silenceLimit: Self.silenceLimitSeconds)
    }

    /// Runs the session to its end; never throws: the report says how it ended.
    mutating func run(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async -> SessionReport {
        connection = channel.channel
        do {
            try await channel.executeThenClose { inbound, outbound in
                let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
                let budget = FrameBudget()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Every frame, from the first handshake message on, arrives through `events`.
                    group.addTask {
                        var reader = FrameReader(inbound)
                        do {
                            while let frame = try await reader.next() {
                                // Backpressure: stop reading while the session is behind, so a fast sender
                                // fills its own socket buffer instead of this node's memory.
                                try await budget.waitForRoom()
                                continuation.yield(.frame(frame))
                            }
                            continuation.yield(.closed(nil))
                        } catch {
                            continuation.yield(.closed(error))
                        }
                    }
                    defer { group.cancelAll() }
                    var iterator = events.makeAsyncIterator()
                    let timeout = channel.channel.eventLoop.scheduleTask(
                        in: .seconds(Int64(SyncNode.handshakeTimeoutSeconds))
                    ) { channel.channel.close(promise: nil) }
                    let established = try await handshake(&iterator, budget, outbound)
                    timeout.cancel()
                    session = established
                    machine.liveMessages = !oneShot && established.version >= 2
                    if case .initiator(_, let spaceKey) = role {
                        keyCheck = Membership.keyCheck(spaceKey)
                    } else {
                        keyCheck = established.keyCheck
                    }
                    report.space = established.space
                    report.peer = established.peer
                    logger[metadataKey: "peer.device"] = "\(established.peer.device.short)"
                    logger[metadataKey: "space"] = "\(established.space.short)"
                    if case .redeemer(_, _, let inviter) = role {
                        guard established.peer.device == inviter else {
                            throw SyncError.refused("the device that answered is not the one that made this invite")
                        }
                        report.welcome = try await awaitWelcome(&iterator, budget)
                        return
                    }
                    if let invite = established.invite {
                        try await redeem(invite, established, outbound)
                        return
                    }
                    if let refusal = try await node.refusal(of: established.peer, in: established.space, keyCheck: keyCheck) {
                        try await send(.close(.revoked, refusal), outbound)
                        throw SyncError.refused(refusal)
                    }
                    logger.info("session established", metadata: ["protocol": "\(established.version)"])
                    await node.keySeen(established.peer, in: established.space, keyCheck: keyCheck)
                    if let incomingID { node.proven(incomingID) }
                    let dialled = if case .initiator = role { !oneShot } else { false }
                    guard
                        let id = node.sessionOpened(
                            space: established.space, peer: established.peer, address: address,
                            foundBy: foundBy, dialled: dialled,
                            supersede: { continuation.yield(.superseded) },
                            company: { continuation.yield(.company($0)) })
                    else {
                        report.duplicate = true
                        try await send(.close(.finished, SyncError.duplicate.description), outbound)
                        throw SyncError.duplicate
                    }
                    liveID = id
                    await node.recordSession(report, address: address, foundBy: foundBy, vector: machine.peerKnown)
                    let (subscription, changes) = node.feed.subscribe(established.space)
                    defer { node.feed.unsubscribe(subscription) }
                    group.addTask {
                        for await _ in changes { continuation.yield(.changed) }
                    }
                    let pace = DigestPace(eventLoop: channel.channel.eventLoop) { continuation.yield(.tick) }
                    self.pace = pace
                    pace.start()
                    defer { pace.stop() }
                    try await exchange(&iterator, budget, outbound)
                }
            }
        } catch {
            report = currentReport
            report.failure = Self.describe(error)
            report.refused = Self.isRefusal(error)
            report.notRecognised = (error as? WireError) == .notAMember
            if case SyncError.refused(let text) = error { report.refusal = text }
            if case WireError.version(let peer) = error { report.peerVersion = peer }
        }
        if report.failure == nil { report = currentReport }
        if !Task.isCancelled, report.peer != nil || report.failure != nil {
            logger.info(
                "session ended",
                metadata: [
                    "reason": "\(report.failure ?? report.ending ?? "done")", "sent": "\(report.sent)",
                    "received": "\(report.received)",
                ])
        }
        if let liveID { node.sessionClosed(liveID, reason: report.failure ?? report.ending ?? "closed") }
        // An invite's session is not a sync with a member: the peer table keeps members only.
        if case .redeemer = role { return report }
        if session?.invite != nil { return report }
        await node.recordSession(report, address: address, foundBy: foundBy, vector: machine.peerKnown)
        return report
    }

    // MARK: Handshake

    func nextFrame(_ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget) async throws -> [UInt8]? {
        while let event = await events.next() {
            switch event {
            case .frame(let frame):
                budget.consumed()
                return frame
            case .closed(let error):
                if let error { throw error }
                return nil
            case .changed, .tick, .superseded, .company: continue
            }
        }
        return nil
    }

    private func initiate(
        _ initiator: HandshakeInitiator, _ events: inout AsyncStream<Event>.Iterator,
        _ budget: FrameBudget, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    )
        async throws -> EstablishedSession
    {
        var machine = initiator
        try await outbound.writeFrame(machine.start())
        guard let reply = try await nextFrame(&events, budget) else { throw WireError.notAMember }
        switch machine.receive(reply) {
        case .established(let message3, let session):
            try await outbound.writeFrame(message3)
            return session
        case .fail(let error):
            throw error
        }
    }

    private func handshake(
        _ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    )
        async throws -> EstablishedSession
    {
        switch role {
        case .initiator(let space, let spaceKey):
            return try await initiate(
                HandshakeInitiator(space: space, spaceKey: spaceKey, credentials: node.credentials, version: offer),
                &events, budget, outbound)
        case .redeemer(let space, let secret, _):
            return try await initiate(
                HandshakeInitiator(space: space, inviteSecret: secret, credentials: node.credentials),
                &events, budget, outbound)
        case .responder:
            var machine = HandshakeResponder(
                spaces: node.allSpaceKeys(), invites: node.openInvites(),
                credentials: node.credentials, newest: Self.newestVersion)
            while true {
                guard let frame = try await nextFrame(&events, budget) else { throw SyncError.closedDuringHandshake }
                switch machine.receive(frame) {
                case .send(let reply): try await outbound.writeFrame(reply)
                case .sendAndClose(let reply, let error):
                    try await outbound.writeFrame(reply)
                    throw error
                case .established(let session): return session
                case .fail(let error): throw error
                }
            }
        }
    }

    // MARK: Exchange

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Feeds the session's events to its ``SessionMachine`` and carries out what it decides.
    private mutating func exchange(
        _ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        let company = if liveID != nil, let space = session?.space { node.company(space) } else { Set<PublicKey>() }
        let delivered =
            if let space = session?.space, let peer = session?.peer.device {
                await node.branchLedger.delivered(space: space, peer: peer)
            } else { Set<Digest32>() }
        // The phones this node hosts, read before each event (one lock): their ops go out as this device's own.
        let (space, hosted) = (session?.space, node.hosted)
        machine.hosted = space.map(hosted.devices) ?? []
        if try await perform(machine.start(peer: session?.peer.device, company: company, delivered: delivered), outbound) {
            return
        }
        while let event = await events.next() {
            machine.hosted = space.map(hosted.devices) ?? []
            let actions: [SessionMachine.Action]
            switch event {
            case .frame(let frame):
                budget.consumed()
                guard var cipher = session?.cipher else { throw WireError.unexpected("no session") }
                let plain = try cipher.open(frame)
                session?.cipher = cipher
                actions = try machine.received(try WireMessage(decoding: plain), now: Self.now())
            case .changed:
                actions = machine.changed()
                if actions.contains(where: { if case .fetchOps(_, nil) = $0 { true } else { false } }) {
                    logger.debug("relaying a change at once to a peer that asked for it")
                }
            case .tick:
                // What moved since the peer table last heard of it: at once on a link that has gone quiet.
                let counts = (sent: machine.sent, received: machine.received)
                let quiet = counts == countsAtLastTick
                countsAtLastTick = counts
                await recordProgress(quiet: quiet)
                actions = machine.tick(now: Self.now())
            case .superseded:
                actions = machine.superseded()
            case .company(let devices):
                // Told outside the node's lock, so two changes can arrive out of order: the table as it is now.
                actions = machine.company(session.map { node.company($0.space) } ?? devices)
            case .closed(let error):
                if let error { throw error }
                actions = try machine.connectionClosed()
            }
            if try await perform(actions, outbound) { return }
            if try await perform(machine.settle(), outbound) { return }
        }
    }

    /// Carries out actions in order; an answer's actions run before the rest. True when the session finished.
    private mutating func perform(
        _ actions: [SessionMachine.Action],
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> Bool {
        var queue = actions
        queue.reverse()
        while let action = queue.popLast() {
            var next: [SessionMachine.Action] = []
            switch action {
            case .send(let message):
                try await send(message, outbound)
            case .readVector(let use):
                next = machine.vectorRead(try await ourVector(), for: use)
            case .lookUpHeads(let entries):
                next = machine.headsLookedUp(forks: try await forkedCopies(entries))
            case .fetchOps(let after, let onlyDevices):
                guard let space = session?.space else { break }
                let store = node.store
                let heads = try await node.heads(space).map { (device: $0.device, seq: $0.seq) }
                // Once the log's ops are out, a forked device's branches follow (their first ops follow ops of the
                // log, which the peer then holds): their number is read in the same trip to the store.
                // A new op of a live exchange, and the fork mark after it, are kept in memory: taken on this task.
                // Anything older is read from SQLite, on a blocking thread.
                let kept = store.keptOps(
                    space: space, after: after, limit: SyncNode.batchOps, maxBytes: SyncNode.batchBytes,
                    onlyDevices: onlyDevices, heads: heads)
                let (ops, branches) =
                    if let kept { kept } else {
                        try await blocking {
                            let ops = try store.ops(
                                space: space, after: after, limit: SyncNode.batchOps, maxBytes: SyncNode.batchBytes,
                                onlyDevices: onlyDevices, heads: heads)
                            return (ops, ops.isEmpty ? try store.forkMark(space) : nil)
                        }
                    }
                if onlyDevices != nil, ops.contains(where: { machine.hosted.contains($0.id.device) }) {
                    logger.debug("pushing at once the ops of a phone this node hosts")
                }
                next = machine.fetched(ops, onlyDevices: onlyDevices, now: Self.now())
                if let branches { next = try await branchesIfMoved(branches) }
            case .apply(let batch, let wantsAck, let ops):
                let (applied, fresh, branches) = try await apply(ops)
                // A batch that forked a log here (the peer sent its copy of an op this side holds otherwise) is
                // answered with the branches, ahead of its ack, so a one-shot peer waits for them.
                next =
                    try await branchesIfMoved(branches) + machine.applied(batch: batch, wantsAck: wantsAck, applied, fresh: fresh)
            case .checkAdmission:
                guard let space = session?.space, let peer = session?.peer else { break }
                // Only a change of who may sync can refuse a peer admitted before: after scores, nothing to read.
                let generation = node.feed.membershipGeneration
                guard generation != admittedAt else { break }
                next = machine.admission(refusal: try await node.refusal(of: peer, in: space, keyCheck: keyCheck))
                admittedAt = generation
            case .branchesDelivered(let hashes):
                if let space = session?.space, let peer = session?.peer.device {
                    await node.branchLedger.record(space: space, peer: peer, hashes)
                }
            case .recordProgress:
                await recordProgress()
            case .pace(.moving):
                pace?.moving()
            case .pace(.inStep):
                pace?.inStep()
            case .inStep(let same):
                if let liveID { node.sessionInStep(liveID, same) }
            case .reset:
                if let connection { Self.reset(connection) }
            case .end(let error):
                throw error
            case .finish:
                return true
            }
            queue.append(contentsOf: next.reversed())
        }
        return false
    }

    /// Records the session in the peer table when something moved: while ops keep moving, at most once every
    /// ``peerRowSeconds``; at the first digest tick after they stopped (`quiet`), at once; and once a minute
    /// otherwise. A row written at every exchange round was a write transaction, and a read of the peer's name, per
    /// session per round: on a hub relaying ops to 64 peers, a tenth of its time (docs/performance.md).
    private mutating func recordProgress(quiet: Bool = false) async {
        let now = DispatchTime.now()
        let since = now.uptimeNanoseconds - lastRecorded.at.uptimeNanoseconds
        let moved = lastRecorded.sent != machine.sent || lastRecorded.received != machine.received
        let first = lastRecorded.sent < 0
        guard first || since > 60_000_000_000 || (moved && (quiet || since >= Self.peerRowSeconds * 1_000_000_000)) else {
            return
        }
        lastRecorded = (machine.sent, machine.received, now)
        await node.recordSession(currentReport, address: address, foundBy: foundBy, vector: machine.peerKnown, synced: true)
    }

    /// The report as the machine's counters stand.
    private var currentReport: SessionReport {
        var current = report
        current.sent = machine.sent
        current.received = machine.received
        current.completed = current.completed || machine.completed
        current.duplicate = current.duplicate || machine.duplicate
        current.ending = machine.closedBecause
        return current
    }

    /// Sends one message. If the peer already closed the connection the write is dropped and the session
    /// keeps reading: the peer's last frame (a close with its reason) may still be on its way in.
    mutating func send(_ message: WireMessage, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        guard !outboundClosed, var cipher = session?.cipher else { return }
        let frame = cipher.seal(message.encoded)
        session?.cipher = cipher
        node.countSent(bytes: frame.count + 4)
        // A peer that stops reading must not hold this session, and the frames queued for it, for ever: a write
        // that cannot finish within the send timeout resets the connection.
        let watchdog = connection?.eventLoop.scheduleTask(in: .seconds(Self.sendTimeoutSeconds)) { [connection] in
            if let connection { Self.reset(connection) }
        }
        defer { watchdog?.cancel() }
        do {
            try await outbound.writeFrame(frame)
        } catch {
            outboundClosed = true
        }
    }

    /// How long a peer may send nothing before it counts as gone: 15 s (`SessionMachine.silenceLimitSeconds`), or
    /// `CADDIE_SILENCE_SECONDS` (15...3600), which only a benchmark that starves its own peers of CPU should set.
    static let silenceLimitSeconds: UInt64 = {
        let value =
            ProcessInfo.processInfo.environment["CADDIE_SILENCE_SECONDS"].flatMap(UInt64.init)
            ?? SessionMachine.silenceLimitSeconds
        return max(SessionMachine.silenceLimitSeconds, min(value, 3600))
    }()

    /// The newest protocol version this node speaks: ``Handshake/version``, or `CADDIE_PROTOCOL_VERSION` (1...2), which
    /// makes a node answer and offer that version at most, as a node of that version would (the test of mixed
    /// versions runs one so).
    static let newestVersion: UInt8 = {
        let value = ProcessInfo.processInfo.environment["CADDIE_PROTOCOL_VERSION"].flatMap(UInt8.init) ?? Handshake.version
        return max(Handshake.oldest, min(value, Handshake.version))
    }()

    /// Seconds a frame may wait to be written before the peer counts as gone: 30, or
    /// `CADDIE_SEND_TIMEOUT_SECONDS`.
    static let sendTimeoutSeconds: Int64 = {
        let value = ProcessInfo.processInfo.environment["CADDIE_SEND_TIMEOUT_SECONDS"].flatMap(Int64.init) ?? 30
        return max(1, min(value, 3600))
    }()

    /// A forked device's branches, whole, when the store's fork mark (`count`, just read) moved since this session
    /// last looked, or some that waited for the peer can go now: every op not yet sent this session goes
    /// (``SessionMachine/branchesFetched(_:)``).
    private mutating func branchesIfMoved(_ count: Int) async throws -> [SessionMachine.Action] {
        guard let space = session?.space, count != branchesSeen || machine.branchesReady else { return [] }
        let store = node.store
        branchesSeen = count
        return machine.branchesFetched(try await blocking { try store.branchOps(space) })
    }
}
