/// What an entity id names. Ids of different kinds are different types, so a player's id cannot be passed where a
/// game's is expected; on the wire and in the database every kind is the same eight bytes as an `EntityID`.
public protocol EntityIDKind: Sendable {
    /// The records this kind of id names in the document.
    static var kind: EntityKind { get }
}

/// The kind of a game's id.
public enum GameKind: EntityIDKind { public static var kind: EntityKind { .game } }
/// The kind of a player's id.
public enum PlayerKind: EntityIDKind { public static var kind: EntityKind { .player } }
/// The kind of a course's id.
public enum CourseKind: EntityIDKind { public static var kind: EntityKind { .course } }
/// The kind of an invite's id (its record in the log; the secret stays with the device that made it).
public enum InviteKind: EntityIDKind { public static var kind: EntityKind { .invite } }

/// The kind of a competition's id.
public enum CompetitionKind: EntityIDKind { public static var kind: EntityKind { .competition } }

/// The id of one kind of entity of a space: eight bytes, typed by what they name. Below the CLI and the API every
/// game, player and course is named by its id; what a person typed is resolved once, at the edge
/// (`RoundService.resolveGame`, `resolvePlayer`, `CourseService.resolveCourse`).
public struct TypedEntityID<Kind: EntityIDKind>: FixedBytes, Codable {
    /// 8 bytes, as `EntityID`.
    public let storage: Bytes8
    @inlinable public init(storage: Bytes8) { self.storage = storage }
    /// The id of this kind with the bytes of a kind-less entity id (a record's id in the generic `set` change).
    public init(_ id: EntityID) { storage = id.storage }
    /// The same bytes as a kind-less entity id, for the document's generic records.
    public var entity: EntityID { EntityID(storage: storage) }
}

/// A record of a space's document made from its last-writer-wins fields: a player, a game, a course.
public protocol FieldRecord {
    associatedtype Kind: EntityIDKind
    /// The record's id.
    var id: TypedEntityID<Kind> { get }
    /// Makes the record from its fields as merged (a field not set takes its default).
    init(id: TypedEntityID<Kind>, fields: [String: FieldValue])
}

/// A record with a name, as lists show it: players and courses.
public protocol NamedRecord: FieldRecord {
    var name: String { get }
}

extension Sequence where Element: NamedRecord {
    /// The records by name, whatever the case, then by id (so two of the same name keep one order everywhere).
    public func sortedByName() -> [Element] {
        // Each name lowered once, not at every comparison (a space's 160 players are sorted for every card read).
        map { ($0.name.lowercased(), $0) }.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }.map(\.1)
    }
}

extension PlayerRecord: NamedRecord {}
extension CourseRecord: NamedRecord {}
extension GameRecord: FieldRecord {}
extension CompetitionRecord: NamedRecord {}

extension Change {
    /// Sets last-writer-wins fields of the game, player or course `id` names.
    public static func set<Kind>(_ id: TypedEntityID<Kind>, fields: [String: FieldValue]) -> Change {
        .set(kind: Kind.kind, id: id.entity, fields: fields)
    }
}

/// The id of a game in a space.
public typealias GameID = TypedEntityID<GameKind>
/// The id of a player in a space.
public typealias PlayerID = TypedEntityID<PlayerKind>
/// The id of a course in a space.
public typealias CourseID = TypedEntityID<CourseKind>
/// The id of an invite to a space.
public typealias InviteID = TypedEntityID<InviteKind>
/// The id of a competition in a space.
public typealias CompetitionID = TypedEntityID<CompetitionKind>
