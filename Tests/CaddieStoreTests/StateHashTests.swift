import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import Testing

@testable import CaddieStore

/// The state hash is what every convergence test and the Devices screen compare: two replicas that disagree on any
/// value they hold must hash differently. The columns it covers are read from the schema, so these tests fail when a
/// table is added without saying whether it is state, and show that every column of a hashed table counts.
@Suite("the state hash covers every field a replica holds")
struct StateHashTests {
    let game: GameID = entity(0xAA)
    let ana: PlayerID = entity(1)

    /// A space with a member, fields, a roster, a score with its statistics and an attestation.
    func fixture() throws -> Author {
        var author = try Author("Ana", space: TestSpace())
        try author.edit([
            .set(game, fields: ["tee": .text("White")]), .set(ana, fields: ["name": .text("Ana")]),
            .rosterAdd(game: game, player: ana),
        ])
        try author.edit([
            .score(
                game: game, player: ana, hole: 1,
                entry: try ScoreEntry(strokes: 4, putts: 2, penalties: 0, fairway: .hit, greenInRegulation: true))
        ])
        try author.edit([.attest(game: game, player: ana, cardHash: Digest32(unchecked: [UInt8](repeating: 7, count: 32)))])
        return author
    }

    @Test("every table of the schema is either hashed or named as not replicated state, with why")
    func everyTableClassified() throws {
        let store = try OpStore()
        let tables = try store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        let hashed = Set(OpStore.StateHash.wholeTables.map(\.table)).union(OpStore.StateHash.standingTables)
        let unhashed = Set(OpStore.StateHash.unhashed.keys)
        #expect(hashed.isDisjoint(with: unhashed))
        #expect(
            Set(tables) == hashed.union(unhashed),
            "tables not classified: \(Set(tables).symmetricDifference(hashed.union(unhashed)))")
        #expect(OpStore.StateHash.unhashed.values.allSatisfy { !$0.isEmpty })
    }

    @Test("two replicas that differ only in a fairway or a green in regulation hash differently")
    func statisticsCount() throws {
        let author = try fixture()
        let before = try author.hash()
        for column in ["fairway", "gir"] {
            try author.store.write("test") { db in try db.execute(sql: "UPDATE score SET \(column) = 1 - \(column)") }
            #expect(try author.hash() != before, "a changed \(column) left the hash as it was")
            try author.store.write("test") { db in try db.execute(sql: "UPDATE score SET \(column) = 1 - \(column)") }
            #expect(try author.hash() == before)
        }
    }

    @Test("changing any column of any hashed row changes the hash; putting it back restores it")
    func everyColumnCounts() throws {
        let author = try fixture()
        let before = try author.hash()
        var checked: [String: Int] = [:]
        for table in OpStore.StateHash.wholeTables.map(\.table) + OpStore.StateHash.standingTables {
            let columns = try author.store.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE name != 'space'", arguments: [table])
            }
            let rows = try author.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            guard rows > 0 else { continue }
            for column in columns {
                try author.store.write("test") { db in
                    try db.execute(sql: "CREATE TEMP TABLE saved AS SELECT * FROM \(table)")
                    try db.execute(
                        sql: """
                            UPDATE \(table) SET \(column) = CASE typeof(\(column))
                                WHEN 'integer' THEN \(column) + 1 WHEN 'real' THEN \(column) + 1
                                WHEN 'text' THEN \(column) || 'x' WHEN 'blob' THEN \(column) || x'00' ELSE 1 END
                            """)
                }
                #expect(try author.hash() != before, "\(table).\(column) changed and the state hash did not")
                try author.store.write("test") { db in
                    try db.execute(sql: "DELETE FROM \(table)")
                    try db.execute(sql: "INSERT INTO \(table) SELECT * FROM saved")
                    try db.execute(sql: "DROP TABLE saved")
                }
                #expect(try author.hash() == before)
                checked[table, default: 0] += 1
            }
        }
        // The fixture holds rows of these, so each of their columns was changed once.
        for table in ["member", "lww", "score", "attestation"] {
            #expect((checked[table] ?? 0) >= 4, "\(table): \(checked[table] ?? 0) columns checked")
        }
        #expect(checked["score"] == 11, "score has eleven columns besides its space: \(checked)")
    }
}
