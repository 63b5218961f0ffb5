/// The kinds of record a last-writer-wins field belongs to.
public enum EntityKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// The space itself (its name).
    case space = 1
    /// A player.
    case player = 2
    /// A course with its tees and holes.
    case course = 3
    /// A game.
    case game = 4
    /// An invite a member made (its record: when it expires, how many it admits, whom it admitted, whether it
    /// was revoked); the invite's secret is never in the log.
    case invite = 5
    /// A club competition: its scoring, countback policy, allowance, divisions and the committee's NR and DQ marks;
    /// its groups are games that name it.
    case competition = 6

    /// The kind's name.
    public var description: String {
        switch self {
        case .space: "space"
        case .player: "player"
        case .course: "course"
        case .game: "game"
        case .invite: "invite"
        case .competition: "competition"
        }
    }
}

/// The strokes, putts and penalties entered for one player on one hole, or a pick-up: the player started the
/// hole and did not hole out ("no score").
public struct ScoreEntry: Hashable, Sendable {
    /// Allowed strokes on a hole.
    public static let strokeRange: ClosedRange<Int> = 1...30
    /// Allowed putts or penalty strokes on a hole.
    public static let countRange: ClosedRange<Int> = 0...30

    /// Strokes taken, 1...30; 0 for a pick-up (``pickedUp``). Read a total from ``holed``, which is nil for a
    /// pick-up, never from this.
    public let strokes: Int
    /// Putts, if recorded.
    public let putts: Int?
    /// Penalty strokes, if recorded.
    public let penalties: Int?
    /// Where the tee shot finished on a par 4 or 5, if recorded.
    public let fairway: Fairway?
    /// Whether the green was reached in regulation (par minus two strokes), if recorded.
    public let greenInRegulation: Bool?

    /// Where a tee shot finished, for statistics.
    public enum Fairway: UInt8, Hashable, Sendable, CaseIterable {
        /// On the fairway.
        case hit = 0
        /// Missed left.
        case left = 1
        /// Missed right.
        case right = 2

        /// The name typed and shown: hit, left, right.
        public var name: String {
            switch self {
            case .hit: "hit"
            case .left: "left"
            case .right: "right"
            }
        }

        /// The fairway result named `text`.
        public init?(name text: String) {
            guard let value = Self.allCases.first(where: { $0.name == text.lowercased() }) else { return nil }
            self = value
        }
    }

    /// Creates an entry, checking ranges.
    public init(
        strokes: Int, putts: Int? = nil, penalties: Int? = nil, fairway: Fairway? = nil,
        greenInRegulation: Bool? = nil
    ) throws(CoreError) {
        guard Self.strokeRange.contains(strokes) else {
            throw .invalidArgument("strokes must be between 1 and 30, got \(strokes)")
        }
        if let putts, !Self.countRange.contains(putts) || putts > strokes {
            throw .invalidArgument("putts must be between 0 and the strokes (\(strokes)), got \(putts)")
        }
        if let penalties, !Self.countRange.contains(penalties) || penalties > strokes {
            throw .invalidArgument("penalties must be between 0 and the strokes (\(strokes)), got \(penalties)")
        }
        self.strokes = strokes
        self.putts = putts
        self.penalties = penalties
        self.fairway = fairway
        self.greenInRegulation = greenInRegulation
    }

    /// A pick-up: the player started the hole and did not hole out. It scores 0 points in Stableford, loses the
    /// hole in a match, gives no total in stroke play (no return) and counts net double bogey for the handicap
    /// record (Rules of Golf 21.1b, 3.3b; WHS Rule 3.3). It travels as change `0x23`.
    public static let pickUp = ScoreEntry(pickUp: ())

    private init(pickUp: Void) {
        strokes = 0
        putts = nil
        penalties = nil
        fairway = nil
        greenInRegulation = nil
    }

    /// Whether this entry is a pick-up.
    public var pickedUp: Bool { strokes == 0 }

    /// The strokes the hole was holed in, nil for a pick-up.
    public var holed: Int? { pickedUp ? nil : strokes }

    /// Whether the entry records a fairway or green in regulation: then it travels as change `0x22`.
    public var hasStatistics: Bool { fairway != nil || greenInRegulation != nil }

    /// What a card's grid shows: the strokes, or "P" for a pick-up.
    public var mark: String { pickedUp ? "P" : "\(strokes)" }

    /// The entry in a sentence: "5", or "a pick-up".
    public var words: String { pickedUp ? "a pick-up" : "\(strokes)" }

    /// "5", "5 (2 putts, 1 pen)" or "picked up".
    public var summary: String {
        if pickedUp { return "picked up" }
        var extras: [String] = []
        if let putts { extras.append("\(putts) putt\(putts == 1 ? "" : "s")") }
        if let penalties, penalties > 0 { extras.append("\(penalties) pen") }
        if let fairway { extras.append(fairway == .hit ? "fairway" : "missed \(fairway.name)") }
        if let greenInRegulation { extras.append(greenInRegulation ? "GIR" : "no GIR") }
        return extras.isEmpty ? "\(strokes)" : "\(strokes) (\(extras.joined(separator: ", ")))"
    }
}

/// One change carried by an op. An op carries one or more; a score change travels alone so that the
/// op's `pred` clearly belongs to it.
public enum Change: Hashable, Sendable {
    /// A device joins the space: its certificate from the user, and proof it holds the space key.
    case join(Join)
    /// A user revokes one of their devices: its ops after `lastValidSeq` are rejected everywhere.
    case revoke(Revocation)
    /// Last-writer-wins assignment of fields of one record.
    case set(kind: EntityKind, id: EntityID, fields: [String: FieldValue])
    /// Adds a player to a game's roster (add-wins).
    case rosterAdd(game: GameID, player: PlayerID)
    /// Removes a player from a game's roster: cancels exactly the adds it had seen.
    case rosterRemove(game: GameID, player: PlayerID, observed: [OpID])
    /// A value for one score cell; the op's `pred` names the values it replaces.
    case score(game: GameID, player: PlayerID, hole: Int, entry: ScoreEntry)
    /// The signing device's user, as marker, attests a player's card as it stood (its hash).
    case attest(game: GameID, player: PlayerID, cardHash: Digest32)
    /// The space's owner removes a user: the listed devices' ops after their last valid seq, and every op of
    /// the user's other devices, are rejected everywhere, and the user's devices are refused.
    case remove(Removal)
    /// A new space key, sealed to each remaining member device, by the space's owner (with a removal, or when the
    /// current key reached a removed member's device).
    case rotate(Rotation)

    /// A device joining a space.
    public struct Join: Hashable, Sendable {
        /// The user the device speaks for.
        public let user: PublicKey
        /// The user's display name.
        public let userName: String
        /// When the user certified the device (ms since 1970).
        public let certifiedAt: UInt64
        /// The user's signature over the certificate.
        public let certificateSignature: [UInt8]
        /// A MAC with the space key over space, device and user: only holders of the key can join.
        public let membershipProof: [UInt8]

        /// Creates a join.
        public init(
            user: PublicKey, userName: String, certifiedAt: UInt64, certificateSignature: [UInt8],
            membershipProof: [UInt8]
        ) {
            self.user = user
            self.userName = userName
            self.certifiedAt = certifiedAt
            self.certificateSignature = certificateSignature
            self.membershipProof = membershipProof
        }
    }

    /// The removal of a user from a space by its owner.
    public struct Removal: Hashable, Sendable {
        /// The user removed.
        public let user: PublicKey
        /// The salt that, with the signing device's user key, hashes to the space id: the proof that the
        /// signer owns the space (Membership.ownedSpaceID).
        public let ownerSalt: [UInt8]
        /// The user's devices as the owner knew them, each with the last seq that stays valid.
        public let devices: [Cutoff]

        /// One device and its last valid seq.
        public struct Cutoff: Hashable, Sendable {
            /// The device.
            public let device: PublicKey
            /// Its last op that stays valid.
            public let lastValidSeq: UInt64

            /// Creates a cutoff.
            public init(device: PublicKey, lastValidSeq: UInt64) {
                self.device = device
                self.lastValidSeq = lastValidSeq
            }
        }

        /// Creates a removal.
        public init(user: PublicKey, ownerSalt: [UInt8], devices: [Cutoff]) {
            self.user = user
            self.ownerSalt = ownerSalt
            self.devices = devices
        }
    }

    /// A new space key (an epoch), sealed to each remaining member device.
    public struct Rotation: Hashable, Sendable {
        /// The epoch number: one more than the highest the signer knew.
        public let epoch: UInt32
        /// The owner's proof, as in a removal: only the space's owner changes its key.
        public let ownerSalt: [UInt8]
        /// The first 8 bytes of BLAKE2b-256 keyed with the new key over "caddie-epoch-check": lets a holder
        /// tell which epoch a key is, and tells nobody else anything.
        public let keyCheck: [UInt8]
        /// Per device: the new key sealed to it (libsodium's anonymous box to its X25519 form, 80 bytes).
        public let sealed: [Sealed]

        /// The new key sealed to one device.
        public struct Sealed: Hashable, Sendable {
            /// The device.
            public let device: PublicKey
            /// The sealed key.
            public let box: [UInt8]

            /// Creates an entry.
            public init(device: PublicKey, box: [UInt8]) {
                self.device = device
                self.box = box
            }
        }

        /// Creates a rotation.
        public init(epoch: UInt32, ownerSalt: [UInt8], keyCheck: [UInt8], sealed: [Sealed]) {
            self.epoch = epoch
            self.ownerSalt = ownerSalt
            self.keyCheck = keyCheck
            self.sealed = sealed
        }
    }

    /// A user's revocation of one of their devices.
    public struct Revocation: Hashable, Sendable {
        /// The device revoked.
        public let device: PublicKey
        /// The last seq of that device that stays valid.
        public let lastValidSeq: UInt64
        /// The user's signature over the revocation.
        public let userSignature: [UInt8]

        /// Creates a revocation.
        public init(device: PublicKey, lastValidSeq: UInt64, userSignature: [UInt8]) {
            self.device = device
            self.lastValidSeq = lastValidSeq
            self.userSignature = userSignature
        }
    }
}

/// A score entry as JSON (the control socket's commands): `{"strokes", "putts"?, "penalties"?, "fairway"?
/// ("hit", "left", "right"), "greenInRegulation"?}`, or `{"pickUp": true}` and nothing else, read through the
/// checking initializer, so an entry out of range does not read.
extension ScoreEntry: Codable {
    private enum Keys: String, CodingKey {
        case strokes, putts, penalties, fairway, greenInRegulation, pickUp
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if try container.decodeIfPresent(Bool.self, forKey: .pickUp) == true {
            guard container.allKeys.count == 1 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .pickUp, in: container, debugDescription: "a pick-up records no strokes, putts or statistics")
            }
            self = .pickUp
            return
        }
        let fairway = try container.decodeIfPresent(String.self, forKey: .fairway).map { name in
            guard let value = Fairway(name: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .fairway, in: container, debugDescription: "'fairway' must be hit, left or right, got '\(name)'")
            }
            return value
        }
        do {
            try self.init(
                strokes: try container.decode(Int.self, forKey: .strokes),
                putts: try container.decodeIfPresent(Int.self, forKey: .putts),
                penalties: try container.decodeIfPresent(Int.self, forKey: .penalties), fairway: fairway,
                greenInRegulation: try container.decodeIfPresent(Bool.self, forKey: .greenInRegulation))
        } catch let error as CoreError {
            throw DecodingError.dataCorruptedError(forKey: .strokes, in: container, debugDescription: "\(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        if pickedUp {
            try container.encode(true, forKey: .pickUp)
            return
        }
        try container.encode(strokes, forKey: .strokes)
        try container.encodeIfPresent(putts, forKey: .putts)
        try container.encodeIfPresent(penalties, forKey: .penalties)
        try container.encodeIfPresent(fairway?.name, forKey: .fairway)
        try container.encodeIfPresent(greenInRegulation, forKey: .greenInRegulation)
    }
}
