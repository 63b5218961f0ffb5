import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import GRDBSQLite

/// The values of one row, bound straight into a prepared INSERT: bytes from Swift's arrays and integers as they
/// are, with no `StatementArguments`, `DatabaseValue` or `Data` made for each value. The receive path writes a row
/// per op into `op` and `score` (and a `superseded` row per correction): this is the one place they are bound.
struct RowValues {
    fileprivate let statement: SQLiteStatement

    /// SQLite copies the value at once (`SQLITE_TRANSIENT`): the buffer need live only for the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func blob(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bind(index, $0) }
    }

    func blob(_ index: Int32, _ bytes: Data) {
        bytes.withUnsafeBytes { bind(index, $0) }
    }

    func int(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    func int(_ index: Int32, _ value: Int?) {
        if let value { sqlite3_bind_int64(statement, index, Int64(value)) } else { sqlite3_bind_null(statement, index) }
    }

    private func bind(_ index: Int32, _ buffer: UnsafeRawBufferPointer) {
        // An empty blob is a blob, not NULL (a nil address would bind NULL).
        if let base = buffer.baseAddress, !buffer.isEmpty {
            sqlite3_bind_blob(statement, index, base, Int32(buffer.count), Self.transient)
        } else {
            sqlite3_bind_zeroblob(statement, index, 0)
        }
    }
}

extension Database {
    /// Runs the cached INSERT `sql` once with the values `bind` sets (every parameter: those it leaves are NULL).
    /// A failure throws GRDB's `DatabaseError`, as `Statement.execute` does, and leaves the statement ready for its
    /// next use.
    func insertRow(_ sql: String, _ bind: (RowValues) -> Void) throws {
        let handle = try cachedStatement(sql: sql).sqliteStatement
        sqlite3_clear_bindings(handle)
        bind(RowValues(statement: handle))
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let extended = sqlite3_extended_errcode(sqliteConnection)
            let message = String(cString: sqlite3_errmsg(sqliteConnection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: sql)
        }
        sqlite3_reset(handle)
    }
}

extension Database {
    /// Adds `op` to its device's log (the `op` table), under `hash`, received (or made) at `now`.
    func insertLogOp(space: Data, _ op: SignedOp, hash: Digest32, now: UInt64) throws {
        try insertRow("INSERT INTO op (space, device, seq, hash, hlc, bytes, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)") {
            $0.blob(1, space)
            $0.blob(2, op.device.bytes)
            $0.int(3, Int64(bitPattern: op.seq))
            $0.blob(4, hash.bytes)
            $0.int(5, Int64(bitPattern: op.hlc.rawValue))
            $0.blob(6, op.bytes)
            $0.int(7, Int64(bitPattern: now))
        }
    }
}
