import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// A node's sync engine: it listens for peers, dials static peers per space, and runs one session per
/// connection (Protocol/wire.md). Each (peer, space) pair has its own connection, and one session: when two nodes
/// dial each other, the session dialled by the lower device key stays.
public final class SyncNode: Sendable {
    /// Seconds a peer has to finish the handshake before the connection is dropped (slow or stalled peers).
    public static let handshakeTimeoutSeconds = 5
    /// Seconds between vector exchanges on an open session (anti-entropy, and the relay of ops a peer got
    /// from a third node).
    public static let antiEntropySeconds = 2
    /// Most ops in one batch: as many as a receiver accepts (``WireMessage/maxBatchOps``, the limit every version
    /// of the protocol has read with; a larger batch is refused as malformed and the session starts again). 1000
    /// rather than 500 halves the transactions, and their fixed cost, of a large catch-up.
    public static let batchOps = WireMessage.maxBatchOps
    /// About the most bytes of ops in one batch, well under the frame limit.
    public static let batchBytes = 512 * 1024
    /// Longest wait between two dials of a peer that does not answer (a phone walking back into range).
    public static let maxRedialSeconds = 5.0
    /// Most incoming connections at once (handshaking or established), by default.
    public static let defaultMaxIncoming = 128
    /// The most this node accepts at once (a clubhouse hub for a whole field raises it).
    public let maxIncoming: Int
    /// Most incoming connections at once from one address by default, so one host cannot take every slot.
    public static let defaultMaxIncomingPerAddress = 8
    /// The per-address limit this node applies (a clubhouse hub behind one NAT address may raise it).
    public let maxIncomingPerAddress: Int

    let store: OpStore
    /// The fork-branch ops each peer acknowledged, so they are not sent to it again.
    var branchLedger: BranchLedger { BranchLedger(store: store) }
    let credentials: DeviceCredentials
    /// The keys the node was made with: a space's keys when no keyring source has them (``keyring(_:)``).
    let spaceKeys: [SpaceID: [UInt8]]
    /// The spaces served, in order: those the node was made with, then each space whose first commit here came with
    /// a key for it (a space created or joined while the node runs, ``noticeSpaces(in:)``).
    let served: Mutex<[SpaceID]>
    /// Where the spaces committed to that the node does not serve yet go, to be looked at off the writing thread:
    /// the stream ``serve(host:port:peers:sightings:listening:)`` reads while it runs (nil: none runs).
    let unserved = Mutex<AsyncStream<SpaceID>.Continuation?>(nil)
    /// Called after a space was added to the served ones (mDNS publishes the new advert).
    let spacesObserver = Mutex<(@Sendable () -> Void)?>(nil)
    let feed: ChangeFeed
    /// The phones this node hosts, whose ops its live sessions push as its own.
    let hosted: HostedDevices
    let logger: Logger
    /// The id advertised over mDNS: random for each run unless one is given, so a bystander cannot follow a
    /// device from round to round. A fixed id serves a static advert (a hub's Avahi service file).
    public let nodeID: [UInt8]
    private let wanted = Mutex<Set<String>>([])
    /// Which mDNS sightings are dialled (``follow(_:in:)``), and how each loop's dials went.
    private let plan = Mutex(DialPlan())
    private let running = Mutex<Set<String>>([])
    /// Incoming connections by number: their address, channel, and whether their peer has proven itself.
    private let incoming = Mutex<(next: Int, open: [Int: IncomingConnection])>((0, [:]))
    private let bytesSent = Mutex(0)
    let peerObserver = Mutex<(@Sendable (PeerEvent) -> Void)?>(nil)
    let live = Mutex(LiveSessions())
    let inviteDesk = Mutex<InviteDesk?>(nil)
    let keyringSource = Mutex<(@Sendable (SpaceID) -> SpaceKeyring?)?>(nil)
    /// Each space's heads (its vector), read once and then kept up to date from the store's changes
    /// (``StoreChange/Space/heads``), with what the changes bring while a read of them runs (``HeadsCache``).
    let headsCache = Mutex(HeadsCache())

    /// Creates a node over a store, with this device's credentials and the keys of the spaces it syncs. What
    /// its sessions apply reaches the store's observers (``OpStore/observe(_:)``), as every other write does.
    public init(
        store: OpStore, credentials: DeviceCredentials, spaceKeys: [SpaceID: [UInt8]], logger: Logger,
        maxIncomingPerAddress: Int = SyncNode.defaultMaxIncomingPerAddress,
        maxIncoming: Int = SyncNode.defaultMaxIncoming, nodeID: [UInt8]? = nil, hosted: HostedDevices = HostedDevices()
    ) throws {
        self.hosted = hosted
        self.nodeID = nodeID ?? SecureRandom.bytes(8)
        self.maxIncoming = max(1, min(maxIncoming, 4096))
        self.maxIncomingPerAddress = max(1, min(maxIncomingPerAddress, self.maxIncoming))
        self.store = store
        self.credentials = credentials
        self.spaceKeys = spaceKeys
        served = Mutex(spaceKeys.keys.sorted())
        feed = ChangeFeed(store: store)
        self.logger = logger
        feed.beforeWaking = { [weak self] change in
            self?.patchHeads(with: change)
            self?.noticeSpaces(in: change)
        }
    }

    /// Frame bytes this node has written since it started (length prefixes included).
    public var wireBytesSent: Int { bytesSent.withLock { $0 } }

    func countSent(bytes: Int) { bytesSent.withLock { $0 += bytes } }

    /// Sets what to call when a peer session opens or ends (for live events); it must return quickly. What
    /// sessions apply is published by the store (``OpStore/observe(_:)``).
    public func observePeers(_ peers: (@Sendable (PeerEvent) -> Void)?) {
        peerObserver.withLock { $0 = peers }
    }

    /// The event loops every network part of the node runs on (sync, pairing, the control socket, and the HTTP
    /// servers of `caddie serve`): one group of threads for the process.
    public static var eventLoopGroup: any EventLoopGroup { MultiThreadedEventLoopGroup.singleton }

    /// The sessions open now, oldest first.
    public var sessions: [LiveSession] { live.withLock { $0.sessions.values.sorted { $0.id < $1.id } } }

    /// Dials a peer for a one-shot session (a sync or an invite's redemption).
    func connect(host: String, port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(host: host, port: port) { self.channelInitializer($0) }
        } catch {
            throw SyncError.unreachable("\(host):\(port): \(DialFailure.reason(error))")
        }
    }

    func recordSession(
        _ report: SessionReport, address: String, foundBy: String, vector: VersionVector,
        synced: Bool = false
    ) async {
        guard let space = report.space, let peer = report.peer else { return }
        let store = self.store
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        _ = try? await blocking {
            let name = try store.member(space, device: peer.device)?.userName ?? "?"
            try store.recordPeer(
                PeerRecord(
                    space: space, device: peer.device, address: address, foundBy: foundBy,
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
        var session = SyncSession(
            node: self, role: .initiator(space: space, spaceKey: key),
            address: "\(host):\(port)", foundBy: "static", oneShot: true, logger: logger)
        return await session.run(channel)
    }

    /// Random hints to pad the advert with: padding never needs more than four.
    let decoyHints: [[UInt8]] = (0..<4).map { _ in SecureRandom.bytes(8) }

    /// Listens and keeps sessions with static peers, and with peers that `sightings` reports (mDNS), until
    /// the task is cancelled. Calls `listening` with the port bound once the node accepts connections.
    public func serve(
        host: String, port: Int, peers: [(host: String, port: Int)],
        sightings: AsyncStream<PeerSighting>? = nil, listening: @Sendable (Int) -> Void
    ) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .bind(host: host, port: port) { self.channelInitializer($0) }
        listening(server.channel.localAddress?.port ?? port)
        logger.info(
            "listening",
            metadata: [
                "address": "\(host):\(server.channel.localAddress?.port ?? port)",
                "spaces": "\(served.withLock { $0.count })",
            ])
        feed.start()
        try await withThrowingDiscardingTaskGroup { group in
            let dialStatic: @Sendable (inout ThrowingDiscardingTaskGroup<any Error>, SpaceID) -> Void = { group, space in
                for peer in peers {
                    group.addTask {
                        await self.dialLoop(host: peer.host, port: peer.port, space: space, foundBy: "static", while: { true })
                    }
                }
            }
            for space in served.withLock({ $0 }) { dialStatic(&group, space) }
            // A space created or joined while the node runs is served from its first commit on: answered, advertised,
            // and dialled at the static peers.
            let (unserved, continuation) = AsyncStream<SpaceID>.makeStream(bufferingPolicy: .unbounded)
            self.unserved.withLock { $0 = continuation }
            group.addTask {
                defer { self.unserved.withLock { $0 = nil } }
                try await withThrowingDiscardingTaskGroup { spaces in
                    for await space in unserved {
                        guard try await blocking({ self.startServing(space) }) else { continue }
                        dialStatic(&spaces, space)
                    }
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
        var quiet = Set<String>()
        for await sighting in sightings {
            if sighting.lost {
                let keys = plan.withLock { $0.lost(name: sighting.name) }.map(\.key)
                wanted.withLock { $0.subtract(keys) }
                continue
            }
            let shared = sharedSpaces(sighting)
            if shared.isEmpty, quiet.insert(sighting.name).inserted {
                logger.info(
                    "a caddie node nearby shares no space with this one; not connecting",
                    metadata: ["peer.address": "\(sighting.host):\(sighting.port)"])
            }
            guard let id = sighting.txt["id"].flatMap(Hex.decode), Hex.encode(nodeID) < Hex.encode(id) else { continue }
            let (loops, stopped, refused) = plan.withLock {
                $0.sighted(
                    name: sighting.name, node: Hex.encode(id), host: sighting.host,
                    port: sighting.port, spaces: shared.map(\.hex))
            }
            if !stopped.isEmpty {
                // Loops that never completed a handshake and are failing give up their places (mDNS lock-out).
                wanted.withLock { $0.subtract(stopped.map(\.key)) }
                logger.info(
                    "all mDNS dial places are taken: dropping a dial that never reached a member",
                    metadata: ["peer.address": "\(stopped.map { "\($0.host):\($0.port)" })"])
            }
            if refused > 0 {
                logger.warning(
                    "not dialling every advert: too many addresses for one node, or too many dials",
                    metadata: ["peer.address": "\(sighting.host):\(sighting.port)"])
            }
            for loop in loops {
                guard let space = shared.first(where: { $0.hex == loop.space }) else { continue }
                let key = loop.key
                wanted.withLock { _ = $0.insert(key) }
                // A loop for this peer and space may still be running (its advert came back before it ended).
                guard running.withLock({ $0.insert(key).inserted }) else { continue }
                logger.info(
                    "found a peer by mDNS",
                    metadata: [
                        "peer.address": "\(sighting.host):\(sighting.port)",
                        "space": "\(space.short)",
                    ])
                group.addTask {
                    await self.dialLoop(
                        host: sighting.host, port: sighting.port, space: space, foundBy: "mdns",
                        while: { self.wanted.withLock { $0.contains(key) } },
                        after: { handshook in
                            self.plan.withLock { plan in
                                if handshook {
                                    plan.handshook(loop)
                                    return true
                                }
                                return plan.dialFailed(loop)
                            }
                        })
                    // An advert that came back while this loop was ending keeps its entries (the plan's and `wanted`).
                    if !self.wanted.withLock({ $0.contains(key) }) { self.plan.withLock { $0.ended(loop) } }
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
                        logger.info(
                            "all connection slots are taken: dropping the oldest connection still unproven",
                            metadata: ["peer.address": "\(channel.remoteAddress?.description ?? "?")"])
                        channel.close(promise: nil)
                    }
                    guard let id = admitted else {
                        logger.warning("too many connections; refusing one", metadata: ["peer.address": "\(address)"])
                        try? await connection.channel.close()
                        continue
                    }
                    group.addTask {
                        var session = SyncSession(
                            node: self, role: .responder, address: address, foundBy: "incoming",
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
                !evictOldest(where: { $0.host == host })
            {
                return (nil, evicted)
            }
            if state.open.count >= maxIncoming, !evictOldest(where: { _ in true }) {
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
    /// Dials one peer for one space again and again while `stillWanted`; `after` hears of each dial whether it
    /// completed a handshake, and ends the loop by answering false.
    private func dialLoop(
        host: String, port: Int, space: SpaceID, foundBy: String,
        while stillWanted: @Sendable () -> Bool, after: @Sendable (_ handshook: Bool) -> Bool = { _ in true }
    ) async {
        var delay = 0.25
        // A peer that has not yet heard of a new key answers only an older one: after a handshake it could not
        // open, the next dial tries the next older key.
        var keyIndex = 0
        // A live session offers the newest protocol version; a peer that refuses it (an older node) is offered the
        // version it names at once, and from then on.
        var offer = SyncSession.newestVersion
        while !Task.isCancelled, stillWanted() {
            var failure: String?
            var refused = false
            var handshook = false
            do {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(3))
                    .connect(host: host, port: port) { self.channelInitializer($0) }
                let keys = keyring(space).keys
                guard !keys.isEmpty else { throw SyncError.refused("no key for space \(space.short)") }
                var session = SyncSession(
                    node: self, role: .initiator(space: space, spaceKey: keys[keyIndex % keys.count]),
                    address: "\(host):\(port)", foundBy: foundBy, oneShot: false, offer: offer, logger: logger)
                let report = await session.run(channel)
                if let older = report.peerVersion, older < offer, older >= Handshake.oldest {
                    logger.info(
                        "the peer speaks an older protocol version: dialling again with it",
                        metadata: ["peer.address": "\(host):\(port)", "version": "\(older)"])
                    offer = older
                    continue
                }
                handshook = report.peer != nil
                failure = report.failure ?? report.ending
                keyIndex = report.notRecognised ? keyIndex + 1 : 0
                if report.refused {
                    refused = true  // a refusal will not change soon: do not hammer the peer
                } else if let peer = report.peer {
                    delay = 0.25
                    // The peer's own session serves the pair (one session per pair): dial again only once it ends.
                    if report.duplicate {
                        _ = after(true)
                        await untilNoSession(space: space, device: peer.device)
                        continue
                    }
                }
            } catch {
                failure = "\(error)"
            }
            if Task.isCancelled { return }
            guard after(handshook) else {
                logger.info(
                    "gave up a peer found by mDNS that never answered as a member, for a newer advert",
                    metadata: ["peer.address": "\(host):\(port)", "reason": "\(failure ?? "closed")"])
                return
            }
            logger.debug(
                "redialling",
                metadata: [
                    "peer.address": "\(host):\(port)", "reason": "\(failure ?? "closed")",
                    "delay": "\(refused ? 60 : delay)",
                ])
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

/// An incoming connection holding a slot.
struct IncomingConnection {
    let host: String
    let channel: any Channel
    var proven: Bool
}

/// A node seen (or lost) by discovery, as the node layer hands it over.
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
