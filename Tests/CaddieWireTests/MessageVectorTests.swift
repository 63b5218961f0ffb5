import CaddieCore
import CaddieCrypto
import Foundation
import Testing

@testable import CaddieWire

/// Every transport message of Protocol/wire.md ("Messages"), byte for byte, built from the ops of
/// Protocol/vectors/op-v1.json: written to Protocol/vectors/messages-v1.json with the fields each carries, and
/// decoded again here. CADDIE_WRITE_VECTORS=1 writes the file anew (only for a new version); the independent checker
/// decodes, rebuilds and restores each, and compares wire.md's "Examples" with them.
@Suite("Message test vectors")
struct MessageVectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/vectors")

    static func compute() throws -> [[String: Any]] {
        let file = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("op-v1.json")))
                as? [String: Any])
        let ops = try #require(file["ops"] as? [[String: Any]])
        func bytes(_ seq: Int) throws -> [UInt8] { try #require(Hex.decode(ops[seq - 1]["bytes"] as? String ?? "")) }
        let device = try #require(PublicKey(hex: file["devicePublicKey"] as? String ?? ""))
        let other = try SigningKey(seed: [UInt8](repeating: 0x55, count: 32)).publicKey
        let sixth = WireMessage.VectorEntry(device: device, seq: 6, head: Blake2b.hash(try bytes(6)))
        let other3 = WireMessage.VectorEntry(
            device: other, seq: 3, head: Digest32(unchecked: [UInt8](repeating: 0xEE, count: 32)))
        func entries(_ list: [WireMessage.VectorEntry]) -> [[String: Any]] {
            list.map { ["device": $0.device.hex, "seq": Int($0.seq), "head": $0.head.hex] }
        }
        func form(_ op: WireOp) -> [String: Any] {
            switch op {
            case .full(let bytes): ["form": "full", "body": Hex.encode(bytes)]
            case .compact(let bytes): ["form": "compact", "body": Hex.encode(bytes)]
            }
        }
        // What each shows, the message, and its fields (an ops message also names the op-v1 seqs it restores to).
        let cases: [(String, WireMessage, [String: Any])] = [
            ("an empty vector (long-running session)", .vector([]), ["flags": 0, "entries": [Any]()]),
            ("an empty vector with wantAll (one-shot sync)", .vector([], wantAll: true), ["flags": 1, "entries": [Any]()]),
            ("a vector of one entry: the op-v1 device at seq 6", .vector([sixth]), ["flags": 0, "entries": entries([sixth])]),
            (
                "a vector of two entries with wantAll", .vector([sixth, other3], wantAll: true),
                ["flags": 1, "entries": entries([sixth, other3])]
            ),
            (
                "ops: batch 1, no ack, ops 4 and 5 of op-v1 compact",
                .ops(batch: 1, ack: false, [WireOp.compacting(try bytes(4)), WireOp.compacting(try bytes(5))]),
                [
                    "batch": 1, "flags": 0, "restores": [4, 5],
                    "ops": [form(WireOp.compacting(try bytes(4))), form(WireOp.compacting(try bytes(5)))],
                ]
            ),
            (
                "ops: batch 2, ack asked, op 1 of op-v1 in full", .ops(batch: 2, ack: true, [.full(try bytes(1))]),
                ["batch": 2, "flags": 1, "restores": [1], "ops": [form(.full(try bytes(1)))]]
            ),
            (
                "live (version 2): op 4 of op-v1, its device the session's peer",
                .live(try #require(WireOp.live(try bytes(4)))),
                ["restores": 4, "body": Hex.encode(try #require(WireOp.live(try bytes(4))))]
            ),
            ("ack of batch 7, 500 applied", .ack(batch: 7, applied: 500), ["batch": 7, "applied": 500]),
            ("done", .done, [:]),
            ("close: finished", .close(.finished, "sync complete"), ["reason": 0, "text": "sync complete"]),
            (
                "close: revoked", .close(.revoked, "this device was revoked in this space"),
                ["reason": 2, "text": "this device was revoked in this space"]
            ),
            (
                "close: invite refused", .close(.inviteRefused, "the invite is used up"),
                ["reason": 4, "text": "the invite is used up"]
            ),
            ("the digest of the empty vector", .digest(WireMessage.digest(of: [])), ["of": [Any]()]),
            ("the digest of the one-entry vector", .digest(WireMessage.digest(of: [sixth])), ["of": entries([sixth])]),
            (
                "the digest of the two-entry vector, entries given out of order",
                .digest(WireMessage.digest(of: [other3, sixth])), ["of": entries([other3, sixth])]
            ),
        ]
        var vectors: [[String: Any]] = []
        for (name, message, fields) in cases {
            let encoded = message.encoded
            let decoded = try WireMessage(decoding: encoded)
            #expect(decoded == message, "\(name) decodes to itself")
            let kind =
                switch message {
                case .vector: "vector"
                case .ops: "ops"
                case .ack: "ack"
                case .done: "done"
                case .close: "close"
                case .digest: "digest"
                case .welcome: "welcome"
                case .live: "live"
                }
            vectors.append(["name": name, "message": kind, "fields": fields, "bytes": Hex.encode(encoded)])
        }
        return vectors
    }

    @Test("the committed message vectors are exactly what this build encodes, and decode to the same messages")
    func vectorsMatch() throws {
        let computed: [String: Any] = [
            "format": "Caddie wire protocol version 1, transport messages; see Protocol/wire.md", "messages": try Self.compute(),
        ]
        let file = Self.folder.appendingPathComponent("messages-v1.json")
        if ProcessInfo.processInfo.environment["CADDIE_WRITE_VECTORS"] == "1" {
            try JSONSerialization.data(withJSONObject: computed, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        }
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(NSDictionary(dictionary: stored).isEqual(to: computed))
    }
}
