import CaddieCore
import CaddieCrypto
import Foundation
import Synchronization
import Testing

@testable import CaddieStore

/// The newest ops of each log, kept in memory for the sessions' pushes: on a real SQLite file, whatever they answer
/// must be exactly what SQLite answers, and they must answer a live push (one op behind) without it.
@Suite("the newest ops kept in memory for the sessions")
struct RecentOpsTests {
    /// A store on disk, claimed as a running node's is (no other process writes it, so what it keeps in memory is
    /// used).
    static func onDisk(claimed: Bool = true) throws -> (URL, OpStore) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-recent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try OpStore(path: folder.appendingPathComponent("caddie.sqlite").path)
        if claimed { try store.claimWrites() }
        return (folder, store)
    }

    static func heads(_ store: OpStore, _ space: SpaceID) throws -> [(device: PublicKey, seq: UInt64)] {
        try store.heads(space).map { ($0.device, $0.seq) }.sorted { $0.device < $1.device }
    }

    /// The ops SQLite gives, as ids and bytes.
    static func stored(
        _ store: OpStore, _ space: SpaceID, after: VersionVector, limit: Int, maxBytes: Int, only: Set<PublicKey>?
    ) throws -> [String] {
        try store.ops(space: space, after: after, limit: limit, maxBytes: maxBytes, onlyDevices: only).map {
            "\($0.id) \(Hex.encode($0.bytes))"
        }
    }

    @Test("every answer from memory is SQLite's, for every peer vector, limit and device filter; one op behind is answered")
    func sameAsSQLite() throws {
        let (folder, store) = try Self.onDisk()
        defer { try? FileManager.default.removeItem(at: folder) }
        let space = TestSpace()
        var ana = try Author("Ana", space: space, store: store)
        var ben = try Author("Ben", space: space)
        // Ben's join first: a new member is a whole change of the space, which forgets what was kept (Ana's join).
        try ana.pull(from: ben)
        let game: GameID = entity(1)
        for hole in 1...10 { try ana.score(game: game, player: entity(2), hole: hole, strokes: 4) }
        for hole in 1...5 { try ben.score(game: game, player: entity(3), hole: hole, strokes: 5) }
        try ana.pull(from: ben)
        let heads = try Self.heads(store, space.id)
        let (a, b) = (ana.device.publicKey, ben.device.publicKey)
        let top = Dictionary(uniqueKeysWithValues: heads.map { ($0.device, $0.seq) })
        var answered = 0
        for anaSeq in 0...top[a]! {
            for benSeq in 0...top[b]! {
                let peer = VersionVector([a: anaSeq, b: benSeq])
                for limit in [1, 3, 1000] {
                    for maxBytes in [Int.max, 400] {
                        for only in [nil, Set([a]), Set([b])] as [Set<PublicKey>?] {
                            let sql = try Self.stored(store, space.id, after: peer, limit: limit, maxBytes: maxBytes, only: only)
                            guard
                                let kept = store.keptOps(
                                    space: space.id, after: peer, limit: limit, maxBytes: maxBytes, onlyDevices: only,
                                    heads: heads)
                            else {
                                // Only each log's first op (the joins, before Ben's) is not kept.
                                #expect(
                                    anaSeq == 0 || benSeq == 0 || sql.isEmpty,
                                    "not answered: peer \(anaSeq)/\(benSeq), limit \(limit), only \(String(describing: only))")
                                continue
                            }
                            answered += 1
                            #expect(
                                kept.ops.map { "\($0.id) \(Hex.encode($0.bytes))" } == sql,
                                "peer \(anaSeq)/\(benSeq), limit \(limit), \(maxBytes) bytes, only \(String(describing: only))")
                        }
                    }
                }
            }
        }
        #expect(answered >= 10 * 5 * 3 * 2 * 3)
        // The live push: the peer one op behind on Ana's log.
        let behind = VersionVector([a: top[a]! - 1, b: top[b]!])
        let live = try #require(store.keptOps(space: space.id, after: behind, limit: 1000, heads: heads))
        #expect(live.ops.map(\.id) == [OpID(device: a, seq: top[a]!)])
        // Nothing to send: the fork mark, once read, is kept until the next commit.
        let inStep = VersionVector(top)
        #expect(store.keptOps(space: space.id, after: inStep, limit: 1000, heads: heads) == nil)
        let mark = try store.forkMark(space.id)
        let kept = try #require(store.keptOps(space: space.id, after: inStep, limit: 1000, heads: heads))
        #expect(kept.ops.isEmpty && kept.forkMark == mark)
        try ana.score(game: game, player: entity(2), hole: 11, strokes: 3)
        #expect(
            store.keptOps(space: space.id, after: VersionVector(top), limit: 1000, heads: try Self.heads(store, space.id))?
                .ops.count == 1)
        #expect(store.recorder.recent.forkMark(space.id) == nil, "a commit forgets the fork marks")
    }

    @Test("a store on disk that did not claim the file (another process may write it unheard) reads SQLite")
    func unclaimedReadsSQLite() throws {
        let (folder, store) = try Self.onDisk(claimed: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        var ana = try Author("Ana", space: TestSpace(), store: store)
        try ana.score(game: entity(1), player: entity(2), hole: 1, strokes: 4)
        let heads = try Self.heads(store, ana.space.id)
        // The score is kept (the join before it, a whole change of the space, is not), but not used.
        let behind = VersionVector([ana.device.publicKey: 1])
        #expect(store.recorder.recent.keptCount == 1)
        #expect(store.keptOps(space: ana.space.id, after: behind, limit: 1000, heads: heads) == nil)
        _ = try store.forkMark(ana.space.id)
        #expect(store.recorder.recent.forkMark(ana.space.id) == nil)
        // Claimed, the same store answers from memory.
        try store.claimWrites()
        #expect(store.keptOps(space: ana.space.id, after: behind, limit: 1000, heads: heads)?.ops.count == 1)
    }

    @Test(
        "one writer a file: a second claim is refused while the first holds and taken once its store is gone; in memory none is needed"
    )
    func oneClaimAFile() throws {
        let (folder, unclaimed) = try Self.onDisk(claimed: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("caddie.sqlite").path
        var first: OpStore? = try OpStore(path: path)
        try first?.claimWrites()
        try first?.claimWrites()  // a second claim by the same store does nothing
        #expect(first?.keepsRecent == true)
        do {
            try unclaimed.claimWrites()
            Issue.record("a second claim on the file was taken")
        } catch .otherWriter(let text) {
            #expect(text.contains("another caddie process is writing this home"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(!unclaimed.keepsRecent, "a refused claim keeps nothing in memory for the sessions")
        first = nil
        try unclaimed.claimWrites()
        #expect(unclaimed.keepsRecent)
        #expect(try OpStore(inMemory: ()).keepsRecent)
    }

    @Test("what leaves memory: a long log's oldest ops, a whole change, a rolled-back write")
    func whatIsForgotten() throws {
        let (folder, store) = try Self.onDisk()
        defer { try? FileManager.default.removeItem(at: folder) }
        let space = TestSpace()
        var ana = try Author("Ana", space: space, store: store)
        let game: GameID = entity(1)
        for hole in 1...150 { try ana.score(game: game, player: entity(2), hole: (hole - 1) % 18 + 1, strokes: 4) }
        let a = ana.device.publicKey
        var heads = try Self.heads(store, space.id)
        let top = try #require(heads.first?.seq)
        // The oldest are not kept (at most twice 64 a device): from the start, SQLite answers.
        #expect(store.keptOps(space: space.id, after: VersionVector(), limit: 1000, heads: heads) == nil)
        #expect(try store.ops(space: space.id, after: VersionVector(), limit: 1000).count == Int(top))
        let recentTen = try #require(
            store.keptOps(space: space.id, after: VersionVector([a: top - 10]), limit: 1000, heads: heads))
        #expect(recentTen.ops.map(\.id.seq) == Array((top - 9)...top))
        #expect(store.recorder.recent.keptCount <= 2 * RecentOps.perDevice)

        // A unit of work that fails keeps no op in memory either.
        let before = store.recorder.recent.keptCount
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.transaction(
                "test",
                { () throws(any Error) in
                    _ = try store.append(
                        space: space.id, signer: ana.device,
                        changes: [.score(game: game, player: entity(2), hole: 1, entry: try ScoreEntry(strokes: 9))], now: 2)
                    throw Refused()
                }, failed: { $0 as any Error })
        }
        #expect(store.recorder.recent.keptCount == before)
        #expect(try Self.heads(store, space.id).first?.seq == top)

        // A new member (a whole change of the space): the space's kept ops are forgotten.
        let cat = try Author("Cat", space: space)
        _ = try store.receive(
            space: space.id, spaceKey: space.key, ops: try cat.store.ops(space: space.id), mode: .strict, now: receiverNow)
        heads = try Self.heads(store, space.id)
        #expect(store.keptOps(space: space.id, after: VersionVector([a: top - 1]), limit: 1000, heads: heads) == nil)
    }
}

extension OpStore {
    /// ``keptOps(space:after:limit:maxBytes:onlyDevices:heads:)`` with the default byte budget, for the tests.
    func keptOps(
        space: SpaceID, after: VersionVector, limit: Int, heads: [(device: PublicKey, seq: UInt64)]
    )
        -> (ops: [(id: OpID, bytes: [UInt8])], forkMark: Int?)?
    {
        keptOps(space: space, after: after, limit: limit, maxBytes: .max, onlyDevices: nil, heads: heads)
    }
}
