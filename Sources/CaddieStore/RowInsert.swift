import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import GRDBSQLite

/// The values of one row, bound straight into a prepared INSERT: bytes from Swift's arrays and integers as they
/// are, with no `StatementArguments`, `DatabaseValue` or `Data` made for each value. The receive path writes a row
/// per op into `op` and `score` (and a `superseded` row per correction): this is the one place they are bound.
///
/// Blobs are copied into a buffer on the stack that outlives the statement's step, and bound without SQLite's own
/// copy (`SQLITE_STATIC`): a copy by SQLite is a `malloc` and a `free` per value, each under SQLite's global memory
/// lock, which the node's other connections (a session's reads, another store of the process) wait on.
struct RowValues {
    fileprivate let statement: SQLiteStatement
    /// Where blobs are copied for the row: valid until ``Database/insertRow(_:_:)`` has stepped and cleared the
    /// statement.
    fileprivate let arena: UnsafeMutableRawBufferPointer
    fileprivate var used = 0

    /// SQLite copies the value at once (`SQLITE_TRANSIENT`): for a blob the arena has no room left for.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func blob(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bind(index, $0) }
    }

    mutating func blob(_ index: Int32, _ bytes: Data) {
        bytes.withUnsafeBytes { bind(index, $0) }
    }

    /// Binds an identifier's bytes, read in place.
    mutating func blob(_ index: Int32, _ id: some FixedBytes) {
        id.withBytes { bind(index, $0) }
    }

    func int(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    func int(_ index: Int32, _ value: Int?) {
        if let value { sqlite3_bind_int64(statement, index, Int64(value)) } else { sqlite3_bind_null(statement, index) }
    }

    fileprivate mutating func bind(_ index: Int32, _ buffer: UnsafeRawBufferPointer) {
        // An empty blob is a blob, not NULL (a nil address would bind NULL).
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            sqlite3_bind_zeroblob(statement, index, 0)
            return
        }
        guard used + buffer.count <= arena.count, let start = arena.baseAddress?.advanced(by: used) else {
            sqlite3_bind_blob(statement, index, base, Int32(buffer.count), Self.transient)
            return
        }
        start.copyMemory(from: base, byteCount: buffer.count)
        used += buffer.count
        // SQLITE_STATIC (a nil destructor): SQLite reads the arena in place when the statement steps.
        sqlite3_bind_blob(statement, index, start, Int32(buffer.count), nil)
    }
}

extension Database {
    /// Most bytes of blobs one row binds from the stack: an op's bytes, its ids and hash fit (a larger value is
    /// copied by SQLite instead).
    static let rowArenaBytes = 4096

    /// Runs the cached INSERT `sql` once with the values `bind` sets (every parameter: those it leaves are NULL).
    /// A failure throws GRDB's `DatabaseError`, as `Statement.execute` does, and leaves the statement ready for its
    /// next use, with no value bound (none of them points at the stack any more).
    func insertRow(_ sql: String, arenaBytes: Int = rowArenaBytes, _ bind: (inout RowValues) -> Void) throws {
        let handle = try cachedStatement(sql: sql).sqliteStatement
        sqlite3_clear_bindings(handle)
        let failure = withUnsafeTemporaryAllocation(byteCount: arenaBytes, alignment: 8) {
            arena -> (code: Int32, message: String)? in
            var values = RowValues(statement: handle, arena: arena)
            bind(&values)
            defer { sqlite3_reset(handle) }
            guard sqlite3_step(handle) == SQLITE_DONE else {
                return (sqlite3_extended_errcode(sqliteConnection), String(cString: sqlite3_errmsg(sqliteConnection)))
            }
            return nil
        }
        defer { sqlite3_clear_bindings(handle) }
        if let failure {
            throw DatabaseError(resultCode: ResultCode(rawValue: failure.code), message: failure.message, sql: sql)
        }
    }
}

extension Database {
    /// Moves the home's clock (`home_clock`: the newest clock of any op held, which the next local op is stamped
    /// after) forward to `hlc`, if it is behind it.
    func advanceClock(to hlc: HLC) throws {
        try cachedStatement(sql: "UPDATE home_clock SET hlc = ?1 WHERE id = 1 AND hlc < ?1")
            .execute(arguments: [Int64(bitPattern: hlc.rawValue)])
    }

    /// Adds `op` to its device's log (the `op` table), under `hash`, received (or made) at `now`.
    func insertLogOp(space: Data, _ op: SignedOp, hash: Digest32, now: UInt64) throws {
        try insertLogOps(space: space, [(op, hash)], now: now)
    }

    /// Log rows one statement inserts (a run of a device's ops is written ``logRowsPerInsert`` rows at a time: one
    /// statement's start, bindings and reset for 32 rows, not one a row).
    static let logRowsPerInsert = 32

    /// The INSERT of `count` log rows, for each count up to ``logRowsPerInsert``.
    private static let logInserts = multiRowInserts(
        "INSERT INTO op (space, device, seq, hash, hlc, bytes, received_at) VALUES ", columns: 7, most: logRowsPerInsert)

    /// Adds ops to their devices' logs (the `op` table), each under its hash, received (or made) at `now`: in
    /// statements of up to ``logRowsPerInsert`` rows.
    func insertLogOps(space: Data, _ rows: some Collection<(op: SignedOp, hash: Digest32)>, now: UInt64) throws {
        try insertRows(Self.logInserts, columns: 7, rows, arenaBytes: 16_384) { values, index, row in
            values.blob(index + 1, space)
            values.blob(index + 2, row.op.device)
            values.int(index + 3, Int64(bitPattern: row.op.seq))
            values.blob(index + 4, row.hash)
            values.int(index + 5, Int64(bitPattern: row.op.hlc.rawValue))
            values.blob(index + 6, row.op.bytes)
            values.int(index + 7, Int64(bitPattern: now))
        }
    }

    /// The INSERTs of 1 through `most` rows of `columns` values each (the entry at 0 is that of one row): `prefix`,
    /// then the rows' placeholders.
    static func multiRowInserts(_ prefix: String, columns: Int, most: Int) -> [String] {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return (0...most).map { count in prefix + Array(repeating: row, count: max(count, 1)).joined(separator: ", ") }
    }

    /// Writes `rows` through `statements` (``multiRowInserts(_:columns:most:)``), as many to a statement as the
    /// longest takes: `bind` sets a row's `columns` values from the index before its first.
    func insertRows<Rows: Collection>(
        _ statements: [String], columns: Int32, _ rows: Rows, arenaBytes: Int,
        _ bind: (inout RowValues, Int32, Rows.Element) -> Void
    ) throws {
        var rest = rows[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(statements.count - 1)
            rest = rest.dropFirst(chunk.count)
            try insertRow(statements[chunk.count], arenaBytes: arenaBytes) { values in
                var index: Int32 = 0
                for row in chunk {
                    bind(&values, index, row)
                    index += columns
                }
            }
        }
    }
}

/// The `score` rows of a run of ops, and the `superseded` rows of the values they replace, gathered and written
/// ``Database/scoreRowsPerInsert`` to a statement (one statement's start, bindings and reset for many rows, as a
/// run's log rows are). A receive holds one for a device's run; whoever holds it calls ``flush(_:space:)`` before
/// anything reads `score` or `superseded` (the materializer does before an op that changes more than a score) and
/// when the run ends. A row is written as its op's own INSERT wrote it: `INSERT OR IGNORE`, in the same transaction.
final class ScoreRows {
    struct Row {
        /// The device whose op the row is, or the fork branch op's hash that stands for it (its slot).
        var device: Bytes32
        var seq: Int64
        var game: GameID
        var player: PlayerID
        var hole: Int64
        var hlc: Int64
        var entry: ScoreEntry
    }

    struct Replaced {
        var target: OpID
        var game: GameID
        var player: PlayerID
        var hole: Int64
        var byDevice: Bytes32
        var bySeq: Int64
    }

    private(set) var rows: [Row] = []
    private(set) var replaced: [Replaced] = []

    init() {
        rows.reserveCapacity(Database.scoreRowsPerInsert)
    }

    /// Adds a score's row, and a `superseded` row for each value in `pred`; writes what is held once a statement's
    /// worth of rows is.
    func add(_ row: Row, pred: [OpID], db: Database, space: Data) throws {
        rows.append(row)
        for target in pred {
            replaced.append(
                Replaced(
                    target: target, game: row.game, player: row.player, hole: row.hole, byDevice: row.device,
                    bySeq: row.seq))
        }
        if rows.count >= Database.scoreRowsPerInsert || replaced.count >= Database.scoreRowsPerInsert {
            try flush(db, space: space)
        }
    }

    /// Writes every row held, and forgets them.
    func flush(_ db: Database, space: Data) throws {
        if !rows.isEmpty {
            try db.insertScoreRows(space: space, rows)
            rows.removeAll(keepingCapacity: true)
        }
        if !replaced.isEmpty {
            try db.insertSupersededRows(space: space, replaced)
            replaced.removeAll(keepingCapacity: true)
        }
    }
}

extension RowValues {
    /// Binds bytes held in place.
    mutating func blob(_ index: Int32, storage: some ByteStorage) {
        withUnsafeBytes(of: storage) { bind(index, $0) }
    }
}

extension Database {
    /// Score rows (and superseded rows) one statement inserts.
    static let scoreRowsPerInsert = 32

    private static let scoreInserts = multiRowInserts(
        "INSERT OR IGNORE INTO score (space, device, seq, game, player, hole, hlc, strokes, putts, penalties, "
            + "fairway, gir) VALUES ", columns: 12, most: scoreRowsPerInsert)

    private static let supersededInserts = multiRowInserts(
        "INSERT OR IGNORE INTO superseded (space, device, seq, game, player, hole, by_device, by_seq) VALUES ",
        columns: 8, most: scoreRowsPerInsert)

    /// Writes score rows, up to ``scoreRowsPerInsert`` to a statement.
    fileprivate func insertScoreRows(space: Data, _ rows: [ScoreRows.Row]) throws {
        try insertRows(Self.scoreInserts, columns: 12, rows, arenaBytes: 8192) { values, index, row in
            values.blob(index + 1, space)
            values.blob(index + 2, storage: row.device)
            values.int(index + 3, row.seq)
            values.blob(index + 4, row.game)
            values.blob(index + 5, row.player)
            values.int(index + 6, row.hole)
            values.int(index + 7, row.hlc)
            values.int(index + 8, Int64(row.entry.strokes))
            values.int(index + 9, row.entry.putts)
            values.int(index + 10, row.entry.penalties)
            values.int(index + 11, row.entry.fairway.map { Int($0.rawValue) })
            values.int(index + 12, row.entry.greenInRegulation.map { $0 ? 1 : 0 })
        }
    }

    /// Writes superseded rows, up to ``scoreRowsPerInsert`` to a statement.
    fileprivate func insertSupersededRows(space: Data, _ rows: [ScoreRows.Replaced]) throws {
        try insertRows(Self.supersededInserts, columns: 8, rows, arenaBytes: 8192) { values, index, row in
            values.blob(index + 1, space)
            values.blob(index + 2, row.target.device)
            values.int(index + 3, Int64(bitPattern: row.target.seq))
            values.blob(index + 4, row.game)
            values.blob(index + 5, row.player)
            values.int(index + 6, row.hole)
            values.blob(index + 7, storage: row.byDevice)
            values.int(index + 8, row.bySeq)
        }
    }
}
