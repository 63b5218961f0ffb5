import CaddieCore
import CaddieCrypto
import CaddieNode
import Foundation
import Hummingbird

/// Another device of an existing user, from that user's other phone (``DeviceRequests``): the new phone asks and
/// shows a code, the user's phone signs the new device's certificate for that code, the new phone takes it.
extension NodeAPI {
    struct DeviceAsk: Decodable { let device: String }

    struct DeviceApproval: Decodable {
        let user: String
        let certifiedAt: UInt64
        let certificate: String
    }

    func addDeviceRequestRoutes(_ space: RecordingGroup) {
        space.on("device-requests", method: .post) { request, context in try await askForDevice(request, context) }
        space.on("device-requests/:code", method: .get) { _, context in
            let id = try await spaceID(context)
            let code = try Self.parameter(context, "code")
            return Response.json(
                Self.view(
                    try Self.answering { () throws(DeviceRequests.Refusal) in
                        try deviceRequests.read(code, space: id, now: Home.now())
                    }))
        }
        space.on("device-requests/:code/approval", method: .post) { request, context in
            try await approveDevice(request, context)
        }
    }

    /// POST /v1/spaces/{space}/device-requests: a code for this device key, shown on the new phone (201; the same
    /// code again while it is open).
    func askForDevice(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let body = try await decode(request, as: DeviceAsk.self)
        guard let device = PublicKey(hex: body.device) else {
            throw APIError.badRequest("'device' must be 64 hex digits (the new phone's Ed25519 device key)")
        }
        let made = try Self.answering { () throws(DeviceRequests.Refusal) in
            try deviceRequests.ask(space: id, device: device, now: Home.now())
        }
        return Response.json(Self.view(made), status: .created)
    }

    /// POST /v1/spaces/{space}/device-requests/{code}/approval: the user's certificate of the device the code names,
    /// signed on that user's other phone. It must verify, and the user must have a device in the space.
    func approveDevice(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try await spaceID(context)
        let code = try Self.parameter(context, "code")
        let body = try await decode(request, as: DeviceApproval.self)
        guard let user = PublicKey(hex: body.user) else {
            throw APIError.badRequest("'user' must be 64 hex digits (the user's Ed25519 public key)")
        }
        guard let certificate = Hex.decode(body.certificate), certificate.count == 64 else {
            throw APIError.badRequest("'certificate' must be 128 hex digits (an Ed25519 signature)")
        }
        let asked = try Self.answering { () throws(DeviceRequests.Refusal) in
            try deviceRequests.read(code, space: id, now: Home.now())
        }
        guard
            Membership.verifyCertificate(
                user: user, device: asked.device, certifiedAt: body.certifiedAt, signature: certificate)
        else {
            throw APIError.badRequest(
                "'certificate' does not verify: it must be the user key's Ed25519 signature over caddie-cert-v1, the user "
                    + "key, the asking device's key and 'certifiedAt' (Protocol/op-format.md)")
        }
        let home = home
        guard let name = try await read({ try home.rounds.memberName(space: id, user: user) }) else {
            throw APIError(
                status: .forbidden, code: "refused",
                message: "user \(user.short) has no device in this space: only a member's phone adds a device of theirs")
        }
        let approved = try Self.answering { () throws(DeviceRequests.Refusal) in
            try deviceRequests.approve(
                code, space: id,
                approval: .init(user: user, name: name, certifiedAt: body.certifiedAt, certificate: certificate),
                now: Home.now())
        }
        return Response.json(Self.view(approved))
    }

    static func view(_ request: DeviceRequests.Request) -> JSON {
        var fields: [(String, JSON)] = [
            ("code", .string(DeviceRequests.shown(request.code))), ("device", .string(request.device.hex)),
            ("expires", .int(Int(request.expires))), ("approved", .bool(request.approval != nil)),
        ]
        if let approval = request.approval {
            fields += [
                ("user", .string(approval.user.hex)), ("name", .string(approval.name)),
                ("certifiedAt", .int(Int(approval.certifiedAt))), ("certificate", .string(Hex.encode(approval.certificate))),
            ]
        }
        return .object(fields)
    }

    /// Runs a step of ``DeviceRequests``, its refusal as the API's error.
    static func answering<T>(_ step: () throws(DeviceRequests.Refusal) -> T) throws(APIError) -> T {
        do { return try step() } catch {
            switch error {
            case .malformed:
                throw .badRequest("a device code is 8 letters and digits, as the new phone shows it (ABCD-EFGH)")
            case .unknown:
                throw .notFound(
                    "no device asks with that code in this space: a code lasts 10 minutes; read the one the new phone "
                        + "shows now")
            case .approved:
                throw APIError(status: .conflict, code: "conflict", message: "a phone of its user has answered that code already")
            case .full:
                throw APIError(
                    status: .serviceUnavailable, code: "busy",
                    message: "\(DeviceRequests.limit) devices are waiting to be added at this node: try again in a few minutes")
            }
        }
    }
}
