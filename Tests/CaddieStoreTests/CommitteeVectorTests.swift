import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieStore

/// The committee's rule as a protocol vector (Protocol/op-format.md, "A competition record" and "A competition's
/// group"): three members' ops from fixed keys, and what every node holds of the competition and its group once it
/// has them all, whatever their order. Protocol/vectors/committee-v1.json; CADDIE_WRITE_VECTORS=1 writes it anew. The
/// independent checker (Deploy/tools/check-vectors.py) works the record, the game and the roster out from the ops
/// by the rule and compares.
@Suite("The committee's rule as a protocol vector")
struct CommitteeVectorTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/committee-v1.json")

    struct Member {
        let name: String
        let user: SigningKey
        let device: SigningKey
    }

    static let space = SpaceID(unchecked: Array(0..<16))
    static let spaceKey = [UInt8](repeating: 0x33, count: 32)
    static let certifiedAt: UInt64 = 1_763_683_200_000
    static let game = GameID(unchecked: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7])
    static func player(_ byte: UInt8) -> PlayerID { PlayerID(unchecked: [UInt8](repeating: byte, count: 8)) }

    /// Each member's ops (its own chain), signed by its device, each with the minute of its clock.
    static func compute() throws -> [String: Any] {
        let members = try [("Ana", 0x11, 0x22), ("Mia", 0x12, 0x23), ("Pat", 0x13, 0x24)].map {
            Member(
                name: $0.0, user: try SigningKey(seed: [UInt8](repeating: UInt8($0.1), count: 32)),
                device: try SigningKey(seed: [UInt8](repeating: UInt8($0.2), count: 32)))
        }
        let (ana, mia, pat) = (members[0], members[1], members[2])
        let salt = [UInt8](repeating: 0x77, count: 16)
        let competition = CompetitionID(Membership.ownedCompetitionID(owner: ana.user.publicKey, salt: salt))
        let (p1, p2, p3, p4) = (player(0xB1), player(0xB2), player(0xB3), player(0xB4))
        func join(_ member: Member) -> Change {
            .join(
                .init(
                    user: member.user.publicKey, userName: member.name, certifiedAt: certifiedAt,
                    certificateSignature: Membership.certify(device: member.device.publicKey, by: member.user, at: certifiedAt),
                    membershipProof: Membership.membershipProof(
                        space: space, spaceKey: spaceKey, device: member.device.publicKey, user: member.user.publicKey)))
        }
        let miaKey = mia.user.publicKey
        let patKey = pat.user.publicKey
        // (member, minute, what it shows, changes)
        let steps: [(Member, UInt64, String, [Change])] = [
            (ana, 1, "Ana joins", [join(ana)]),
            (mia, 1, "Mia joins", [join(mia)]),
            (pat, 1, "Pat joins", [join(pat)]),
            (
                ana, 2, "Ana makes the competition: its id is the first 8 bytes of her proof",
                [
                    .set(
                        competition,
                        fields: [
                            "owner": .bytes(ana.user.publicKey.bytes), "ownerSalt": .bytes(salt), "name": .text("Medal"),
                            "scoring": .text("gross"),
                        ])
                ]
            ),
            (mia, 3, "Mia hides 3 holes before she is named: not counted", [.set(competition, fields: ["hide": .integer(3)])]),
            (
                ana, 4, "Ana names Mia to the committee",
                [.set(competition, fields: [CompetitionRecord.committeeField(miaKey): .bytes(miaKey.bytes)])]
            ),
            (
                ana, 5, "the draw: a group bound to the competition, P2 marking P1, P1 and P2 on its roster",
                [
                    .set(
                        game,
                        fields: [
                            "tee": .text("White"), "competition": .bytes(competition.bytes),
                            GameRecord.markerField(p1): .bytes(p2.bytes),
                        ]),
                    .rosterAdd(game: game, player: p1), .rosterAdd(game: game, player: p2),
                ]
            ),
            (
                mia, 6, "Mia, named: disqualifies P1 and makes P3 P1's marker (both count)",
                [
                    .set(competition, fields: [CompetitionRecord.statusField(p1): .text("DQ")]),
                    .set(game, fields: [GameRecord.markerField(p1): .bytes(p3.bytes)]),
                ]
            ),
            (
                pat, 7,
                "Pat, on no committee: clears the DQ, renames, names himself, claims to be the creator; takes the group "
                    + "out, finishes it, removes P2, adds P4 (none counts); leaves a track mark (counts)",
                [
                    .set(
                        competition,
                        fields: [
                            CompetitionRecord.statusField(p1): .text(""), "name": .text("Pat's Medal"),
                            CompetitionRecord.committeeField(patKey): .bytes(patKey.bytes), "owner": .bytes(patKey.bytes),
                            "ownerSalt": .bytes([UInt8](repeating: 0x88, count: 16)),
                        ]),
                    .set(
                        game,
                        fields: [
                            "competition": .null, "finished": .integer(1), "track/\(p1.hex)/01": .bytes([1, 2, 3]),
                        ]),
                    .rosterRemove(game: game, player: p2, observed: [OpID(device: ana.device.publicKey, seq: 4)]),
                    .rosterAdd(game: game, player: p4),
                ]
            ),
        ]
        var seqs: [PublicKey: UInt64] = [:]
        var prevs: [PublicKey: Digest32] = [:]
        var ops: [[String: Any]] = []
        var raw: [[UInt8]] = []
        for (member, minute, name, changes) in steps {
            let device = member.device.publicKey
            let seq = (seqs[device] ?? 0) + 1
            let hlc = HLC(milliseconds: certifiedAt + 60_000 * minute, counter: 0)
            let unsigned = SignedOp.encodeUnsigned(
                space: space, device: device, seq: seq, prev: prevs[device] ?? .zero, hlc: hlc, pred: [],
                payload: Payload.encode(changes))
            let bytes = unsigned + member.device.sign(unsigned, context: SignedOp.signingContext)
            seqs[device] = seq
            prevs[device] = Blake2b.hash(bytes)
            ops.append(["name": name, "device": device.hex, "seq": Int(seq), "bytes": Hex.encode(bytes)])
            raw.append(bytes)
        }
        // What a store holds once it has them all: the same whether they arrive in order or backwards.
        var held: [[String: Any]] = []
        for order in [raw, raw.reversed()] {
            let store = try OpStore()
            try store.addSpace(space, name: "vectors", now: 0)
            for bytes in order {
                _ = try store.receive(space: space, spaceKey: spaceKey, ops: [bytes], mode: .tolerant, now: 1_900_000_000_000)
            }
            func fields(_ kind: EntityKind, _ id: EntityID) throws -> [[String]] {
                (try store.record(space, kind: kind, id: id) ?? [:]).sorted { $0.key < $1.key }
                    .map { [$0.key, Hex.encode($0.value.encoded)] }
            }
            held.append([
                "competition": try fields(.competition, competition.entity), "game": try fields(.game, game.entity),
                "roster": try store.roster(space, game: game).map(\.hex).sorted(),
            ])
        }
        #expect(NSDictionary(dictionary: held[0]).isEqual(to: held[1]), "the order of arrival changes nothing")
        return [
            "format": "Caddie op format version 1, the committee's rule; see Protocol/op-format.md",
            "space": space.hex, "spaceKey": Hex.encode(spaceKey), "competition": competition.hex, "game": game.hex,
            "creatorSalt": Hex.encode(salt),
            "members": members.map {
                ["name": $0.name, "userSeed": Hex.encode($0.user.seed), "deviceSeed": Hex.encode($0.device.seed)]
            },
            "ops": ops, "held": held[0],
        ]
    }

    @Test("the committed committee vector is what this build signs and holds, in either order of arrival")
    func vectorMatches() throws {
        let computed = try Self.compute()
        if ProcessInfo.processInfo.environment["CADDIE_WRITE_VECTORS"] == "1" {
            try JSONSerialization.data(withJSONObject: computed, options: [.prettyPrinted, .sortedKeys]).write(to: Self.file)
        }
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        #expect(NSDictionary(dictionary: stored).isEqual(to: computed))
        // What the vector says is held: the creator's name and DQ stand, Mia's naming, not Pat's; the group bound,
        // Mia's marker, Pat's track mark; P1 and P2 on the roster.
        let held = try #require(computed["held"] as? [String: Any])
        let names = (held["competition"] as? [[String]] ?? []).map { $0[0] }
        #expect(!names.contains("hide") && names.contains(CompetitionRecord.statusField(Self.player(0xB1))))
        #expect((held["game"] as? [[String]] ?? []).map { $0[0] }.contains("competition"))
        #expect(!(held["game"] as? [[String]] ?? []).map { $0[0] }.contains("finished"))
        #expect((held["roster"] as? [String]) == [Self.player(0xB1).hex, Self.player(0xB2).hex])
    }
}
