import CaddieCore
import CaddieCrypto
import GRDB
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

    /// Fresh replicas fed the three authors' ops in each of the six orders, each checked by `check`: the state hash
    /// each ends in.
    func inEveryOrder(
        _ sources: [[[UInt8]]], _ day: Day, check: (OpStore, [Int]) throws -> Void
    ) throws -> Set<Digest32> {
        var hashes: Set<Digest32> = []
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let store = try replica(day.creator.space)
            for source in order {
                _ = try store.receive(
                    space: day.creator.space.id, spaceKey: day.creator.space.key, ops: sources[source], mode: .tolerant,
                    now: receiverNow)
            }
            try check(store, order)
            hashes.insert(try store.stateHash(day.creator.space.id))
        }
        return hashes
    }

    func record(_ store: OpStore, _ day: Day) throws -> CompetitionRecord {
        CompetitionRecord(
            id: day.medal,
            fields: try #require(try store.record(day.creator.space.id, kind: .competition, id: day.medal.entity)))
    }

    @Test("only the creator and the members they named write a competition's record, in every order the ops arrive")
    func onlyTheCommitteeCounts() throws {
        let day = try day()
        let sources = [try own(day.creator), try own(day.member), try own(day.forger)]
        let hashes = try inEveryOrder(sources, day) { store, order in
            let medal = try record(store, day)
            #expect(medal.name == "Medal", "the forger's name does not count (order \(order))")
            #expect(medal.owner == day.creator.user.publicKey, "the creator the id names (order \(order))")
            #expect(medal.statuses == [pat: "DQ"], "Pat's DQ stands; Mia's NR before her naming does not (order \(order))")
            #expect(medal.committee == [day.member.user.publicKey], "Pat did not name himself (order \(order))")
            #expect(medal.hiddenHoles == 3, "Mia's write after her naming counts (order \(order))")
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
            _ = try store.receive(
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
    /// A game's record as a store holds it.
    func game(_ store: OpStore, _ day: Day, _ id: GameID) throws -> [String: FieldValue] {
        try store.record(day.creator.space.id, kind: .game, id: id.entity) ?? [:]
    }

    @Test(
        "a competition's group takes writes of its game from the committee only, in every order the ops arrive and after a rebuild"
    )
    func groupsAreTheCommittees() throws {
        var day = try day()
        let course: CourseID = entity(0xC0)
        let group: GameID = entity(0x61)
        let friendly: GameID = entity(0x62)
        let own: GameID = entity(0x63)
        let medal = day.medal.bytes
        // Pat makes a friendly game, later bound to the competition: what he wrote before the binding counts.
        day.forger.clock += 10
        try day.forger.edit([.set(friendly, fields: GameRecord.fields(course: course, tee: "Yellow", createdAt: 1))])
        // The draw: a group bound to the competition, Kim marking Pat.
        day.creator.clock += 3_000
        let draw = try day.creator.edit([
            .set(
                group,
                fields: GameRecord.fields(course: course, tee: "White", createdAt: 2).merging([
                    "competition": .bytes(medal), "group": .text("1"), GameRecord.markerField(pat): .bytes(kim.bytes),
                ]) { $1 }),
            .set(friendly, fields: ["competition": .bytes(medal)]),
            .rosterAdd(game: group, player: pat), .rosterAdd(game: group, player: kim),
        ])
        // Pat, on no committee: takes his group out, marks himself by his friend, finishes and deletes it, moves to
        // the yellow tee, binds a game of his own to the competition; and leaves a track mark, which is his to leave.
        day.forger.clock += 5_000
        let track = "track/\(pat.hex)/01"
        try day.forger.edit([
            .set(
                group,
                fields: [
                    "competition": .null, GameRecord.markerField(pat): .bytes((entity(9) as PlayerID).bytes),
                    "finished": .integer(1),
                    "deleted": .integer(1), "tee": .text("Yellow"), track: .bytes([1, 2, 3]),
                ]),
            .set(friendly, fields: ["finished": .integer(1)]),
            .rosterRemove(game: group, player: kim, observed: [draw.id]), .rosterAdd(game: group, player: entity(9)),
            .set(
                own,
                fields: GameRecord.fields(course: course, tee: "Red", createdAt: 3).merging(["competition": .bytes(medal)]) { $1 }
            ),
        ])
        // Mia, named to the committee, changes Pat's marker.
        day.member.clock += 6_000
        try day.member.edit([
            .set(group, fields: [GameRecord.markerField(pat): .bytes((entity(7) as PlayerID).bytes)]),
            .rosterAdd(game: group, player: entity(7)),
        ])
        let sources = [try self.own(day.creator), try self.own(day.member), try self.own(day.forger)]
        let hashes = try inEveryOrder(sources, day) { store, order in
            let held = GameRecord(id: group, fields: try game(store, day, group))
            #expect(held.competition == day.medal, "the group stays in the competition (order \(order))")
            #expect(held.markers[pat] == (entity(7) as PlayerID), "the committee's marker, not Pat's choice (order \(order))")
            #expect(
                !held.finished && !held.deleted && held.tee == "White",
                "Pat's finish, deletion and tee do not count (order \(order))")
            #expect(try game(store, day, group)[track] == .bytes([1, 2, 3]), "Pat's track mark counts (order \(order))")
            #expect(
                try Set(store.roster(day.creator.space.id, game: group)) == [pat, kim, entity(7)],
                "Kim stays in the group, Pat's friend is not added, Mia's player is (order \(order))")
            let bound = GameRecord(id: friendly, fields: try game(store, day, friendly))
            #expect(bound.competition == day.medal && bound.tee == "Yellow", "Pat's game, bound (order \(order))")
            #expect(!bound.finished, "Pat's finish after the binding does not count (order \(order))")
            let mine = GameRecord(id: own, fields: try game(store, day, own))
            #expect(mine.competition == nil && mine.tee == "Red", "Pat cannot bind his game to the competition (order \(order))")
        }
        #expect(hashes.count == 1, "every order ends in the same state")
        // A rebuild (as a revocation or a fork makes) works the same state out from the log.
        let store = try replica(day.creator.space)
        _ = try store.receive(
            space: day.creator.space.id, spaceKey: day.creator.space.key, ops: sources.flatMap { $0 }, mode: .tolerant,
            now: receiverNow)
        try store.db.write { db in try Materializer(db: db, space: day.creator.space.id, recorder: nil).rebuild() }
        #expect(try store.stateHash(day.creator.space.id) == hashes.first)
    }
}
