import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation

/// Signing a card (attestations) and the locked card of a competition's group (``CardLock``).
extension RoundService {
    /// The hash a marker signs: the player's shown values, hole by hole (``CardLock/cardHash(game:player:cells:holes:)``).
    public static func cardHash(_ card: Scorecard, player: PlayerID) -> Digest32 {
        CardLock.cardHash(
            game: card.game.id, player: player, cells: Array((card.cells[player] ?? [:]).values), holes: card.holeCount)
    }

    /// The marker (this user) attests a player's card as it stands.
    func attest(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID
    )
        throws(NodeError) -> Digest32
    {
        try attestWithOp(space: space, keys: keys, game: game, player: player).card
    }

    /// As ``attest(space:keys:game:player:)``, with the op signed.
    func attestWithOp(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID
    )
        throws(NodeError) -> (op: OpID, card: Digest32)
    {
        let card = try card(space: space, game: game)
        let player = try self.player(space, player)
        guard card.players.contains(where: { $0.id == player.id }) else {
            throw .conflict("\(player.name) is not playing in game \(card.game.id.short)")
        }
        let conflicts = card.conflicts.filter { $0.player == player.id }.map(\.hole)
        guard conflicts.isEmpty else {
            throw .conflict(
                "\(player.name)'s card has conflicting values on hole(s) " + conflicts.map(String.init).joined(separator: ", "),
                .settleDisputes)
        }
        try refuseIfNotSigner(space: space, game: card.game, player: player)
        let hash = Self.cardHash(card, player: player.id)
        let op = try append(space: space, keys: keys, changes: [.attest(game: card.game.id, player: player.id, cardHash: hash)])
        return (op.id, hash)
    }

    /// In a competition's group the player and their marker sign the player's card: once both are linked to users
    /// (their phones checked in), anyone else is refused. While one of them is not, whoever signs in their place
    /// (the scorer's hut for a player without a phone) may.
    func refuseIfNotSigner(space: SpaceID, game: GameRecord, player: PlayerRecord) throws(NodeError) {
        guard game.competition != nil, let own = player.user, let markerID = game.markers[player.id],
            let marker = try? self.player(space, markerID), let markers = marker.user
        else { return }
        guard let me = try identity().userKey, me != own, me != markers else { return }
        throw .refused(
            "only \(player.name) and their marker \(marker.name) sign \(player.name)'s card in this competition: it is "
                + "theirs to sign, each on their own phone")
    }

    /// Refuses an entry for a competition card that its player and marker have both signed (``CardLock``): only the
    /// committee changes it then, with a reason (`caddie competition correct`).
    func refuseIfLocked(space: SpaceID, game: GameRecord, player: PlayerRecord, hole: Int) throws(NodeError) {
        guard let competition = game.competition,
            let lock = try run({ try store.cardLocks(space, game: game.id) }).first(where: { $0.player == player.id })
        else { return }
        let signers = try run { try store.attestations(space, game: game.id) }.filter { lock.signatures.contains($0.op) }
            .map(\.marker)
        throw .conflict(
            "\(player.name)'s card is locked: \(signers.joined(separator: " and ")) signed it, so only the committee "
                + "changes it now, with a reason",
            .committeeCorrects(competition, player: player.id, hole: hole))
    }
}
