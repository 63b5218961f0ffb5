import CaddieCore
import CaddieCrypto
import Testing

@testable import CaddieWire

@Suite("Frames and messages")
struct MessageTests {
    @Test("the frame decoder reassembles frames split anywhere and refuses bad lengths")
    func frames() throws {
        let bodies: [[UInt8]] = [[1], [2, 3, 4], [UInt8](repeating: 7, count: 3000)]
        let stream = bodies.flatMap(FrameDecoder.frame)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var decoder = FrameDecoder()
            var out: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                let step = Int.random(in: 1...700, using: &rng)
                decoder.append(Array(stream[index..<min(stream.count, index + step)]))
                index += step
                while let frame = try decoder.next() { out.append(frame) }
            }
            #expect(out == bodies)
        }
        var zero = FrameDecoder()
        zero.append([0, 0, 0, 0])
        #expect(throws: WireError.frameSize(0)) { try zero.next() }
        var huge = FrameDecoder()
        huge.append([0x7f, 0xff, 0xff, 0xff])
        #expect(throws: WireError.self) { try huge.next() }
    }

    @Test("every message round-trips")
    func roundTrip() throws {
        let device = PublicKey(unchecked: [UInt8](repeating: 3, count: 32))
        let messages: [WireMessage] = [
            .vector([.init(device: device, seq: 42, head: Digest32(unchecked: [UInt8](repeating: 4, count: 32)))], wantAll: true),
            .vector([], wantAll: false),
            .digest(Digest32(unchecked: [UInt8](repeating: 9, count: 32))),
            .ops(batch: 7, ack: true, [.full([1, 2, 3]), .compact([9, 8])]),
            .ack(batch: 7, applied: 2),
            .done,
            .close(.revoked, "device revoked"),
            .close(.inviteRefused, "this invite was already used"),
            .welcome(spaceKey: [UInt8](repeating: 5, count: 32), name: "Saturday foursome"),
            .welcome(spaceKey: [UInt8](repeating: 5, count: 32), name: "Club", earlierKeys: [[UInt8](repeating: 6, count: 32)]),
            .live([1, 0, 0, 0, 0, 0, 0, 0, 9, 5, 5]),
        ]
        for message in messages { #expect(try WireMessage(decoding: message.encoded) == message) }
    }

    @Test(
        "malformed messages are refused",
        arguments: [
            [UInt8]([]), [0x09], [0x01, 0x00], [0x01, 0x02, 0x00, 0x00], [0x06, 1, 2], [0x02, 0, 0, 0, 1, 0, 1, 7], [0x03, 0, 0],
            [0x04, 0], [0x05, 2, 0, 5, 65],
            [0x07] + [UInt8](repeating: 5, count: 31), [0x07] + [UInt8](repeating: 5, count: 32) + [3, 65],
            [0x07] + [UInt8](repeating: 5, count: 32) + [1, 65, 1], [0x08], [0x08] + [UInt8](repeating: 1, count: 8),
        ])
    func malformed(bytes: [UInt8]) {
        #expect(throws: WireError.self) { try WireMessage(decoding: bytes) }
    }

    @Test("a compact op restores to the exact signed bytes")
    func compactRoundTrip() throws {
        let key = SigningKey.generate()
        let space = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
        let prev = Digest32(unchecked: [UInt8](repeating: 5, count: 32))
        let unsigned = SignedOp.encodeUnsigned(
            space: space, device: key.publicKey, seq: 9, prev: prev,
            hlc: HLC(rawValue: 77), pred: [], payload: [1, 1, 0x04])
        let bytes = unsigned + key.sign(unsigned, context: SignedOp.signingContext)
        let compact = WireOp.compacting(bytes)
        guard case .compact(let body) = compact else {
            Issue.record("not compacted")
            return
        }
        #expect(body.count == bytes.count - 48)
        #expect(compact.id == OpID(device: key.publicKey, seq: 9))
        #expect(compact.restore(space: space, prev: prev) == bytes)
        #expect(compact.restore(space: space, prev: .zero) != bytes)
    }

    @Test("a score edit costs under 200 bytes on the wire, signature included; 131 as a version-2 live message")
    func wireBudget() throws {
        let key = SigningKey.generate()
        let space = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
        let payload = Payload.encode([
            .score(
                game: GameID(unchecked: [UInt8](repeating: 1, count: 8)),
                player: PlayerID(unchecked: [UInt8](repeating: 2, count: 8)), hole: 7,
                entry: try ScoreEntry(strokes: 5, putts: 2))
        ])
        let unsigned = SignedOp.encodeUnsigned(
            space: space, device: key.publicKey, seq: 9, prev: .zero,
            hlc: HLC(rawValue: 77), pred: [], payload: payload)
        let message = WireMessage.ops(
            batch: 1, ack: false, [.compacting(unsigned + key.sign(unsigned, context: SignedOp.signingContext))])
        let onWire = 4 + message.encoded.count + AEAD.overhead
        #expect(onWire < 200, "\(onWire) bytes")
        let bytes = unsigned + key.sign(unsigned, context: SignedOp.signingContext)
        let live = try #require(WireOp.live(bytes))
        let liveOnWire = 4 + WireMessage.live(live).encoded.count + AEAD.overhead
        #expect(liveOnWire == onWire - 42 && liveOnWire <= 132, "\(liveOnWire) bytes")
        #expect(WireOp.fromLive(live, device: key.publicKey).restore(space: space, prev: .zero) == bytes)
        let stranger = SigningKey.generate().publicKey
        #expect(WireOp.fromLive(live, device: stranger).restore(space: space, prev: .zero) != bytes)
    }

    @Test("random and mutated frames never crash the decoders or the responder")
    func fuzz() throws {
        var rng = SystemRandomNumberGenerator()
        let credentials = try TestDevice().credentials
        let space = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
        var initiator = HandshakeInitiator(space: space, spaceKey: [UInt8](repeating: 2, count: 32), credentials: credentials)
        let seeds: [[UInt8]] = [
            WireMessage.vector([]).encoded, WireMessage.ops(batch: 1, ack: false, [.full([1, 2]), .compact([3])]).encoded,
            WireMessage.close(.finished, "x").encoded,
            initiator.start(),
        ]
        for round in 0..<20_000 {
            var bytes = seeds[round % seeds.count]
            switch round % 3 {
            case 0: bytes = (0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1:
                if !bytes.isEmpty { bytes[Int.random(in: bytes.indices, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng) }
            default: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            }
            _ = try? WireMessage(decoding: bytes)
            var responder = HandshakeResponder(spaces: [(space, [UInt8](repeating: 2, count: 32))], credentials: credentials)
            _ = responder.receive(bytes)
            var decoder = FrameDecoder()
            decoder.append(bytes)
            while let _ = try? decoder.next() {}
        }
    }
}
