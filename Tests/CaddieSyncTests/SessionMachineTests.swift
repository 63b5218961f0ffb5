import CaddieCore
import CaddieStore
import CaddieWire
import Foundation
import Testing

@testable import CaddieSync

/// The session's decisions, with no socket, store or clock: each rule of ``SessionMachine`` and each race fixed so
/// far, then two machines wired to each other through in-memory logs until they converge.
@Suite("Session machine: the sync session's rules, without I/O")
struct SessionMachineTests {
    typealias Action = SessionMachine.Action

    static func key(_ byte: UInt8) -> PublicKey { PublicKey(unchecked: [UInt8](repeating: byte, count: 32)) }
    static let own = key(0xA1)
    static let peer = key(0xB2)
    static let third = key(0xC3)
    static let second: UInt64 = 1_000_000_000

    /// An op's bytes in the signed layout the wire compacts: kind, space, device, seq, prev, payload.
    static func op(_ device: PublicKey, _ seq: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [1] + [UInt8](repeating: 7, count: 16) + device.bytes
        bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: seq >> (8 * $0)) }
        bytes += [UInt8](repeating: 0, count: 32) + [UInt8(truncatingIfNeeded: seq), 0x55]
        return bytes
    }

    static func head(_ device: PublicKey, _ seq: UInt64, variant: UInt8 = 0) -> Digest32 {
        Digest32(unchecked: Array(device.bytes.prefix(24)) + (0..<8).map { UInt8(truncatingIfNeeded: seq >> (8 * $0)) ^ variant })
    }

    static func entry(_ device: PublicKey, _ seq: UInt64, variant: UInt8 = 0) -> WireMessage.VectorEntry {
        WireMessage.VectorEntry(device: device, seq: seq, head: head(device, seq, variant: variant))
    }

    static func ops(_ device: PublicKey, _ seqs: ClosedRange<UInt64>) -> [(id: OpID, bytes: [UInt8])] {
        seqs.map { (OpID(device: device, seq: $0), op(device, $0)) }
    }

    // MARK: Rules

    @Test("a session opens with its vector; a one-shot sync asks for everything")
    func opensWithVector() {
        let ours = [Self.entry(Self.own, 3)]
        var live = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        #expect(live.start() == [.readVector(for: .open)])
        #expect(live.vectorRead(ours, for: .open) == [.send(.vector(ours, wantAll: false))])
        let oneShot = SessionMachine(oneShot: true, ownDevice: Self.own, now: 0)
        #expect(oneShot.vectorRead(ours, for: .open) == [.send(.vector(ours, wantAll: true))])
    }

    @Test("a live session's first push sends only this device's own ops; wantAll and one-shot syncs get everything")
    func firstPushOwnOnly() throws {
        let theirs = [Self.entry(Self.peer, 4)]
        var live = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let actions = try live.received(.vector(theirs), now: 10)
        #expect(
            actions == [
                .lookUpHeads(theirs), .fetchOps(after: VersionVector([Self.peer: 4]), onlyDevices: [Self.own]), .send(.done),
            ])

        var asked = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        #expect(
            try asked.received(.vector(theirs, wantAll: true), now: 10).contains(
                .fetchOps(after: VersionVector([Self.peer: 4]), onlyDevices: nil)))
        var oneShot = SessionMachine(oneShot: true, ownDevice: Self.own, now: 0)
        #expect(
            try oneShot.received(.vector(theirs), now: 10).contains(
                .fetchOps(after: VersionVector([Self.peer: 4]), onlyDevices: nil)))
    }

    @Test(
        "a push after a local change asks the store by device, starting after what the peer holds, and continues from what it sent"
    )
    func livePushByDevice() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        #expect(machine.changed() == [.pace(.moving)], "before the peer's vector nothing is pushed")
        _ = try machine.received(.vector([Self.entry(Self.own, 2), Self.entry(Self.third, 9)]), now: 1)
        let push = machine.changed()
        #expect(
            push == [.pace(.moving), .fetchOps(after: VersionVector([Self.own: 2, Self.third: 9]), onlyDevices: [Self.own])])
        // The race once fixed: a second read must not start other devices' ops from a guessed point. The follow-up
        // fetch is again by device, after exactly what was sent.
        let next = machine.fetched(Self.ops(Self.own, 3...5), onlyDevices: [Self.own], now: 2)
        #expect(
            next == [
                .pace(.moving), .send(.ops(batch: 1, ack: false, (3...5).map { .compacting(Self.op(Self.own, $0)) })),
                .fetchOps(after: VersionVector([Self.own: 5, Self.third: 9]), onlyDevices: [Self.own]),
            ])
        #expect(machine.fetched([], onlyDevices: [Self.own], now: 3) == [], "an empty fetch ends the push")
        #expect(machine.sent == 3)
    }

    @Test("while ops move, a peer's vector never lowers what it holds; on a quiet link it does, and the dropped ops go again")
    func vectorInFlightDoesNotLower() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = try machine.received(.vector([]), now: 0)
        _ = machine.fetched(Self.ops(Self.own, 1...5), onlyDevices: [Self.own], now: 5 * Self.second)
        #expect(machine.peerKnown[Self.own] == 5)
        // The peer's vector crossed the batch in flight: it says 2, but 3-5 are on their way.
        let crossing = try machine.received(.vector([Self.entry(Self.own, 2)]), now: 5 * Self.second + Self.second / 2)
        #expect(crossing.contains(.fetchOps(after: VersionVector([Self.own: 5]), onlyDevices: nil)))
        #expect(machine.peerKnown[Self.own] == 5)
        // A second and more later, with nothing moving, the peer's word is the truth: it dropped 3-5.
        let quiet = try machine.received(.vector([Self.entry(Self.own, 2)]), now: 7 * Self.second)
        #expect(quiet.contains(.fetchOps(after: VersionVector([Self.own: 2]), onlyDevices: nil)))
        #expect(machine.peerKnown[Self.own] == 2)
    }

    @Test("a digest is answered only on a quiet link: in step it slows the pace, a mismatch sends the vector")
    func digestOnQuietLink() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let ours = [Self.entry(Self.own, 3)]
        let digest = WireMessage.digest(of: ours)
        _ = try machine.received(.ops(batch: 1, ack: false, []), now: 10 * Self.second)
        #expect(try machine.received(.digest(digest), now: 10 * Self.second + Self.second / 2) == [], "ops are moving")
        #expect(try machine.received(.digest(digest), now: 12 * Self.second) == [.readVector(for: .answer(digest))])
        #expect(machine.vectorRead(ours, for: .answer(digest)) == [.inStep(true), .pace(.inStep)])
        let other = WireMessage.digest(of: [Self.entry(Self.own, 4)])
        #expect(
            machine.vectorRead(ours, for: .answer(other)) == [
                .inStep(false), .pace(.moving), .send(.vector(ours, wantAll: false)),
            ])
    }

    @Test("the peer's vector holding more than this side makes it ask with its own vector, on every vector but the first")
    func asksWhenBehind() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let theirs = [Self.entry(Self.peer, 8)]
        #expect(!(try machine.received(.vector(theirs), now: 0)).contains(.readVector(for: .askIfBehind(theirs))))
        #expect(
            try machine.received(.vector(theirs), now: 5 * Self.second).contains(
                .readVector(for: .askIfBehind(theirs))))
        let behind = [Self.entry(Self.peer, 6)]
        #expect(machine.vectorRead(behind, for: .askIfBehind(theirs)) == [.send(.vector(behind, wantAll: false))])
        #expect(machine.vectorRead([Self.entry(Self.peer, 8)], for: .askIfBehind(theirs)) == [])
        // While batches are arriving, this side's vector lags them: it does not ask back until the link is quiet.
        _ = try machine.received(.ops(batch: 1, ack: false, [.compacting(Self.op(Self.peer, 7))]), now: 10 * Self.second)
        #expect(
            !(try machine.received(.vector(theirs), now: 10 * Self.second + Self.second / 2)).contains(
                .readVector(for: .askIfBehind(theirs))))
        #expect(
            try machine.received(.vector(theirs), now: 12 * Self.second).contains(
                .readVector(for: .askIfBehind(theirs))))
    }

    @Test("a forked op's copy goes at most once a session, for the first entry of each device")
    func forkCopyOnce() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let forked = [
            Self.entry(Self.third, 4, variant: 1), Self.entry(Self.third, 4, variant: 2), Self.entry(Self.third, 4, variant: 3),
        ]
        let actions = try machine.received(.vector(forked), now: 0)
        #expect(actions.first == .lookUpHeads([forked[0]]), "one entry per device is looked up")
        let copy = Self.op(Self.third, 4)
        #expect(
            machine.headsLookedUp(forks: [(OpID(device: Self.third, seq: 4), copy)]) == [
                .send(.ops(batch: 1, ack: false, [.full(copy)]))
            ])
        let again = try machine.received(.vector(forked), now: 5 * Self.second)
        #expect(!again.contains { if case .lookUpHeads = $0 { true } else { false } }, "the copy was sent: no second look-up")
        #expect(machine.headsLookedUp(forks: [(OpID(device: Self.third, seq: 4), copy)]) == [])
    }

    @Test("a forked device's branch ops go whole, each once a session, in acknowledged batches, once the peer holds the log")
    func branchesOnce() throws {
        var machine = SessionMachine(oneShot: true, ownDevice: Self.own, now: 0)
        let branches = (1...(SyncNode.batchOps + 3)).map { seq -> (hash: Digest32, id: OpID, bytes: [UInt8]) in
            (Self.head(Self.third, UInt64(seq)), OpID(device: Self.third, seq: UInt64(seq)), Self.op(Self.third, UInt64(seq)))
        }
        let first = machine.branchesFetched(Array(branches.prefix(2)))
        #expect(first == [.send(.ops(batch: 1, ack: true, branches.prefix(2).map { .full($0.bytes) }))])
        // Read again after more arrived: only the new ones go, split at the batch limit.
        let second = machine.branchesFetched(branches)
        #expect(
            second == [
                .send(.ops(batch: 2, ack: true, branches[2..<(SyncNode.batchOps + 2)].map { .full($0.bytes) })),
                .send(.ops(batch: 3, ack: true, [.full(branches[SyncNode.batchOps + 2].bytes)])),
            ])
        #expect(machine.branchesFetched(branches) == [])
        #expect(machine.sent == branches.count)
        #expect(!machine.branchesReady)
        // A device forked at seq 5 whose log the peer holds only to seq 2: its branches wait for the peer's vector,
        // and are not worth reading again until it comes.
        let later = [(Self.head(Self.peer, 5), OpID(device: Self.peer, seq: 5), Self.op(Self.peer, 5))]
        #expect(machine.branchesFetched(later) == [])
        #expect(!machine.branchesReady)
        _ = try machine.received(.vector([Self.entry(Self.peer, 4)]), now: 0)
        #expect(machine.branchesReady)
        #expect(machine.branchesFetched(later) == [.send(.ops(batch: 4, ack: true, [.full(later[0].2)]))])
        #expect(!machine.branchesReady)
    }

    @Test("finding 'fork branches without bound': a branch op the peer acknowledged is not sent in its next session")
    func branchesAcknowledgedOnce() throws {
        let branches = (1...3).map { seq -> (hash: Digest32, id: OpID, bytes: [UInt8]) in
            (Self.head(Self.third, UInt64(seq)), OpID(device: Self.third, seq: UInt64(seq)), Self.op(Self.third, UInt64(seq)))
        }
        // A live session (its own pushes go unacknowledged): branch batches still ask for an ack.
        var first = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = first.start(peer: Self.peer)
        #expect(
            first.branchesFetched(Array(branches.prefix(2))) == [
                .send(.ops(batch: 1, ack: true, branches.prefix(2).map { .full($0.bytes) }))
            ])
        #expect(try first.received(.ack(batch: 1, applied: 2), now: 0) == [.branchesDelivered(branches.prefix(2).map(\.hash))])
        // The next session with that peer, told what it acknowledged, sends only the third.
        var next = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = next.start(peer: Self.peer, delivered: Set(branches.prefix(2).map(\.hash)))
        #expect(next.branchesFetched(branches) == [.send(.ops(batch: 1, ack: true, [.full(branches[2].bytes)]))])
        // An unacknowledged batch tells nothing: a session that never heard the ack sends all three again.
        var unheard = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = unheard.start(peer: Self.peer)
        #expect(unheard.branchesFetched(branches).count == 1)
        #expect(unheard.sent == 3)
    }

    @Test("the branch ledger remembers a peer's acknowledgements for a day, per space and peer, in the home's database")
    func branchLedger() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-ledger-\(UUID().uuidString).sqlite").path
        defer { unlink(path) }
        let space = SpaceID(unchecked: [UInt8](repeating: 4, count: 16))
        let hashes = [Self.head(Self.third, 1), Self.head(Self.third, 2)]
        await BranchLedger(store: try OpStore(path: path)).record(space: space, peer: Self.peer, hashes, now: 10)
        // Another store on the same file (a restarted node) knows them.
        let ledger = BranchLedger(store: try OpStore(path: path))
        #expect(await ledger.delivered(space: space, peer: Self.peer, now: 20) == Set(hashes))
        #expect(await ledger.delivered(space: space, peer: Self.third, now: 20).isEmpty)
        #expect(await ledger.delivered(space: space, peer: Self.peer, now: 10 + BranchLedger.memoryMilliseconds + 1).isEmpty)
    }

    @Test("a peer silent for 15 s is reset and counts as gone")
    func silentPeer() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = try machine.received(.digest(.zero), now: 100 * Self.second)
        #expect(machine.tick(now: 114 * Self.second) == [.readVector(for: .digest)])
        #expect(machine.tick(now: 115 * Self.second) == [.reset, .end(.silent(seconds: 15))])
    }

    @Test("a side busy with a flood of the peer's batches still sends a digest every 5 s, so the peer does not take it for gone")
    func keepAliveUnderFlood() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let wire = [WireOp.compacting(Self.op(Self.peer, 1))]
        var digests: [UInt64] = []
        // A batch every 100 ms for 12 s, and no digest tick in between (it waits behind the batches).
        for tenth in 1...120 {
            let now = UInt64(tenth) * Self.second / 10
            let actions = try machine.received(.ops(batch: UInt32(tenth), ack: false, wire), now: now)
            if actions.contains(.readVector(for: .digest)) { digests.append(now / (Self.second / 10)) }
        }
        #expect(digests == [50, 100], "a digest at 5 s and at 10 s")
        // A tick counts as speaking: the next keep-alive is 5 s after it.
        _ = machine.tick(now: 12 * Self.second)
        #expect(
            !(try machine.received(.ops(batch: 200, ack: false, wire), now: 16 * Self.second)).contains(
                .readVector(for: .digest)))
        #expect(
            try machine.received(.ops(batch: 201, ack: false, wire), now: 17 * Self.second).contains(
                .readVector(for: .digest)))
        // A one-shot sync is short and acknowledged: no keep-alive.
        var oneShot = SessionMachine(oneShot: true, ownDevice: Self.own, now: 0)
        #expect(try oneShot.received(.ops(batch: 1, ack: true, wire), now: 30 * Self.second).count == 2)
    }

    @Test("a change makes the next tick re-check the peer's admission, once; a refusal closes with the reason")
    func admissionAfterChange() {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        #expect(machine.tick(now: 2 * Self.second) == [.readVector(for: .digest)])
        _ = machine.changed()
        _ = machine.changed()
        #expect(machine.tick(now: 4 * Self.second) == [.checkAdmission, .readVector(for: .digest)])
        #expect(machine.tick(now: 6 * Self.second) == [.readVector(for: .digest)])
        #expect(machine.admission(refusal: nil) == [])
        let text = "device 1234 was revoked"
        #expect(machine.admission(refusal: text) == [.send(.close(.revoked, text)), .end(.refused(text))])
    }

    @Test("a one-shot sync ends once both sides are done and every batch is acknowledged, and says so once")
    func oneShotCompletes() throws {
        var machine = SessionMachine(oneShot: true, ownDevice: Self.own, now: 0)
        _ = try machine.received(.vector([]), now: 0)
        #expect(
            machine.fetched(Self.ops(Self.own, 1...2), onlyDevices: nil, now: 0).contains(
                .send(.ops(batch: 1, ack: true, (1...2).map { .compacting(Self.op(Self.own, $0)) }))))
        #expect(try machine.received(.done, now: 0) == [.recordProgress])
        #expect(machine.settle() == [], "batch 1 is not acknowledged yet")
        #expect(!machine.completed)
        #expect(throws: WireError.unexpected("an ack for batch 9, which was not sent")) {
            _ = try machine.received(.ack(batch: 9, applied: 0), now: 0)
        }
        _ = try machine.received(.ack(batch: 1, applied: 2), now: 0)
        #expect(machine.settle() == [.send(.close(.finished, "sync complete")), .finish])
        #expect(machine.completed)
        #expect(machine.settle() == [])
    }

    @Test("an early close, a refusal and a superseded session each end as what they are")
    func endings() throws {
        var oneShot = SessionMachine(oneShot: true, ownDevice: Self.own, now: 0)
        #expect(throws: SyncError.closedEarly) { _ = try oneShot.received(.close(.finished, "bye"), now: 0) }
        #expect(throws: SyncError.closedEarly) { _ = try oneShot.connectionClosed() }
        var live = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        #expect(try live.connectionClosed() == [.finish])
        var stopping = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = stopping.start()
        #expect(try stopping.received(.close(.shutdown, "stopping"), now: 0) == [.finish], "a normal close is no error")
        #expect(stopping.state == .ended(.peerClosed("stopping", completed: false)))
        #expect(stopping.closedBecause == "the peer closed the session: stopping")
        #expect(try stopping.received(.digest(Digest32(unchecked: [UInt8](repeating: 1, count: 32))), now: 1) == [])
        #expect(stopping.tick(now: 2) == [] && stopping.changed() == [], "nothing acts after the end")
        #expect(try live.connectionClosed() == [.finish] && live.superseded() == [], "an ended session stays ended")
        var open = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        #expect(throws: SyncError.refused("not a member")) { _ = try open.received(.close(.revoked, "not a member"), now: 0) }
        #expect(throws: WireError.self) { _ = try open.received(.welcome(spaceKey: [], name: ""), now: 0) }
        #expect(open.superseded() == [.send(.close(.finished, SyncError.duplicate.description)), .end(.duplicate)])
        #expect(open.duplicate)
    }

    @Test("a received batch is applied, acknowledged when asked, and raises what the peer is known to hold")
    func appliesBatches() throws {
        var machine = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let wire = (1...3).map { WireOp.compacting(Self.op(Self.peer, $0)) }
        #expect(
            try machine.received(.ops(batch: 4, ack: true, wire), now: 0) == [
                .pace(.moving), .apply(batch: 4, wantsAck: true, wire),
            ])
        let ids = (1...3).map { OpID(device: Self.peer, seq: $0) }
        #expect(machine.applied(batch: 4, wantsAck: true, ids) == [.send(.ack(batch: 4, applied: 3))])
        #expect(machine.applied(batch: 5, wantsAck: false, []) == [])
        #expect(machine.peerKnown[Self.peer] == 3)
        #expect(machine.received == 3)
    }

    @Test(
        "on a version-2 session one op of this device's own goes as a live message without its device; the peer's is applied as a batch of one"
    )
    func liveMessages() throws {
        var node = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = node.start(peer: Self.peer)
        let mine = Self.ops(Self.own, 4...4)
        // Version 1 (an older peer): the batch, as before.
        let before = node.fetched(mine, onlyDevices: [Self.own], now: 1)
        #expect(
            before.contains { if case .send(.ops(_, false, [WireOp.compacting(mine[0].bytes)])) = $0 { true } else { false } })
        node.liveMessages = true
        let live = try #require(WireOp.live(Self.op(Self.own, 5)))
        #expect(node.fetched(Self.ops(Self.own, 5...5), onlyDevices: [Self.own], now: 2).contains(.send(.live(live))))
        #expect(live.count == Self.op(Self.own, 5).count - 16 - 32 - 32, "no space, no prev, no device")
        // Two ops, or another device's (a hosted phone's), go as a batch.
        #expect(
            !node.fetched(Self.ops(Self.own, 6...7), onlyDevices: nil, now: 3).contains {
                if case .send(.live) = $0 { true } else { false }
            })
        #expect(
            !node.fetched(Self.ops(Self.third, 1...1), onlyDevices: nil, now: 4).contains {
                if case .send(.live) = $0 { true } else { false }
            })
        // The peer's live op: its device restored from the session's peer.
        let theirs = try #require(WireOp.live(Self.op(Self.peer, 9)))
        let applied = try node.received(.live(theirs), now: 5)
        #expect(applied.contains(.apply(batch: 0, wantsAck: false, [WireOp.compacting(Self.op(Self.peer, 9))])))
        // On a session of version 1, or before the session began (no peer), a live op is a protocol error.
        var older = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = older.start(peer: Self.peer)
        #expect(throws: WireError.self) { try older.received(.live(theirs), now: 0) }
        var fresh = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        fresh.liveMessages = true
        #expect(throws: WireError.self) { try fresh.received(.live(theirs), now: 0) }
    }

    @Test("a peer whose vector set wantAll (no other session) gets every device's ops relayed at once; others only this device's")
    func relaysToALonePeer() throws {
        var hub = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        _ = try hub.received(.vector([Self.entry(Self.peer, 1)], wantAll: true), now: 0)
        #expect(hub.changed() == [.pace(.moving), .fetchOps(after: VersionVector([Self.peer: 1]), onlyDevices: nil)])
        // The peer found other company: its next vector drops the flag, and the relay stops.
        _ = try hub.received(.vector([Self.entry(Self.peer, 1)], wantAll: false), now: 5 * Self.second)
        #expect(hub.changed() == [.pace(.moving), .fetchOps(after: VersionVector([Self.peer: 1]), onlyDevices: [Self.own])])
    }

    @Test("the ops of a phone this node hosts go out at once as its own, to a peer that did not ask for everything")
    func pushesHostedPhones() throws {
        var node = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        node.hosted = [Self.third]
        // The first push after the peer's vector: this device's ops and the hosted phone's, no one else's.
        let first = try node.received(.vector([Self.entry(Self.peer, 1)], wantAll: false), now: 0)
        #expect(first.contains(.fetchOps(after: VersionVector([Self.peer: 1]), onlyDevices: [Self.own, Self.third])))
        // A change (the phone sent a score over HTTP): pushed at once, with this device's own.
        #expect(
            node.changed() == [
                .pace(.moving), .fetchOps(after: VersionVector([Self.peer: 1]), onlyDevices: [Self.own, Self.third]),
            ])
        // A node that hosts no phone pushes only its own device's.
        node.hosted = []
        #expect(node.changed() == [.pace(.moving), .fetchOps(after: VersionVector([Self.peer: 1]), onlyDevices: [Self.own])])
    }

    @Test("a session's vectors set wantAll while it is its node's only session in the space, and say so when that changes")
    func announcesCompany() throws {
        var leaf = SessionMachine(oneShot: false, ownDevice: Self.peer, now: 0)
        let ours = [Self.entry(Self.peer, 2)]
        #expect(leaf.start(peer: Self.own, company: [Self.own]) == [.readVector(for: .open)])
        #expect(leaf.vectorRead(ours, for: .open) == [.send(.vector(ours, wantAll: true))])
        #expect(leaf.company([Self.own]) == [], "no change, nothing to say")
        #expect(leaf.company([Self.own, Self.third]) == [.readVector(for: .announce)])
        #expect(leaf.vectorRead(ours, for: .announce) == [.send(.vector(ours, wantAll: false))])
        #expect(leaf.vectorRead(ours, for: .answer(.zero)).last == .send(.vector(ours, wantAll: false)))
        #expect(leaf.company([Self.own]) == [.readVector(for: .announce)])
        #expect(leaf.vectorRead(ours, for: .announce) == [.send(.vector(ours, wantAll: true))])
        var oneShot = SessionMachine(oneShot: true, ownDevice: Self.peer, now: 0)
        #expect(oneShot.company([Self.own]) == [], "a one-shot sync asks for everything anyway")
    }

    @Test(
        "a live third device reached only through this peer makes this side ask the peer to relay, until a session with it opens or it goes quiet"
    )
    func asksForRelayWhenReachedThroughPeer() throws {
        let far = Self.key(0xD4)
        var node = SessionMachine(oneShot: false, ownDevice: Self.own, now: 0)
        let ours = [Self.entry(Self.own, 2)]
        _ = node.start(peer: Self.peer, company: [Self.peer, Self.third])
        #expect(node.vectorRead(ours, for: .open) == [.send(.vector(ours, wantAll: false))], "another session: no relay asked")
        _ = try node.received(.vector([Self.entry(Self.peer, 1)]), now: Self.second)
        let wire = [WireOp.full(Self.op(far, 1))]
        _ = try node.received(.ops(batch: 1, ack: false, wire), now: 2 * Self.second)
        // Old ops of a device that is not live (its clock says so, so the driver does not call it fresh) ask nothing.
        #expect(node.applied(batch: 1, wantsAck: false, [OpID(device: far, seq: 1)]) == [])
        // The peer's own fresh ops, and this device's own, ask nothing either.
        #expect(node.applied(batch: 2, wantsAck: false, [OpID(device: Self.peer, seq: 2)], fresh: [Self.peer, Self.own]) == [])
        // The third device's fresh ops came this way, and this node has no session with it: ask for relay.
        _ = try node.received(.ops(batch: 3, ack: false, [WireOp.full(Self.op(far, 2))]), now: 3 * Self.second)
        #expect(
            node.applied(batch: 3, wantsAck: false, [OpID(device: far, seq: 2)], fresh: [far])
                == [.readVector(for: .announce)])
        #expect(node.vectorRead(ours, for: .announce) == [.send(.vector(ours, wantAll: true))])
        // A session with it opens: its ops come from it now, so the relay is no longer asked.
        #expect(node.company([Self.peer, Self.third, far]) == [.readVector(for: .announce)])
        #expect(node.vectorRead(ours, for: .announce) == [.send(.vector(ours, wantAll: false))])
        // It closes again: ask again.
        #expect(node.company([Self.peer, Self.third]) == [.readVector(for: .announce)])
        // Nothing fresh from it for five minutes: it is no longer reached this way, and the tick says so.
        _ = try node.received(.digest(.zero), now: 3 * Self.second + SessionMachine.relayMemoryNanoseconds - 2 * Self.second)
        #expect(
            node.tick(now: 3 * Self.second + SessionMachine.relayMemoryNanoseconds - Self.second).last
                == .readVector(for: .digest))
        _ = try node.received(.digest(.zero), now: 3 * Self.second + SessionMachine.relayMemoryNanoseconds)
        #expect(
            node.tick(now: 3 * Self.second + SessionMachine.relayMemoryNanoseconds).last
                == .readVector(for: .announce))
        #expect(node.vectorRead(ours, for: .announce) == [.send(.vector(ours, wantAll: false))])
    }

    // MARK: Two machines

    /// One side of a simulated link: a machine, an in-memory log, and the messages waiting for it.
    struct Side {
        var machine: SessionMachine
        var log: [PublicKey: UInt64]
        var inbox: [WireMessage] = []
        var finished = false
        var ended: SyncError?
        var batchesSent = 0

        var vector: [WireMessage.VectorEntry] {
            log.filter { $0.value > 0 }.map { SessionMachineTests.entry($0.key, $0.value) }.sorted { $0.device < $1.device }
        }
    }

    /// Runs actions the way ``SyncSession`` does (an answer's actions first), delivering sends to `other`.
    static func perform(_ actions: [Action], _ side: inout Side, _ other: inout Side, now: UInt64) {
        var queue = Array(actions.reversed())
        while let action = queue.popLast() {
            var next: [Action] = []
            switch action {
            case .send(let message):
                if case .ops = message { side.batchesSent += 1 }
                other.inbox.append(message)
            case .readVector(let use): next = side.machine.vectorRead(side.vector, for: use)
            case .lookUpHeads: next = side.machine.headsLookedUp(forks: [])
            case .fetchOps(let after, let only):
                var batch: [(id: OpID, bytes: [UInt8])] = []
                for device in side.log.keys.sorted() where only?.contains(device) ?? true {
                    let held = side.log[device] ?? 0
                    guard held > after[device], batch.count < 500 else { continue }
                    batch += ops(device, (after[device] + 1)...min(held, after[device] + UInt64(500 - batch.count)))
                }
                next = side.machine.fetched(batch, onlyDevices: only, now: now)
            case .apply(let number, let wantsAck, let wire):
                var applied: [OpID] = []
                for op in wire {
                    guard let id = op.id, id.seq == (side.log[id.device] ?? 0) + 1 else { continue }
                    side.log[id.device] = id.seq
                    applied.append(id)
                }
                next = side.machine.applied(batch: number, wantsAck: wantsAck, applied)
            case .checkAdmission: next = side.machine.admission(refusal: nil)
            case .recordProgress, .pace, .inStep, .reset, .branchesDelivered: break
            case .end(let error):
                side.ended = error
                return
            case .finish:
                side.finished = true
                return
            }
            queue.append(contentsOf: next.reversed())
        }
    }

    /// Delivers messages until both inboxes are empty; ticks both sides when `tick` says so.
    static func pump(_ a: inout Side, _ b: inout Side, now: inout UInt64, rounds: Int = 10_000) throws {
        for _ in 0..<rounds {
            guard !a.inbox.isEmpty || !b.inbox.isEmpty else { return }
            now += Self.second / 1000
            if !a.inbox.isEmpty, !a.finished, a.ended == nil {
                let message = a.inbox.removeFirst()
                perform(try a.machine.received(message, now: now), &a, &b, now: now)
                perform(a.machine.settle(), &a, &b, now: now)
            } else {
                a.inbox.removeAll()
            }
            if !b.inbox.isEmpty, !b.finished, b.ended == nil {
                let message = b.inbox.removeFirst()
                perform(try b.machine.received(message, now: now), &b, &a, now: now)
                perform(b.machine.settle(), &b, &a, now: now)
            } else {
                b.inbox.removeAll()
            }
        }
        Issue.record("the link did not settle")
    }

    @Test("a hub with two lone peers relays each one's edit to the other at once, with no digest tick")
    func hubRelays() throws {
        var now: UInt64 = 0
        // Two links at the hub, one per leaf; the hub's log is shared by both of its sides.
        var hubToLeft = Side(machine: SessionMachine(oneShot: false, ownDevice: Self.own, now: 0), log: [Self.own: 3])
        var left = Side(machine: SessionMachine(oneShot: false, ownDevice: Self.peer, now: 0), log: [Self.peer: 5])
        var hubToRight = Side(machine: SessionMachine(oneShot: false, ownDevice: Self.own, now: 0), log: [Self.own: 3])
        var right = Side(machine: SessionMachine(oneShot: false, ownDevice: Self.third, now: 0), log: [Self.third: 4])
        Self.perform(hubToLeft.machine.start(), &hubToLeft, &left, now: now)
        Self.perform(left.machine.start(peer: Self.own, company: [Self.own]), &left, &hubToLeft, now: now)
        try Self.pump(&hubToLeft, &left, now: &now)
        Self.perform(hubToRight.machine.start(), &hubToRight, &right, now: now)
        hubToRight.log = hubToLeft.log
        Self.perform(right.machine.start(peer: Self.own, company: [Self.own]), &right, &hubToRight, now: now)
        try Self.pump(&hubToRight, &right, now: &now)
        hubToLeft.log = hubToRight.log
        #expect(
            right.log == [Self.third: 4, Self.own: 3, Self.peer: 5], "the lone peer asked for everything at its first vector")
        #expect(left.log == [Self.peer: 5, Self.own: 3])
        // The right leaf's ops reached the hub: the change relays them to the left leaf at once.
        Self.perform(hubToLeft.machine.changed(), &hubToLeft, &left, now: now)
        try Self.pump(&hubToLeft, &left, now: &now)
        #expect(left.log == hubToLeft.log)
        // A new edit on the left leaf goes to the hub, and from there to the right leaf, each at once.
        left.log[Self.peer] = 6
        Self.perform(left.machine.changed(), &left, &hubToLeft, now: now)
        try Self.pump(&hubToLeft, &left, now: &now)
        hubToRight.log = hubToLeft.log
        Self.perform(hubToRight.machine.changed(), &hubToRight, &right, now: now)
        try Self.pump(&hubToRight, &right, now: &now)
        #expect(right.log[Self.peer] == 6)
        #expect(left.log == right.log)
    }

    @Test("two one-shot machines exchange 1,250 ops in batches of 500 and both end complete with the same logs")
    func oneShotConverges() throws {
        var now: UInt64 = 0
        var a = Side(machine: SessionMachine(oneShot: true, ownDevice: Self.own, now: 0), log: [Self.own: 600, Self.third: 50])
        var b = Side(machine: SessionMachine(oneShot: true, ownDevice: Self.peer, now: 0), log: [Self.peer: 600, Self.third: 20])
        Self.perform(a.machine.start(), &a, &b, now: now)
        Self.perform(b.machine.start(), &b, &a, now: now)
        try Self.pump(&a, &b, now: &now)
        #expect(a.log == b.log)
        #expect(a.log == [Self.own: 600, Self.peer: 600, Self.third: 50])
        #expect(a.finished && b.finished && a.machine.completed && b.machine.completed)
        #expect(a.machine.sent == 630 && b.machine.sent == 600)
        #expect(a.machine.received == 600 && b.machine.received == 630)
        #expect(a.batchesSent == 2, "600 own ops and 30 of the third device's: batches of at most 500")
    }

    @Test("two live machines: the first exchange moves own logs only, a third device's ops follow at the next digest")
    func liveConverges() throws {
        var now: UInt64 = 0
        var a = Side(machine: SessionMachine(oneShot: false, ownDevice: Self.own, now: 0), log: [Self.own: 40, Self.third: 7])
        var b = Side(machine: SessionMachine(oneShot: false, ownDevice: Self.peer, now: 0), log: [Self.peer: 30])
        Self.perform(a.machine.start(), &a, &b, now: now)
        Self.perform(b.machine.start(), &b, &a, now: now)
        try Self.pump(&a, &b, now: &now)
        #expect(b.log == [Self.peer: 30, Self.own: 40], "own logs only: the third device's ops wait")
        #expect(a.log == [Self.own: 40, Self.third: 7, Self.peer: 30])
        // The digest tick, two seconds on, finds the difference and moves the rest.
        now += 2 * Self.second
        Self.perform(a.machine.tick(now: now), &a, &b, now: now)
        Self.perform(b.machine.tick(now: now), &b, &a, now: now)
        try Self.pump(&a, &b, now: &now)
        #expect(a.log == b.log)
        #expect(!a.finished && !b.finished && a.ended == nil && b.ended == nil, "a live session stays open")
        // A local edit on b goes out at once, with no tick.
        b.log[Self.peer] = 31
        Self.perform(b.machine.changed(), &b, &a, now: now)
        try Self.pump(&a, &b, now: &now)
        #expect(a.log[Self.peer] == 31)
    }
}
