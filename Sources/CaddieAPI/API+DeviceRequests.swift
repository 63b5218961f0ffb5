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

    func deviceRequestRoutes() -> Resource {
        let routes = Resource("device requests")
        routes.on("device-requests", method: .post) { request, context in try await askForDevice(request, context) }
        routes.on("device-requests/:code", method: .get) { _, context in
            let id = try await spaceID(context)
            let code = try Self.parameter(context, "code")
            return Response.json(Self.view(try home.deviceRequest(space: id, code: code)))
        }
        routes.on("device-requests/:code/approval", method: .post) { request, context in
            try await approveDevice(request, context)
        }
        return routes
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
            try home.deviceRequests.ask(space: id, device: device, now: Home.now())
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
        let home = home
        let approved = try await read {
            try home.approveDeviceRequest(
                space: id, code: code, user: user, certifiedAt: body.certifiedAt, certificate: certificate)
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

    /// Runs a device's asking (``DeviceRequests/ask(space:device:now:)``), whose one refusal, a full table, is 503
    /// (`busy`).
    static func answering<T>(_ step: () throws(DeviceRequests.Refusal) -> T) throws(APIError) -> T {
        do { return try step() } catch { throw APIError(status: .serviceUnavailable, code: "busy", message: error.words) }
    }
}
