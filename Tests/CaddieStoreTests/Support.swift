import CaddieCore
import CaddieCrypto
import Foundation

@testable import CaddieStore

/// A deterministic random source, so a failing generated case can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A space and its key, as the tests' invite.
struct TestSpace {
    var id = SecureRandom.spaceID()
    let key = SecureRandom.bytes(32)

    init() {}

    /// A space with a given id (one bound to its owner).
    init(id: SpaceID) { self.id = id }
}

/// One device of one user, with its own real SQLite store (in memory or on disk).
struct Author {
    let name: String
    let user: SigningKey
    let device: SigningKey
    let store: OpStore
    let space: TestSpace
    var clock: UInt64 = 1_700_000_000_000

    init(
        _ name: String, space: TestSpace, user: SigningKey = .generate(), device: SigningKey = .generate(),
        store: OpStore? = nil, joinWith key: [UInt8]? = nil
    )
        throws
    {
        self.name = name
        self.user = user
        self.device = device
        self.store = try store ?? OpStore()
        self.space = space
        try self.store.addSpace(space.id, name: "test", now: 0)
        let certifiedAt: UInt64 = 1
        let join = Change.Join(
            user: user.publicKey, userName: name, certifiedAt: certifiedAt,
            certificateSignature: Membership.certify(device: device.publicKey, by: user, at: certifiedAt),
            membershipProof: Membership.membershipProof(
                space: space.id, spaceKey: key ?? space.key,
                device: device.publicKey, user: user.publicKey))
        try self.store.append(space: space.id, signer: device, changes: [.join(join)], now: clock)
    }

    @discardableResult
    mutating func edit(_ changes: [Change], pred: [OpID] = []) throws -> SignedOp {
        clock += 1
        return try store.append(space: space.id, signer: device, changes: changes, pred: pred, now: clock)
    }

    /// Enters a score that supersedes what this author's replica shows in the cell.
    @discardableResult
    mutating func score(game: GameID, player: PlayerID, hole: Int, strokes: Int) throws -> SignedOp {
        let standing =
            try store.cells(space.id, game: game).first { $0.player == player && $0.hole == hole }?.values.map(\.op) ?? []
        return try edit([.score(game: game, player: player, hole: hole, entry: try ScoreEntry(strokes: strokes))], pred: standing)
    }

    /// Takes every op `other` has that this replica lacks.
    @discardableResult
    func pull(from other: Author) throws -> ReceiveReport {
        let ops = try other.store.ops(space: space.id, notIn: try store.vector(space.id))
        return try store.receive(space: space.id, spaceKey: space.key, ops: ops, mode: .tolerant, now: clock)
    }

    func hash() throws -> Digest32 { try store.stateHash(space.id) }
}

/// A fresh replica that only receives.
func replica(_ space: TestSpace) throws -> OpStore {
    let store = try OpStore()
    try store.addSpace(space.id, name: "test", now: 0)
    return store
}

/// A game, player or course id of eight equal bytes.
func entity<ID: FixedBytes>(_ byte: UInt8) -> ID { ID(unchecked: [UInt8](repeating: byte, count: 8)) }

/// A receiver's clock: now, so that ops stamped by the authors' clocks (2023) are in its past.
let receiverNow = UInt64(Date().timeIntervalSince1970 * 1000)
