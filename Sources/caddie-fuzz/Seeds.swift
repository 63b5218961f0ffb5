import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieWire
import Foundation

/// Seed inputs made with Caddie's own encoders, so that fuzzing starts from well-formed frames, messages,
/// ops and handshake messages. Files from outside (courses, GPX, OSM) are copied into Fuzz/corpus by
/// Deploy/fuzz.sh --seed.
enum Seeds {
    static func write(to directory: String) {
        let entry = WireMessage.VectorEntry(
            device: Harness.credentials.device.publicKey, seq: 42,
            head: Digest32(unchecked: [UInt8](repeating: 9, count: 32)))
        let vectorOps: [[UInt8]] =
            ((try? String(contentsOfFile: "Protocol/vectors/op-v1.json", encoding: .utf8)).map(opHexes) ?? [])
            .compactMap { Hex.decode($0) }
        let opBytes = vectorOps.first ?? []
        let messages: [WireMessage] = [
            .vector([entry], wantAll: true), .vector([], wantAll: false),
            .ops(batch: 3, ack: true, opBytes.isEmpty ? [] : [WireOp.compacting(opBytes)]),
            .ack(batch: 3, applied: 1), .done, .close(.protocolError, "bad frame"),
            .digest(Digest32(unchecked: [UInt8](repeating: 5, count: 32))),
        ]
        var files: [String: [UInt8]] = [:]
        for (index, message) in messages.enumerated() {
            files["message/\(index)"] = message.encoded
            files["frame/\(index)"] = [UInt8(7)] + FrameDecoder.frame(message.encoded) + FrameDecoder.frame([])
        }
        for (index, bytes) in vectorOps.enumerated() { files["op/vector-op-\(index + 1)"] = bytes }
        var initiator = HandshakeInitiator(space: Harness.space, spaceKey: Harness.key, credentials: Harness.credentials)
        var responder = HandshakeResponder(spaces: [(Harness.space, Harness.key)], credentials: Harness.credentials)
        let message1 = initiator.start()
        files["handshake/message1"] = [0] + message1
        if case .send(let message2) = responder.receive(message1) {
            files["handshake/message2"] = [2] + message2
            if case .established(let message3, _) = initiator.receive(message2) { files["handshake/message3"] = [1] + message3 }
        }
        files["invite/pairing"] = Array(
            PairingCode(
                host: "192.168.1.20", port: 7401,
                secret: [UInt8](repeating: 7, count: 16)
            ).text.utf8)
        for (path, bytes) in files {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(bytes).write(to: url)
        }
        print("caddie-fuzz: wrote \(files.count) seeds under \(directory)")
    }

    /// The bytes of every op in the op vectors, as hex.
    static func opHexes(_ json: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let ops = object["ops"] as? [[String: Any]]
        else { return [] }
        return ops.compactMap { $0["bytes"] as? String }
    }
}
