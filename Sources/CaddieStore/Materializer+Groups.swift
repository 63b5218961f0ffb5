import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// The committee's rule for a competition's groups, applied by every node to every op it takes (docs/competitions.md,
/// "The committee on every node"): while a game is a group of a competition (the committee bound it, by the draw or
/// `caddie competition add`), its record (the competition it belongs to, its group and tee time, who marks whom, its
/// tees, setup, finish and deletion) takes writes from that competition's committee only; the players' own track
/// marks count from anyone, and what was written before the binding counts as it did. So a modified client cannot
/// take its group out of the competition, and its locked cards with it, or change its marker: its write is kept in
/// the log for the audit and shown nowhere. Like the competition's record, a group is worked out from the ops held,
/// never their order: when a write arrives that could change what counts (a binding, or any write but a track mark
/// on a game ever bound), the game is worked out again from every op that wrote it.
extension Materializer {
    /// The game fields any player writes, in a group too: each player's track marks.
    static func playersField(_ field: String) -> Bool { field.hasPrefix("track/") }

    /// Applies one op's write on a game as it comes, for a game never bound to a competition (and for track marks);
    /// otherwise returns true: the game is to be worked out again once the op is applied.
    func applyGame(
        _ id: EntityID, fields: [String: FieldValue], hlc: Int64, device: Data, seq: Int64
    ) throws -> Bool {
        let guarded = !settleLater && !fields.keys.allSatisfy(Self.playersField)
        if try !guarded || (fields["competition"] == nil && !everBound(id)) {
            try upsert(kind: .game, id: id, fields: fields, hlc: hlc, device: device, seq: seq)
            return false
        }
        return true
    }

    /// Whether the record holds a `competition` field for the game, of any value: a write once bound it, or
    /// tried to.
    func everBound(_ game: EntityID) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM lww WHERE space = ? AND kind = ? AND id = ? AND field = 'competition')",
            arguments: [space, Int64(EntityKind.game.rawValue), Data(game.bytes)]) ?? false
    }

    /// Whether `author` is on the competition's committee at the clock `hlc`: its creator, or a member the creator
    /// named by then. A competition whose creator this node does not hold (one an earlier version made, or whose
    /// creation has not arrived) takes everyone's write, as its record does.
    func onCommittee(_ author: PublicKey?, of competition: EntityID, at hlc: Int64) throws -> Bool {
        guard let creator = try competitionCreator(competition) else { return true }
        guard let author else { return false }
        if author == creator { return true }
        return try namedToCommittee(author, competition: competition, at: hlc)
    }

    /// The fields of a write on a game that count, given the competition it is a group of by then (nil: none).
    func countedGroup(
        _ fields: [String: FieldValue], author: PublicKey?, hlc: Int64, bound: EntityID?
    ) throws -> [String: FieldValue] {
        var counted = fields
        if let bound, try !onCommittee(author, of: bound, at: hlc) {
            counted = fields.filter { Self.playersField($0.key) }
        }
        // Binding a game to a competition is its committee's to do (moving it from one to another, both's).
        if case .bytes(let bytes)? = counted["competition"], let next = EntityID(bytes: bytes), next != bound,
            try !onCommittee(author, of: next, at: hlc)
        {
            counted["competition"] = nil
        }
        return counted
    }

    /// Whether a roster change of a game is to be worked out again once the op is applied (the game was ever bound
    /// to a competition) rather than applied as it comes.
    func rosterUnsettled(_ game: GameID) throws -> Bool {
        try !settleLater && everBound(game.entity)
    }

    /// Works games' records and rosters out again from every write this node holds of them, in the record's order,
    /// each counted as the competition the game is a group of by then allows.
    func rederiveGroups(_ games: Set<EntityID>) throws {
        guard !games.isEmpty else { return }
        let held = Dictionary(
            grouping: try writes { change in
                switch change {
                case .set(.game, let id, _): games.contains(id)
                case .rosterAdd(let game, _), .rosterRemove(let game, _, _): games.contains(game.entity)
                default: false
                }
            }, by: { $0.entity?.id })
        for id in games {
            recorder?.record(spaceID) { $0.games.insert(GameID(id)) }
            try db.execute(
                sql: "DELETE FROM lww WHERE space = ? AND kind = ? AND id = ?",
                arguments: [space, Int64(EntityKind.game.rawValue), Data(id.bytes)])
            for table in ["roster_add", "roster_cancel"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE space = ? AND game = ?", arguments: [space, Data(id.bytes)])
            }
            var bound: EntityID?
            // Two changes of one op that write the binding: the first stands, as the record's upsert keeps it.
            var boundBy: WriteOrder?
            for write in held[id] ?? [] {
                let (hlc, device, seq) = (write.order.hlc, write.order.device, write.order.seq)
                switch write.change {
                case .set(_, _, let fields):
                    let counted = try countedGroup(fields, author: write.author, hlc: hlc, bound: bound)
                    try upsert(kind: .game, id: id, fields: counted, hlc: hlc, device: device, seq: seq)
                    if let value = counted["competition"], boundBy.map({ !$0.sameOp(as: write.order) }) ?? true {
                        if case .bytes(let bytes) = value { bound = EntityID(bytes: bytes) } else { bound = nil }
                        boundBy = write.order
                    }
                case .rosterAdd(let game, let player):
                    if let bound, try !onCommittee(write.author, of: bound, at: hlc) { continue }
                    try addToRoster(game: game, player: player, device: device, seq: seq)
                case .rosterRemove(let game, let player, let observed):
                    if let bound, try !onCommittee(write.author, of: bound, at: hlc) { continue }
                    try cancelInRoster(game: game, player: player, observed: observed)
                default: continue
                }
            }
        }
    }
}
