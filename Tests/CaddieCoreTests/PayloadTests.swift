import Foundation
import Testing

@testable import CaddieCore

@Suite("Op payloads")
struct PayloadTests {
    let game = GameID(unchecked: [1, 2, 3, 4, 5, 6, 7, 8])
    let player = PlayerID(unchecked: [9, 9, 9, 9, 9, 9, 9, 9])
    let key = PublicKey(unchecked: [UInt8](repeating: 3, count: 32))

    @Test("every change kind round-trips through its encoding")
    func roundTrip() throws {
        let changes: [[Change]] = [
            [
                .join(
                    .init(
                        user: key, userName: "Ana", certifiedAt: 42, certificateSignature: [UInt8](repeating: 1, count: 64),
                        membershipProof: [UInt8](repeating: 2, count: 32)))
            ],
            [.revoke(.init(device: key, lastValidSeq: 9, userSignature: [UInt8](repeating: 4, count: 64)))],
            [
                .set(
                    kind: .player, id: player.entity,
                    fields: [
                        "name": .text("Bo"), "index": .number(12.4), "user": .bytes(key.bytes),
                        "x": .integer(-3), "gone": .null,
                    ])
            ],
            [
                .rosterAdd(game: game, player: player),
                .rosterRemove(game: game, player: player, observed: [OpID(device: key, seq: 3)]),
            ],
            [.score(game: game, player: player, hole: 18, entry: try ScoreEntry(strokes: 7, putts: 3, penalties: 1))],
            [.score(game: game, player: player, hole: 1, entry: try ScoreEntry(strokes: 4))],
            [.attest(game: game, player: player, cardHash: Digest32(unchecked: [UInt8](repeating: 5, count: 32)))],
            [
                .remove(
                    .init(user: key, ownerSalt: [UInt8](repeating: 6, count: 16), devices: [.init(device: key, lastValidSeq: 12)])
                ),
                .rotate(
                    .init(
                        epoch: 2, ownerSalt: [UInt8](repeating: 6, count: 16), keyCheck: [UInt8](repeating: 7, count: 8),
                        sealed: [.init(device: key, box: [UInt8](repeating: 8, count: 80))])),
            ],
        ]
        for list in changes {
            #expect(try Payload.decode(Payload.encode(list)) == list)
        }
    }

    @Test("a score payload stays small enough for the wire budget")
    func scoreSize() throws {
        let bytes = Payload.encode([.score(game: game, player: player, hole: 3, entry: try ScoreEntry(strokes: 5))])
        #expect(bytes.count == 2 + 1 + 8 + 8 + 4)
    }

    @Test("a score with fairway and green in regulation is change 0x22, byte for byte as Protocol/op-format.md gives it")
    func scoreWithStatistics() throws {
        let entry = try ScoreEntry(strokes: 5, putts: 2, fairway: .left, greenInRegulation: true)
        let bytes = Payload.encode([.score(game: game, player: player, hole: 3, entry: entry)])
        #expect(Hex.encode(bytes) == "010122" + "0102030405060708" + "0909090909090909" + "030502ff0101")
        #expect(try Payload.decode(bytes) == [.score(game: game, player: player, hole: 3, entry: entry)])
        // Without them the same score is 0x20, as before.
        let plain = Payload.encode([.score(game: game, player: player, hole: 3, entry: try ScoreEntry(strokes: 5, putts: 2))])
        #expect(plain[2] == 0x20 && plain.count == bytes.count - 2)
    }

    @Test("a pick-up is change 0x23: the game, the player and the hole, as Protocol/op-format.md gives it")
    func pickUp() throws {
        let bytes = Payload.encode([.score(game: game, player: player, hole: 3, entry: .pickUp)])
        #expect(Hex.encode(bytes) == "010123" + "0102030405060708" + "0909090909090909" + "03")
        let decoded = try Payload.decode(bytes)
        #expect(decoded == [.score(game: game, player: player, hole: 3, entry: .pickUp)])
        guard case .score(_, _, _, let entry) = decoded.first else {
            Issue.record("a pick-up did not decode as a score")
            return
        }
        #expect(entry.pickedUp && entry.holed == nil && entry.strokes == 0 && entry.mark == "P")
        // A hole out of range, and a byte after the hole, are refused.
        let ids = [UInt8](repeating: 0, count: 16)
        #expect(throws: DecodeError.self) { try Payload.decode([1, 1, 0x23] + ids + [37]) }
        #expect(throws: DecodeError.self) { try Payload.decode([1, 1, 0x23] + ids + [3, 4]) }
        // Strokes 0 in a 0x20 score is still out of range: a pick-up has its own tag.
        #expect(throws: DecodeError.self) {
            try Payload.decode([1, 1, 0x20] + Array(bytes[3..<19]) + [3, 0, 0xff, 0xff])
        }
    }

    @Test(
        "malformed payloads are refused with the reason",
        arguments: [
            ([UInt8]([1, 1, 0x22]) + [UInt8](repeating: 0, count: 16) + [1, 4, 0xff, 0xff, 3, 0xff], "fairway"),
            ([1, 1, 0x22] + [UInt8](repeating: 0, count: 16) + [1, 4, 0xff, 0xff, 0xff, 2], "green in regulation"),
            ([1, 1, 0x22] + [UInt8](repeating: 0, count: 16) + [1, 4, 0xff, 0xff, 0xff, 0xff], "score 0x22"),
            ([2, 1, 0x11], "payload version"),
            ([1, 0], "payload"),
            ([1, 1, 0x99], "change tag"),
            ([1, 1, 0x20] + [UInt8](repeating: 0, count: 16) + [1, 31, 0xff, 0xff], "score"),
            ([1, 1, 0x20] + [UInt8](repeating: 0, count: 16) + [0, 4, 0xff, 0xff], "hole"),
            ([1, 1, 0x11] + [UInt8](repeating: 0, count: 16) + [0], "payload"),
            ([1, 1, 0x04, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 24) + [0, 0], "rotation epoch"),
            (
                [1, 1, 0x04, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 24) + [0, 1] + [UInt8](repeating: 0, count: 40),
                "rotation sealed key"
            ),
            ([1, 1, 0x03] + [UInt8](repeating: 0, count: 48) + [0x04, 0x01], "removed devices"),
        ])
    func malformed(bytes: [UInt8], field: String) {
        do {
            _ = try Payload.decode(bytes)
            Issue.record("decoded malformed payload \(bytes)")
        } catch {
            #expect(error.what == field)
        }
    }

    @Test("a score may not travel with other changes, so pred is never ambiguous")
    func scoreAlone() throws {
        let mixed = Payload.encode([
            .rosterAdd(game: game, player: player),
            .score(game: game, player: player, hole: 1, entry: try ScoreEntry(strokes: 4)),
        ])
        #expect(throws: DecodeError.self) { try Payload.decode(mixed) }
    }

    @Test("score entries check strokes, putts and penalties")
    func scoreRanges() {
        #expect(throws: CoreError.self) { try ScoreEntry(strokes: 0) }
        #expect(throws: CoreError.self) { try ScoreEntry(strokes: 31) }
        #expect(throws: CoreError.self) { try ScoreEntry(strokes: 4, putts: 5) }
        #expect(throws: CoreError.self) { try ScoreEntry(strokes: 4, penalties: -1) }
        #expect((try? ScoreEntry(strokes: 30, putts: 0, penalties: 2)) != nil)
    }

    @Test("an op decodes its header and refuses truncation, a bad version and trailing bytes")
    func opStructure() throws {
        let space = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
        let unsigned = SignedOp.encodeUnsigned(
            space: space, device: key, seq: 2, prev: .zero, hlc: HLC(rawValue: 77),
            pred: [OpID(device: key, seq: 1)], payload: [1, 2, 3])
        let bytes = unsigned + [UInt8](repeating: 9, count: 64)
        let op = try SignedOp(bytes: bytes)
        #expect(op.seq == 2 && op.pred == [OpID(device: key, seq: 1)] && op.payload == [1, 2, 3])
        #expect(Array(op.signedPortion) == unsigned)
        #expect(throws: DecodeError.self) { try SignedOp(bytes: Array(bytes.dropLast())) }
        #expect(throws: DecodeError.self) { try SignedOp(bytes: bytes + [0]) }
        #expect(throws: DecodeError.self) { try SignedOp(bytes: [2] + bytes.dropFirst()) }
    }
}

@Suite("Typed entity ids")
struct TypedEntityIDTests {
    @Test("a game's, player's and course's id keep the bytes of the entity id and set fields of their own kind")
    func kinds() throws {
        let entity = EntityID(unchecked: [1, 2, 3, 4, 5, 6, 7, 8])
        let game = GameID(entity)
        #expect(game.entity == entity && game.hex == entity.hex)
        #expect(PlayerID(hex: game.hex)?.bytes == entity.bytes)
        #expect(GameID(bytes: [1, 2, 3]) == nil)
        let decoded = try JSONDecoder().decode([CourseID].self, from: Data("[\"\(entity.hex)\"]".utf8))
        #expect(decoded == [CourseID(entity)])
        for (change, kind) in [
            (Change.set(game, fields: [:]), EntityKind.game), (.set(PlayerID(entity), fields: [:]), .player),
            (.set(CourseID(entity), fields: [:]), .course),
        ] {
            guard case .set(let found, let id, _) = change else {
                Issue.record("not a set change")
                continue
            }
            #expect(found == kind && id == entity)
        }
    }
}
