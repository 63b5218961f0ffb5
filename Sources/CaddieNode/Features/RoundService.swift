import CaddieCore
import CaddieCrypto
import CaddieServices
import CaddieStore
import Foundation

/// Players, games, scores, cards and attestations, and merging by bundle file.
public struct RoundService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any RoundStore { home.store }
}

extension RoundService {

    // MARK: Players

    /// The players of a space, by name.
    public func players(_ space: SpaceID) throws(NodeError) -> [PlayerRecord] {
        try run { try store.all(space, PlayerRecord.self) }.sortedByName()
    }

    /// Adds a player.
    func addPlayer(
        space: SpaceID, keys: UnlockedKeys, name: String, user: PublicKey?, handicapIndex: Double?
    )
        throws(NodeError) -> PlayerID
    {
        let (id, changes) = try addPlayerChanges(space: space, name: name, user: user, handicapIndex: handicapIndex)
        try append(space: space, keys: keys, changes: changes)
        return id
    }

    /// The change that adds a player, checked (the name, the index, a name already taken) without signing anything:
    /// ``addPlayer(space:keys:name:user:handicapIndex:)`` signs it; a phone that is a device of its own signs it
    /// itself (the API's player drafts).
    public func addPlayerChanges(
        space: SpaceID, name: String, user: PublicKey?, handicapIndex: Double?, id given: PlayerID? = nil
    )
        throws(NodeError) -> (id: PlayerID, changes: [Change])
    {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { throw .badInput(.name, "must be 1...64 characters") }
        if let handicapIndex, !Handicap.handicapIndexRange.contains(handicapIndex) {
            throw .badInput(
                .index,
                "is wrong: a Handicap Index must be between +\(Int(-Handicap.handicapIndexRange.lowerBound)) (written as a "
                    + "negative number) and 54.0, got \(handicapIndex)")
        }
        if let same = try players(space).first(where: { $0.name.caseInsensitiveCompare(trimmed) == .orderedSame }) {
            throw .badInput(
                .name,
                "is taken: a player named \(same.name) is already in this space (id \(same.id.hex)): give the new player a "
                    + "name that tells the two apart, e.g. '\(trimmed) B.' or '\(trimmed) (club)', or use the existing one")
        }
        // An id the phone chose (so that it knows the record is new): refused when a player has it.
        if let given, try run({ try store.one(space, given) as PlayerRecord? }) != nil {
            throw .conflict("a player has the id \(given.short) already: a new player needs a new id")
        }
        let id = given ?? PlayerID(SecureRandom.entityID())
        return (id, [.set(id, fields: PlayerRecord.fields(name: trimmed, user: user, handicapIndex: handicapIndex))])
    }

    /// The player meant by `text`: an id, a unique id prefix, or a unique name (any case).
    public func resolvePlayer(_ space: SpaceID, _ text: String) throws(NodeError) -> PlayerRecord {
        // A whole id (what a phone or a program sends) is one read, not the space's every player.
        if let id = PlayerID(hex: text) {
            let found: PlayerRecord? = try run { try store.one(space, id) }
            if let found { return found }
        }
        return try resolve(text, in: try players(space), what: "player", list: .players, id: \.id, name: \.name)
    }

    /// Each player's name, by id (unsorted: for a reader that only names players).
    public func playerNames(_ space: SpaceID) throws(NodeError) -> [PlayerID: String] {
        Dictionary(try run { try store.all(space, PlayerRecord.self) }.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Courses

    // MARK: Games

    /// The games of a space, newest first; deleted games only when asked for.
    public func games(_ space: SpaceID, includeDeleted: Bool = false) throws(NodeError) -> [GameRecord] {
        try run { try store.all(space, GameRecord.self) }
            .filter { includeDeleted || !$0.deleted }
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    /// The game meant by `text`: an id or unique id prefix. A deleted game is found only when asked for.
    public func resolveGame(_ space: SpaceID, _ text: String, includeDeleted: Bool = false) throws(NodeError) -> GameRecord {
        do {
            return try resolve(
                text, in: try games(space, includeDeleted: includeDeleted), what: "game",
                list: .games, id: \.id, name: nil
            ) { game in
                // Read only to tell apart the games an ambiguous prefix fits.
                let course = game.course.flatMap { try? courses.course(space, $0) }?.name ?? "unknown course"
                return "\(course), \(Views.time(milliseconds: game.createdAt))"
            }
        } catch .notFound(let message, let remedy) {
            // Not among the games in play: say so plainly when the text names a deleted one.
            if !includeDeleted, let deleted = try? resolveGame(space, text, includeDeleted: true), deleted.deleted {
                throw .notFound("game \(deleted.id.short) was deleted", .restore(deleted.id))
            }
            throw .notFound(message, remedy)
        }
    }

    /// The game with this id; a deleted one only when asked for.
    public func game(_ space: SpaceID, _ id: GameID, includeDeleted: Bool = false) throws(NodeError) -> GameRecord {
        guard let game: GameRecord = try run({ try store.one(space, id) }) else {
            throw .notFound("no game \(id.short) in this space", .list(.games))
        }
        if game.deleted, !includeDeleted {
            throw .notFound("game \(id.short) was deleted", .restore(id))
        }
        return game
    }

    /// The player with this id.
    public func player(_ space: SpaceID, _ id: PlayerID) throws(NodeError) -> PlayerRecord {
        guard let player: PlayerRecord = try run({ try store.one(space, id) }) else {
            throw .notFound("no player \(id.short) in this space", .list(.players))
        }
        return player
    }

    /// The players meant by a list of texts, in order (each an id, id prefix or name; spaces around it ignored).
    public func resolvePlayers(_ space: SpaceID, _ texts: [String]) throws(NodeError) -> [PlayerID] {
        try texts.map { text throws(NodeError) in try resolvePlayer(space, text.trimmingCharacters(in: .whitespaces)).id }
    }

    /// Player and marker pairs as typed (`Ben:Ana`), resolved to ids.
    public func resolveMarkers(
        _ space: SpaceID, _ texts: [(player: String, marker: String)]
    ) throws(NodeError) -> [(player: PlayerID, marker: PlayerID)] {
        try texts.map { pair throws(NodeError) in
            let ids = try resolvePlayers(space, [pair.player, pair.marker])
            return (ids[0], ids[1])
        }
    }

    /// Creates a game on a course from one tee, with its roster and, optionally, who marks whom (pairs of
    /// player and marker).
    func newGame(
        space: SpaceID, keys: UnlockedKeys, course courseID: CourseID, tee teeName: String,
        players: [PlayerID], markers markerPairs: [(player: PlayerID, marker: PlayerID)] = [],
        setup: GameSetup<PlayerID> = GameSetup()
    )
        throws(NodeError) -> GameID
    {
        let (id, changes) = try newGameChanges(
            space: space, course: courseID, tee: teeName, players: players, markers: markerPairs, setup: setup)
        try append(space: space, keys: keys, changes: changes)
        return id
    }

    /// The changes that create a game, checked (the tees, the roster, the markers, the setup) without signing
    /// anything: ``newGame(space:keys:course:tee:players:markers:setup:)`` signs them, and a command calls this
    /// first to refuse a mistake before it asks for the passphrase.
    public func newGameChanges(
        space: SpaceID, course courseID: CourseID, tee teeName: String,
        players: [PlayerID], markers markerPairs: [(player: PlayerID, marker: PlayerID)] = [],
        setup: GameSetup<PlayerID> = GameSetup(), id given: GameID? = nil
    )
        throws(NodeError) -> (id: GameID, changes: [Change])
    {
        let course = try courses.course(space, courseID)
        let tee = try CourseService.tee(named: teeName, of: course)
        guard !players.isEmpty else { throw .badInput(.players, "names nobody: a game needs at least one player") }
        var roster: [PlayerID] = []
        for id in players {
            let player = try player(space, id)
            guard !roster.contains(id) else { throw .badInput(.players, "lists \(player.name) twice") }
            roster.append(id)
        }
        let markers = try checkMarkers(space, markerPairs, roster: roster)
        if let given, try run({ try store.one(space, given) as GameRecord? }) != nil {
            throw .conflict("a game has the id \(given.short) already: a new game needs a new id")
        }
        let id = given ?? GameID(SecureRandom.entityID())
        var fields = GameRecord.fields(course: course.id, tee: tee.name, createdAt: Home.now())
        for (player, marker) in markers { fields[GameRecord.markerField(player)] = .bytes(marker.bytes) }
        var extra = setup
        extra.tee = nil
        fields.merge(try setupFields(space: space, course: course, game: nil, roster: roster, setup: extra)) { _, new in new }
        return (id, [.set(id, fields: fields)] + roster.map { .rosterAdd(game: id, player: $0) })
    }

    /// Says who marks a player in a game (a last-writer-wins field of the game, synced like the others).
    @discardableResult
    func setMarker(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID, marker: PlayerID
    )
        throws(NodeError) -> OpID
    {
        let card = try card(space: space, game: game)
        // In a competition's group the draw says who marks whom, and only its committee changes it.
        try requireGroupCommittee(space, card.game)
        let markers = try checkMarkers(space, [(player, marker)], roster: card.players.map(\.id))
        let fields = Dictionary(
            uniqueKeysWithValues: markers.map { (GameRecord.markerField($0.player), FieldValue.bytes($0.marker.bytes)) })
        return try append(space: space, keys: keys, changes: [.set(card.game.id, fields: fields)]).id
    }

    /// Refuses this node's change of a competition's group (its markers, roster, setup, finish, deletion) to anyone
    /// but the competition's committee: every node takes such a write from the committee only
    /// (CaddieStore/Materializer+Groups.swift), so it is refused here by name rather than signed to no effect.
    func requireGroupCommittee(_ space: SpaceID, _ game: GameRecord) throws(NodeError) {
        guard let competition = game.competition else { return }
        let record: CompetitionRecord
        do { record = try home.competitions.competition(space, competition) } catch {
            // A binding whose competition has not arrived yet counts from anyone, as every node takes it then.
            if case .notFound = error { return }
            throw error
        }
        try home.competitions.requireCommittee(record, space: space)
    }

    /// Player and marker pairs checked against a game's roster: both must play, and nobody marks themselves.
    func checkMarkers(
        _ space: SpaceID, _ pairs: [(player: PlayerID, marker: PlayerID)], roster: [PlayerID]
    )
        throws(NodeError) -> [(player: PlayerID, marker: PlayerID)]
    {
        var result: [(player: PlayerID, marker: PlayerID)] = []
        for (playerID, markerID) in pairs {
            let player = try self.player(space, playerID)
            let marker = try self.player(space, markerID)
            guard roster.contains(player.id), roster.contains(marker.id) else {
                throw .conflict(
                    "\(roster.contains(player.id) ? marker.name : player.name) is not playing in this game: "
                        + "a marker and the player they mark both play")
            }
            guard player.id != marker.id else {
                throw .badInput(
                    .markerPairs,
                    "name \(player.name) as \(player.name)'s own marker: \(player.name) cannot mark their own card; "
                        + "choose another player")
            }
            guard !result.contains(where: { $0.player == player.id }) else {
                throw .badInput(.markerPairs, "give \(player.name) two markers: give one")
            }
            result.append((player.id, marker.id))
        }
        return result
    }

    /// Adds a player to a game's roster.
    @discardableResult
    func addToRoster(space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID) throws(NodeError) -> OpID? {
        let game = try self.game(space, game)
        try requireGroupCommittee(space, game)
        let player = try self.player(space, player)
        return try append(space: space, keys: keys, changes: [.rosterAdd(game: game.id, player: player.id)]).id
    }

    /// Removes a player from a game's roster (cancelling the adds this home has seen).
    @discardableResult
    func removeFromRoster(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID
    ) throws(NodeError)
        -> OpID?
    {
        let game = try self.game(space, game)
        try requireGroupCommittee(space, game)
        let player = try self.player(space, player)
        let tags = try run { try store.rosterTags(space, game: game.id, player: player.id) }
        guard !tags.isEmpty else { throw .conflict("\(player.name) is not on the roster of game \(game.id.short)") }
        return try append(
            space: space, keys: keys, changes: [.rosterRemove(game: game.id, player: player.id, observed: tags)]
        ).id
    }

    /// Finishes or reopens a game; nil when it already was so (no op to sign).
    @discardableResult
    func setFinished(space: SpaceID, keys: UnlockedKeys, game: GameID, finished: Bool) throws(NodeError) -> OpID? {
        let game = try self.game(space, game)
        guard game.finished != finished else { return nil }
        try requireGroupCommittee(space, game)
        return try append(
            space: space, keys: keys, changes: [.set(game.id, fields: ["finished": .integer(finished ? 1 : 0)])]
        ).id
    }

    // MARK: Scores

    /// Enters a score. It supersedes every value the cell shows now, so it also settles a conflict.
    @discardableResult
    func score(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID, hole: Int,
        entry: ScoreEntry
    ) throws(NodeError) -> OpID {
        try score(space: space, keys: keys, game: game, player: player, hole: hole, entry: entry, seen: nil).op
    }

    /// Enters a score that supersedes `seen`, the cell's values as the person entering it last saw them
    /// (a phone that kept the entry while no node answered), or, when `seen` is nil, every value the cell
    /// shows now. A value that arrived meanwhile is not in `seen`, so the cell shows a dispute rather than
    /// losing it. Sending the same entry with the same `seen` again (the answer to the first send was lost)
    /// signs nothing: `replay` is true and `op` is the entry made the first time.
    func score(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID, hole: Int,
        entry: ScoreEntry, seen: [OpID]?
    ) throws(NodeError) -> (op: OpID, replay: Bool) {
        if let seen {
            guard seen.count <= SignedOp.maxPred else {
                throw .badInput(.seen, "may name at most \(SignedOp.maxPred) values an entry replaces, got \(seen.count)")
            }
            let wanted = Set(seen)
            let device = keys.device.publicKey
            if let earlier = try run({ try store.history(space, game: game, player: player, hole: hole) }).first(where: {
                $0.value.op.device == device && $0.value.entry == entry && Set($0.supersedes) == wanted
            }) {
                return (earlier.value.op, true)
            }
        }
        let game = try self.game(space, game)
        guard !game.finished else {
            throw .conflict("game \(game.id.short) is finished", .reopen(game.id, then: .toScore))
        }
        let player = try self.player(space, player)
        let roster = try run { try store.roster(space, game: game.id) }
        guard roster.contains(player.id) else {
            throw .conflict(
                "\(player.name) is not playing in game \(game.id.short)",
                .addToGame(game.id, player: player.id))
        }
        try checkHole(hole, of: game, space: space)
        try refuseIfLocked(space: space, game: game, player: player, hole: hole)
        home.afterChecks.withLock { $0 }?()
        var standing = seen.map { Array(Set($0)).sorted() } ?? []
        if seen == nil { standing = try shownValues(space: space, game: game.id, player: player.id, hole: hole) }
        let op = try append(
            space: space, keys: keys,
            changes: [.score(game: game.id, player: player.id, hole: hole, entry: entry)],
            pred: standing
        ).id
        return (op, false)
    }

    /// Refuses a hole the game's course lacks, or one the game does not play (a 9-hole game, a start on the 10th).
    func checkHole(_ hole: Int, of game: GameRecord, space: SpaceID) throws(NodeError) {
        let course = try courses.course(of: game, in: space)
        let holes = course?.holes.count ?? 18
        guard (1...holes).contains(hole) else {
            throw .badInput(.hole, "\(hole) does not exist: the course has holes 1...\(holes)")
        }
        if let course, game.holesPlayed != nil || game.startHole != 1 {
            let played = HandicapService.holesPlayed(game, course: course)
            guard played.contains(hole) else {
                throw .conflict("game \(game.id.short) plays holes \(Self.describe(played)): hole \(hole) is not one of them")
            }
        }
    }

    /// Every value a cell shows now (one, or a dispute's several): what a new entry that saw them all supersedes.
    func shownValues(space: SpaceID, game: GameID, player: PlayerID, hole: Int) throws(NodeError) -> [OpID] {
        try run { try store.cells(space, game: game) }.first { $0.player == player && $0.hole == hole }?.values.map(\.op)
            ?? []
    }

    /// Holes in order of play as a person reads them: "1-9", "10-18", "7-18, 1-6".
    public static func describe(_ holes: [Int]) -> String {
        var runs: [(Int, Int)] = []
        for hole in holes {
            if let last = runs.last, last.1 + 1 == hole { runs[runs.count - 1].1 = hole } else { runs.append((hole, hole)) }
        }
        return runs.map { $0.0 == $0.1 ? "\($0.0)" : "\($0.0)-\($0.1)" }.joined(separator: ", ")
    }

    /// The card of a game.
    public func card(space: SpaceID, game: GameID) throws(NodeError) -> Scorecard {
        let game = try self.game(space, game)
        let roster = try run { try store.roster(space, game: game.id) }
        // The roster's players only, not every player of the space (a club's has 160).
        var everyone: [PlayerID: PlayerRecord] = [:]
        for player in roster { everyone[player] = try run { try store.one(space, player) } }
        var cells: [PlayerID: [Int: ScoreCell]] = [:]
        for cell in try run({ try store.cells(space, game: game.id) }) where roster.contains(cell.player) {
            cells[cell.player, default: [:]][cell.hole] = cell
        }
        return Scorecard(
            game: game, course: try courses.course(of: game, in: space),
            players: roster.map { everyone[$0] ?? PlayerRecord(id: $0, fields: [:]) }.sortedByName(),
            cells: cells, attestations: try run { try store.attestations(space, game: game.id) },
            locks: game.competition == nil ? [] : try run { try store.cardLocks(space, game: game.id) })
    }

    // MARK: Merge by file

    /// Writes an op bundle of a space: every op not covered by `since`.
    public func export(space: SpaceID, since: VersionVector) throws(NodeError) -> (bundle: [UInt8], count: Int) {
        let ops = try run { try store.ops(space: space, notIn: since) }
        return (OpBundle(space: space, ops: ops).encoded, ops.count)
    }

    /// Imports an op bundle: every op is verified first; one bad op or gap refuses the whole bundle (a valid fork is
    /// kept, both branches: OpStore+Branches.swift).
    public func importBundle(keys: UnlockedKeys, bytes: [UInt8]) throws(NodeError) -> ReceivedOps {
        let bundle: OpBundle
        do { bundle = try OpBundle(decoding: bytes) } catch { throw .core(error) }
        guard try spaces.list().contains(where: { $0.id == bundle.space }) else {
            throw .store(.unknownSpace(bundle.space.hex))
        }
        return ReceivedOps(try receiveStrict(space: bundle.space, keys: keys, ops: bundle.ops))
    }

    /// Verifies and applies ops of one space as a whole: one bad op or gap refuses them all. Checked under every
    /// key of the space this device holds, the current one first. A bundle and a phone's ops both come here.
    func receiveStrict(space: SpaceID, keys: UnlockedKeys, ops: [[UInt8]]) throws(NodeError) -> ReceiveReport {
        let all: [[UInt8]]
        if let ring = home.keyring(space, keys: keys) { all = ring.keys } else { all = [try keys.key(for: space)] }
        return try run {
            try store.receive(
                space: space, spaceKey: all[0], laterKeys: Array(all.dropFirst()), ops: ops, mode: .strict, now: Home.now())
        }
    }
}

extension ScoreEntry {
    /// A score entry as a person typed it (`caddie score`) or a page sent it (`POST .../scores`): the one reading of
    /// its fields for every edge, each refusal naming the field (`--fairway` on the command line, `'fairway'` in a
    /// request). A pick-up (`pickUp`) takes no strokes, putts, penalties or statistics.
    /// An entry from the strokes as a person types them on the command line: a number, or `pickup` (`pick-up`, `P`).
    public static func typed(
        _ strokes: String, putts: Int? = nil, penalties: Int? = nil, fairway: String? = nil, greenInRegulation: Bool? = nil
    ) throws(NodeError) -> ScoreEntry {
        let pickUp = ["pickup", "pick-up", "p"].contains(strokes.lowercased())
        guard pickUp || Int(strokes) != nil else {
            throw .badInput(
                .strokes, "must be a number of strokes (1...30) or pickup (P) for a pick-up, got '\(strokes.prefix(20))'")
        }
        return try reading(
            strokes: Int(strokes), putts: putts, penalties: penalties, fairway: fairway,
            greenInRegulation: greenInRegulation, pickUp: pickUp)
    }

    public static func reading(
        strokes: Int?, putts: Int?, penalties: Int?, fairway: String?, greenInRegulation: Bool?, pickUp: Bool = false
    ) throws(NodeError) -> ScoreEntry {
        if pickUp {
            guard strokes == nil, putts == nil, penalties == nil, fairway == nil, greenInRegulation == nil else {
                throw .badInput(
                    .strokes, "cannot be given with a pick-up: a pick-up records no strokes, putts, penalties or statistics")
            }
            return .pickUp
        }
        guard let strokes else {
            throw .badInput(.strokes, "are missing: give the strokes (1...30), or a pick-up when the player did not hole out")
        }
        let fairwayResult = try fairway.map { text throws(NodeError) in
            guard let value = Fairway(name: text) else {
                throw .badInput(.fairway, "must be hit, left or right, got '\(text.prefix(40))'")
            }
            return value
        }
        do {
            return try ScoreEntry(
                strokes: strokes, putts: putts, penalties: penalties, fairway: fairwayResult,
                greenInRegulation: greenInRegulation)
        } catch {
            throw .wrap(error)
        }
    }
}
