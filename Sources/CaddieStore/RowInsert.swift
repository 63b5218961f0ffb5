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

    private mutating func bind(_ index: Int32, _ buffer: UnsafeRawBufferPointer) {
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
    private static let logInserts: [String] = (0...logRowsPerInsert).map { count in
        "INSERT INTO op (space, device, seq, hash, hlc, bytes, received_at) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: max(count, 1)).joined(separator: ", ")
    }

    /// Adds ops to their devices' logs (the `op` table), each under its hash, received (or made) at `now`: in
    /// statements of up to ``logRowsPerInsert`` rows.
    func insertLogOps(space: Data, _ rows: some Collection<(op: SignedOp, hash: Digest32)>, now: UInt64) throws {
        var rest = rows[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(Self.logRowsPerInsert)
            rest = rest.dropFirst(chunk.count)
            try insertRow(Self.logInserts[chunk.count], arenaBytes: 16_384) { values in
                var index: Int32 = 0
                for (op, hash) in chunk {
                    values.blob(index + 1, space)
                    values.blob(index + 2, op.device)
                    values.int(index + 3, Int64(bitPattern: op.seq))
                    values.blob(index + 4, hash)
                    values.int(index + 5, Int64(bitPattern: op.hlc.rawValue))
                    values.blob(index + 6, op.bytes)
                    values.int(index + 7, Int64(bitPattern: now))
                    index += 7
                }
            }
        }
    }
}
