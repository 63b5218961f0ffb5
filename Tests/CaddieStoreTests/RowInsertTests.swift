import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import Testing

@testable import CaddieStore

/// The rows the receive path binds straight into SQLite (RowInsert.swift): on a real file, what a receiving home
/// stores must be what the author signed, field by field, and a failed insert must throw and leave its statement
/// ready for the next row.
@Suite("rows bound directly by the receive path")
struct RowInsertTests {
    /// A receiving home in a file of its own, holding `space`, and the folder to remove afterwards.
    static func fileHome(_ space: TestSpace) throws -> (OpStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let home = try OpStore(path: directory.appendingPathComponent("caddie.sqlite").path)
        try home.addSpace(space.id, name: "test", now: 0)
        return (home, directory)
    }

    @Test("every field of a score, present or absent, and every op's bytes reach the receiving home's file as signed")
    func fieldsRoundTrip() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        let game: GameID = entity(1)
        let player: PlayerID = entity(2)
        let entries = [
            try ScoreEntry(strokes: 4, putts: 2, penalties: 1, fairway: .left, greenInRegulation: false),
            try ScoreEntry(strokes: 7),
            try ScoreEntry(strokes: 3, putts: 0, penalties: 0, fairway: .hit, greenInRegulation: true),
            try ScoreEntry(strokes: 5, putts: nil, penalties: nil, fairway: .right, greenInRegulation: nil),
        ]
        for (index, entry) in entries.enumerated() {
            try author.edit([.score(game: game, player: player, hole: index + 1, entry: entry)])
        }
        // A correction: its superseded row must name the op it replaces, or both values would stand.
        let first = try author.store.cells(space.id, game: game)[0].values[0].op
        try author.edit([.score(game: game, player: player, hole: 1, entry: try ScoreEntry(strokes: 5, putts: 3))], pred: [first])

        let (home, directory) = try Self.fileHome(space)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try home.receive(
            space: space.id, spaceKey: space.key, ops: try author.store.ops(space: space.id), mode: .strict, now: receiverNow)
        #expect(report.applied.count == 6)

        let cells = try home.cells(space.id, game: game)
        #expect(cells == (try author.store.cells(space.id, game: game)))
        #expect(cells.map(\.hole) == [1, 2, 3, 4])
        #expect(cells.map { $0.values.count } == [1, 1, 1, 1])
        #expect(cells[0].values[0].entry == (try ScoreEntry(strokes: 5, putts: 3)))
        for (cell, entry) in zip(cells.dropFirst(), entries.dropFirst()) { #expect(cell.values[0].entry == entry) }
        let held = try home.storedOps(space.id)
        let signed = try author.store.storedOps(space.id)
        #expect(held.map(\.bytes) == signed.map(\.bytes))
        #expect(held.map(\.hash) == held.map { Blake2b.hash($0.bytes) })
        #expect(held.map(\.hlc) == signed.map(\.hlc))
        #expect(try home.stateHash(space.id) == author.hash())
    }

    @Test(
        "a run of log rows written many to a statement: every op of a run longer than a statement, other ops between, stored as signed"
    )
    func logRowsInStatements() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        let game: GameID = entity(1)
        let player: PlayerID = entity(2)
        // 2 x 32 + 11 scores, with a game record and a roster add among them: the statements fill, a record's op is
        // written before it is materialized, and a part-filled statement ends the run.
        for index in 1...75 {
            if index == 40 { try author.edit([.set(kind: .game, id: game.entity, fields: ["name": .text("Sunday")])]) }
            if index == 41 { try author.edit([.rosterAdd(game: game, player: player)]) }
            try author.edit([.score(game: game, player: player, hole: index % 18 + 1, entry: try ScoreEntry(strokes: 4))])
        }
        let (home, directory) = try Self.fileHome(space)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ops = try author.store.ops(space: space.id)
        #expect(ops.count == 78)
        // In two batches, the second starting mid-log: a run begins where the home's head is.
        let first = try home.receive(
            space: space.id, spaceKey: space.key, ops: Array(ops.prefix(33)), mode: .strict, now: receiverNow)
        let second = try home.receive(
            space: space.id, spaceKey: space.key, ops: Array(ops.dropFirst(33)), mode: .strict, now: receiverNow)
        #expect(first.applied.count + second.applied.count == 78)
        let held = try home.storedOps(space.id)
        let signed = try author.store.storedOps(space.id)
        #expect(held.map(\.bytes) == signed.map(\.bytes))
        #expect(held.map(\.id.seq) == Array(1...78))
        #expect(held.map(\.hash) == held.map { Blake2b.hash($0.bytes) })
        #expect(try home.stateHash(space.id) == author.hash())
        #expect(try home.record(space.id, game)?["name"] == .text("Sunday"))
    }

    @Test(
        "a run's score rows written many to a statement: corrections supersede, a roster remove among them, every cell and its history as applied one by one"
    )
    func scoreRowsInStatements() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        let game: GameID = entity(1)
        let players: [PlayerID] = [entity(2), entity(3)]
        // 80 scores over 2 players x 18 holes, each correcting what the cell showed (a superseded row each after the
        // first round); after the 50th, the second player is removed from the roster having seen every score so far;
        // later scores
        // of that player are new tags that put them back on the card. The home receives all 82 in one run.
        for index in 0..<80 {
            if index == 50 {
                let tags = try author.store.rosterTags(space.id, game: game, player: players[1])
                try author.edit([.rosterRemove(game: game, player: players[1], observed: tags)])
                #expect(try author.store.roster(space.id, game: game) == [players[0]])
            }
            try author.score(game: game, player: players[index % 2], hole: index / 2 % 18 + 1, strokes: index % 9 + 1)
        }
        let (home, directory) = try Self.fileHome(space)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ops = try author.store.ops(space: space.id)
        #expect(ops.count == 82)
        let report = try home.receive(space: space.id, spaceKey: space.key, ops: ops, mode: .strict, now: receiverNow)
        #expect(report.applied.count == 82)
        #expect(try home.stateHash(space.id) == author.hash())
        #expect(try home.cells(space.id, game: game) == author.store.cells(space.id, game: game))
        #expect(try home.roster(space.id, game: game) == author.store.roster(space.id, game: game))
        // Each cell holds one value, the last entered; the history of a corrected cell names what replaced what.
        let cells = try home.cells(space.id, game: game)
        #expect(cells.count == 36)
        #expect(cells.allSatisfy { $0.values.count == 1 })
        let history = try home.history(space.id, game: game, player: players[0], hole: 1)
        #expect(history.count == 3)
        #expect(history.map(\.supersededBy.count) == [1, 1, 0])
        #expect(history[1].supersedes == [history[0].value.op])
        #expect(
            try history == author.store.history(space.id, game: game, player: players[0], hole: 1))
    }

    @Test("a row SQLite refuses throws its error, writes nothing, and the next row binds afresh")
    func failureLeavesStatementReady() throws {
        let store = try OpStore()
        let space = Data(repeating: 7, count: 16)
        let sql = "INSERT INTO key_seen (space, device, key_check, seen_at) VALUES (?, ?, ?, 1)"
        try store.write("test") { db in
            try db.insertRow(sql) {
                $0.blob(1, space)
                $0.blob(2, [UInt8](repeating: 1, count: 32))
                $0.blob(3, [UInt8]())
            }
            // The same key again: the primary key refuses it.
            #expect(throws: DatabaseError.self) {
                try db.insertRow(sql) {
                    $0.blob(1, space)
                    $0.blob(2, [UInt8](repeating: 1, count: 32))
                    $0.blob(3, [UInt8]())
                }
            }
            // A NOT NULL column left unbound: refused too, and not given the previous row's value.
            #expect(throws: DatabaseError.self) {
                try db.insertRow(sql) {
                    $0.blob(1, space)
                    $0.blob(2, [UInt8](repeating: 2, count: 32))
                }
            }
            try db.insertRow(sql) {
                $0.blob(1, space)
                $0.blob(2, [UInt8](repeating: 3, count: 32))
                $0.blob(3, [9, 9])
            }
            // Blobs beyond what a row binds from the stack (Database.rowArenaBytes): the first fills most of it, the
            // second does not fit and is copied by SQLite, the third fits again; each is stored whole.
            let large = (0..<(Database.rowArenaBytes - 40)).map { UInt8(truncatingIfNeeded: $0) }
            let larger = (0..<(Database.rowArenaBytes + 100)).map { UInt8(truncatingIfNeeded: $0 * 7) }
            try db.insertRow(sql) {
                $0.blob(1, larger)
                $0.blob(2, large)
                $0.blob(3, [UInt8](repeating: 5, count: 8))
            }
            #expect(
                try Row.fetchOne(
                    db, sql: "SELECT space, device, key_check FROM key_seen WHERE space = ?", arguments: [Data(larger)]
                )
                .map { [[UInt8]($0["space"] as Data), [UInt8]($0["device"] as Data), [UInt8]($0["key_check"] as Data)] }
                    == [larger, large, [UInt8](repeating: 5, count: 8)])
            let rows = try Row.fetchAll(
                db, sql: "SELECT device, key_check FROM key_seen WHERE space = ? ORDER BY device", arguments: [space])
            #expect(rows.map { [UInt8]($0["device"] as Data)[0] } == [1, 3])
            // An empty blob is stored as an empty blob, not as NULL.
            #expect(rows.map { [UInt8]($0["key_check"] as Data) } == [[], [9, 9]])
        }
    }

    @Test("score rows are kept in cell order: one B-tree per score op, and a card or a cell is read along its key")
    func scoreKeyedByCell() throws {
        let store = try OpStore()
        try store.read { db in
            // The table's only B-tree is its key (a WITHOUT ROWID table's), whose columns start with the cell.
            #expect(try String.fetchAll(db, sql: "SELECT origin FROM pragma_index_list('score')") == ["pk"])
            let key = try String.fetchAll(
                db,
                sql: """
                    SELECT i.name FROM pragma_index_list('score') l, pragma_index_info(l.name) i
                    WHERE l.origin = 'pk' ORDER BY i.seqno
                    """)
            #expect(key == ["space", "game", "player", "hole", "device", "seq"])
            let blob = Data([1])
            for (sql, arguments) in [
                ("SELECT strokes FROM score WHERE space = ? AND game = ?", [blob, blob] as StatementArguments),
                ("SELECT strokes FROM score WHERE space = ? AND game = ? AND player = ? AND hole = ?", [blob, blob, blob, 1]),
            ] {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map {
                    String.fromDatabaseValue($0["detail"]) ?? ""
                }
                #expect(plan.contains { $0.contains("USING PRIMARY KEY") }, "\(sql): \(plan)")
            }
        }
    }
}
