import CaddieCore
import Foundation
import GRDB
import Testing

@testable import CaddieStore

/// The tables mapped by GRDB records: what goes in comes back, and a damaged row is an error, not a value.
@Suite("Store records")
struct RecordTests {
    static let space = SpaceID(unchecked: [UInt8](repeating: 3, count: 16))
    static let device = PublicKey(unchecked: [UInt8](repeating: 4, count: 32))

    static func peer(lastSeen: UInt64, lastSync: UInt64?, sent: Int) -> PeerRecord {
        PeerRecord(
            space: space, device: device, address: "127.0.0.1:7400", foundBy: "static", userName: "Ben",
            lastSeen: lastSeen, lastSync: lastSync, vector: "", sent: sent, received: 2)
    }

    @Test("a peer is recorded once per space and device; a session without a completed sync keeps the last sync time")
    func peers() throws {
        let store = try OpStore()
        try store.recordPeer(Self.peer(lastSeen: 10, lastSync: 10, sent: 1))
        try store.recordPeer(Self.peer(lastSeen: 20, lastSync: nil, sent: 5))
        #expect(try store.peers() == [Self.peer(lastSeen: 20, lastSync: 10, sent: 5)])
        try store.recordPeer(Self.peer(lastSeen: 30, lastSync: 30, sent: 6))
        #expect(try store.peers() == [Self.peer(lastSeen: 30, lastSync: 30, sent: 6)])
    }

    @Test("spaces come back in the order they were joined; adding one again changes nothing")
    func spaces() throws {
        let store = try OpStore()
        let other = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
        try store.addSpace(Self.space, name: "Saturday", now: 5)
        try store.addSpace(other, name: "Sunday", now: 6)
        try store.addSpace(Self.space, name: "renamed", now: 7)
        #expect(try store.spaces().map(\.id) == [Self.space, other])
        #expect(try store.spaces().map(\.name) == ["Saturday", "Sunday"])
    }

    @Test("a peer row whose device key has the wrong length is an error, not a crash or a wrong key")
    func damagedRow() throws {
        let store = try OpStore()
        try store.write("test") { db in
            try db.execute(
                sql: "INSERT INTO peer VALUES (?, ?, 'a', 'static', 'Ben', 1, NULL, '', 0, 0)",
                arguments: [Data(Self.space.bytes), Data([1, 2, 3])])
        }
        #expect(throws: StoreError.self) { try store.peers() }
    }

    @Test("a damaged space row is refused with what to do: restore the file from a backup or remove the row")
    func damagedSpaceRow() throws {
        let store = try OpStore()
        try store.addSpace(Self.space, name: "Saturday", now: 5)
        try store.write("test") { db in
            try db.execute(sql: "INSERT INTO space (id, name, joined_at) VALUES (?, 'broken', 6)", arguments: [Data([1, 2])])
        }
        #expect {
            try store.spaces()
        } throws: { error in
            let text = "\(error)"
            return text.contains("a row of the home's database is damaged") && text.contains("restore caddie.sqlite")
                && text.contains("broken")
        }
    }

    @Test("an op row whose device key or hash has the wrong length is an error that says what to do, not a trap")
    func damagedOpRow() throws {
        let space = TestSpace()
        var author = try Author("ana", space: space)
        try author.edit([.score(game: entity(1), player: entity(2), hole: 1, entry: try ScoreEntry(strokes: 4))])
        try author.edit([.score(game: entity(1), player: entity(2), hole: 2, entry: try ScoreEntry(strokes: 5))])
        let ops = try author.store.ops(space: space.id)
        let home = try replica(space)
        _ = try home.receive(space: space.id, spaceKey: space.key, ops: Array(ops.prefix(2)), mode: .strict, now: receiverNow)
        #expect(try home.heads(space.id).count == 1)
        try home.write("test") { db in
            try db.execute(sql: "UPDATE op SET hash = ? WHERE seq = 2", arguments: [Data([1, 2, 3])])
        }
        let damaged: (any Error) -> Bool = { error in
            let text = "\(error)"
            return text.contains("damaged") && text.contains("restore caddie.sqlite") && text.contains("3 bytes, not 32")
        }
        #expect(performing: { try home.heads(space.id) }, throws: damaged)
        // The next op links to the damaged one: its receive reads the device's head, and is refused whole.
        #expect(
            performing: {
                try home.receive(space: space.id, spaceKey: space.key, ops: [ops[2]], mode: .tolerant, now: receiverNow)
            }, throws: damaged)
        #expect(try home.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM op") } == 2)
        try home.write("test") { db in
            try db.execute(
                sql: "UPDATE op SET hash = ?, device = ? WHERE seq = 2", arguments: [Data(repeating: 0, count: 32), Data([9])])
        }
        #expect(
            performing: { try home.verify(space.id, spaceKeys: [space.key]) }, throws: { "\($0)".contains("1 bytes, not 32") })
    }

    @Test("a score row or an attestation whose player id has the wrong length is an error, not a wrong id")
    func damagedScoreRow() throws {
        let store = try OpStore()
        let game = GameID(unchecked: [UInt8](repeating: 5, count: 8))
        let player = PlayerID(unchecked: [UInt8](repeating: 6, count: 8))
        try store.write("test") { db in
            try db.execute(
                sql: "INSERT INTO score (space, device, seq, game, player, hole, hlc, strokes) VALUES (?, ?, 2, ?, ?, 1, 1, 4)",
                arguments: [Self.space, Self.device, game, player])
        }
        #expect(try store.cells(Self.space, game: game).map(\.player) == [player])
        try store.write("test") { db in
            try db.execute(
                sql: "INSERT INTO score (space, device, seq, game, player, hole, hlc, strokes) VALUES (?, ?, 3, ?, ?, 2, 2, 5)",
                arguments: [Self.space, Self.device, game, Data([1, 2, 3])])
            try db.execute(
                sql: "INSERT INTO attestation VALUES (?, ?, 4, ?, ?, ?, ?)",
                arguments: [Self.space, Self.device, Self.device, game, Data([1, 2, 3]), Data(repeating: 0, count: 32)])
        }
        #expect(throws: StoreError.self) { try store.cells(Self.space, game: game) }
        #expect(throws: StoreError.self) { try store.attestations(Self.space, game: game) }
    }

    @Test("ids are stored as BLOBs of their bytes, so the hand-written statements and the records find the same rows")
    func blobColumns() throws {
        let store = try OpStore()
        try store.addSpace(Self.space, name: "Saturday", now: 5)
        try store.recordPeer(Self.peer(lastSeen: 10, lastSync: 10, sent: 1))
        let types = try store.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT typeof(id) || '/' || length(id) FROM space UNION ALL SELECT typeof(device) || '/' || length(device) FROM peer"
            )
        }
        #expect(types == ["blob/16", "blob/32"])
    }
}
