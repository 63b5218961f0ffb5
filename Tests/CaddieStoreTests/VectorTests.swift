import CaddieCore
import CaddieCrypto
import Foundation
import GRDB
import Testing

@testable import CaddieStore

/// The hex test vectors of Protocol/op-format.md, recomputed from fixed keys. Ed25519 signatures are
/// deterministic, so every byte is reproducible. Set CADDIE_WRITE_VECTORS=1 to write the file anew
/// (only when the format changes on purpose, with a new version).
@Suite("Protocol test vectors")
struct VectorTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/op-v1.json")

    static func compute() throws -> [String: Any] {
        let user = try SigningKey(seed: [UInt8](repeating: 0x11, count: 32))
        let device = try SigningKey(seed: [UInt8](repeating: 0x22, count: 32))
        let space = SpaceID(unchecked: Array(0..<16))
        let spaceKey = [UInt8](repeating: 0x33, count: 32)
        let certifiedAt: UInt64 = 1_763_683_200_000
        let certificate = Membership.certify(device: device.publicKey, by: user, at: certifiedAt)
        let proof = Membership.membershipProof(space: space, spaceKey: spaceKey, device: device.publicKey, user: user.publicKey)
        let game = GameID(unchecked: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7])
        let player = PlayerID(unchecked: [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7])
        let course = EntityID(unchecked: [0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7])
        let other = try SigningKey(seed: [UInt8](repeating: 0x55, count: 32)).publicKey
        let invite = EntityID(unchecked: [0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7])
        let competition = EntityID(unchecked: [0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7])
        let admitted = try SigningKey(seed: [UInt8](repeating: 0x66, count: 32)).publicKey
        let steps: [(String, [Change], [OpID])] = [
            (
                "join",
                [
                    .join(
                        .init(
                            user: user.publicKey, userName: "Ana", certifiedAt: certifiedAt,
                            certificateSignature: certificate, membershipProof: proof))
                ], []
            ),
            ("player", [.set(player, fields: ["name": .text("Ana"), "index": .number(12.4)])], []),
            (
                "game",
                [
                    .set(game, fields: ["tee": .text("White"), "finished": .integer(0)]),
                    .rosterAdd(game: game, player: player),
                ], []
            ),
            ("score", [.score(game: game, player: player, hole: 7, entry: try ScoreEntry(strokes: 5, putts: 2))], []),
            (
                "correction", [.score(game: game, player: player, hole: 7, entry: try ScoreEntry(strokes: 4))],
                [OpID(device: device.publicKey, seq: 4)]
            ),
            (
                "attest",
                [.attest(game: game, player: player, cardHash: Digest32(unchecked: [UInt8](repeating: 0x44, count: 32)))], []
            ),
            // Hole choices as a phone signs them: a player's id (bytes), "lone" (text), and a choice cleared (null).
            (
                "choices",
                [
                    .set(
                        game, fields: ["hole.3.wolf": .bytes(player.bytes), "hole.4.wolf": .text("lone"), "hole.5.bingo": .null])
                ], []
            ),
            // A score with its statistics travels as 0x22.
            (
                "statistics",
                [
                    .score(
                        game: game, player: player, hole: 8,
                        entry: try ScoreEntry(strokes: 4, putts: 2, penalties: 0, fairway: .left, greenInRegulation: false))
                ], []
            ),
            // A roster removal cancels only the add it observed (seq 3): the player's scores keep her on the roster.
            (
                "roster remove", [.rosterRemove(game: game, player: player, observed: [OpID(device: device.publicKey, seq: 3)])],
                []
            ),
            ("course", [.set(kind: .course, id: course, fields: ["name": .text("Sample Links")])], []),
            // The user revokes another device of theirs (one that never joined) before its first op.
            (
                "revoke",
                [
                    .revoke(
                        .init(
                            device: other, lastValidSeq: 0,
                            userSignature: user.sign(Membership.revocationMessage(space: space, device: other, lastValidSeq: 0))))
                ], []
            ),
            // The space record's name, with owner fields that do not give this space's id (it was not made by this
            // user with this salt): the op applies, its owner fields are left out (op-format, "The space record").
            (
                "space",
                [
                    .set(
                        kind: .space, id: .spaceRecord,
                        fields: [
                            "name": .text("Saturday"), "owner": .bytes(user.publicKey.bytes),
                            "ownerSalt": .bytes([UInt8](repeating: 0x99, count: 16)),
                        ])
                ], []
            ),
            // An invite's record as its inviting device writes it: what it allows, and whom it admitted.
            (
                "invite",
                [
                    .set(
                        kind: .invite, id: invite,
                        fields: [
                            "admitted.\(Hex.encode(Array(admitted.bytes.prefix(16))))": .bytes(
                                admitted.bytes + user.publicKey.bytes),
                            "expires": .integer(Int64(certifiedAt) + 86_400_000), "uses": .integer(2),
                        ])
                ], []
            ),
            // A pick-up (0x23): hole 9 started and not holed out; the card shows it as strokes 0.
            ("pick-up", [.score(game: game, player: player, hole: 9, entry: .pickUp)], []),
            // A competition (kind 6) and the game made one of its groups, in one op.
            (
                "competition",
                [
                    .set(kind: .competition, id: competition, fields: ["name": .text("Medal"), "scoring": .text("gross")]),
                    .set(kind: .game, id: game.entity, fields: ["competition": .bytes(competition.bytes)]),
                ], []
            ),
        ]
        var prev = Digest32.zero
        var ops: [[String: Any]] = []
        var raw: [[UInt8]] = []
        for (index, (name, changes, pred)) in steps.enumerated() {
            let seq = UInt64(index + 1)
            let hlc = HLC(milliseconds: certifiedAt + 60_000 * seq, counter: 0)
            let payload = Payload.encode(changes)
            let unsigned = SignedOp.encodeUnsigned(
                space: space, device: device.publicKey, seq: seq, prev: prev, hlc: hlc,
                pred: pred, payload: payload)
            let bytes = unsigned + device.sign(unsigned, context: SignedOp.signingContext)
            let hash = Blake2b.hash(bytes)
            ops.append([
                "name": name, "seq": Int(seq), "hlc": String(hlc.rawValue), "prev": prev.hex,
                "payload": Hex.encode(payload), "bytes": Hex.encode(bytes), "hash": hash.hex,
            ])
            raw.append(bytes)
            prev = hash
        }
        // The state a store holds once it has imported these ops, section by section, and its state hash
        // (docs/data-model.md, "State hash").
        let store = try OpStore()
        try store.addSpace(space, name: "vectors", now: 0)
        _ = try store.receive(space: space, spaceKey: spaceKey, ops: raw, mode: .strict, now: 1_900_000_000_000)
        var sections: [[String: Any]] = []
        let stateHash = try store.stateHash(space) { name, values in
            guard let values else { return sections.append(["name": name, "rows": [Any]()]) }
            var rows = sections[sections.count - 1]["rows"] as! [Any]
            rows.append(values.map(Self.typed))
            sections[sections.count - 1]["rows"] = rows
        }
        return [
            "state": ["sections": sections, "stateHash": stateHash.hex],
            "format": "Caddie op format version 1; see Protocol/op-format.md",
            "userSeed": Hex.encode(user.seed), "userPublicKey": user.publicKey.hex,
            "deviceSeed": Hex.encode(device.seed), "devicePublicKey": device.publicKey.hex,
            "space": space.hex, "spaceKey": Hex.encode(spaceKey), "certifiedAt": String(certifiedAt),
            "certificateMessage": Hex.encode(
                Membership.certificateMessage(
                    user: user.publicKey, device: device.publicKey,
                    certifiedAt: certifiedAt)),
            "certificateSignature": Hex.encode(certificate), "membershipProof": Hex.encode(proof),
            "ops": ops, "bundle": Hex.encode(OpBundle(space: space, ops: raw).encoded),
        ]
    }

    /// A column value as the vector writes it: its SQLite type and the value (integers as decimal text, so that
    /// 64-bit values survive JSON; blobs and reals' bit patterns as hex).
    static func typed(_ value: DatabaseValue) -> [String: Any] {
        switch value.storage {
        case .null: ["null": NSNull()]
        case .int64(let number): ["integer": String(number)]
        case .double(let number): ["real": String(number.bitPattern, radix: 16)]
        case .string(let text): ["text": text]
        case .blob(let data): ["blob": Hex.encode([UInt8](data))]
        }
    }

    @Test("the committed vectors are exactly what this build encodes and signs")
    func vectorsMatch() throws {
        let computed = try Self.compute()
        let data = try JSONSerialization.data(withJSONObject: computed, options: [.prettyPrinted, .sortedKeys])
        if ProcessInfo.processInfo.environment["CADDIE_WRITE_VECTORS"] == "1" {
            try data.write(to: Self.file)
        }
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        #expect(NSDictionary(dictionary: stored).isEqual(to: computed))
    }

    @Test("the committed ops verify and import into a fresh store, giving the documented state")
    func vectorsImport() throws {
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        let bundleHex = try #require(stored["bundle"] as? String)
        let bundle = try OpBundle(decoding: Hex.decode(bundleHex) ?? [])
        let spaceHex = try #require(stored["space"] as? String)
        let keyHex = try #require(stored["spaceKey"] as? String)
        let space = try #require(SpaceID(hex: spaceHex))
        let key = try #require(Hex.decode(keyHex))
        let store = try OpStore()
        try store.addSpace(space, name: "vectors", now: 0)
        let report = try store.receive(space: space, spaceKey: key, ops: bundle.ops, mode: .strict, now: receiverNow)
        #expect(report.applied.count == 15)
        let gameID = GameID(unchecked: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7])
        let cells = try store.cells(space, game: gameID)
        let cell = try #require(cells.first { $0.hole == 7 })
        #expect(cell.hole == 7 && cell.winner?.entry.strokes == 4 && !cell.isConflict)
        // The statistics op: hole 8 with its fairway missed left and no green in regulation.
        let eighth = try #require(cells.first { $0.hole == 8 }?.winner?.entry)
        #expect(eighth.strokes == 4 && eighth.fairway == .left && eighth.greenInRegulation == false)
        // The pick-up (0x23) on hole 9: a value of its cell, with no strokes.
        #expect(cells.first { $0.hole == 9 }?.winner?.entry == .pickUp)
        // The roster removal cancelled the add it observed, and her scores keep her on the game.
        #expect(try store.roster(space, game: gameID) == [PlayerID(unchecked: [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7])])
        // The choices op: the Wolf's partner on hole 3 and "lone" on hole 4; the cleared bingo holds nothing.
        let game = GameRecord(id: gameID, fields: try #require(try store.record(space, gameID)))
        #expect(
            game.holeEntries == [
                3: ["wolf": .player(PlayerID(unchecked: [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7]))],
                4: ["wolf": .lone],
            ])
        // The space record keeps its name and leaves out owner fields that do not give the space's id.
        #expect(try store.record(space, kind: .space, id: .spaceRecord) == ["name": .text("Saturday")])
        let invite = try #require(
            try store.record(space, kind: .invite, id: EntityID(unchecked: [0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7])))
        #expect(invite.count == 3 && invite["uses"] == .integer(2))
        // The competition's record, and the game that names it as a group.
        let competitionID = CompetitionID(unchecked: [0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7])
        let medal = CompetitionRecord(id: competitionID, fields: try #require(try store.record(space, competitionID)))
        #expect(medal.name == "Medal" && medal.scoring == "gross" && medal.countback == "r-and-a")
        #expect(game.competition == competitionID)
        #expect(try store.verify(space, spaceKeys: [key]).failures.isEmpty)
    }
}
