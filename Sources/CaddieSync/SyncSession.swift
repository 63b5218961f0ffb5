import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import NIOCore

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
}

/// One connection's sync session: the handshake, then vectors, batches of ops, acks and live pushes.
///
/// The session runs as one task that handles one event at a time (a frame from the peer, a change in the
/// store, an anti-entropy tick), so its ciphers and its picture of the peer need no locks.
struct SyncSession {
    enum Role {
        case initiator(space: SpaceID, spaceKey: [UInt8])
        case responder
    }

    private enum Event {
        case frame([UInt8])
        case changed
        case tick
        case closed(Error?)
    }

    let node: SyncNode
    let role: Role
    let address: String
    let foundBy: String
    let oneShot: Bool
    var logger: Logger

    private var session: EstablishedSession?
    private var peerKnown = VersionVector()
    private var batchesSent: UInt32 = 0
    private var batchesAcked = 0
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
        do {
            try await channel.executeThenClose { inbound, outbound in
                let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Every frame, from the first handshake message on, arrives through `events`.
                    group.addTask {
                        var reader = FrameReader(inbound)
                        do {
                            while let frame = try await reader.next() { continuation.yield(.frame(frame)) }
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
                    let established = try await handshake(&iterator, outbound)
                    timeout.cancel()
                    session = established
                    report.space = established.space
                    report.peer = established.peer
                    logger[metadataKey: "peer.device"] = "\(established.peer.device.short)"
                    logger[metadataKey: "space"] = "\(established.space.short)"
                    if let refusal = try await node.refusal(of: established.peer, in: established.space) {
                        try await send(.close(.revoked, refusal), outbound)
                        throw SyncError.refused(refusal)
                    }
                    logger.info("session established")
                    let (subscription, changes) = node.feed.subscribe()
                    defer { node.feed.unsubscribe(subscription) }
                    group.addTask {
                        for await _ in changes { continuation.yield(.changed) }
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: .seconds(SyncNode.antiEntropySeconds))
                            continuation.yield(.tick)
                        }
                    }
                    try await exchange(&iterator, outbound)
                }
            }
        } catch {
            report.failure = Self.describe(error)
            if !Task.isCancelled { logger.info("session ended", metadata: ["reason": "\(report.failure ?? "")"]) }
        }
        await node.recordSession(report, address: address, foundBy: foundBy, vector: peerKnown)
        return report
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

    private func nextFrame(_ events: inout AsyncStream<Event>.Iterator) async throws -> [UInt8]? {
        while let event = await events.next() {
            switch event {
            case .frame(let frame): return frame
            case .closed(let error):
                if let error { throw error }
                return nil
            case .changed, .tick: continue
            }
        }
        return nil
    }

    private func handshake(_ events: inout AsyncStream<Event>.Iterator, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>)
        async throws -> EstablishedSession
    {
        switch role {
        case .initiator(let space, let spaceKey):
            var machine = HandshakeInitiator(space: space, spaceKey: spaceKey, credentials: node.credentials)
            try await outbound.writeFrame(machine.start())
            guard let reply = try await nextFrame(&events) else { throw WireError.notAMember }
            switch machine.receive(reply) {
            case .established(let message3, let session):
                try await outbound.writeFrame(message3)
                return session
            case .fail(let error):
                throw error
            }
        case .responder:
            var machine = HandshakeResponder(spaces: node.spaceList, credentials: node.credentials)
            while true {
                guard let frame = try await nextFrame(&events) else { throw SyncError.closedDuringHandshake }
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

    private mutating func exchange(_ events: inout AsyncStream<Event>.Iterator,
                                   _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        try await send(.vector(try await ourVector()), outbound)
        while let event = await events.next() {
            switch event {
            case .frame(let frame):
                guard var cipher = session?.cipher else { throw WireError.unexpected("no session") }
                let plain = try cipher.open(frame)
                session?.cipher = cipher
                try await handle(try WireMessage(decoding: plain), outbound)
            case .changed:
                try await push(outbound)
            case .tick:
                try await send(.vector(try await ourVector()), outbound)
            case .closed(let error):
                if let error { throw error }
                if oneShot, !report.completed { throw SyncError.closedEarly }
                return
            }
            if oneShot, peerDone, sentDone, batchesAcked == Int(batchesSent) {
                report.completed = true
                try await send(.close(.finished, "sync complete"), outbound)
                return
            }
        }
    }

    private mutating func send(_ message: WireMessage, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        guard var cipher = session?.cipher else { return }
        let frame = cipher.seal(message.encoded)
        session?.cipher = cipher
        try await outbound.writeFrame(frame)
    }

    private func ourVector() async throws -> [WireMessage.VectorEntry] {
        guard let space = session?.space else { return [] }
        let store = node.store
        return try await blocking { try store.heads(space) }.map {
            WireMessage.VectorEntry(device: $0.device, seq: $0.seq, head: $0.hash)
        }
    }

    private mutating func handle(_ message: WireMessage, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        guard let space = session?.space else { return }
        let store = node.store
        switch message {
        case .vector(let entries):
            peerKnown = VersionVector(Dictionary(entries.map { ($0.device, $0.seq) }, uniquingKeysWith: max))
            // Equal seqs with different heads mean a forked device: send our copy whole so the peer records it.
            for entry in entries {
                let ours = try await blocking { try store.opHash(space, OpID(device: entry.device, seq: entry.seq)) }
                if let ours, ours != entry.head,
                   let bytes = try await blocking({ try store.opBytes(space, OpID(device: entry.device, seq: entry.seq)) }) {
                    batchesSent += 1
                    try await send(.ops(batch: batchesSent, [.full(bytes)]), outbound)
                }
            }
            try await push(outbound)
            try await send(.done, outbound)
            sentDone = true
        case .ops(let batch, let wireOps):
            let restored = try await restore(wireOps, space: space)
            let key = try node.key(for: space)
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            let result = try await blocking {
                try store.receive(space: space, spaceKey: key, ops: restored, mode: .tolerant, now: now)
            }
            for id in result.applied where peerKnown[id.device] < id.seq { peerKnown.entries[id.device] = id.seq }
            report.received += result.applied.count
            if !result.rejected.isEmpty {
                logger.warning("refused ops from peer", metadata: ["count": "\(result.rejected.count)",
                                                                   "first": "\(result.rejected.first ?? "")"])
            }
            if !result.forks.isEmpty { logger.error("forked device detected", metadata: ["ops": "\(result.forks)"]) }
            try await send(.ack(batch: batch, applied: UInt32(clamping: result.applied.count)), outbound)
            if !result.applied.isEmpty { node.feed.notify() }
        case .ack:
            batchesAcked += 1
        case .done:
            peerDone = true
        case .close(let reason, let text):
            if reason == .finished || reason == .shutdown {
                if oneShot, !(peerDone && sentDone && batchesAcked == Int(batchesSent)) { throw SyncError.closedEarly }
                report.completed = report.completed || reason == .finished
                throw SyncError.peerClosed(text)
            }
            throw SyncError.refused(text)
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
                    continue  // its predecessor is missing here; the next vector exchange resends from the gap
                }
            }
            let bytes = op.restore(space: space, prev: prev)
            last[id.device] = (id.seq, Blake2b.hash(bytes))
            out.append(bytes)
        }
        return out
    }

    /// Sends, in batches, every op the peer lacks by what this session knows it holds.
    private mutating func push(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        guard let space = session?.space else { return }
        let store = node.store
        while true {
            let known = peerKnown
            let ops = try await blocking { try store.ops(space: space, after: known, limit: SyncNode.batchOps) }
            guard !ops.isEmpty else { return }
            var wire: [WireOp] = []
            for bytes in ops {
                guard let op = try? SignedOp(bytes: bytes) else { continue }
                wire.append(.compacting(bytes))
                if peerKnown[op.device] < op.seq { peerKnown.entries[op.device] = op.seq }
            }
            batchesSent += 1
            report.sent += wire.count
            try await send(.ops(batch: batchesSent, wire), outbound)
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

    /// One line for a person.
    public var description: String {
        switch self {
        case .closedDuringHandshake: "the peer closed the connection during the handshake"
        case .closedEarly: "the peer closed the connection before the sync finished"
        case .peerClosed(let text): "the peer closed the session: \(text)"
        case .refused(let text): "refused: \(text)"
        case .unreachable(let text): "cannot reach the peer: \(text)"
        }
    }
}
