import CaddieCore
import CaddieCrypto
import Testing

@testable import CaddieStore

/// The locked card (``CardLock``) on real stores: what each replica's cells show, whatever order the ops came in.
@Suite("The locked card of a competition")
struct CardLockTests {
    let game: GameID = entity(0xAA)
    let medal: CompetitionID = entity(0xCC)
    let ana: PlayerID = entity(1)

    /// The committee makes a competition and its group; the marker scores Ana's first three holes (4s); every other
    /// author has seen that.
    func setUp() throws -> (committee: Author, marker: Author, player: Author, late: Author) {
        let space = TestSpace()
        var committee = try Author("Committee", space: space)
        try committee.edit([.set(medal, fields: ["name": .text("Medal"), "created": .integer(1)])])
        try committee.edit([
            .set(game, fields: ["tee": .text("White"), "competition": .bytes(medal.bytes)]),
            .rosterAdd(game: game, player: ana),
        ])
        var marker = try Author("Ben", space: space)
        try marker.pull(from: committee)
        for hole in 1...3 { try marker.score(game: game, player: ana, hole: hole, strokes: 4) }
        let player = try Author("Ana", space: space)
        let late = try Author("Cal", space: space)
        for author in [player, late, committee] { try author.pull(from: marker) }
        return (committee, marker, player, late)
    }

    func strokes(_ author: Author) throws -> [Int: Int] { try strokes(author.store, author.space.id) }

    func strokes(_ store: OpStore, _ space: SpaceID) throws -> [Int: Int] {
        var shown: [Int: Int] = [:]
        for cell in try store.cells(space, game: game) where cell.player == ana {
            shown[cell.hole] = cell.winner?.entry.strokes
        }
        return shown
    }

    /// The marker and the player sign Ana's card as the marker's store shows it, later than anything entered so far.
    func sign(_ marker: inout Author, _ player: inout Author) throws {
        let hash = CardLock.cardHash(game: game, player: ana, cells: try marker.store.cells(marker.space.id, game: game))
        marker.clock += 1_000
        player.clock += 1_000
        try marker.edit([.attest(game: game, player: ana, cardHash: hash)])
        try player.edit([.attest(game: game, player: ana, cardHash: hash)])
        try marker.pull(from: player)
        try player.pull(from: marker)
    }

    /// A replica that only receives, fed from each source in turn: what it shows after each.
    func fed(from sources: [Author], into given: OpStore? = nil) throws -> (store: OpStore, shown: [[Int: Int]]) {
        let space = sources[0].space
        let store = try given ?? replica(space)
        var shown: [[Int: Int]] = []
        for source in sources {
            let ops = try source.store.ops(space: space.id, notIn: try store.vector(space.id))
            _ = try store.receive(space: space.id, spaceKey: space.key, ops: ops, mode: .tolerant, now: receiverNow)
            shown.append(try strokes(store, space.id))
        }
        return (store, shown)
    }

    @Test("two signatures lock the card: a later entry is refused, the committee's counts, on every replica alike")
    func laterEntriesRefused() throws {
        var (committee, marker, player, late) = try setUp()
        // One signature is no lock.
        let hash = CardLock.cardHash(game: game, player: ana, cells: try marker.store.cells(marker.space.id, game: game))
        marker.clock += 1_000
        try marker.edit([.attest(game: game, player: ana, cardHash: hash)])
        #expect(try marker.store.cardLocks(marker.space.id, game: game).isEmpty)
        player.clock += 1_000
        try player.edit([.attest(game: game, player: ana, cardHash: hash)])
        try marker.pull(from: player)
        let lock = try #require(try marker.store.cardLocks(marker.space.id, game: game).first)
        #expect(lock.player == ana && lock.cardHash == hash && lock.refused.isEmpty)
        // After the lock: the player's own 5 on the 3rd, made before the player's store heard of the marker's
        // signature, is refused; the committee's 3 on the 1st counts.
        player.clock += 10
        let refused = try player.score(game: game, player: ana, hole: 3, strokes: 5)
        try committee.pull(from: marker)
        committee.clock += 1_020
        try committee.score(game: game, player: ana, hole: 1, strokes: 3)
        // A replica that hears of the late 5 before the second signature (from the player, then the committee), and
        // one that hears of it after (the marker, then the player and the committee).
        let first = try fed(from: [late, player, committee])
        #expect(first.shown[1][3] == 5, "one signature is no lock: the 5 shows")
        try marker.pull(from: player)
        try marker.pull(from: committee)
        let second = try fed(from: [marker, player, committee, late])
        for store in [first.store, second.store, marker.store] {
            #expect(
                try strokes(store, marker.space.id) == [1: 3, 2: 4, 3: 4], "the late 5 is off the card, the committee's 3 on it")
            let locked = try #require(try store.cardLocks(marker.space.id, game: game).first)
            #expect(locked.refused.map(\.value.op) == [refused.id] && locked.refused.map(\.hole) == [3])
        }
        #expect(try first.store.stateHash(marker.space.id) == second.store.stateHash(marker.space.id))
    }

    @Test("an entry made before the signatures that arrives after them unlocks the card: nothing hidden the two did not see")
    func earlierEntryUnlocks() throws {
        var (_, marker, player, late) = try setUp()
        // Cal enters a 7 on the 2nd, replacing the marker's 4, before the signatures (his clock is behind theirs).
        try late.score(game: game, player: ana, hole: 2, strokes: 7)
        try sign(&marker, &player)
        #expect(try marker.store.cardLocks(marker.space.id, game: game).count == 1)
        player.clock += 10
        try player.score(game: game, player: ana, hole: 3, strokes: 5)
        try marker.pull(from: player)
        #expect(try strokes(marker) == [1: 4, 2: 4, 3: 4], "locked: the player's later 5 is refused")
        let last = try fed(from: [marker, player])
        // Cal's 7 arrives: the card the two signed is not the card of the entries before their signatures any more.
        try marker.pull(from: late)
        #expect(try marker.store.cardLocks(marker.space.id, game: game).isEmpty)
        #expect(try strokes(marker) == [1: 4, 2: 7, 3: 5])
        // The same on a replica that had Cal's 7 first, and on one that had it last.
        let first = try fed(from: [late, player, marker])
        #expect(last.shown.last == [1: 4, 2: 4, 3: 4], "locked until Cal's 7 comes")
        #expect(try fed(from: [late], into: last.store).shown == [[1: 4, 2: 7, 3: 5]])
        #expect(first.shown.last == [1: 4, 2: 7, 3: 5])
        #expect(try first.store.stateHash(marker.space.id) == last.store.stateHash(marker.space.id))
    }

    @Test("with the player and the marker linked to users, their two signatures lock the card and no one else's do")
    func playerAndMarkerSign() throws {
        var (committee, marker, player, late) = try setUp()
        let ben: PlayerID = entity(2)
        try committee.pull(from: late)
        committee.clock += 10
        try committee.edit([
            .set(ana, fields: ["name": .text("Ana"), "user": .bytes(player.user.publicKey.bytes)]),
            .set(ben, fields: ["name": .text("Ben"), "user": .bytes(marker.user.publicKey.bytes)]),
            .set(game, fields: [GameRecord.markerField(ana): .bytes(ben.bytes)]),
        ])
        for author in [marker, player, late] { try author.pull(from: committee) }
        let hash = CardLock.cardHash(game: game, player: ana, cells: try marker.store.cells(marker.space.id, game: game))
        // Ana and Cal, who is not her marker: no lock.
        for author in [player, late] {
            var signer = author
            signer.clock += 1_000
            try signer.edit([.attest(game: game, player: ana, cardHash: hash)])
            try marker.pull(from: signer)
        }
        #expect(try marker.store.cardLocks(marker.space.id, game: game).isEmpty, "Cal does not mark Ana")
        // Her marker signs too: locked.
        marker.clock += 1_000
        try marker.edit([.attest(game: game, player: ana, cardHash: hash)])
        let lock = try #require(try marker.store.cardLocks(marker.space.id, game: game).first)
        #expect(lock.player == ana && lock.signatures.count == 2)
    }

    @Test("a game outside a competition, or one signed twice by one user, is never locked")
    func noLock() throws {
        var (committee, marker, player, _) = try setUp()
        // Two signatures of one user are one signature.
        let hash = CardLock.cardHash(game: game, player: ana, cells: try marker.store.cells(marker.space.id, game: game))
        marker.clock += 1_000
        try marker.edit([.attest(game: game, player: ana, cardHash: hash)])
        try marker.edit([.attest(game: game, player: ana, cardHash: hash)])
        #expect(try marker.store.cardLocks(marker.space.id, game: game).isEmpty)
        // The committee takes the game out of the competition: the two users' signatures lock nothing.
        try committee.pull(from: marker)
        committee.clock += 1_100
        try committee.edit([.set(game, fields: ["competition": .bytes([])])])
        try marker.pull(from: committee)
        try player.pull(from: marker)
        player.clock += 1_000
        try player.edit([.attest(game: game, player: ana, cardHash: hash)])
        player.clock += 10
        try player.score(game: game, player: ana, hole: 3, strokes: 5)
        try marker.pull(from: player)
        #expect(try marker.store.cardLocks(marker.space.id, game: game).isEmpty)
        #expect(try strokes(marker) == [1: 4, 2: 4, 3: 5])
    }
}
