import CaddieCore
import CaddieNode
import Foundation
import Hummingbird

/// A phone that is a device of its own: the node admits its device into a space and takes the ops it signed.
extension NodeAPI {
    struct NewAdmission: Decodable {
        let user: String
        let device: String
        let certifiedAt: UInt64
        let certificate: String
    }

    /// POST /v1/spaces/{space}/admissions: the membership proof for the join op of a browser's own device.
    func admit(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: NewAdmission.self)
        guard let user = PublicKey(hex: body.user) else {
            throw APIError.badRequest("'user' must be 64 hex digits (an Ed25519 public key)")
        }
        guard let device = PublicKey(hex: body.device) else {
            throw APIError.badRequest("'device' must be 64 hex digits (an Ed25519 public key)")
        }
        guard let certificate = Hex.decode(body.certificate), certificate.count == 64 else {
            throw APIError.badRequest("'certificate' must be 128 hex digits (an Ed25519 signature)")
        }
        let (home, keys) = (home, keys)
        let proof = try await read {
            try home.rounds.admit(
                space: id, keys: keys, user: user, device: device, certifiedAt: body.certifiedAt, certificate: certificate)
        }
        return Response.json(.object([("space", .string(id.hex)), ("proof", .string(Hex.encode(proof)))]), status: .created)
    }

    struct SignedOps: Decodable { let ops: [String] }

    /// POST /v1/spaces/{space}/ops: ops signed by a browser's device, as hex, in its log's order. They are checked
    /// as a peer's bundle is; one that fails refuses them all (400, code op_refused, the check's words).
    func receiveOps(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: SignedOps.self)
        guard body.ops.count <= 256 else { throw APIError.badRequest("send at most 256 ops at a time, got \(body.ops.count)") }
        let ops = try body.ops.enumerated().map { index, text in
            guard let bytes = Hex.decode(text) else { throw APIError.badRequest("op #\(index + 1) is not hex") }
            return bytes
        }
        let (home, keys) = (home, keys)
        let report = try await write { try home.rounds.receiveSigned(space: id, keys: keys, ops: ops) }
        return Response.json(
            .object([
                ("applied", .array(report.applied.map { .string(Views.opName($0)) })),
                ("duplicates", .int(report.duplicates)),
            ]), status: report.applied.isEmpty ? .ok : .created)
    }
}
