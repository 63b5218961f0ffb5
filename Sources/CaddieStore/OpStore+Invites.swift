import CaddieCore
import Foundation
import GRDB

/// An invite this home made, as its inviting device keeps it (the `invite` table; never replicated).
public struct StoredInvite: Sendable, Equatable {
    /// The invite's id (also the id of its record in the space's log).
    public let id: InviteID
    /// The space it admits to.
    public let space: SpaceID
    /// The invite's secret, sealed by the node (the store never sees it in the clear).
    public let sealedSecret: [UInt8]
    /// When it was made, ms since 1970.
    public let createdAt: UInt64
    /// When it stops working, ms since 1970.
    public let expiresAt: UInt64
    /// How many devices it may admit.
    public let uses: Int
    /// How many it has admitted.
    public let used: Int
    /// Whether it was revoked.
    public let revoked: Bool

    /// Describes an invite.
    public init(
        id: InviteID, space: SpaceID, sealedSecret: [UInt8], createdAt: UInt64, expiresAt: UInt64, uses: Int,
        used: Int = 0, revoked: Bool = false
    ) {
        self.id = id
        self.space = space
        self.sealedSecret = sealedSecret
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.uses = uses
        self.used = used
        self.revoked = revoked
    }

    /// Why the invite admits nobody at `now`, or nil while it still works.
    public func refusal(at now: UInt64) -> InviteRefusal? {
        if revoked { return .revoked }
        if used >= uses { return .usedUp(uses: uses) }
        if now >= expiresAt { return .expired(at: expiresAt) }
        return nil
    }
}

/// Why an invite no longer admits anyone.
public enum InviteRefusal: Sendable, Equatable {
    /// Its maker revoked it.
    case revoked
    /// It admitted as many devices as it was made for.
    case usedUp(uses: Int)
    /// Its time ran out (ms since 1970).
    case expired(at: UInt64)
    /// This device made no such invite (or it was made on another device of the same user).
    case unknown
}

/// The `invite` table's row (a GRDB record: the table is mapped once, here).
private struct InviteRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "invite"
    var id: InviteID
    var space: SpaceID
    var sealedSecret: Data
    var createdAt: Int64
    var expiresAt: Int64
    var uses: Int
    var used: Int
    var revoked: Bool

    init(_ invite: StoredInvite) {
        id = invite.id
        space = invite.space
        sealedSecret = Data(invite.sealedSecret)
        createdAt = Int64(clamping: invite.createdAt)
        expiresAt = Int64(clamping: invite.expiresAt)
        uses = invite.uses
        used = invite.used
        revoked = invite.revoked
    }

    var invite: StoredInvite {
        StoredInvite(
            id: id, space: space,
            sealedSecret: [UInt8](sealedSecret), createdAt: UInt64(clamping: createdAt),
            expiresAt: UInt64(clamping: expiresAt), uses: uses, used: used, revoked: revoked)
    }
}

extension OpStore {
    /// Keeps a new invite.
    public func addInvite(_ invite: StoredInvite) throws(StoreError) {
        try write("invite") { db in try InviteRow(invite).insert(db) }
    }

    /// The invites this home made, newest first (of one space, or of all).
    public func invites(_ space: SpaceID? = nil) throws(StoreError) -> [StoredInvite] {
        try read { db in
            var request = InviteRow.order(Column("createdAt").desc)
            if let space { request = request.filter(Column("space") == space) }
            return try request.fetchAll(db).map(\.invite)
        }
    }

    /// Takes one use of an invite, in one transaction, if it still works at `now`; otherwise says why not.
    public func claimInvite(_ id: InviteID, now: UInt64) throws(StoreError) -> InviteRefusal? {
        try write("invite") { db in
            guard var row = try InviteRow.fetchOne(db, key: id) else { return InviteRefusal.unknown }
            if let refusal = row.invite.refusal(at: now) { return refusal }
            row.used += 1
            try row.update(db)
            return nil
        }
    }

    /// Gives a claimed use back (the admission it was taken for could not be recorded).
    public func releaseInvite(_ id: InviteID) throws(StoreError) {
        try write("invite") { db in
            try db.execute(sql: "UPDATE invite SET used = max(used - 1, 0) WHERE id = ?", arguments: [id])
        }
    }

    /// Revokes an invite; false when this home made none with that id.
    public func revokeInvite(_ id: InviteID) throws(StoreError) -> Bool {
        try write("invite") { db in
            guard var row = try InviteRow.fetchOne(db, key: id) else { return false }
            row.revoked = true
            try row.update(db)
            return true
        }
    }
}
