/// A competition card that its player and marker have both signed (docs/competitions.md, "The locked card").
///
/// The rule is worked out from the ops a node holds, never from the order they came in, so every node shows the
/// same card: in a game that is a group of a competition, a player's card is locked once two different users
/// have attested the same card hash (the player's and the marker's users among them, where each player is linked to
/// one: a phone checked in for them) and that hash is the card made of the entries whose clock is not after the
/// later of the two signatures. From then on, an entry whose clock is after that signature shows only if it
/// comes from the competition's committee (the user who created it, or a member they named to it, for entries made
/// after their naming): any other is kept in the log, for the audit, and refused on the card. An entry made before the lock that reaches a node after it changes the card
/// the two signed, so their signatures no longer match and the card is not locked: nothing is hidden that the
/// two did not see. The store works it out (CaddieStore's OpStore+Locks.swift).
public struct CardLock: Hashable, Sendable {
    /// The player whose card it is.
    public let player: PlayerID
    /// The later of the two signatures' clocks: entries after it are refused, but the committee's.
    public let at: HLC
    /// The two attestations that lock it.
    public let signatures: [OpID]
    /// The card hash both signed.
    public let cardHash: Digest32
    /// Entries after the lock that the card refuses, oldest first.
    public let refused: [Refused]

    /// An entry the locked card refuses: its hole and value.
    public struct Refused: Hashable, Sendable {
        public let hole: Int
        public let value: ScoreValue

        public init(hole: Int, value: ScoreValue) {
            self.hole = hole
            self.value = value
        }
    }

    public init(player: PlayerID, at: HLC, signatures: [OpID], cardHash: Digest32, refused: [Refused]) {
        self.player = player
        self.at = at
        self.signatures = signatures
        self.cardHash = cardHash
        self.refused = refused
    }
}
