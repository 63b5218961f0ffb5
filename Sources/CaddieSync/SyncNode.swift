import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The keys of one space as this device holds them, and what a changed key asks of peers
/// (docs/identity-and-spaces.md, "Removing a member").
public struct SpaceKeyring: Sendable {
    /// Every key of the space held here, the current one first (the one to dial with).
    public let keys: [[UInt8]]
    /// Once a member was removed: the check of the current key and the devices it was sealed to. A peer that
    /// opens a session with an older key is admitted only if it is one of them (a member who has not yet heard).
    public let current: Current?

    /// The current key's check and its recipients.
    public struct Current: Sendable {
        /// Membership.keyCheck of the current key.
        public let check: [UInt8]
        /// The devices it was sealed to.
        public let recipients: Set<PublicKey>

        /// Creates it.
        public init(check: [UInt8], recipients: Set<PublicKey>) {
            self.check = check
            self.recipients = recipients
        }
    }

    /// Creates a keyring.
    public init(keys: [[UInt8]], current: Current?) {
        self.keys = keys
        self.current = current
    }
}

/// How a node answers invites its device made (the node layer fills it in: the sync layer keeps no invites).
public struct InviteDesk: Sendable {
    /// The invites a handshake may be made under (working or recently ended, so a late joiner hears why).
    public let open: @Sendable () -> [HandshakeResponder.OpenInvite]
    /// Takes one use of an invite for a peer and returns the welcome, or throws `SyncError.refused` with the reason.
    public let redeem: @Sendable (_ invite: [UInt8], _ space: SpaceID, _ peer: PeerIdentity) throws -> Welcome

    /// Creates a desk.
    public init(open: @escaping @Sendable () -> [HandshakeResponder.OpenInvite],
                redeem: @escaping @Sendable ([UInt8], SpaceID, PeerIdentity) throws -> Welcome) {
        self.open = open
        self.redeem = redeem
    }
}

/// A node's sync engine: it listens for peers, dials static peers per space, and runs one session per
/// connection (Protocol/wire.md). Each (peer, space) pair has its own connection, and one session: when two nodes
/// dial each other, the session dialled by the lower device key stays.
public final class SyncNode: Sendable {
    /// Seconds a peer has to finish the handshake before the connection is dropped (slow or stalled peers).
    public static let handshakeTimeoutSeconds = 5
    /// Seconds between vector exchanges on an open session (anti-entropy, and the relay of ops a peer got
    /// from a third node).
    public static let antiEntropySeconds = 2
    /// Most ops in one batch.
    public static let batchOps = 500
    /// About the most bytes of ops in one batch, well under the frame limit.
    public static let batchBytes = 512 * 1024
    /// Longest wait between two dials of a peer that does not answer (a phone walking back into range).
    public static let maxRedialSeconds = 5.0
    /// Most incoming connections at once (handshaking or established).
    public static let maxIncoming = 128
    /// Most incoming connections at once from one address by default, so one host cannot take every slot.
    public static let defaultMaxIncomingPerAddress = 8
    /// The per-address limit this node applies (a clubhouse hub behind one NAT address may raise it).
    public let maxIncomingPerAddress: Int

    let store: OpStore
    let credentials: DeviceCredentials
    let spaceKeys: [SpaceID: [UInt8]]
    let spaceList: [(SpaceID, [UInt8])]
    let feed: ChangeFeed
    let logger: Logger
    /// The id advertised over mDNS: random for each run unless one is given, so a bystander cannot follow a
    /// device from round to round. A fixed id serves a static advert (a hub's Avahi service file).
    public let nodeID: [UInt8]
    private let wanted = Mutex<Set<String>>([])
    private let running = Mutex<Set<String>>([])
    /// Incoming connections by number: their address, channel, and whether their peer has proven itself.
    private let incoming = Mutex<(next: Int, open: [Int: IncomingConnection])>((0, [:]))
    private let bytesSent = Mutex(0)
    private let onApplied: (@Sendable ([OpID]) -> Void)?
    private let peerObserver = Mutex<(@Sendable (PeerEvent) -> Void)?>(nil)
    private let appliedObserver = Mutex<(@Sendable ([OpID]) -> Void)?>(nil)
    private let live = Mutex(LiveSessions())
    private let inviteDesk = Mutex<InviteDesk?>(nil)
    private let keyringSource = Mutex<(@Sendable (SpaceID) -> SpaceKeyring?)?>(nil)

    /// Creates a node over a store, with this device's credentials and the keys of the spaces it syncs.
    ///
    /// `onApplied` is called with the ids of the ops each received batch applied (for live events and
    /// measurements); it must return quickly.
    public init(store: OpStore, credentials: DeviceCredentials, spaceKeys: [SpaceID: [UInt8]], logger: Logger,
                maxIncomingPerAddress: Int = SyncNode.defaultMaxIncomingPerAddress,
                onApplied: (@Sendable ([OpID]) -> Void)? = nil, nodeID: [UInt8]? = nil) throws {
        self.onApplied = onApplied
        self.nodeID = nodeID ?? SecureRandom.bytes(8)
        self.maxIncomingPerAddress = max(1, min(maxIncomingPerAddress, Self.maxIncoming))
        self.store = store
        self.credentials = credentials
        self.spaceKeys = spaceKeys
        spaceList = spaceKeys.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        feed = ChangeFeed(monitor: try store.changeMonitor())
        self.logger = logger
    }

    /// Tells every session that this process changed the store (an in-process edit), without waiting for
    /// the file watch.
    public func localChange() { feed.notify() }

    /// Frame bytes this node has written since it started (length prefixes included).
    public var wireBytesSent: Int { bytesSent.withLock { $0 } }

    func countSent(bytes: Int) { bytesSent.withLock { $0 += bytes } }

    func didApply(_ ops: [OpID]) {
        onApplied?(ops)
        appliedObserver.withLock { $0 }?(ops)
    }

    /// Sets what to call when received ops are applied and when a peer session opens or ends (for live
    /// events); both must return quickly.
    public func observe(applied: (@Sendable ([OpID]) -> Void)?, peers: (@Sendable (PeerEvent) -> Void)?) {
        appliedObserver.withLock { $0 = applied }
        peerObserver.withLock { $0 = peers }
    }

    /// The sessions open now, oldest first.
    public var sessions: [LiveSession] { live.withLock { $0.sessions.values.sorted { $0.id < $1.id } } }

    /// Registers a proven session, keeping one session per pair of devices and space: when both devices dial each
    /// other, the session dialled by the device with the lower key stays, and the other device gives up the one it
    /// dialled (Protocol/wire.md, "One session per pair"). Both sides compute the same rule; only the dialler of the
    /// session that goes ever closes it. `dialled` is true for a live session this node dialled (never for a
    /// one-shot `caddie sync`, which always runs to its end); `supersede` asks the session to close politely.
    ///
    /// Returns the session's number, or nil when this node dialled it and the peer's own session already runs:
    /// the caller closes it.
    func sessionOpened(space: SpaceID, peer: PeerIdentity, address: String, foundBy: String, dialled: Bool,
                       supersede: @escaping @Sendable () -> Void) -> Int? {
        let yields = credentials.device.publicKey > peer.device
        let (session, superseded) = live.withLock { state -> (LiveSession?, [@Sendable () -> Void]) in
            let others = state.sessions.values.filter { $0.space == space && $0.device == peer.device }
            var superseded: [@Sendable () -> Void] = []
            if yields {
                if dialled {
                    // The peer's session to this node runs already: this one is the duplicate.
                    if others.contains(where: { !state.dialled.contains($0.id) }) { return (nil, []) }
                } else {
                    // The peer (lower key) dialled: the sessions this node dialled to it give way.
                    for other in others where state.dialled.contains(other.id) {
                        if let close = state.supersede[other.id] { superseded.append(close) }
                    }
                }
            }
            state.next += 1
            let session = LiveSession(id: state.next, space: space, device: peer.device, user: peer.user,
                                      address: address, foundBy: foundBy, since: Date())
            state.sessions[state.next] = session
            state.supersede[state.next] = supersede
            if dialled { state.dialled.insert(state.next) }
            return (session, superseded)
        }
        for close in superseded { close() }
        guard let session else { return nil }
        peerObserver.withLock { $0 }?(.connected(session))
        return session.id
    }

    /// Returns once no session with `device` for `space` is open (at once if none is), or when the task is
    /// cancelled. A dial loop waits here while the peer's own session serves the pair, instead of redialling.
    func untilNoSession(space: SpaceID, device: PublicKey) async {
        let waiter = live.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = live.withLock { state in
                    guard !Task.isCancelled, state.sessions.values.contains(where: { $0.space == space && $0.device == device })
                    else { return true }
                    state.waiters[waiter] = LiveSessions.Waiter(space: space, device: device, continuation: continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            live.withLock { $0.waiters.removeValue(forKey: waiter) }?.continuation.resume()
        }
    }

    /// Records whether a session's peer held the same ops as this node at its last digest.
    func sessionInStep(_ id: Int, _ inStep: Bool) {
        live.withLock { state in state.sessions[id]?.inStep = inStep }
    }

    func sessionClosed(_ id: Int, reason: String) {
        let (session, ready) = live.withLock { state -> (LiveSession?, [CheckedContinuation<Void, Never>]) in
            guard let session = state.sessions.removeValue(forKey: id) else { return (nil, []) }
            state.supersede[id] = nil
            state.dialled.remove(id)
            guard !state.sessions.values.contains(where: { $0.space == session.space && $0.device == session.device })
            else { return (session, []) }
            let done = state.waiters.filter { $0.value.space == session.space && $0.value.device == session.device }
            for key in done.keys { state.waiters[key] = nil }
            return (session, done.values.map(\.continuation))
        }
        for continuation in ready { continuation.resume() }
        guard let session else { return }
        peerObserver.withLock { $0 }?(.lost(session, reason: reason))
    }

    /// Lets this node answer the redemption of the invites its device made.
    public func serveInvites(_ desk: InviteDesk) { inviteDesk.withLock { $0 = desk } }

    /// The invites a handshake may be made under: read afresh for each incoming connection, so an invite made
    /// while the node runs works at once. Reading them must not fail a handshake: on an error there are none.
    func openInvites() -> [HandshakeResponder.OpenInvite] {
        guard let desk = inviteDesk.withLock({ $0 }) else { return [] }
        return desk.open()
    }

    /// Redeems an invite for a proven peer: the welcome, or `SyncError.refused` saying why not.
    func redeem(_ invite: [UInt8], space: SpaceID, peer: PeerIdentity) async throws -> Welcome {
        guard let desk = inviteDesk.withLock({ $0 }) else { throw SyncError.refused("this node does not answer invites") }
        return try await blocking { try desk.redeem(invite, space, peer) }
    }

    /// Redeems an invite at the device that made it: dials it, proves the invite's secret in the handshake, and
    /// returns the space key it sends back.
    public func redeemInvite(host: String, port: Int, space: SpaceID, secret: [UInt8], inviter: PublicKey)
        async throws -> Welcome
    {
        let channel = try await connect(host: host, port: port)
        var session = SyncSession(node: self, role: .redeemer(space: space, secret: secret, inviter: inviter),
                                  address: "\(host):\(port)", foundBy: "invite", oneShot: true, logger: logger)
        let report = await session.run(channel)
        if let welcome = report.welcome { return welcome }
        if report.notRecognised { throw SyncError.inviteUnknown(address: "\(host):\(port)") }
        if let refusal = report.refusal { throw SyncError.refused(refusal) }
        throw SyncError.peerClosed(report.failure ?? "no answer")
    }

    /// Dials a peer for a one-shot session (a sync or an invite's redemption).
    private func connect(host: String, port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(host: host, port: port) { self.channelInitializer($0) }
        } catch {
            throw SyncError.unreachable("\(host):\(port): \(error)")
        }
    }

    /// Lets this node read each space's keys afresh (a removal changes them while the node runs).
    public func useKeyrings(_ source: @escaping @Sendable (SpaceID) -> SpaceKeyring?) { keyringSource.withLock { $0 = source } }

    /// The keys of a space: from the keyring source, else the one key the node started with.
    public func keyring(_ space: SpaceID) -> SpaceKeyring {
        if let source = keyringSource.withLock({ $0 }), let ring = source(space), !ring.keys.isEmpty { return ring }
        return SpaceKeyring(keys: spaceKeys[space].map { [$0] } ?? [], current: nil)
    }

    /// Every (space, key) pair a handshake may be made under.
    func allSpaceKeys() -> [(SpaceID, [UInt8])] {
        spaceList.flatMap { space, _ in keyring(space).keys.map { (space, $0) } }
    }

    func key(for space: SpaceID) throws -> [UInt8] {
        guard let key = keyring(space).keys.first else { throw SyncError.refused("no key for space \(space.short)") }
        return key
    }

    /// Why a proven peer may not sync this space, if it may not: a device this space knows under another user, a
    /// removed user, a revoked device, or a newcomer on a key that a removal replaced (`keyCheck`: the check of the
    /// key the session was opened with).
    func refusal(of peer: PeerIdentity, in space: SpaceID, keyCheck: [UInt8]? = nil) async throws -> String? {
        // A node that reaches itself (its own address as a static peer, or its own mDNS advert under another
        // address) would sync with itself for ever.
        if peer.device == credentials.device.publicKey { return "this is this node itself: it does not sync with itself" }
        let store = self.store
        let members = try await blocking { try store.members(space) }
        if let member = members.first(where: { $0.device == peer.device }), member.user != peer.user {
            return "device \(peer.device.short) belongs to another user in this space"
        }
        // A removal also revokes the devices it lists: say which it was.
        if try await blocking({ try store.isRemoved(space, user: peer.user) }) {
            return "user \(peer.user.short) was removed from this space by its owner"
        }
        // Revocations count even before the device's join has arrived here, and by device key in every space this
        // node holds: a revoked device presenting a fresh user, or a space its user could not reach, is refused.
        if let revoked = try await blocking({ try store.deviceRevocation(peer.device, presentedUser: peer.user) }) {
            return "device \(peer.device.short) was revoked after op \(revoked)"
        }
        // After a removal, an older key admits only the devices the new one was sealed to: members that have not
        // yet heard of it. Anyone else holding an old key (an old shared-key code, a removed member's new device)
        // needs a new invite.
        if let keyCheck, let current = keyring(space).current, keyCheck != current.check,
           !current.recipients.contains(peer.device) {
            return "this space's key changed when a member was removed, and device \(peer.device.short) was not a member "
                + "then: ask a member for a new invite"
        }
        return nil
    }

    func recordSession(_ report: SessionReport, address: String, foundBy: String, vector: VersionVector,
                       synced: Bool = false) async {
        guard let space = report.space, let peer = report.peer else { return }
        let store = self.store
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        _ = try? await blocking {
            let name = try store.members(space).first { $0.device == peer.device }?.userName ?? "?"
            try store.recordPeer(PeerRecord(space: space, device: peer.device, address: address, foundBy: foundBy,
                                            userName: name, lastSeen: now, lastSync: report.completed || synced ? now : nil,
                                            vector: vector.description, sent: report.sent, received: report.received))
        }
    }

    private func channelInitializer(_ channel: Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard())
            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
    }

    /// Connects to a peer and syncs one space both ways, once: with the current key, then, if the peer does not
    /// recognise it (it has not yet heard of a new key), with each older key in turn.
    public func syncOnce(host: String, port: Int, space: SpaceID) async throws -> SessionReport {
        let keys = keyring(space).keys
        guard !keys.isEmpty else { throw SyncError.refused("no key for space \(space.short)") }
        var report = SessionReport()
        for key in keys {
            report = try await syncOnce(host: host, port: port, space: space, key: key)
            if !report.notRecognised { break }
        }
        return report
    }

    private func syncOnce(host: String, port: Int, space: SpaceID, key: [UInt8]) async throws -> SessionReport {
        let channel = try await connect(host: host, port: port)
        var session = SyncSession(node: self, role: .initiator(space: space, spaceKey: key),
                                  address: "\(host):\(port)", foundBy: "static", oneShot: true, logger: logger)
        return await session.run(channel)
    }

    /// The TXT strings this node advertises: protocol version, node id, and per space a hint that only
    /// holders of that space's key can recognise (no person and no space in the clear).
    public func advertTXT() -> [String] {
        var hints = allSpaceKeys().map { Self.hint(space: $0.0, key: $0.1, node: nodeID) }
        // Padded with decoys to a multiple of four (at least four), so the advert does not tell a stranger how
        // many spaces this device holds. Decoys are random per node id and look like any other keyed hint.
        let padded = max(4, (hints.count + 3) / 4 * 4)
        hints += decoyHints.prefix(padded - hints.count)
        return ["v=\(Handshake.version)", "id=\(Hex.encode(nodeID))"]
            + hints.sorted { Hex.encode($0) < Hex.encode($1) }.enumerated().map { "h\($0.offset)=\(Hex.encode($0.element))" }
    }

    /// Random hints to pad the advert with: padding never needs more than four.
    private let decoyHints: [[UInt8]] = (0..<4).map { _ in SecureRandom.bytes(8) }

    static func hint(space: SpaceID, key: [UInt8], node: [UInt8]) -> [UInt8] {
        Array(Blake2b.keyed(Handshake.handshakeKey(space: space, spaceKey: key), [Array("caddie-mdns-hint".utf8), node]).prefix(8))
    }

    /// The spaces a sighted node shares with this one, by its TXT hints.
    func sharedSpaces(_ sighting: PeerSighting) -> [SpaceID] {
        guard sighting.txt["v"] == "\(Handshake.version)", let id = sighting.txt["id"].flatMap(Hex.decode), id.count == 8,
              id != nodeID else { return [] }
        let hints = Set(sighting.txt.filter { $0.key.hasPrefix("h") }.compactMap { Hex.decode($0.value) })
        var shared: [SpaceID] = []
        for (space, key) in allSpaceKeys() where !shared.contains(space) && hints.contains(Self.hint(space: space, key: key, node: id)) {
            shared.append(space)
        }
        return shared
    }

    /// Listens and keeps sessions with static peers, and with peers that `sightings` reports (mDNS), until
    /// the task is cancelled. Calls `listening` with the port bound once the node accepts connections.
    public func serve(host: String, port: Int, peers: [(host: String, port: Int)],
                      sightings: AsyncStream<PeerSighting>? = nil, listening: @Sendable (Int) -> Void) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .bind(host: host, port: port) { self.channelInitializer($0) }
        listening(server.channel.localAddress?.port ?? port)
        logger.info("listening", metadata: ["address": "\(host):\(server.channel.localAddress?.port ?? port)",
                                            "spaces": "\(spaceKeys.count)"])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.feed.run() }
            for peer in peers {
                for (space, _) in spaceList {
                    group.addTask { await self.dialLoop(host: peer.host, port: peer.port, space: space, foundBy: "static") { true } }
                }
            }
            group.addTask { try await self.accept(server) }
            if let sightings { await self.follow(sightings, in: &group) }
        }
    }

    /// Dials nodes that discovery reports and that share a space; stops redialling those that leave. Of two
    /// nodes that see each other, only the one with the lower id dials, so a pair keeps one connection. What
    /// adverts can start is bounded (`DialPlan`): forged or replayed adverts cannot make the node dial without end.
    private func follow(_ sightings: AsyncStream<PeerSighting>, in group: inout ThrowingDiscardingTaskGroup<any Error>) async {
        var plan = DialPlan()
        var quiet = Set<String>()
        for await sighting in sightings {
            if sighting.lost {
                let keys = plan.lost(name: sighting.name).map(\.key)
                wanted.withLock { $0.subtract(keys) }
                continue
            }
            let shared = sharedSpaces(sighting)
            if shared.isEmpty, quiet.insert(sighting.name).inserted {
                logger.info("a caddie node nearby shares no space with this one; not connecting",
                            metadata: ["peer.address": "\(sighting.host):\(sighting.port)"])
            }
            guard let id = sighting.txt["id"].flatMap(Hex.decode), Hex.encode(nodeID) < Hex.encode(id) else { continue }
            let (loops, refused) = plan.sighted(name: sighting.name, node: Hex.encode(id), host: sighting.host,
                                                port: sighting.port, spaces: shared.map(\.hex))
            if refused > 0 {
                logger.warning("not dialling every advert: too many addresses for one node, or too many dials",
                               metadata: ["peer.address": "\(sighting.host):\(sighting.port)"])
            }
            for loop in loops {
                guard let space = shared.first(where: { $0.hex == loop.space }) else { continue }
                let key = loop.key
                wanted.withLock { _ = $0.insert(key) }
                // A loop for this peer and space may still be running (its advert came back before it ended).
                guard running.withLock({ $0.insert(key).inserted }) else { continue }
                logger.info("found a peer by mDNS", metadata: ["peer.address": "\(sighting.host):\(sighting.port)",
                                                               "space": "\(space.short)"])
                group.addTask {
                    await self.dialLoop(host: sighting.host, port: sighting.port, space: space, foundBy: "mdns") {
                        self.wanted.withLock { $0.contains(key) }
                    }
                    _ = self.running.withLock { $0.remove(key) }
                }
            }
        }
    }

    private func accept(_ server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    let host = connection.channel.remoteAddress?.ipAddress ?? "?"
                    let address = "\(host):\(connection.channel.remoteAddress?.port ?? 0)"
                    let (admitted, evicted) = admit(host, channel: connection.channel)
                    for channel in evicted {
                        logger.info("all connection slots are taken: dropping the oldest connection still unproven",
                                    metadata: ["peer.address": "\(channel.remoteAddress?.description ?? "?")"])
                        channel.close(promise: nil)
                    }
                    guard let id = admitted else {
                        logger.warning("too many connections; refusing one", metadata: ["peer.address": "\(address)"])
                        try? await connection.channel.close()
                        continue
                    }
                    group.addTask {
                        var session = SyncSession(node: self, role: .responder, address: address, foundBy: "incoming",
                                                  oneShot: false, logger: self.logger)
                        session.incomingID = id
                        _ = await session.run(connection)
                        self.release(id)
                    }
                }
            }
        }
    }

    /// Takes a slot for a new connection. When the address has used its share, or every slot is taken, the
    /// oldest connection whose peer has not yet proven itself (of that address, or of any) gives up its slot,
    /// so idle handshakes from strangers can delay a member by a handshake at most, never lock it out. Returns
    /// the new connection's number (nil: refused, every slot holds a proven peer) and the channels to close.
    func admit(_ host: String, channel: any Channel) -> (id: Int?, evict: [any Channel]) {
        incoming.withLock { state in
            var evicted: [any Channel] = []
            func evictOldest(where matches: (IncomingConnection) -> Bool) -> Bool {
                guard let oldest = state.open.filter({ !$0.value.proven && matches($0.value) }).min(by: { $0.key < $1.key })
                else { return false }
                state.open[oldest.key] = nil
                evicted.append(oldest.value.channel)
                return true
            }
            if state.open.values.count(where: { $0.host == host }) >= maxIncomingPerAddress,
               !evictOldest(where: { $0.host == host }) {
                return (nil, evicted)
            }
            if state.open.count >= Self.maxIncoming, !evictOldest(where: { _ in true }) {
                return (nil, evicted)
            }
            state.next += 1
            state.open[state.next] = IncomingConnection(host: host, channel: channel, proven: false)
            return (state.next, evicted)
        }
    }

    /// The peer of an incoming connection finished its handshake and is a member: it keeps its slot.
    func proven(_ id: Int) {
        incoming.withLock { state in state.open[id]?.proven = true }
    }

    private func release(_ id: Int) {
        _ = incoming.withLock { $0.open.removeValue(forKey: id) }
    }

    /// Keeps one session with a static peer for one space, redialling with backoff when it ends.
    private func dialLoop(host: String, port: Int, space: SpaceID, foundBy: String,
                          while stillWanted: @Sendable () -> Bool) async {
        var delay = 0.25
        // A peer that has not yet heard of a new key answers only an older one: after a handshake it could not
        // open, the next dial tries the next older key.
        var keyIndex = 0
        while !Task.isCancelled, stillWanted() {
            var failure: String?
            var refused = false
            do {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(3))
                    .connect(host: host, port: port) { self.channelInitializer($0) }
                let keys = keyring(space).keys
                guard !keys.isEmpty else { throw SyncError.refused("no key for space \(space.short)") }
                var session = SyncSession(node: self, role: .initiator(space: space, spaceKey: keys[keyIndex % keys.count]),
                                          address: "\(host):\(port)", foundBy: foundBy, oneShot: false, logger: logger)
                let report = await session.run(channel)
                failure = report.failure
                keyIndex = report.notRecognised ? keyIndex + 1 : 0
                if report.refused {
                    refused = true  // a refusal will not change soon: do not hammer the peer
                } else if let peer = report.peer {
                    delay = 0.25
                    // The peer's own session serves the pair (one session per pair): dial again only once it ends.
                    if report.duplicate {
                        await untilNoSession(space: space, device: peer.device)
                        continue
                    }
                }
            } catch {
                failure = "\(error)"
            }
            if Task.isCancelled { return }
            logger.debug("redialling", metadata: ["peer.address": "\(host):\(port)", "reason": "\(failure ?? "closed")",
                                                  "delay": "\(refused ? 60 : delay)"])
            try? await Task.sleep(for: .milliseconds(Int((refused ? 60 : delay) * 1000)))
            delay = min(delay * 2, Self.maxRedialSeconds)
        }
    }
}

/// Drops connections that error at the socket level instead of letting the error reach the session as a
/// crash: the session sees the stream end and reports why.
final class ConnectionGuard: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// The sessions open now, and who waits for a pair's sessions to end.
struct LiveSessions {
    struct Waiter {
        let space: SpaceID
        let device: PublicKey
        let continuation: CheckedContinuation<Void, Never>
    }

    var next = 0
    var sessions: [Int: LiveSession] = [:]
    /// Sessions this node dialled (live ones, not one-shot syncs).
    var dialled = Set<Int>()
    /// How to ask each session to close because the pair's other session stays.
    var supersede: [Int: @Sendable () -> Void] = [:]
    var nextWaiter = 0
    var waiters: [Int: Waiter] = [:]
}

/// An incoming connection holding a slot.
struct IncomingConnection {
    let host: String
    let channel: any Channel
    var proven: Bool
}

/// A node seen (or lost) by discovery, as the node layer hands it over.
/// A session with a proven peer, open now.
public struct LiveSession: Sendable {
    /// A number for this session, unique in this run of the node.
    public let id: Int
    /// The space it syncs.
    public let space: SpaceID
    /// The peer's device and user keys.
    public let device: PublicKey
    public let user: PublicKey
    /// The peer's address, `host:port`.
    public let address: String
    /// How the peer was found: static, mdns or incoming.
    public let foundBy: String
    /// When the session was established.
    public let since: Date
    /// Whether, at the peer's last digest, both sides held the same ops of the space (equal version vectors,
    /// so the same state); nil until a digest has been compared.
    public var inStep: Bool? = nil
}

/// A peer session opening or ending.
public enum PeerEvent: Sendable {
    case connected(LiveSession)
    case lost(LiveSession, reason: String)
}

public struct PeerSighting: Sendable {
    /// The advertised service name.
    public let name: String
    /// Its address.
    public let host: String
    /// Its port.
    public let port: Int
    /// Its TXT record.
    public let txt: [String: String]
    /// Whether it left.
    public let lost: Bool

    /// Creates a sighting.
    public init(name: String, host: String, port: Int, txt: [String: String], lost: Bool) {
        self.name = name
        self.host = host
        self.port = port
        self.txt = txt
        self.lost = lost
    }
}
