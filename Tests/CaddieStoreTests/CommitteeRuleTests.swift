import CaddieCore
import CaddieCrypto
import Testing

@testable import CaddieStore

/// The committee's rule on every node (Materializer+Committee.swift), on real stores: a competition whose id names
/// its creator takes writes of its record from the creator and the members they named only, whatever order the
/// ops arrive in.
@Suite("The committee's rule, applied by every node to the ops it takes")
struct CommitteeRuleTests {
    let pat: PlayerID = entity(2)
    let kim: PlayerID = entity(3)

    struct Day {
        var creator: Author
        var member: Author
        var forger: Author
        let medal: CompetitionID
    }

    /// The creator makes a competition whose id names them and disqualifies Pat; Mia marks Kim NR before she is
    /// named to the committee, is named, then hides the last 3 holes; Pat, on no committee, clears his DQ, names
    /// himself, renames the competition, and claims to be its creator with a salt of his own.
    func day() throws -> Day {
        let space = TestSpace()
        var creator = try Author("Committee", space: space)
        var member = try Author("Mia", space: space)
        var forger = try Author("Pat", space: space)
        let salt = SecureRandom.bytes(16)
        let medal = CompetitionID(Membership.ownedCompetitionID(owner: creator.user.publicKey, salt: salt))
        try creator.edit([
            .set(
                medal,
                fields: CompetitionRecord.fields(
                    owner: creator.user.publicKey, ownerSalt: salt, name: "Medal", createdAt: 1, scoring: "gross",
                    countback: "r-and-a", allowance: 95, divisions: [], twosByDivision: false))
        ])
        try creator.edit([.set(medal, fields: [CompetitionRecord.statusField(pat): .text("DQ")])])
        member.clock += 10
        try member.edit([.set(medal, fields: [CompetitionRecord.statusField(kim): .text("NR")])])
        creator.clock += 100
        let mia = member.user.publicKey
        try creator.edit([.set(medal, fields: [CompetitionRecord.committeeField(mia): .bytes(mia.bytes)])])
        member.clock += 1_000
        try member.edit([.set(medal, fields: ["hide": .integer(3)])])
        forger.clock += 2_000
        let patKey = forger.user.publicKey
        try forger.edit([
            .set(
                medal,
                fields: [
                    CompetitionRecord.statusField(pat): .text(""), CompetitionRecord.committeeField(patKey): .bytes(patKey.bytes),
                    "name": .text("Pat's Medal"), "owner": .bytes(patKey.bytes), "ownerSalt": .bytes(SecureRandom.bytes(16)),
                ])
        ])
        return Day(creator: creator, member: member, forger: forger, medal: medal)
    }

    /// An author's own ops (its store holds no one else's).
    func own(_ author: Author) throws -> [[UInt8]] { try author.store.ops(space: author.space.id) }

    func record(_ store: OpStore, _ day: Day) throws -> CompetitionRecord {
        CompetitionRecord(
            id: day.medal,
            fields: try #require(try store.record(day.creator.space.id, kind: .competition, id: day.medal.entity)))
    }

    @Test("only the creator and the members they named write a competition's record, in every order the ops arrive")
    func onlyTheCommitteeCounts() throws {
        let day = try day()
        let sources = [try own(day.creator), try own(day.member), try own(day.forger)]
        var hashes: Set<Digest32> = []
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let store = try replica(day.creator.space)
            for source in order {
                try store.receive(
                    space: day.creator.space.id, spaceKey: day.creator.space.key, ops: sources[source], mode: .tolerant,
                    now: receiverNow)
            }
            let medal = try record(store, day)
            #expect(medal.name == "Medal", "the forger's name does not count (order \(order))")
            #expect(medal.owner == day.creator.user.publicKey, "the creator the id names (order \(order))")
            #expect(medal.statuses == [pat: "DQ"], "Pat's DQ stands; Mia's NR before her naming does not (order \(order))")
            #expect(medal.committee == [day.member.user.publicKey], "Pat did not name himself (order \(order))")
            #expect(medal.hiddenHoles == 3, "Mia's write after her naming counts (order \(order))")
            hashes.insert(try store.stateHash(day.creator.space.id))
        }
        #expect(hashes.count == 1, "every order ends in the same state")
        // Every op is kept for the audit, the forger's too.
        let store = try replica(day.creator.space)
        let report = try store.receive(
            space: day.creator.space.id, spaceKey: day.creator.space.key, ops: sources.flatMap { $0 }, mode: .tolerant,
            now: receiverNow)
        #expect(report.applied.count == sources.map(\.count).reduce(0, +) && report.rejected.isEmpty)
    }

    @Test(
        "a member taken off the committee: their writes stop counting on every node; a competition with no creator in its id keeps every write"
    )
    func memberTakenOff() throws {
        var day = try day()
        try day.creator.pull(from: day.member)
        #expect(try record(day.creator.store, day).hiddenHoles == 3)
        let mia = day.member.user.publicKey
        day.creator.clock += 5_000
        try day.creator.edit([.set(day.medal, fields: [CompetitionRecord.committeeField(mia): .bytes([])])])
        let medal = try record(day.creator.store, day)
        #expect(medal.committee.isEmpty && medal.hiddenHoles == 0, "Mia's hidden holes went with her")
        // A replica fed the member's ops after the creator's: the same state.
        let store = try replica(day.creator.space)
        for source in [try own(day.member), try day.creator.store.ops(space: day.creator.space.id)] {
            try store.receive(
                space: day.creator.space.id, spaceKey: day.creator.space.key, ops: source, mode: .tolerant, now: receiverNow)
        }
        #expect(try store.stateHash(day.creator.space.id) == (try day.creator.hash()))
        // A competition an earlier version made (a random id, no creator in it) takes every member's write, as before.
        let space = TestSpace()
        var ana = try Author("Ana", space: space)
        var ben = try Author("Ben", space: space)
        let old: CompetitionID = entity(0xCC)
        try ana.edit([.set(old, fields: ["name": .text("Medal"), "created": .integer(1)])])
        ben.clock += 10
        try ben.edit([.set(old, fields: [CompetitionRecord.statusField(pat): .text("NR")])])
        try ana.pull(from: ben)
        let fields = try #require(try ana.store.record(space.id, kind: .competition, id: old.entity))
        #expect(CompetitionRecord(id: old, fields: fields).statuses == [pat: "NR"])
    }
}
