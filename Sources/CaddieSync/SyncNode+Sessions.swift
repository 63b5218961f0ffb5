import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The node's table of live sessions: one session per pair of devices and space, and who waits for a pair's
/// session to end.
extension SyncNode {
    /// Registers a proven session, keeping one session per pair of devices and space: when both devices dial each
    /// other, the session dialled by the device with the lower key stays, and the other device gives up the one it
    /// dialled (Protocol/wire.md, "One session per pair"). Both sides compute the same rule; only the dialler of the
    /// session that goes ever closes it. `dialled` is true for a live session this node dialled (never for a
    /// one-shot `caddie sync`, which always runs to its end); `supersede` asks the session to close politely;
    /// `company` tells it, later, the peer devices of the node's sessions in its space each time they change,
    /// which decides whether it asks its peer to relay everything (``SessionMachine``).
    ///
    /// Returns the session's number, or nil when this node dialled it and the peer's own session already runs:
    /// the caller closes it.
    func sessionOpened(
        space: SpaceID, peer: PeerIdentity, address: String, foundBy: String, dialled: Bool,
        supersede: @escaping @Sendable () -> Void,
        company: @escaping @Sendable (Set<PublicKey>) -> Void = { _ in }
    ) -> Int? {
        let yields = credentials.device.publicKey > peer.device
        let (session, superseded, told) = live.withLock { state -> (LiveSession?, [@Sendable () -> Void], LiveSessions.Told) in
            let others = state.sessions.values.filter { $0.space == space && $0.device == peer.device }
            var superseded: [@Sendable () -> Void] = []
            if yields {
                if dialled {
                    // The peer's session to this node runs already: this one is the duplicate.
                    if others.contains(where: { !state.dialled.contains($0.id) }) { return (nil, [], .nobody) }
                } else {
                    // The peer (lower key) dialled: the sessions this node dialled to it give way.
                    for other in others where state.dialled.contains(other.id) {
                        if let close = state.supersede[other.id] { superseded.append(close) }
                    }
                }
            }
            let before = state.peerDevices(space)
            state.next += 1
            let session = LiveSession(
                id: state.next, space: space, device: peer.device, user: peer.user,
                address: address, foundBy: foundBy, since: Date())
            state.sessions[state.next] = session
            state.supersede[state.next] = supersede
            if dialled { state.dialled.insert(state.next) }
            state.company[state.next] = company
            return (session, superseded, state.tellCompany(space, before: before))
        }
        for close in superseded { close() }
        told.tell()
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

    /// The peer devices of the node's sessions in `space`.
    func company(_ space: SpaceID) -> Set<PublicKey> {
        live.withLock { $0.peerDevices(space) }
    }

    func sessionClosed(_ id: Int, reason: String) {
        let (session, ready, told) = live.withLock {
            state -> (LiveSession?, [CheckedContinuation<Void, Never>], LiveSessions.Told) in
            guard let before = state.sessions[id].map({ state.peerDevices($0.space) }),
                let session = state.sessions.removeValue(forKey: id)
            else { return (nil, [], .nobody) }
            state.supersede[id] = nil
            state.company[id] = nil
            state.dialled.remove(id)
            let told = state.tellCompany(session.space, before: before)
            guard !state.sessions.values.contains(where: { $0.space == session.space && $0.device == session.device })
            else { return (session, [], told) }
            let done = state.waiters.filter { $0.value.space == session.space && $0.value.device == session.device }
            for key in done.keys { state.waiters[key] = nil }
            return (session, done.values.map(\.continuation), told)
        }
        for continuation in ready { continuation.resume() }
        told.tell()
        guard let session else { return }
        peerObserver.withLock { $0 }?(.lost(session, reason: reason))
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
    /// How to tell each session the peer devices of the node's sessions in its space.
    var company: [Int: @Sendable (Set<PublicKey>) -> Void] = [:]
    var nextWaiter = 0
    var waiters: [Int: Waiter] = [:]

    /// The sessions open in a space.
    func sessionIDs(_ space: SpaceID) -> [Int] { sessions.values.filter { $0.space == space }.map(\.id) }

    /// The peer devices this node has sessions with in a space.
    func peerDevices(_ space: SpaceID) -> Set<PublicKey> { Set(sessions.values.filter { $0.space == space }.map(\.device)) }

    /// Whom to tell of the space's company, once the lock is released: every session in it, if its peer devices
    /// are no longer `before`.
    func tellCompany(_ space: SpaceID, before: Set<PublicKey>) -> Told {
        let now = peerDevices(space)
        guard now != before else { return .nobody }
        return Told(devices: now, sessions: sessionIDs(space).compactMap { company[$0] })
    }

    /// The company of a space, to tell its sessions.
    struct Told {
        static let nobody = Told(devices: [], sessions: [])
        let devices: Set<PublicKey>
        let sessions: [@Sendable (Set<PublicKey>) -> Void]

        func tell() { for session in sessions { session(devices) } }
    }
}

extension SyncNode {
    /// This node's heads of a space (its vector), shared by every session: read from the store once, then kept up
    /// to date from each commit's change (``patchHeads(with:)``), so a hub with many sessions reads them neither once a
    /// session nor once a commit. A rebuild of the space's state (a log cut back by a revocation or a removal, or
    /// split by a fork: a head may go down) drops them, and the next call reads them again.
    func heads(_ space: SpaceID) async throws -> [WireMessage.VectorEntry] {
        let store = self.store
        // Without the feed no change would reach what is kept: read them each time.
        guard feed.isObserving else {
            return try await blocking { try store.heads(space) }.map {
                WireMessage.VectorEntry(device: $0.device, seq: $0.seq, head: $0.hash)
            }
        }
        let (held, generation, rebuilds) = headsCache.withLock { cache -> (KeptHeads?, Int, Int) in
            if let held = cache.spaces[space] { return (held, cache.generation, 0) }
            return (nil, cache.generation, cache.beginRead(space))
        }
        if let held {
            if let entries = held.entries { return entries }
            // Sorted once after each change, for every session that asks.
            let entries = Self.entries(held.heads)
            headsCache.withLock { if $0.generation == generation { $0.spaces[space]?.entries = entries } }
            return entries
        }
        let read: [(device: PublicKey, seq: UInt64, hash: Digest32)]
        do {
            read = try await blocking { try store.heads(space) }
        } catch {
            headsCache.withLock { _ = $0.finishRead(space, rebuildsAtStart: rebuilds, heads: nil) }
            throw error
        }
        let readHeads = Dictionary(read.map { ($0.device, StoreChange.Head(seq: $0.seq, hash: $0.hash)) }) { $1 }
        let heads = headsCache.withLock { $0.finishRead(space, rebuildsAtStart: rebuilds, heads: readHeads) }
        return Self.entries(heads)
    }

    /// A space's kept heads, and their vector entries in device order once a session asked since the last change.
    struct KeptHeads {
        var heads: [PublicKey: StoreChange.Head]
        var entries: [WireMessage.VectorEntry]?
    }

    /// What the changes brought while reads of a space's heads ran: how many run, the newest head of each device
    /// a change named since the first began (or since the last rebuild), and how many rebuilds came.
    struct HeadsRead {
        var running = 0
        var heads: [PublicKey: StoreChange.Head] = [:]
        var rebuilds = 0
    }

    /// The kept heads, the reads of them that run, and a count of the changes (so that vector entries sorted from
    /// kept heads a change overtook are not kept).
    ///
    /// A device's head only moves forward but in a rebuild (``StoreChange/Space/rebuilt``), and every other change
    /// names each head it moved, a join's too (``StoreChange/Space/heads``). So a read that no rebuild overtook,
    /// brought up to the newest head each change named meanwhile, is the heads after the last change: a commit
    /// during the read is either in it or in what its change named (a change is told after its commit).
    /// On a busy hub, where a commit lands during nearly every read, no read would be kept otherwise, and every
    /// session would read the heads from the store at every exchange.
    struct HeadsCache {
        var generation = 0
        var spaces: [SpaceID: KeptHeads] = [:]
        var reads: [SpaceID: HeadsRead] = [:]

        /// Counts a read of `space`'s heads as begun; returns the rebuilds come so far, for ``finishRead``.
        mutating func beginRead(_ space: SpaceID) -> Int {
            reads[space, default: HeadsRead()].running += 1
            return reads[space]?.rebuilds ?? 0
        }

        /// Ends a read of `space`'s heads begun when `rebuildsAtStart` rebuilds had come (nil `heads`: it failed).
        /// Keeps the read, brought up to date, unless a rebuild came during it or a read that ended first was kept;
        /// returns the heads as brought up to date.
        mutating func finishRead(
            _ space: SpaceID, rebuildsAtStart: Int, heads: [PublicKey: StoreChange.Head]?
        ) -> [PublicKey: StoreChange.Head] {
            guard var running = reads[space] else { return heads ?? [:] }
            running.running -= 1
            reads[space] = running.running == 0 ? nil : running
            guard var heads else { return [:] }
            for (device, head) in running.heads where head.seq > heads[device]?.seq ?? 0 { heads[device] = head }
            if running.rebuilds == rebuildsAtStart, spaces[space] == nil {
                spaces[space] = KeptHeads(heads: heads, entries: nil)
            }
            return heads
        }
    }

    static func entries(_ heads: [PublicKey: StoreChange.Head]) -> [WireMessage.VectorEntry] {
        heads.sorted { $0.key < $1.key }.map { WireMessage.VectorEntry(device: $0.key, seq: $0.value.seq, head: $0.value.hash) }
    }

    /// Puts a commit's new heads into the kept ones; drops a space's when its state was rebuilt (a head may have
    /// gone down).
    func patchHeads(with change: StoreChange) {
        headsCache.withLock { cache in
            cache.generation += 1
            for (space, changed) in change.spaces {
                if var read = cache.reads[space] {
                    if changed.rebuilt {
                        // What changes named before it is void now (a head may have gone down since), and the reads
                        // that began before it are not kept.
                        read.rebuilds += 1
                        read.heads = [:]
                    } else {
                        for (device, head) in changed.heads where head.seq > read.heads[device]?.seq ?? 0 {
                            read.heads[device] = head
                        }
                    }
                    cache.reads[space] = read
                }
                guard cache.spaces[space] != nil else { continue }
                if changed.rebuilt {
                    cache.spaces[space] = nil
                    continue
                }
                for (device, head) in changed.heads where head.seq > cache.spaces[space]?.heads[device]?.seq ?? 0 {
                    cache.spaces[space]?.heads[device] = head
                    cache.spaces[space]?.entries = nil
                }
            }
        }
    }
}
