import CaddieCore
import CaddieCrypto
import CaddieStore
import Foundation
import Testing

@testable import CaddieNode

/// The card hash an attestation carries (Protocol/op-format.md, "Card hash"), over the card that the ops of
/// Protocol/vectors/op-v1.json leave: `RoundService.cardHash` on that card, written to
/// Protocol/vectors/card-v1.json with the statement it hashes. CADDIE_WRITE_VECTORS=1 writes the file anew (only
/// for a new version); the independent checker and the phone's ops.js recompute it.
@Suite("Card hash test vector")
struct CardVectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/vectors")

    static func compute() throws -> [String: Any] {
        let ops = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("op-v1.json")))
                as? [String: Any])
        let space = try #require(SpaceID(hex: ops["space"] as? String ?? ""))
        let key = try #require(Hex.decode(ops["spaceKey"] as? String ?? ""))
        let bundle = try OpBundle(decoding: try #require(Hex.decode(ops["bundle"] as? String ?? "")))
        let store = try OpStore()
        try store.addSpace(space, name: "vectors", now: 0)
        _ = try store.receive(space: space, spaceKey: key, ops: bundle.ops, mode: .strict, now: 1_900_000_000_000)
        let game = GameID(unchecked: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7])
        let player = PlayerID(unchecked: [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7])
        var cells: [PlayerID: [Int: ScoreCell]] = [:]
        for cell in try store.cells(space, game: game) { cells[cell.player, default: [:]][cell.hole] = cell }
        let card = Scorecard(
            game: GameRecord(id: game, fields: try store.record(space, game) ?? [:]), course: nil, players: [], cells: cells,
            attestations: [])
        // The statement as op-format.md lays it out, hole by hole where the player has a shown value.
        var statement = Array("caddie-card-v1".utf8) + game.bytes + player.bytes
        var shown: [[Any]] = []
        for hole in 1...card.holeCount {
            guard let entry = card.cell(player, hole)?.winner?.entry else { continue }
            statement += [
                UInt8(hole), UInt8(entry.strokes), entry.putts.map(UInt8.init) ?? 0xFF, entry.penalties.map(UInt8.init) ?? 0xFF,
            ]
            shown.append([hole, entry.strokes, entry.putts ?? NSNull(), entry.penalties ?? NSNull()])
        }
        let hash = RoundService.cardHash(card, player: player)
        #expect(hash == Blake2b.hash(statement), "the card hash is BLAKE2b-256 of the statement op-format.md lays out")
        return [
            "source": "the card the ops of op-v1.json leave", "game": game.hex, "player": player.hex,
            "holeCount": card.holeCount, "cells": shown, "statement": Hex.encode(statement), "cardHash": hash.hex,
        ]
    }

    @Test("the committed card-hash vector is exactly what this build computes for the card of op-v1.json")
    func vectorMatches() throws {
        let data = try JSONSerialization.data(withJSONObject: try Self.compute(), options: [.prettyPrinted, .sortedKeys])
        let file = Self.folder.appendingPathComponent("card-v1.json")
        if ProcessInfo.processInfo.environment["CADDIE_WRITE_VECTORS"] == "1" { try data.write(to: file) }
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let computed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(NSDictionary(dictionary: stored).isEqual(to: computed))
    }
}
