import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import Synchronization

/// One home's SQLite database: the signed op log of every space it holds and the state derived from it.
///
/// Every public method that writes runs in one transaction: it applies all of its ops or none.
public final class OpStore: Sendable {
    let db: any DatabaseWriter
    private let writeCount = Atomic<Int>(0)
    /// Held by every write transaction of this process, and across a unit of work's checks and its writes
    /// (``holdingWrites(_:)``): recursive, so the writes inside a unit of work take it again.
    private let commitLock = NSRecursiveLock()
    /// What the transaction being written changed, published at its commit (``observe(_:)``).
    let recorder = ChangeRecorder()
    /// The watch for other processes' commits, started by the first observer.
    let fileWatch = Mutex<FileWatch?>(nil)
    /// The database file, nil in memory.
    public let path: String?

    /// `caddie_name_key(name)`: ``NameKey`` in SQL, so that queries tell apart names people could mistake.
    static let nameKey = DatabaseFunction("caddie_name_key", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(NameKey.of)
    }

    /// Opens (creating if needed) the database file at `path` in WAL mode.
    public init(path: String) throws(StoreError) {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            db.add(function: OpStore.nameKey)
        }
        do {
            let pool = try DatabasePool(path: path, configuration: config)
            // A database written by a newer caddie is refused rather than misread.
            if try pool.read({ try Schema.migrator.hasBeenSuperseded($0) }) {
                throw StoreError.database("\(path) was written by a newer version of caddie: upgrade caddie to open it")
            }
            try Schema.migrator.migrate(pool)
            if try pool.read(Schema.rebuildPending) { try pool.write(Schema.rebuildIfPending) }
            pool.add(transactionObserver: recorder, extent: .databaseLifetime)
            db = pool
            self.path = path
        } catch {
            throw StoreError.from(error)
        }
    }

    /// A store in memory: real SQLite with the same schema, for tests that need thousands of replicas.
    public init(inMemory: Void = ()) throws(StoreError) {
        do {
            var config = Configuration()
            config.prepareDatabase { db in db.add(function: OpStore.nameKey) }
            let queue = try DatabaseQueue(configuration: config)
            try Schema.migrator.migrate(queue)
            try queue.write(Schema.rebuildIfPending)
            queue.add(transactionObserver: recorder, extent: .databaseLifetime)
            db = queue
            path = nil
        } catch {
            throw StoreError.from(error)
        }
    }

    // MARK: Spaces

    /// Records a space this home holds (again: a no-op).
    public func addSpace(_ id: SpaceID, name: String, now: UInt64) throws(StoreError) {
        try write("space") { db in try SpaceRow(id: id, name: name, joinedAt: Int64(now)).insert(db, onConflict: .ignore) }
    }

    /// The spaces this home holds, with the name recorded at create or join (the synced name may be newer).
    public func spaces() throws(StoreError) -> [(id: SpaceID, name: String)] {
        try read { db in
            try SpaceRow.order(Column("joined_at"), Column("id")).fetchAll(db).map { ($0.id, $0.name) }
        }
    }

    /// The version vector of a space: the highest contiguous seq held per device.
    public func vector(_ space: SpaceID) throws(StoreError) -> VersionVector {
        try read { db in
            var entries: [PublicKey: UInt64] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT device, max(seq) AS top FROM op WHERE space = ? GROUP BY device",
                arguments: [Data(space.bytes)])
            {
                if let key = PublicKey(bytes: [UInt8](row["device"] as Data)) {
                    entries[key] = UInt64(row["top"] as Int64)
                }
            }
            return VersionVector(entries)
        }
    }

    /// The number of ops held in a space.
    public func opCount(_ space: SpaceID) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM op WHERE space = ?", arguments: [Data(space.bytes)]) ?? 0
        }
    }

    // MARK: Transactions

    /// CADDIE_TRACE_WRITES=1: each write transaction says on standard error, with what it is, when it holds the
    /// write lock ("caddie-write: began receive") and when its commit has returned ("caddie-write: committed
    /// receive"). What a transaction is: `append` (this device's own signed edits), `receive` (a batch of ops from a
    /// peer, a phone or a bundle), `peer`, `key seen`, `branch acks` (sync bookkeeping), `invite`, `space`. A
    /// diagnostic for operators, and how the crash tests show that a kill landed inside a transaction, and which.
    static let traceWrites = ProcessInfo.processInfo.environment["CADDIE_TRACE_WRITES"] == "1"

    func write<T>(_ what: StaticString, _ body: (Database) throws -> T) throws(StoreError) -> T {
        defer { writeCount.add(1, ordering: .releasing) }
        commitLock.lock()
        defer { commitLock.unlock() }
        do {
            guard Self.traceWrites else { return try db.write(body) }
            let result = try db.write { db in
                FileHandle.standardError.write(Data("caddie-write: began \(what)\n".utf8))
                return try body(db)
            }
            FileHandle.standardError.write(Data("caddie-write: committed \(what)\n".utf8))
            return result
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Runs `body` as one unit of work: no other write transaction of this process commits while it runs, so what
    /// its checks read is still so when its writes commit (a command that reads a game is open and then appends a
    /// score; a peer's batch that finishes the game waits until the score is in). Reads inside it see the state as
    /// committed, as any read does; another process's commit is not held (a running node is the home's one writer).
    public func holdingWrites<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        commitLock.lock()
        defer { commitLock.unlock() }
        return try body()
    }

    /// How many write transactions this process has run on the store (committed or not): a value read before a
    /// query and unchanged after it means this process wrote nothing in between. Other processes' writes are not
    /// counted (the file watch reports those to observers, ``observe(_:)``).
    public var writes: Int { writeCount.load(ordering: .acquiring) }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.read(body)
        } catch {
            throw StoreError.from(error)
        }
    }
}

extension StoreError {
    static func from(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return .diskFull(error.message ?? "the database could not grow")
            case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM:
                return .database("\(error.message ?? "I/O error") (check the home directory's permissions and free space)")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return .database("the database file is damaged: restore the home from a backup")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .database("the database stayed locked by another caddie process; try again")
            default: return .database(error.message ?? "\(error)")
            }
        }
        if let error = error as? DecodeError { return .database("stored data does not decode: \(error)") }
        if error is RowDecodingError {
            // A row of the wrong shape (an id of the wrong length, text where a number belongs): the file was edited
            // by hand or damaged. GRDB's text names the table's query and the row.
            return .database(
                "a row of the home's database is damaged and cannot be read: restore caddie.sqlite from a backup, "
                    + "or remove the row this describes: \(error)")
        }
        return .database("\(error)")
    }
}
