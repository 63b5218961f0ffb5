import CSQLite

/// SQLite's settings for the whole process, made once before its first connection opens (``OpStore``'s
/// initialisers ask for them).
enum SQLiteSettings {
    /// SQLite does not count the memory it allocates. Counting takes one lock for the whole process at every
    /// allocation and free, which every connection shares: the writer of a receive, the sessions' reads, a hub's
    /// many readers. Caddie reads none of the counts (no soft heap limit, no `sqlite3_memory_used`). A process that
    /// opened SQLite before (a test that did) keeps counting: SQLite takes the setting only before it starts, and
    /// refuses it harmlessly after.
    static let applied: Void = {
        _ = caddie_sqlite3_config_memstatus(0)
    }()
}
