import CaddieCore
import Foundation
import GRDB

/// The database schema, as named migrations. A shipped migration is never edited: changes come as new ones.
///
/// `op` holds every accepted op byte-exact; every other table is materialised state derived from
/// `op` and updated incrementally as ops apply, so a node never replays its log at start.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: op log and materialised game document") { db in
            try db.execute(
                sql: """
                    CREATE TABLE space (
                        id BLOB PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        joined_at INTEGER NOT NULL
                    );
                    -- Accepted ops, exactly as signed. Per device only a contiguous prefix 1...n is kept here.
                    CREATE TABLE op (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL,
                        hash BLOB NOT NULL, hlc INTEGER NOT NULL, bytes BLOB NOT NULL, received_at INTEGER NOT NULL,
                        PRIMARY KEY (space, device, seq)
                    ) WITHOUT ROWID;
                    -- Also the home's hybrid logical clock: the next local op is stamped after max(hlc).
                    CREATE INDEX op_by_hlc ON op (hlc);
                    -- Ops that arrived before their predecessor; applied once the gap is filled.
                    CREATE TABLE pending_op (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL, bytes BLOB NOT NULL,
                        PRIMARY KEY (space, device, seq)
                    ) WITHOUT ROWID;
                    -- Ops removed because their device was revoked or forked, kept for the audit.
                    CREATE TABLE rejected_op (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL, bytes BLOB NOT NULL,
                        reason TEXT NOT NULL, PRIMARY KEY (space, device, seq)
                    ) WITHOUT ROWID;
                    -- Two different ops signed with one (device, seq).
                    CREATE TABLE fork (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL,
                        kept_hash BLOB NOT NULL, other_bytes BLOB NOT NULL, detected_at INTEGER NOT NULL,
                        PRIMARY KEY (space, device, seq)
                    ) WITHOUT ROWID;

                    CREATE TABLE member (
                        space BLOB NOT NULL, device BLOB NOT NULL, user BLOB NOT NULL, user_name TEXT NOT NULL,
                        certified_at INTEGER NOT NULL, PRIMARY KEY (space, device)
                    ) WITHOUT ROWID;
                    CREATE TABLE revocation (
                        space BLOB NOT NULL, user BLOB NOT NULL, device BLOB NOT NULL, last_valid_seq INTEGER NOT NULL,
                        by_device BLOB NOT NULL, by_seq INTEGER NOT NULL, PRIMARY KEY (space, by_device, by_seq, device)
                    ) WITHOUT ROWID;

                    -- Last-writer-wins fields of players, courses, games and the space, ordered by (hlc, device, seq).
                    CREATE TABLE lww (
                        space BLOB NOT NULL, kind INTEGER NOT NULL, id BLOB NOT NULL, field TEXT NOT NULL,
                        value BLOB NOT NULL, hlc INTEGER NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL,
                        PRIMARY KEY (space, kind, id, field)
                    ) WITHOUT ROWID;

                    -- Add-wins roster: a player is on it while one add (or score) has not been cancelled by a remove.
                    CREATE TABLE roster_add (
                        space BLOB NOT NULL, game BLOB NOT NULL, player BLOB NOT NULL, device BLOB NOT NULL,
                        seq INTEGER NOT NULL, PRIMARY KEY (space, game, player, device, seq)
                    ) WITHOUT ROWID;
                    -- A score is also an add: its op id is a tag a remove must have seen to cancel.
                    CREATE VIEW roster_tag AS
                        SELECT space, game, player, device, seq FROM roster_add
                        UNION ALL SELECT space, game, player, device, seq FROM score;
                    CREATE TABLE roster_cancel (
                        space BLOB NOT NULL, game BLOB NOT NULL, player BLOB NOT NULL, device BLOB NOT NULL,
                        seq INTEGER NOT NULL, PRIMARY KEY (space, game, player, device, seq)
                    ) WITHOUT ROWID;

                    -- Multi-value score cells: every value stays until an op names it in pred.
                    CREATE TABLE score (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL,
                        game BLOB NOT NULL, player BLOB NOT NULL, hole INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        strokes INTEGER NOT NULL, putts INTEGER, penalties INTEGER,
                        PRIMARY KEY (space, device, seq)
                    ) WITHOUT ROWID;
                    CREATE INDEX score_by_cell ON score (space, game, player, hole);
                    CREATE TABLE superseded (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL,
                        game BLOB NOT NULL, player BLOB NOT NULL, hole INTEGER NOT NULL,
                        by_device BLOB NOT NULL, by_seq INTEGER NOT NULL,
                        PRIMARY KEY (space, device, seq, game, player, hole, by_device, by_seq)
                    ) WITHOUT ROWID;

                    CREATE TABLE attestation (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL, user BLOB NOT NULL,
                        game BLOB NOT NULL, player BLOB NOT NULL, card_hash BLOB NOT NULL,
                        PRIMARY KEY (space, device, seq, game, player)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v2: peers") { db in
            try db.execute(
                sql: """
                    -- Peers this home has synced with, per space: for `caddie peers`. Local knowledge, not replicated.
                    CREATE TABLE peer (
                        space BLOB NOT NULL, device BLOB NOT NULL, address TEXT NOT NULL, found_by TEXT NOT NULL,
                        user_name TEXT NOT NULL, last_seen INTEGER NOT NULL, last_sync INTEGER,
                        vector TEXT NOT NULL, sent INTEGER NOT NULL, received INTEGER NOT NULL,
                        PRIMARY KEY (space, device)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v3: fairway and green in regulation") { db in
            try db.execute(
                sql: """
                    -- Statistics a score may record (change 0x22); NULL where not recorded.
                    ALTER TABLE score ADD COLUMN fairway INTEGER;
                    ALTER TABLE score ADD COLUMN gir INTEGER;
                    """)
        }
        migrator.registerMigration("v4: pending ops expire") { db in
            try db.execute(
                sql: """
                    -- When a pending op arrived (ms since 1970), so ops that never get their predecessors expire.
                    ALTER TABLE pending_op ADD COLUMN received_at INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v5: invites") { db in
            try db.execute(
                sql: """
                    -- Invites this device made. Local, never replicated: the secret (sealed under a key derived from the
                    -- device key) stays on the device that redeems it; the log holds a signed record of each invite.
                    CREATE TABLE invite (
                        id BLOB PRIMARY KEY, space BLOB NOT NULL, sealedSecret BLOB NOT NULL, createdAt INTEGER NOT NULL,
                        expiresAt INTEGER NOT NULL, uses INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0,
                        revoked INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v6: removed users and space keys") { db in
            try db.execute(
                sql: """
                    -- Users removed from a space by its owner (change 0x03): refused, and their devices' ops cut.
                    CREATE TABLE removal (
                        space BLOB NOT NULL, user BLOB NOT NULL, by_device BLOB NOT NULL, by_seq INTEGER NOT NULL,
                        PRIMARY KEY (space, user, by_device, by_seq)
                    ) WITHOUT ROWID;
                    -- New space keys (change 0x04), one row per device each was sealed to.
                    CREATE TABLE space_key (
                        space BLOB NOT NULL, epoch INTEGER NOT NULL, key_check BLOB NOT NULL, device BLOB NOT NULL,
                        sealed BLOB NOT NULL, by_device BLOB NOT NULL, by_seq INTEGER NOT NULL,
                        PRIMARY KEY (space, by_device, by_seq, device)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v7: fork branches") { db in
            try db.execute(
                sql: """
                    -- Ops of a forked device from its fork point on, every branch of them. Its log in `op` ends before the
                    -- fork point; these stay in the state, each under its own author slot (the op's hash), so a fork never
                    -- takes out what others already hold. `user` and `user_name`: whose device signed it.
                    CREATE TABLE branch_op (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL, hash BLOB NOT NULL,
                        user BLOB NOT NULL, user_name TEXT NOT NULL, hlc INTEGER NOT NULL, bytes BLOB NOT NULL,
                        received_at INTEGER NOT NULL, PRIMARY KEY (space, device, seq, hash)
                    ) WITHOUT ROWID;
                    CREATE INDEX branch_op_by_slot ON branch_op (space, hash);
                    """)
        }
        migrator.registerMigration("v8: the space record's owner fields as the owner wrote them") { db in
            // The merge now drops a member's write of `owner` or `ownerSalt` (Materializer.counted): every space is
            // rebuilt once, so that a write applied under the old rule is gone here too. The rebuild runs after all
            // migrations (`rebuildIfPending`), with the tables and code of its day: a migration never calls live
            // code that a later migration's tables could break.
            try db.execute(sql: "CREATE TABLE pending_rebuild (reason TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO pending_rebuild (reason) VALUES ('v8: owner fields')")
        }
        migrator.registerMigration("v9: devices seen with a space's key") { db in
            try db.execute(
                sql: """
                    -- A local table: which devices this home has had a session with under which key of a space (by the
                    -- key's check, Membership.keyCheck). Once every device a new key was sealed to has been seen with it,
                    -- the node stops answering the older keys (docs/identity-and-spaces.md, "Removing a member").
                    CREATE TABLE key_seen (
                        space BLOB NOT NULL, device BLOB NOT NULL, key_check BLOB NOT NULL, seen_at INTEGER NOT NULL,
                        PRIMARY KEY (space, device, key_check)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v10: a waiting op whose own signature was found not to verify") { db in
            try db.execute(
                sql: """
                    -- 1 when the op's own signature was checked and does not verify: it waits for a later op of its device
                    -- to cover it (Protocol/op-format.md, "Which signature covers an op"), and is not checked again.
                    ALTER TABLE pending_op ADD COLUMN unsigned INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v11: fork-branch ops each peer device acknowledged") { db in
            try db.execute(
                sql: """
                    -- A local table: the fork-branch ops (by hash) each peer device acknowledged from this home, and when
                    -- (milliseconds since 1970), so a forked device's branches cross each link once, across restarts and
                    -- one-shot syncs (Protocol/wire.md, "Branch ops"). Forgotten after a day.
                    CREATE TABLE branch_ack (
                        space BLOB NOT NULL, peer BLOB NOT NULL, hash BLOB NOT NULL, acked_at INTEGER NOT NULL,
                        PRIMARY KEY (space, peer, hash)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v12: score rows kept in cell order") { db in
            // Every read of `score` names a cell or a game (a card, a cell's history, a roster's tags, a rebuild's
            // delete by space); none names an op alone. Keyed by its cell, the table needs no index beside it: one
            // B-tree written per score op received instead of two (docs/performance.md, "#50, twenty-second
            // session"). A cell names each op once (an op scores one cell), so the key stays unique per op.
            try db.execute(
                sql: """
                    CREATE TABLE score_v12 (
                        space BLOB NOT NULL, device BLOB NOT NULL, seq INTEGER NOT NULL,
                        game BLOB NOT NULL, player BLOB NOT NULL, hole INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        strokes INTEGER NOT NULL, putts INTEGER, penalties INTEGER, fairway INTEGER, gir INTEGER,
                        PRIMARY KEY (space, game, player, hole, device, seq)
                    ) WITHOUT ROWID;
                    INSERT INTO score_v12 (space, device, seq, game, player, hole, hlc, strokes, putts, penalties,
                                           fairway, gir)
                        SELECT space, device, seq, game, player, hole, hlc, strokes, putts, penalties, fairway, gir
                        FROM score;
                    DROP VIEW roster_tag;
                    DROP TABLE score;
                    ALTER TABLE score_v12 RENAME TO score;
                    CREATE VIEW roster_tag AS
                        SELECT space, game, player, device, seq FROM roster_add
                        UNION ALL SELECT space, game, player, device, seq FROM score;
                    """)
        }
        migrator.registerMigration("v13: the home's clock in a row of its own") { db in
            // The next local op is stamped after the newest clock held. It was read as max(hlc) through an index of
            // every op by its clock, written at every op received and read only by a local append: the newest clock
            // is now one row, moved forward once a receive transaction (docs/performance.md, "#50, twenty-third
            // session"). Every op held was taken at most a day ahead of the clock it was taken by (newer ones are
            // refused), which is what the read ignored beyond.
            let ceiling = Int64(bitPattern: HLC.ceiling(now: UInt64(Date().timeIntervalSince1970 * 1000)).rawValue)
            try db.execute(
                sql: """
                    CREATE TABLE home_clock (id INTEGER PRIMARY KEY CHECK (id = 1), hlc INTEGER NOT NULL);
                    INSERT INTO home_clock (id, hlc) SELECT 1, coalesce(max(hlc), 0) FROM (
                        SELECT max(hlc) AS hlc FROM op WHERE hlc <= ?1
                        UNION ALL SELECT max(hlc) FROM branch_op WHERE hlc <= ?1);
                    DROP INDEX op_by_hlc;
                    """, arguments: [ceiling])
        }
        return migrator
    }

    /// Whether a migration asked for a rebuild (read first, so that an ordinary open takes no write lock).
    static func rebuildPending(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM pending_rebuild") ?? 0 > 0
    }

    /// Rebuilds every space's materialised state when a migration asked for it, then forgets the request.
    static func rebuildIfPending(_ db: Database) throws {
        guard try rebuildPending(db) else { return }
        for id in try Data.fetchAll(db, sql: "SELECT id FROM space") {
            try Materializer(db: db, space: try SpaceID(column: id), recorder: nil).rebuild()
        }
        try db.execute(sql: "DELETE FROM pending_rebuild")
    }

    /// Tables derived from `op`; a rebuild empties them and replays the space's ops.
    static let materialisedTables = [
        "member", "revocation", "lww", "roster_add", "roster_cancel", "score", "superseded", "attestation",
        "removal", "space_key",
    ]
}
