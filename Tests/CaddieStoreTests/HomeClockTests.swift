import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import Testing

@testable import CaddieStore

/// The home's clock (`home_clock`, migration v13): the newest clock of any op held, which the next local op is
/// stamped after, kept in one row instead of read through an index of every op by its clock.
@Suite("The home's clock")
struct HomeClockTests {
    static func rename(_ name: String) -> [Change] {
        [.set(kind: .player, id: EntityID(unchecked: [7, 7, 7, 7, 7, 7, 7, 7]), fields: ["name": .text(name)])]
    }

    @Test("an op taken in one space moves what the home stamps next in another, within the hour's drag; no index of ops by clock")
    func clockAcrossSpaces() throws {
        let (saturday, sunday) = (TestSpace(), TestSpace())
        var ana = try Author("ana", space: saturday)
        var bob = try Author("bob", space: sunday)
        // Bob's device runs 30 minutes ahead of Ana's; Ana's home takes his ops of the other space.
        bob.clock = ana.clock + 30 * 60_000
        let ahead = try bob.edit(Self.rename("Bob's clock"))
        try ana.store.addSpace(sunday.id, name: "sunday", now: 0)
        let taken = try ana.store.receive(
            space: sunday.id, spaceKey: sunday.key, ops: try bob.store.ops(space: sunday.id), mode: .strict, now: ana.clock)
        #expect(taken.applied.count == 2)
        let next = try ana.edit(Self.rename("after"))
        #expect(next.hlc > ahead.hlc, "Ana's next op, in Saturday, is stamped after what her home holds of Sunday")

        // Three hours ahead: held (within a day), but what Ana signs next is dragged an hour past her wall clock only.
        bob.clock = ana.clock + 3 * 3_600_000
        _ = try bob.edit(Self.rename("far ahead"))
        _ = try ana.store.receive(
            space: sunday.id, spaceKey: sunday.key, ops: Array(try bob.store.ops(space: sunday.id).suffix(1)), mode: .strict,
            now: ana.clock)
        let dragged = try ana.edit(Self.rename("dragged"))
        #expect(dragged.hlc == HLC.next(after: HLC.dragLimit(now: ana.clock), wallClockMilliseconds: ana.clock))

        // The clock is one row, and nothing indexes the log by clock.
        let (clock, indexes) = try ana.store.db.read { db in
            (
                try Int64.fetchOne(db, sql: "SELECT hlc FROM home_clock"),
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'op'")
            )
        }
        #expect(clock.map { UInt64(bitPattern: $0) } == bob.clock << 16, "the newest op held: Bob's far-ahead one")
        #expect(indexes.filter { !$0.hasPrefix("sqlite_autoindex") }.isEmpty, "\(indexes)")
    }
}
