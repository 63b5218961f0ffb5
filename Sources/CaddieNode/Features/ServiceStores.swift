import CaddieCore
import CaddieStore

// What each feature service may ask of the store: the queries and writes it uses, and no others. A service sees
// the store only as its own protocol (`RoundService.store` is `any RoundStore`), so a new use of the database by
// a feature shows as a change here (`Deploy/layers.sh` checks that no service reaches `home.store` otherwise). A
// service's own ops go through `Home.append` (Home+Log.swift); the one write to the op log listed here is
// `RoundStore.receive`, for a bundle of other devices' ops.

/// The records of a space by their typed ids.
protocol RecordStore: Sendable {
    func records<Kind>(_ space: SpaceID, _ kind: Kind.Type) throws(StoreError) -> [TypedEntityID<Kind>: [String: FieldValue]]
    func record<Kind>(_ space: SpaceID, _ id: TypedEntityID<Kind>) throws(StoreError) -> [String: FieldValue]?
}

extension RecordStore {
    /// Every record of one type in a space.
    func all<Record: FieldRecord>(_ space: SpaceID, _ type: Record.Type) throws(StoreError) -> [Record] {
        try records(space, Record.Kind.self).map { Record(id: $0.key, fields: $0.value) }
    }

    /// The record with this id; nil when the space has none.
    func one<Record: FieldRecord>(_ space: SpaceID, _ id: TypedEntityID<Record.Kind>) throws(StoreError) -> Record? {
        try record(space, id).map { Record(id: id, fields: $0) }
    }
}

/// Rosters and score cells.
protocol CardStore: Sendable {
    func roster(_ space: SpaceID, game: GameID) throws(StoreError) -> [PlayerID]
    func cells(_ space: SpaceID, game: GameID) throws(StoreError) -> [ScoreCell]
    func history(_ space: SpaceID, game: GameID, player: PlayerID, hole: Int) throws(StoreError) -> [ScoreHistoryEntry]
    func members(_ space: SpaceID) throws(StoreError) -> [MemberRecord]
    func removedDevice(_ space: SpaceID, device: PublicKey) throws(StoreError) -> Bool
}

/// `RoundService`: players, games, rosters, cells, attestations, a space's ops as a bundle, both ways, and the
/// state hash the card to hand in shows.
protocol RoundStore: RecordStore, CardStore {
    func stateHash(_ space: SpaceID) throws(StoreError) -> Digest32
    func rosterTags(_ space: SpaceID, game: GameID, player: PlayerID) throws(StoreError) -> [OpID]
    func attestations(_ space: SpaceID, game: GameID) throws(StoreError) -> [AttestationRecord]
    func cardLocks(_ space: SpaceID, game: GameID) throws(StoreError) -> [CardLock]
    func isRemoved(_ space: SpaceID, user: PublicKey) throws(StoreError) -> Bool
    func ops(space: SpaceID, notIn since: VersionVector) throws(StoreError) -> [[UInt8]]
    func receive(
        space: SpaceID, spaceKey: [UInt8], laterKeys: [[UInt8]], ops raw: [[UInt8]], mode: ReceiveMode, now: UInt64
    ) throws(StoreError) -> ReceiveReport
}

/// `CourseService` and `GuidanceService`: courses and a game's fields.
protocol CourseStore: RecordStore {}

/// `CompetitionService`: competitions and games (records), and the rosters of its groups.
protocol CompetitionStore: RecordStore {
    func roster(_ space: SpaceID, game: GameID) throws(StoreError) -> [PlayerID]
    func fieldWriter(_ space: SpaceID, kind: EntityKind, id: EntityID, field: String) throws(StoreError) -> PublicKey?
    func members(_ space: SpaceID) throws(StoreError) -> [MemberRecord]
}

/// `HandicapService`: rosters and cells of finished games.
protocol HandicapStore: CardStore {}

/// `SpaceService`: the spaces this home holds, their members, keys and removals, and the invites it made.
protocol SpaceStore: Sendable {
    func spaces() throws(StoreError) -> [(id: SpaceID, name: String)]
    func addSpace(_ id: SpaceID, name: String, now: UInt64) throws(StoreError)
    func record(_ space: SpaceID, kind: EntityKind, id: EntityID) throws(StoreError) -> [String: FieldValue]?
    func record<Kind>(_ space: SpaceID, _ id: TypedEntityID<Kind>) throws(StoreError) -> [String: FieldValue]?
    func members(_ space: SpaceID) throws(StoreError) -> [MemberRecord]
    func opCount(_ space: SpaceID) throws(StoreError) -> Int
    func vector(_ space: SpaceID) throws(StoreError) -> VersionVector
    func removedUsers(_ space: SpaceID) throws(StoreError) -> Set<PublicKey>
    func sealedSpaceKeys(_ space: SpaceID) throws(StoreError) -> [SealedSpaceKey]
    func addInvite(_ invite: StoredInvite) throws(StoreError)
    func invites(_ space: SpaceID?) throws(StoreError) -> [StoredInvite]
    func claimInvite(_ id: InviteID, now: UInt64) throws(StoreError) -> InviteRefusal?
    func releaseInvite(_ id: InviteID) throws(StoreError)
    func revokeInvite(_ id: InviteID) throws(StoreError) -> Bool
}

/// `DeviceService`: this user's devices and their revocations.
protocol DeviceStore: Sendable {
    func addSpace(_ id: SpaceID, name: String, now: UInt64) throws(StoreError)
    func members(_ space: SpaceID) throws(StoreError) -> [MemberRecord]
    func devicesCertified(by user: PublicKey, before time: UInt64) throws(StoreError) -> [PublicKey]
    func revokedAfter(_ space: SpaceID, device: PublicKey, user: PublicKey) throws(StoreError) -> UInt64?
}

/// `AuditService`: the log as stored, its evidence, a cell's history, and re-verification.
protocol AuditStore: Sendable {
    func members(_ space: SpaceID) throws(StoreError) -> [MemberRecord]
    func storedOps(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], hash: Digest32, id: OpID, hlc: UInt64)]
    func storedBranchOps(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], id: OpID, hlc: UInt64)]
    func evidence(_ space: SpaceID) throws(StoreError) -> [(bytes: [UInt8], id: OpID, removed: String, forkCopy: Bool)]
    func history(_ space: SpaceID, game: GameID, player: PlayerID, hole: Int) throws(StoreError) -> [ScoreHistoryEntry]
    func verify(_ space: SpaceID, spaceKeys: [[UInt8]]) throws(StoreError) -> (checked: Int, failures: [VerificationFailure])
}

extension OpStore: RoundStore, CourseStore, CompetitionStore, HandicapStore, SpaceStore, DeviceStore, AuditStore {}
