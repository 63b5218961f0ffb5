extension Games {
    /// What happened on one hole of a skins game.
    public enum SkinOutcome: Sendable, Equatable {
        /// A player had the lowest score alone and won `skins` (this hole's skin and the carry).
        case won(player: Int, skins: Int)
        /// Two or more tied for the lowest score: the skin carries to the next hole, `carry` skins in all.
        case carried(carry: Int)
        /// A player won the hole alone but did not validate it on the next hole, so the skins carried on.
        case wonThenVoided(player: Int, skins: Int)
        /// A player won the hole alone, but must still validate the skins on the next hole.
        case awaitingValidation(player: Int, skins: Int)
        /// A score is missing on this hole or an earlier one: not decided yet.
        case pending
    }

    /// One hole of a skins game.
    public struct SkinHole: Sendable, Equatable {
        /// The position of the hole in the order of play, from 0.
        public let position: Int
        /// The skins at stake on the hole: one, plus the carry from tied holes before it.
        public let atStake: Int
        /// The outcome.
        public let outcome: SkinOutcome
    }

    /// A skins game.
    public struct SkinsResult: Sendable, Equatable {
        /// Each hole in order of play.
        public let holes: [SkinHole]
        /// Skins won by each player (by the index given).
        public let won: [Int]
        /// Skins still carried after the last decided hole: unclaimed when the round is over.
        public let carry: Int
        /// Whether every hole is decided.
        public let complete: Bool
    }

    /// Scores a skins game.
    ///
    /// Each hole is worth one skin. The player with the lowest score on a hole, alone, wins the skin and every
    /// skin carried to it; when two or more tie for the lowest, nobody wins and the skin carries over to the next
    /// hole. With validation, a player who wins skins must validate them by tying or beating the best score on
    /// the next hole; if they do not, those skins carry on. Skins won on the last hole need no validation. Skins
    /// still carried after the last hole are unclaimed. A hole is decided only when every player has a score on
    /// it and on every hole before it, because a carry depends on the holes before.
    /// - Parameters:
    ///   - scores: per hole in order of play, each player's score (gross or net), nil when not entered.
    ///   - validation: whether a won skin must be validated on the next hole.
    public static func skins(_ scores: [[Int?]], validation: Bool = false) -> SkinsResult {
        let players = scores.first?.count ?? 0
        var won = Array(repeating: 0, count: players)
        var holes: [SkinHole] = []
        var carry = 0
        var decided = players > 0
        for (position, row) in scores.enumerated() {
            guard decided, row.count == players, row.allSatisfy({ $0 != nil }) else {
                decided = false
                holes.append(SkinHole(position: position, atStake: 1 + carry, outcome: .pending))
                continue
            }
            let best = row.compactMap { $0 }.min() ?? 0
            // Skins won on the previous hole are validated, or void and carried, by this hole's scores.
            if let last = holes.last, case .awaitingValidation(let player, let skins) = last.outcome {
                if row[player] == best {
                    won[player] += skins
                    holes[holes.count - 1] = SkinHole(
                        position: last.position, atStake: last.atStake,
                        outcome: .won(player: player, skins: skins))
                } else {
                    carry += skins
                    holes[holes.count - 1] = SkinHole(
                        position: last.position, atStake: last.atStake,
                        outcome: .wonThenVoided(player: player, skins: skins))
                }
            }
            let stake = 1 + carry
            let winners = row.indices.filter { row[$0] == best }
            if winners.count == 1 {
                carry = 0
                if validation, position < scores.count - 1 {
                    holes.append(
                        SkinHole(
                            position: position, atStake: stake,
                            outcome: .awaitingValidation(player: winners[0], skins: stake)))
                } else {
                    won[winners[0]] += stake
                    holes.append(
                        SkinHole(
                            position: position, atStake: stake,
                            outcome: .won(player: winners[0], skins: stake)))
                }
            } else {
                carry = stake
                holes.append(SkinHole(position: position, atStake: stake, outcome: .carried(carry: stake)))
            }
        }
        let awaiting = holes.contains { if case .awaitingValidation = $0.outcome { true } else { false } }
        return SkinsResult(holes: holes, won: won, carry: carry, complete: decided && !awaiting)
    }
}
