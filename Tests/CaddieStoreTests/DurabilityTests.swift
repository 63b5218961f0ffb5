import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import Testing

@testable import CaddieStore

/// How surely a commit is on disk (docs/architecture.md, "Storage and durability"), read from the writer connection
/// of a home on disk: SQLite's `synchronous` is 2 (FULL, the WAL synced at every commit) or 1 (NORMAL, synced at
/// the next synced commit or checkpoint).
@Suite("what each commit syncs")
struct DurabilityTests {
    private func home() throws -> (OpStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try OpStore(path: directory.appendingPathComponent("caddie.sqlite").path), directory)
    }

    private func synchronous(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }

    @Test("a write, a unit of work, and a peer's batch inside a unit of work commit synced, as the home is opened")
    func editsAreSynced() throws {
        let (store, directory) = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        // GRDB sets NORMAL when it turns WAL on: the store sets FULL again (this read 1 before it did).
        #expect(try store.write("test") { try synchronous($0) } == 2)
        #expect(
            try store.transaction(
                "test", { () throws(StoreError) in try store.write("test") { try synchronous($0) } }, failed: { $0 }) == 2)
        // Even asked for inside a unit of work, a batch held by a peer commits with the unit, synced.
        #expect(
            try store.transaction(
                "test", { () throws(StoreError) in try store.write("test", durability: .heldByPeer) { try synchronous($0) } },
                failed: { $0 }) == 2)
    }

    @Test("a batch a peer holds commits unsynced, and the writer syncs again after it, whether it committed or failed")
    func peerBatchesAreNotSynced() throws {
        let (store, directory) = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Twice: each such write sets NORMAL again, and FULL after it.
        for _ in 1...2 {
            #expect(try store.write("test", durability: .heldByPeer) { try synchronous($0) } == 1)
            #expect(try store.write("test") { try synchronous($0) } == 2)
        }
        struct Refused: Error {}
        #expect(throws: StoreError.self) { try store.write("test", durability: .heldByPeer) { _ in throw Refused() } }
        #expect(try store.write("test") { try synchronous($0) } == 2)

        // A real batch from a peer: applied, and the next edit synced.
        let space = TestSpace()
        var author = try Author("ana", space: space)
        try author.edit([.score(game: entity(1), player: entity(2), hole: 1, entry: try ScoreEntry(strokes: 4))])
        try store.addSpace(space.id, name: "test", now: 0)
        let unsynced = store.unsyncedCommits.load(ordering: .relaxed)
        let ops = try author.store.ops(space: space.id)
        let report = try store.receive(
            space: space.id, spaceKey: space.key, ops: Array(ops.prefix(1)), mode: .tolerant, now: receiverNow,
            durability: .heldByPeer)
        #expect(report.applied.count == 1)
        #expect(store.unsyncedCommits.load(ordering: .relaxed) == unsynced + 1, "the peer's batch committed unsynced")
        #expect(try store.write("test") { try synchronous($0) } == 2)
        // A batch received the other way (a bundle, a phone's ops) commits synced.
        #expect(
            try store.receive(space: space.id, spaceKey: space.key, ops: Array(ops.dropFirst()), mode: .strict, now: receiverNow)
                .applied.count == 1)
        #expect(store.unsyncedCommits.load(ordering: .relaxed) == unsynced + 1, "a bundle committed unsynced")
        #expect(try store.cells(space.id, game: entity(1)).count == 1)
    }
}
