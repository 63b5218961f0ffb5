import CaddieCore
import Foundation
import GRDB

// The store's values as SQLite columns, and the GRDB records of the tables that map one row to one value. Each
// table's columns are named once, here or beside the table's value type (`InviteRow`), never again in hand-written
// row mapping. The op log's hot paths (append, receive, materialise) keep their hand-written statements: they run
// once per op, cached, and a record adds a Codable round trip to each.

/// An identifier stored as a BLOB of its bytes, not as the text GRDB makes of a Codable value (its hex). The extension
/// is on `BlobColumn & Codable` so that it is more specific than GRDB's own for Codable values, and wins.
public protocol BlobColumn: FixedBytes, DatabaseValueConvertible {}

extension BlobColumn where Self: Codable {
    public var databaseValue: DatabaseValue { Data(bytes).databaseValue }

    /// A BLOB of exactly the right length; nil for anything else, which a record decoding reports as an error
    /// rather than taking a damaged row for a value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Data.fromDatabaseValue(dbValue).flatMap { Self(bytes: [UInt8]($0)) }
    }
}

extension SpaceID: BlobColumn {}
extension PublicKey: BlobColumn {}
extension EntityID: BlobColumn {}
extension TypedEntityID: BlobColumn {}
extension Digest32: BlobColumn {}

/// A row read from columns named in snake case, as the schema names them (`by_device` for `byDevice`).
protocol SnakeCaseRow: FetchableRecord, Decodable {}

extension SnakeCaseRow {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
}

/// A table whose columns are named in snake case, read and written (`found_by` for `foundBy`).
protocol SnakeCaseRecord: SnakeCaseRow, PersistableRecord, Codable {}

extension SnakeCaseRecord {
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

/// A row that names an op by its `device` and `seq` columns (SQLite holds the seq as a signed integer).
protocol OpKeyedRow {
    var device: PublicKey { get }
    var seq: Int64 { get }
}

extension OpKeyedRow {
    /// The op the row names.
    var op: OpID { OpID(device: device, seq: UInt64(bitPattern: seq)) }
}

/// The `space` table: the spaces this home holds.
struct SpaceRow: SnakeCaseRecord {
    static let databaseTableName = "space"
    var id: SpaceID
    var name: String
    var joinedAt: Int64
}

/// The `peer` table: the peers this home has synced with, per space.
struct PeerRow: SnakeCaseRecord {
    static let databaseTableName = "peer"
    var space: SpaceID
    var device: PublicKey
    var address: String
    var foundBy: String
    var userName: String
    var lastSeen: Int64
    var lastSync: Int64?
    var vector: String
    var sent: Int
    var received: Int

    init(_ peer: PeerRecord) {
        space = peer.space
        device = peer.device
        address = peer.address
        foundBy = peer.foundBy
        userName = peer.userName
        lastSeen = Int64(bitPattern: peer.lastSeen)
        lastSync = peer.lastSync.map { Int64(bitPattern: $0) }
        vector = peer.vector
        sent = peer.sent
        received = peer.received
    }

    var peer: PeerRecord {
        PeerRecord(
            space: space, device: device, address: address, foundBy: foundBy, userName: userName,
            lastSeen: UInt64(bitPattern: lastSeen), lastSync: lastSync.map { UInt64(bitPattern: $0) }, vector: vector,
            sent: sent, received: received)
    }
}

/// A row that names an op by its device and seq, with whichever of its bytes, hash and clock the query selects.
/// The bytes are read as SQLite holds them, whatever the column's type (a hand that edited a row with `||` leaves
/// TEXT there), so the audit sees exactly what is stored.
struct OpRow: FetchableRecord, OpKeyedRow {
    var device: PublicKey
    var seq: Int64
    var bytes: Data?
    var hash: Digest32?
    var hlc: Int64?

    init(row: Row) throws {
        device = try row.decode(forColumn: "device")
        seq = try row.decode(forColumn: "seq")
        bytes = row.hasColumn("bytes") ? try row.decode(Data.self, forColumn: "bytes") : nil
        hash = row.hasColumn("hash") ? try row.decode(Digest32.self, forColumn: "hash") : nil
        hlc = row.hasColumn("hlc") ? try row.decode(Int64.self, forColumn: "hlc") : nil
    }
}

/// A member of a space with the revocation that applies to it (`OpStore.members`).
struct MemberRow: SnakeCaseRow {
    var device: PublicKey
    var user: PublicKey
    var userName: String
    var revoked: Int64?

    var member: MemberRecord {
        MemberRecord(device: device, user: user, userName: userName, revokedAfter: revoked.map { UInt64(bitPattern: $0) })
    }
}

/// A score value as the cell queries select it (`OpStore.scoreColumns`): the op, its clock, the cell, the entry's
/// parts and its author's name; `forked` names a fork branch's device where the history query asks for it.
struct ScoreRow: Decodable, FetchableRecord, OpKeyedRow {
    var device: PublicKey
    var seq: Int64
    var hlc: Int64
    var player: PlayerID
    var hole: Int
    var strokes: Int
    var putts: Int?
    var penalties: Int?
    var fairway: Int?
    var gir: Int?
    var author: String
    var forked: PublicKey?

    func value() throws -> ScoreValue {
        // A pick-up is stored with strokes 0 (and no putts, penalties or statistics).
        let entry =
            strokes == 0
            ? ScoreEntry.pickUp
            : try ScoreEntry(
                strokes: strokes, putts: putts, penalties: penalties,
                fairway: fairway.flatMap { ScoreEntry.Fairway(rawValue: UInt8(clamping: $0)) },
                greenInRegulation: gir.map { $0 == 1 })
        return ScoreValue(op: op, hlc: HLC(rawValue: UInt64(bitPattern: hlc)), entry: entry, author: author)
    }
}

/// A `superseded` row: the op `by` replaced the value of op `op` in a cell.
struct SupersededRow: SnakeCaseRow, OpKeyedRow {
    var device: PublicKey
    var seq: Int64
    var byDevice: PublicKey
    var bySeq: Int64

    var by: OpID { OpID(device: byDevice, seq: UInt64(bitPattern: bySeq)) }
}

/// An attestation as `OpStore.attestations` selects it, with its op's clock and the marker's shown name.
struct AttestationRow: SnakeCaseRow, OpKeyedRow {
    var device: PublicKey
    var seq: Int64
    var player: PlayerID
    var cardHash: Digest32
    var user: PublicKey
    var hlc: Int64?
    var marker: String

    var attestation: AttestationRecord {
        AttestationRecord(
            op: op, marker: marker, player: player, cardHash: cardHash,
            hlc: HLC(rawValue: UInt64(bitPattern: hlc ?? 0)), user: user)
    }
}

/// A last-writer-wins field of a record (`lww`): its record's id where the query selects it (nil for an id of the
/// wrong length, which the listing skips), its name and value.
struct FieldRow: FetchableRecord {
    var id: EntityID?
    var field: String
    var value: FieldValue

    init(row: Row) throws {
        id = row.hasColumn("id") ? EntityID(bytes: [UInt8](try row.decode(Data.self, forColumn: "id"))) : nil
        field = try row.decode(forColumn: "field")
        value = try FieldValue(encoded: [UInt8](try row.decode(Data.self, forColumn: "value")))
    }
}

extension FixedBytes {
    /// An identifier read from a BLOB column of the home's file. One of another length is a damaged file: an error
    /// that says so, never a trap and never a wrong identifier.
    init(column data: Data) throws(StoreError) {
        guard data.count == Self.length else {
            throw .database(
                "a row of the home's database is damaged and cannot be read (a \(Self.self) of \(data.count) bytes, not "
                    + "\(Self.length)): restore caddie.sqlite from a backup, or start a new home and sync it from a peer")
        }
        self.init(unchecked: [UInt8](data))
    }
}
