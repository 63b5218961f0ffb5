import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import NIOCore
import Synchronization

/// What one session did.
public struct SessionReport: Sendable {
    /// The space synced.
    public var space: SpaceID?
    /// The peer, once it proved itself.
    public var peer: PeerIdentity?
    /// Ops sent to the peer.
    public var sent = 0
    /// Ops received from the peer and newly applied.
    public var received = 0
    /// Whether a full exchange completed (both sides sent all the other lacked).
    public var completed = false
    /// Why the session ended early, if it did.
    public var failure: String?
    /// Whether it ended because one side refused the other (not a member, revoked, refused by the peer):
    /// something that will not change by dialling again soon.
    public var refused = false
    /// Whether it ended because the pair's other session stays (one session per pair of devices and space).
    public var duplicate = false
    /// What the inviting device sent back for a redeemed invite (redeeming side).
    public var welcome: Welcome?
    /// Whether the peer answered the handshake as a node that holds no such key (no such space or invite).
    public var notRecognised = false
    /// The reason given, when one side refused the other.
    public var refusal: String?
}

/// The inviting device's answer to a redeemed invite.
public struct Welcome: Sendable, Equatable {
    /// The space key.
    public let spaceKey: [UInt8]
    /// The space's name.
    public let name: String
    /// Keys of earlier epochs (after a removal), to check the joins made before.
    public let earlierKeys: [[UInt8]]

    /// Creates a welcome.
    public init(spaceKey: [UInt8], name: String, earlierKeys: [[UInt8]] = []) {
        self.spaceKey = spaceKey
        self.name = name
        self.earlierKeys = earlierKeys
    }
}

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

    private enum Event {
        case frame([UInt8])
        case changed
        case tick
        /// The pair's other session stays: close this one.
        case superseded
        case closed(Error?)
    }

    let node: SyncNode
    let role: Role
    let address: String
    let foundBy: String
    let oneShot: Bool
    var logger: Logger

    private var session: EstablishedSession?
    /// The check of the space key the session was opened with (for the admission rule after a removal).
    private var keyCheck: [UInt8]?
    private var liveID: Int?
    /// Ops sent whole because the peer's vector named another head for them (a fork): each once a session.
    private var forkCopiesSent = Set<OpID>()
    /// The connection, for the send watchdog.
    private var connection: (any Channel)?
    /// The slot of an incoming connection, marked proven once the peer is a member.
    var incomingID: Int?
    private var peerKnown = VersionVector()
    private var batchesSent: UInt32 = 0
    private var awaitingAck = Set<UInt32>()
    private var heardVector = false
    private var lastHeard = DispatchTime.now()
    private var lastOpsActivity = DispatchTime.now() {
        didSet { pace?.moving() }
    }
    /// When the next digest is due (live sessions).
    private var pace: DigestPace?
    /// Whether the store changed since the peer's admission was last checked.
    private var admissionStale = false
    /// This side's vector as last read (see `ourVector`).
    private var vectorCache: (vector: [WireMessage.VectorEntry], writes: Int)?
    private var outboundClosed = false
    private var lastRecorded = (sent: -1, received: -1, at: DispatchTime.now())
    private var sentDone = false
    private var peerDone = false
    private var report = SessionReport()

    init(node: SyncNode, role: Role, address: String, foundBy: String, oneShot: Bool, logger: Logger) {
        self.node = node
        self.role = role
        self.address = address
        self.foundBy = foundBy
        self.oneShot = oneShot
        self.logger = logger
        self.logger[metadataKey: "peer.address"] = "\(address)"
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
                    if case .initiator(_, let spaceKey) = role { keyCheck = Membership.keyCheck(spaceKey) } else {
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
                    logger.info("session established")
                    if let incomingID { node.proven(incomingID) }
                    let dialled = if case .initiator = role { !oneShot } else { false }
                    guard let id = node.sessionOpened(space: established.space, peer: established.peer, address: address,
                                                      foundBy: foundBy, dialled: dialled,
                                                      supersede: { continuation.yield(.superseded) })
                    else {
                        report.duplicate = true
                        try await send(.close(.finished, SyncError.duplicate.description), outbound)
                        throw SyncError.duplicate
                    }
                    liveID = id
                    await node.recordSession(report, address: address, foundBy: foundBy, vector: peerKnown)
                    let (subscription, changes) = node.feed.subscribe()
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
            report.failure = Self.describe(error)
            report.refused = Self.isRefusal(error)
            report.notRecognised = (error as? WireError) == .notAMember
            if case SyncError.refused(let text) = error { report.refusal = text }
        }
        if !Task.isCancelled, report.peer != nil || report.failure != nil {
            logger.info("session ended", metadata: ["reason": "\(report.failure ?? "done")", "sent": "\(report.sent)",
                                                    "received": "\(report.received)"])
        }
        if let liveID { node.sessionClosed(liveID, reason: report.failure ?? "closed") }
        // An invite's session is not a sync with a member: the peer table keeps members only.
        if case .redeemer = role { return report }
        if session?.invite != nil { return report }
        await node.recordSession(report, address: address, foundBy: foundBy, vector: peerKnown)
        return report
    }

    /// Whether an error is a refusal, by its type (never by its text).
    static func isRefusal(_ error: any Error) -> Bool {
        switch error {
        case SyncError.refused: true
        case WireError.notAMember: true
        default: false
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as WireError: error.description
        case let error as SyncError: error.description
        case let error as StoreError: error.description
        case let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed:
            "the connection closed"
        default: "\(error)"
        }
    }

    // MARK: Handshake

    private func nextFrame(_ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget) async throws -> [UInt8]? {
        while let event = await events.next() {
            switch event {
            case .frame(let frame):
                budget.consumed()
                return frame
            case .closed(let error):
                if let error { throw error }
                return nil
            case .changed, .tick, .superseded: continue
            }
        }
        return nil
    }

    private func initiate(_ initiator: HandshakeInitiator, _ events: inout AsyncStream<Event>.Iterator,
                          _ budget: FrameBudget, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>)
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

    private func handshake(_ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget,
                           _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>)
        async throws -> EstablishedSession
    {
        switch role {
        case .initiator(let space, let spaceKey):
            return try await initiate(HandshakeInitiator(space: space, spaceKey: spaceKey, credentials: node.credentials),
                                      &events, budget, outbound)
        case .redeemer(let space, let secret, _):
            return try await initiate(HandshakeInitiator(space: space, inviteSecret: secret, credentials: node.credentials),
                                      &events, budget, outbound)
        case .responder:
            var machine = HandshakeResponder(spaces: node.allSpaceKeys(), invites: node.openInvites(),
                                             credentials: node.credentials)
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

    // MARK: Invites

    /// The redeeming side: the inviting device's one message, a welcome or the reason it refused.
    private mutating func awaitWelcome(_ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget)
        async throws -> Welcome
    {
        guard let frame = try await nextFrame(&events, budget) else { throw SyncError.closedEarly }
        guard var cipher = session?.cipher else { throw WireError.unexpected("no session") }
        let plain = try cipher.open(frame)
        session?.cipher = cipher
        switch try WireMessage(decoding: plain) {
        case .welcome(let key, let name, let earlier): return Welcome(spaceKey: key, name: name, earlierKeys: earlier)
        case .close(_, let text): throw SyncError.refused(text)
        default: throw WireError.unexpected("the inviting device sent something other than its welcome")
        }
    }

    /// The inviting side: a session opened with an invite's key may redeem that invite and nothing else. A revoked
    /// device is refused as on any session; the invite itself is checked (used, expired, revoked) and its use
    /// recorded in one transaction before the space key leaves this device.
    private mutating func redeem(_ invite: [UInt8], _ established: EstablishedSession,
                                 _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        if let refusal = try await node.refusal(of: established.peer, in: established.space) {
            try await send(.close(.revoked, refusal), outbound)
            throw SyncError.refused(refusal)
        }
        do {
            let welcome = try await node.redeem(invite, space: established.space, peer: established.peer)
            try await send(.welcome(spaceKey: welcome.spaceKey, name: welcome.name, earlierKeys: welcome.earlierKeys), outbound)
            logger.info("invite redeemed", metadata: ["invite": "\(Hex.encode(invite))"])
        } catch SyncError.refused(let text) {
            try await send(.close(.inviteRefused, text), outbound)
            logger.info("invite refused", metadata: ["invite": "\(Hex.encode(invite))", "reason": "\(text)"])
            throw SyncError.refused(text)
        }
    }

    // MARK: Exchange

    private mutating func exchange(_ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget,
                                   _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        try await send(.vector(try await ourVector(), wantAll: oneShot), outbound)
        while let event = await events.next() {
            switch event {
            case .frame(let frame):
                budget.consumed()
                lastHeard = DispatchTime.now()
                guard var cipher = session?.cipher else { throw WireError.unexpected("no session") }
                let plain = try cipher.open(frame)
                session?.cipher = cipher
                try await handle(try WireMessage(decoding: plain), outbound)
            case .changed:
                pace?.moving()
                vectorCache = nil
                // A revocation, or the peer's join under another user, arrives as a change: the next tick (2 s at
                // most, the pace is fast again) checks the peer again. Not here: a burst of edits would pay for a
                // check each, in the latency of the edits behind it.
                admissionStale = true
                try await push(outbound, onlyOwn: true)
            case .tick:
                let silent = (DispatchTime.now().uptimeNanoseconds - lastHeard.uptimeNanoseconds) / 1_000_000_000
                if silent >= Self.silenceLimitSeconds {
                    // A gone peer may have left this side's frames unread in the socket: reset, not close.
                    if let connection { Self.reset(connection) }
                    throw SyncError.silent(seconds: Int(silent))
                }
                if admissionStale, let space = session?.space, let peer = session?.peer {
                    admissionStale = false
                    if let refusal = try await node.refusal(of: peer, in: space, keyCheck: keyCheck) {
                        try await send(.close(.revoked, refusal), outbound)
                        throw SyncError.refused(refusal)
                    }
                }
                try await send(.digest(WireMessage.digest(of: try await ourVector(cached: true))), outbound)
            case .superseded:
                report.duplicate = true
                try await send(.close(.finished, SyncError.duplicate.description), outbound)
                throw SyncError.duplicate
            case .closed(let error):
                if let error { throw error }
                if oneShot, !exchangeComplete { throw SyncError.closedEarly }
                return
            }
            if oneShot, exchangeComplete {
                report.completed = true
                try await send(.close(.finished, "sync complete"), outbound)
                return
            }
        }
    }

    /// Both sides have sent all the other lacked, and every batch this side sent was acknowledged.
    private var exchangeComplete: Bool { peerDone && sentDone && awaitingAck.isEmpty }

    /// Seconds without a frame after which the peer counts as gone: it sends a digest at least every
    /// ``DigestPace/slowestSeconds`` while alive.
    static let silenceLimitSeconds: UInt64 = 15

    /// Records the session in the peer table when something moved, or at most once a minute otherwise.
    private mutating func recordProgress(force: Bool = false) async {
        let now = DispatchTime.now()
        let stale = now.uptimeNanoseconds - lastRecorded.at.uptimeNanoseconds > 60_000_000_000
        guard force || stale || lastRecorded.sent != report.sent || lastRecorded.received != report.received else { return }
        lastRecorded = (report.sent, report.received, now)
        await node.recordSession(report, address: address, foundBy: foundBy, vector: peerKnown, synced: true)
    }

    private mutating func nextBatch() -> UInt32 {
        batchesSent &+= 1
        if oneShot { awaitingAck.insert(batchesSent) }
        return batchesSent
    }

    /// Sends one message. If the peer already closed the connection the write is dropped and the session
    /// keeps reading: the peer's last frame (a close with its reason) may still be on its way in.
    private mutating func send(_ message: WireMessage, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
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

    /// Ends a connection whose peer stopped reading with a reset, not an orderly close. An orderly close queues its
    /// FIN behind the bytes the peer never read, so the peer would not learn that the session ended and the kernel
    /// would keep those bytes for a reader that never comes; a reset drops them and tells the peer at once.
    static func reset(_ connection: any Channel) {
        guard let socket = connection as? any SocketOptionProvider else { return connection.close(promise: nil) }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in connection.close(promise: nil) }
    }

    /// Seconds a frame may wait to be written before the peer counts as gone: 30, or
    /// `CADDIE_SEND_TIMEOUT_SECONDS`.
    static let sendTimeoutSeconds: Int64 = {
        let value = ProcessInfo.processInfo.environment["CADDIE_SEND_TIMEOUT_SECONDS"].flatMap(Int64.init) ?? 30
        return max(1, min(value, 3600))
    }()

    /// This side's vector. With `cached`, a digest's: read from the store once, then kept while this process has
    /// written nothing to the store (`OpStore.writes`, which a batch applied here also moves) and no other process
    /// has (`.changed` clears it), so an idle link's digests cost no database read. Deciding what to send or ask
    /// for always reads it afresh.
    private mutating func ourVector(cached: Bool = false) async throws -> [WireMessage.VectorEntry] {
        let store = node.store
        let writes = store.writes
        if cached, let vectorCache, vectorCache.writes == writes { return vectorCache.vector }
        guard let space = session?.space else { return [] }
        let vector = try await blocking { try store.heads(space) }.map {
            WireMessage.VectorEntry(device: $0.device, seq: $0.seq, head: $0.hash)
        }
        vectorCache = (vector, writes)
        return vector
    }

    private mutating func handle(_ message: WireMessage, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        guard let space = session?.space else { return }
        let store = node.store
        switch message {
        case .digest(let digest):
            // While ops are moving, vectors would only race the batches in flight: answer a later digest.
            guard DispatchTime.now().uptimeNanoseconds - lastOpsActivity.uptimeNanoseconds > 1_000_000_000 else { return }
            let ours = try await ourVector(cached: true)
            let same = WireMessage.digest(of: ours) == digest
            if let liveID { node.sessionInStep(liveID, same) }
            if same {
                pace?.inStep()
            } else {
                pace?.moving()
                try await send(.vector(ours, wantAll: oneShot), outbound)
            }
        case .vector(let entries, let wantAll):
            let first = !heardVector
            heardVector = true
            // What this session sent is on its way (TCP keeps order), so while ops are moving the peer's vector
            // never lowers what this side knows the peer holds: a vector that crossed a batch in flight causes
            // no resend. Once the link has been quiet for a second, the peer's vector is the truth: ops it
            // dropped (a compact op whose predecessor it lacked) are then sent again.
            let quiet = DispatchTime.now().uptimeNanoseconds - lastOpsActivity.uptimeNanoseconds > 1_000_000_000
            if quiet, !first {
                peerKnown = VersionVector(Dictionary(entries.map { ($0.device, $0.seq) }, uniquingKeysWith: max))
            } else {
                for entry in entries where entry.seq > peerKnown[entry.device] { peerKnown.entries[entry.device] = entry.seq }
            }
            // Equal seqs with different heads mean a forked device: send our copy whole so the peer records it.
            // Each op at most once a session, and only for the first entry of each device, so a vector that
            // names one large op under many wrong heads cannot make this node send it again and again.
            var seenDevices = Set<PublicKey>()
            for entry in entries where seenDevices.insert(entry.device).inserted {
                let id = OpID(device: entry.device, seq: entry.seq)
                guard !forkCopiesSent.contains(id) else { continue }
                let ours = try await blocking { try store.opHash(space, id) }
                if let ours, ours != entry.head, let bytes = try await blocking({ try store.opBytes(space, id) }) {
                    forkCopiesSent.insert(id)
                    try await send(.ops(batch: nextBatch(), ack: oneShot, [.full(bytes)]), outbound)
                }
            }
            // A live session's first exchange sends only this device's own ops: in a group where everyone is
            // connected to everyone, each log then crosses each link once. Ops from third devices follow at the
            // next digest mismatch. A one-shot sync sends everything at once.
            try await push(outbound, onlyOwn: first && !oneShot && !wantAll)
            try await send(.done, outbound)
            // The peer holds ops this side lacks: ask for them with our own vector.
            let ours = try await ourVector()
            let held = Dictionary(ours.map { ($0.device, $0.seq) }, uniquingKeysWith: max)
            if !first, entries.contains(where: { $0.seq > held[$0.device, default: 0] }) {
                try await send(.vector(ours, wantAll: oneShot), outbound)
            }
            sentDone = true
            if peerDone { await recordProgress() }
        case .ops(let batch, let wantsAck, let wireOps):
            lastOpsActivity = DispatchTime.now()
            let restored = try await restore(wireOps, space: space)
            let keys = node.keyring(space).keys
            guard let key = keys.first else { throw SyncError.refused("no key for space \(space.short)") }
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            var result = try await blocking {
                try store.receive(space: space, spaceKey: key, laterKeys: Array(keys.dropFirst()), ops: restored,
                                  mode: .tolerant, now: now)
            }
            // A batch that brought a new space key (a removal) may also hold joins made with it, checked before the
            // key was known: offer the batch once more with every key now held (what applied is skipped as held).
            if !result.rejected.isEmpty, case let after = node.keyring(space).keys, after.count > keys.count {
                let again = try await blocking {
                    try store.receive(space: space, spaceKey: after[0], laterKeys: Array(after.dropFirst()), ops: restored,
                                      mode: .tolerant, now: now)
                }
                result.applied += again.applied
                result.rejected = again.rejected
            }
            for id in result.applied where peerKnown[id.device] < id.seq { peerKnown.entries[id.device] = id.seq }
            report.received += result.applied.count
            if !result.rejected.isEmpty {
                logger.warning("refused ops from peer", metadata: ["count": "\(result.rejected.count)",
                                                                   "first": "\(result.rejected.first ?? "")"])
            }
            if !result.forks.isEmpty { logger.error("forked device detected", metadata: ["ops": "\(result.forks)"]) }
            if wantsAck { try await send(.ack(batch: batch, applied: UInt32(clamping: result.applied.count)), outbound) }
            if !result.applied.isEmpty { node.didApply(result.applied) }
        case .ack(let batch, _):
            guard awaitingAck.remove(batch) != nil else { throw WireError.unexpected("an ack for batch \(batch), which was not sent") }
        case .done:
            peerDone = true
            if sentDone { await recordProgress() }
        case .close(let reason, let text):
            if reason == .finished || reason == .shutdown {
                if oneShot, !exchangeComplete { throw SyncError.closedEarly }
                report.completed = exchangeComplete
                throw SyncError.peerClosed(text)
            }
            throw SyncError.refused(text)
        case .welcome:
            throw WireError.unexpected("a welcome on a member's session")
        }
    }

    /// Restores compact ops to their signed bytes, using the previous op of each device.
    private func restore(_ ops: [WireOp], space: SpaceID) async throws -> [[UInt8]] {
        let store = node.store
        var last: [PublicKey: (seq: UInt64, hash: Digest32)] = [:]
        var out: [[UInt8]] = []
        for op in ops {
            guard let id = op.id else { throw WireError.malformedMessage("an op too short to name its device") }
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
        return out
    }

    /// Sends, in batches, every op the peer lacks by what this session knows it holds: all of them after the
    /// peer's vector, or only this device's own (a live push) when something changed here. Ops this node
    /// relays for others reach a peer through the next vector exchange, so in a group where everyone is
    /// connected to everyone an edit crosses each link once.
    private mutating func push(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, onlyOwn: Bool) async throws {
        // Until the peer's vector arrives this session cannot know what it lacks.
        guard heardVector, let space = session?.space else { return }
        let store = node.store
        let own = node.credentials.device.publicKey
        while true {
            // A live push sends only this device's own new ops (asked of the store by device, so that ops of
            // other devices arriving meanwhile are never sent from a guessed starting point).
            let after = peerKnown
            let only = onlyOwn ? own : nil
            let ops = try await blocking {
                try store.ops(space: space, after: after, limit: SyncNode.batchOps, maxBytes: SyncNode.batchBytes,
                              onlyDevice: only)
            }
            guard !ops.isEmpty else { return }
            for op in ops where peerKnown[op.id.device] < op.id.seq { peerKnown.entries[op.id.device] = op.id.seq }
            report.sent += ops.count
            lastOpsActivity = DispatchTime.now()
            try await send(.ops(batch: nextBatch(), ack: oneShot, ops.map { .compacting($0.bytes) }), outbound)
        }
    }
}

/// Why a session ended, beyond the wire's own errors.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer closed before the handshake finished.
    case closedDuringHandshake
    /// The peer closed before the exchange finished.
    case closedEarly
    /// The peer ended the session normally.
    case peerClosed(String)
    /// One side refused the other (revoked device, wrong user).
    case refused(String)
    /// The peer could not be reached.
    case unreachable(String)
    /// The peer sent nothing for too long.
    case silent(seconds: Int)
    /// The two devices hold another session for this space, which stays (one session per pair).
    case duplicate
    /// The node at this address holds no such invite (it answered as it answers any stranger).
    case inviteUnknown(address: String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .closedDuringHandshake: "the peer closed the connection during the handshake"
        case .closedEarly: "the peer closed the connection before the sync finished"
        case .peerClosed(let text): "the peer closed the session: \(text)"
        case .refused(let text): "refused: \(text)"
        case .unreachable(let text): "cannot reach the peer: \(text)"
        case .silent(let seconds): "the peer sent nothing for \(seconds) s and counts as gone"
        case .inviteUnknown(let address):
            "the device at \(address) does not know this invite (it was made on another device, or expired long ago)"
        case .duplicate: "these two devices already hold a session for this space (the one the lower device key dialled stays)"
        }
    }
}

/// How many received frames wait for the session; the reader pauses when the session falls behind, and
/// resumes the moment the session takes a frame (no sleeping and re-checking).
final class FrameBudget: Sendable {
    static let limit = 16

    private struct State {
        var waiting = 0
        var reader: CheckedContinuation<Void, any Error>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Waits until the session has taken enough frames; throws when the reader's task is cancelled.
    func waitForRoom() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled { return .failure(CancellationError()) }
                    if state.waiting < Self.limit {
                        state.waiting += 1
                        return .success(())
                    }
                    state.reader = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let reader = state.withLock { state in
                state.cancelled = true
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(throwing: CancellationError())
        }
    }

    func consumed() {
        let reader = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.waiting = max(0, state.waiting - 1)
            guard let reader = state.reader, state.waiting < Self.limit else { return nil }
            state.reader = nil
            state.waiting += 1
            return reader
        }
        reader?.resume()
    }
}
