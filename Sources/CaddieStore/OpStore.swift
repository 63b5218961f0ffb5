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
    /// How many write transactions this process began unsynced (``Durability/heldByPeer``), for tests.
    let unsyncedCommits = Atomic<Int>(0)
    /// Held by every write transaction of this process (``transaction(_:_:failed:)`` included), so that a second
    /// one waits here rather than in SQLite's busy loop.
    private let commitLock = NSRecursiveLock()
    /// What the transaction being written changed, published at its commit (``observe(_:)``).
    let recorder = ChangeRecorder()
    /// The lock file this process holds while it is the database's one writer (``claimWrites()``), open.
    let writerLock = Mutex<Int32?>(nil)
    /// The database file, nil in memory.
    public let path: String?

    /// `caddie_name_key(name)`: ``NameKey`` in SQL, so that queries tell apart names people could mistake.
    static let nameKey = DatabaseFunction("caddie_name_key", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(NameKey.of)
    }

    /// Opens (creating if needed) the database file at `path` in WAL mode.
    public init(path: String) throws(StoreError) {
        SQLiteSettings.applied
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The WAL is copied back into the database file once it holds 8,000 pages (32 MiB), not SQLite's 1,000:
            // a batch of received ops rewrites the same pages again and again, and a checkpoint writes each page once
            // however often it changed, so a sync of thousands of ops pays for far fewer copies (docs/performance.md,
            // twenty-first session). The file is cut back to 32 MiB after a checkpoint; durability is the same (each
            // commit's frames are synced as before).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 8000")
            try db.execute(sql: "PRAGMA journal_size_limit = 33554432")
            db.add(function: OpStore.nameKey)
        }
        do {
            let pool = try DatabasePool(path: path, configuration: config)
            // GRDB's pool turns WAL on after `prepareDatabase` and sets the writer to `synchronous = NORMAL` as it
            // does: the writer syncs every commit only once set again here (docs/architecture.md, "Storage and
            // durability"; `DurabilityTests`).
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
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

    deinit {
        // The claim ends with the store (and at the latest with the process).
        if let fd = writerLock.withLock({ $0 }) { close(fd) }
    }

    /// A store in memory: real SQLite with the same schema, for tests that need thousands of replicas.
    public init(inMemory: Void = ()) throws(StoreError) {
        SQLiteSettings.applied
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

    func write<T>(
        _ what: StaticString, durability: Durability = .synced, _ body: (Database) throws -> T
    ) throws(StoreError) -> T {
        defer { writeCount.add(1, ordering: .releasing) }
        // Inside a unit of work: part of its transaction, in a savepoint, so that a write that fails takes back only
        // its own rows and what it noted for the change, and the rest commits with the unit of work.
        if let open = OpenTransaction.current(of: self) {
            if Self.traceWrites { FileHandle.standardError.write(Data("caddie-write: began \(what)\n".utf8)) }
            let noted = recorder.noted
            do {
                // SQLite ended the transaction (a full disk, an I/O error in an earlier write the body caught): a
                // savepoint now would begin and commit a transaction of its own, outside the unit of work.
                guard open.db.isInsideTransaction else {
                    throw StoreError.database("SQLite ended the unit of work's transaction early; nothing more is written")
                }
                var result: T?
                try open.db.inSavepoint {
                    result = try body(open.db)
                    return .commit
                }
                guard let result else { throw StoreError.database("a write inside a unit of work gave no result") }
                return result
            } catch {
                recorder.restore(noted)
                throw StoreError.from(error)
            }
        }
        commitLock.lock()
        defer { commitLock.unlock() }
        do {
            let result = try withoutActuallyEscaping(body) { body in
                let traced: (Database) throws -> T = { db in
                    if Self.traceWrites { FileHandle.standardError.write(Data("caddie-write: began \(what)\n".utf8)) }
                    return try body(db)
                }
                switch durability {
                case .synced: return try db.write(traced)
                case .heldByPeer: return try db.writeWithoutTransaction { try self.unsynced($0, traced) }
                }
            }
            if Self.traceWrites { FileHandle.standardError.write(Data("caddie-write: committed \(what)\n".utf8)) }
            return result
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Runs `body` in a transaction whose commit writes the WAL without syncing it (``Durability/heldByPeer``); the
    /// writer connection is back to syncing every commit afterwards, whatever happened.
    private func unsynced<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        unsyncedCommits.add(1, ordering: .relaxed)
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        var result: T?
        do {
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
        } catch {
            try db.execute(sql: "PRAGMA synchronous = FULL")
            throw error
        }
        try db.execute(sql: "PRAGMA synchronous = FULL")
        guard let result else { throw StoreError.database("a write gave no result") }
        return result
    }

    /// Runs `body` as one unit of work, in one SQLite write transaction: what its checks read and what it writes
    /// commit together or not at all. Every read of this store that `body` makes on its thread is a read of that
    /// transaction (it sees the unit's own writes, and nothing another writer commits meanwhile: the transaction is
    /// IMMEDIATE, so another write of this process waits for the lock, and another process's for SQLite's); every
    /// write is a savepoint inside it. A command that reads a game is open and then appends a score cannot have a
    /// peer's batch that finishes the game commit between the two. If `body` throws, nothing it wrote is kept, and its
    /// error is thrown as it was; if the transaction itself fails (the disk full, the file locked past the busy
    /// timeout), `failed` words that store error in the caller's type. A unit of work inside another is part of it.
    /// `what` names the transaction for ``traceWrites``.
    public func transaction<T, E: Error>(
        _ what: StaticString, _ body: () throws(E) -> T, failed: (StoreError) -> E
    ) throws(E) -> T {
        if OpenTransaction.current(of: self) != nil { return try body() }
        defer { writeCount.add(1, ordering: .releasing) }
        commitLock.lock()
        defer { commitLock.unlock() }
        var outcome: Result<T, E>?
        do {
            try db.write { db in
                if Self.traceWrites { FileHandle.standardError.write(Data("caddie-write: began \(what)\n".utf8)) }
                let made = OpenTransaction(db: db, store: self).run(body)
                outcome = made
                // SQLite itself rolled the transaction back (a full disk, an I/O error) inside a write the body then
                // caught: what the body did after it was not part of the unit of work, so none of it counts.
                if case .success = made, !db.isInsideTransaction {
                    throw StoreError.database("SQLite ended the unit of work's transaction early; nothing of it was kept")
                }
                // The body's error rolls the transaction back; it is thrown as it was, below.
                if case .failure = made { throw OpenTransaction.RolledBack() }
            }
            if Self.traceWrites { FileHandle.standardError.write(Data("caddie-write: committed \(what)\n".utf8)) }
        } catch is OpenTransaction.RolledBack {
        } catch {
            // SQLite failed to begin or to commit: nothing the body wrote is kept, whatever it returned.
            throw failed(StoreError.from(error))
        }
        guard let outcome else { throw failed(.database("a unit of work ended without an outcome")) }
        return try outcome.get()
    }

    /// How many write transactions this process has run on the store (committed or not): a value read before a
    /// query and unchanged after it means this process wrote nothing in between. Other processes' writes are not
    /// counted (a process that claimed the file, ``claimWrites()``, has none to count).
    public var writes: Int { writeCount.load(ordering: .acquiring) }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            // Inside a unit of work on this thread: a read of its transaction.
            if let open = OpenTransaction.current(of: self) { return try body(open.db) }
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

/// The write transaction of a unit of work (``OpStore/transaction(_:_:failed:)``), known to the thread that runs its
/// body for as long as the body runs, so that the store's reads and writes on that thread go into it. Kept per thread,
/// not per task: a task started inside the body, which may run after the commit and on another thread, reads and
/// writes as any other would.
final class OpenTransaction {
    struct RolledBack: Error {}

    let db: Database
    let store: ObjectIdentifier
    /// The unit of work of another store this thread was in, known again when this one ends.
    private var outer: UnsafeMutableRawPointer?

    init(db: Database, store: OpStore) {
        self.db = db
        self.store = ObjectIdentifier(store)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with this transaction known to the thread.
    func run<T, E: Error>(_ body: () throws(E) -> T) -> Result<T, E> {
        outer = pthread_getspecific(Self.key)
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.key, outer) }
        do throws(E) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    /// The unit of work of `store` this thread is in, if any.
    static func current(of store: OpStore) -> OpenTransaction? {
        var pointer = pthread_getspecific(key)
        while let here = pointer {
            let open = Unmanaged<OpenTransaction>.fromOpaque(here).takeUnretainedValue()
            if open.store == ObjectIdentifier(store) { return open }
            pointer = open.outer
        }
        return nil
    }
}
