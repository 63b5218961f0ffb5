import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieOSM
import CaddieServices
import CaddieWire
import Foundation

/// The fuzz harnesses: each takes arbitrary bytes and drives one parser or state machine that reads input from
/// outside (a peer, a file, a user). A harness returns normally for every input; any crash, trap or sanitizer
/// report is a bug. Errors are the expected answer to bad input and are ignored.
enum Harness: String, CaseIterable {
    case frame, message, op, handshake, invite, course, osm, gpx

    /// Prints every harness's name, one a line: the one list that Deploy/fuzz.sh and FuzzCorpusTests read.
    static func printList() {
        print(allCases.map(\.rawValue).joined(separator: "\n"))
    }

    func run(_ bytes: [UInt8]) {
        switch self {
        case .frame: Self.frame(bytes)
        case .message: _ = try? WireMessage(decoding: bytes)
        case .op: Self.op(bytes)
        case .handshake: Self.handshake(bytes)
        case .invite: Self.invite(bytes)
        case .course: _ = try? CourseFile(data: Data(bytes))
        case .osm: _ = try? OSMCourseImport.courses(from: Data(bytes))
        case .gpx: _ = try? GPXParser.parse(Data(bytes))
        }
    }

    /// Bytes arrive in pieces of the sizes the first bytes choose; every complete frame is decoded as a message.
    static func frame(_ bytes: [UInt8]) {
        var decoder = FrameDecoder()
        var rest = bytes[...]
        while !rest.isEmpty {
            let size = Int(rest.first! % 64) + 1
            let piece = rest.prefix(size)
            rest = rest.dropFirst(size)
            decoder.append(Array(piece))
            do {
                while let frame = try decoder.next() { _ = try? WireMessage(decoding: frame) }
            } catch {
                return
            }
        }
    }

    /// A signed op, its payload, and the compact wire form restored.
    static func op(_ bytes: [UInt8]) {
        if let op = try? SignedOp(bytes: bytes) {
            _ = try? Payload.decode(op.payloadBytes)
        }
        _ = try? Payload.decode(bytes)
        let compact = WireOp.compacting(bytes)
        _ = compact.restore(
            space: SpaceID(unchecked: [UInt8](repeating: 1, count: 16)),
            prev: Digest32(unchecked: [UInt8](repeating: 2, count: 32)))
    }

    static let space = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
    static let key = [UInt8](repeating: 2, count: 32)
    static let credentials: DeviceCredentials = {
        let user = try! SigningKey(seed: [UInt8](repeating: 3, count: 32))
        let device = try! SigningKey(seed: [UInt8](repeating: 4, count: 32))
        return DeviceCredentials(
            device: device, user: user.publicKey, certifiedAt: 7,
            certificate: Membership.certify(device: device.publicKey, by: user, at: 7))
    }()

    /// The first byte picks the step the fuzz bytes replace: message 1 to a responder, message 3 after a
    /// genuine message 1, or message 2 to an initiator.
    static func handshake(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let input = Array(bytes.dropFirst())
        switch mode % 3 {
        case 0:
            var responder = HandshakeResponder(spaces: [(space, key)], credentials: credentials)
            _ = responder.receive(input)
            _ = responder.receive(input)
        case 1:
            var initiator = HandshakeInitiator(space: space, spaceKey: key, credentials: credentials)
            var responder = HandshakeResponder(spaces: [(space, key)], credentials: credentials)
            _ = responder.receive(initiator.start())
            _ = responder.receive(input)
        default:
            var initiator = HandshakeInitiator(space: space, spaceKey: key, credentials: credentials)
            _ = initiator.start()
            _ = initiator.receive(input)
            _ = initiator.receive(input)
        }
    }

    /// Invite codes, device pairing codes and version vectors as typed by a person.
    static func invite(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? Invitation(parsing: text)
        _ = try? PairingCode(parsing: text)
        _ = try? VersionVector(parsing: text)
    }
}
