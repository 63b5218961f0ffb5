import CaddieCore
import CaddieCrypto
import CaddieNode
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What a partner's phone may do through the node it is signed in to: read, make itself a device of its own user
/// (an admission that proves it holds the device key and this session), and send ops its own device signed.
/// Nothing else that writes: the node signs nothing on a partner's behalf, so the audit never names the node's
/// owner for what a partner entered, and a partner cannot invite, admit others or sign other browsers in.
struct PartnerAccess {
    let web: WebAccess
    let session: WebAccess.Session

    /// The message a phone's device signs to bind this session to itself: the context, the session's id, then the
    /// user and device keys (Protocol/openapi.yaml, `sessionProof`).
    static func proofMessage(session: String, user: PublicKey, device: PublicKey) -> [UInt8] {
        Array("caddie-web-session-v1".utf8) + Array(session.utf8) + user.bytes + device.bytes
    }

    func handle<Context: RequestContext>(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let parts = path.split(separator: "/")
        // Its own space only: the one its sign-in link was made for.
        if parts.count >= 3, parts[0] == "v1", parts[1] == "spaces" {
            let named = String(parts[2]).removingPercentEncoding ?? String(parts[2])
            let web = web
            if let resolved = try await offload({ web.resolveSpace(named) }), resolved.hex != session.space {
                throw APIError(
                    status: .forbidden, code: "partner_phone",
                    message: "this phone was signed in for another space of this node: ask its owner for a sign-in "
                        + "code for this one")
            }
        }
        if request.method == .get || request.method == .head {
            if path == "/v1/whoami" { return try await whoami() }
            if path == "/v1/spaces" { return try await spaces() }
            return try await next(request, context)
        }
        let inSpace = parts.count >= 4 && parts[0] == "v1" && parts[1] == "spaces"
        // Guidance only reads (a position in, distances out).
        if request.method == .post, inSpace, parts[3] == "guidance" { return try await next(request, context) }
        if request.method == .post, inSpace, parts.count == 4, parts[3] == "ops" {
            return try await ops(request, context: context, next: next)
        }
        if request.method == .post, inSpace, parts.count == 4, parts[3] == "admissions" {
            return try await admission(request, context: context, next: next)
        }
        // A new phone asks to become another device of its user; a phone adds devices of its own user only.
        if request.method == .post, inSpace, parts.count == 4, parts[3] == "device-requests" {
            return try await next(request, context)
        }
        if request.method == .post, inSpace, parts.count == 6, parts[3] == "device-requests", parts[5] == "approval" {
            return try await approval(request, context: context, next: next)
        }
        // Drafts sign nothing: a phone that is a device of its own signs the new player or game itself.
        if request.method == .post, inSpace, parts.count == 4,
            ["player-drafts", "game-drafts", "player-claims"].contains(parts[3])
        {
            let doing = parts[3] == "player-claims" ? "it checks in for its player" : "it adds players or games"
            return try await draft(request, context: context, doing: doing, next: next)
        }
        throw APIError(
            status: .forbidden, code: "partner_phone",
            message: session.person == nil
                ? "this phone is signed in as a partner's: make it a device of its own first (Devices, This phone); "
                    + "the node signs nothing on a partner's behalf"
                : "a partner's phone signs its own entries; this change is the node's owner's to make (the node signs "
                    + "nothing on a partner's behalf)")
    }

    /// GET /v1/spaces for a partner: only the space it was signed in for.
    func spaces() async throws -> Response {
        let (web, space) = (web, session.space)
        let list = try await offload { try web.spaces() }.filter { $0.id.hex == space }
        return Response.json(.array(list.map(Views.space)))
    }

    /// The person behind the session, in the shape of GET /v1/whoami: the phone's user and device once bound.
    func whoami() async throws -> Response {
        var fields: [(String, JSON)] = [("kind", .string("partner")), ("session", .string(session.id))]
        if let person = session.person {
            fields += [("user", .string(person.user.hex)), ("device", .string(person.device.hex))]
        } else {
            fields += [("user", .null), ("device", .null)]
        }
        fields.append(("name", .null))
        return Response.json(.object(fields))
    }

    func body(_ request: Request) async throws -> ByteBuffer {
        do { return try await request.body.collect(upTo: NodeAPI.maxBody) } catch {
            throw APIError(status: .contentTooLarge, code: "too_large", message: "the body is over \(NodeAPI.maxBody) bytes")
        }
    }

    struct SignedOps: Decodable { let ops: [String] }

    struct DraftUser: Decodable { let user: String? }

    /// The user and device this session is bound to; refused, naming what waits on it, while it is bound to none.
    func device(before doing: String) throws -> (user: PublicKey, device: PublicKey) {
        guard let person = session.person else {
            throw APIError(
                status: .forbidden, code: "partner_phone",
                message: "this phone is not a device yet: make it one (Devices, This phone) before \(doing)")
        }
        return person
    }

    /// A draft, for a phone that is a device already; a player it links to a user is its own user's.
    func draft<Context: RequestContext>(
        _ request: Request, context: Context, doing: String, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let person = try device(before: doing)
        let buffer = try await body(request)
        if let asked = try? JSONDecoder().decode(DraftUser.self, from: Data(buffer.readableBytesView)), let user = asked.user,
            user.lowercased() != person.user.hex
        {
            throw APIError(
                status: .forbidden, code: "partner_phone",
                message: "a partner's phone links a player to its own user (\(person.user.short)) only")
        }
        return try await next(Request(head: request.head, body: .init(buffer: buffer)), context)
    }

    /// Ops, only of the device this session is bound to.
    func ops<Context: RequestContext>(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let person = try device(before: "it sends entries")
        let buffer = try await body(request)
        if let sent = try? JSONDecoder().decode(SignedOps.self, from: Data(buffer.readableBytesView)) {
            for (index, text) in sent.ops.enumerated() {
                guard let bytes = Hex.decode(text), let op = try? SignedOp(bytes: bytes) else { continue }
                guard op.device == person.device else {
                    throw APIError(
                        status: .forbidden, code: "partner_phone",
                        message: "op #\(index + 1) is signed by device \(op.device.short), not this phone's "
                            + "(\(person.device.short)): a phone sends only its own ops")
                }
            }
        }
        // Anything that does not read as ops is the route's to refuse, with its own words.
        return try await next(Request(head: request.head, body: .init(buffer: buffer)), context)
    }

    struct Approval: Decodable { let user: String }

    /// A certificate of another device, only for the user this session's device speaks for.
    func approval<Context: RequestContext>(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let buffer = try await body(request)
        if let asked = try? JSONDecoder().decode(Approval.self, from: Data(buffer.readableBytesView)),
            asked.user.lowercased() != session.person?.user.hex
        {
            throw APIError(
                status: .forbidden, code: "partner_phone",
                message: session.person == nil
                    ? "this phone is not a device yet: only a phone of the user adds another device of theirs"
                    : "this phone is a device of user \(session.person!.user.short): it adds devices of that user only")
        }
        return try await next(Request(head: request.head, body: .init(buffer: buffer)), context)
    }

    struct Admission: Decodable {
        let user: String
        let device: String
        let sessionProof: String?
    }

    /// The phone's own device, proven by its signature over this session: on success the session is that person's.
    func admission<Context: RequestContext>(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let buffer = try await body(request)
        guard let asked = try? JSONDecoder().decode(Admission.self, from: Data(buffer.readableBytesView)),
            let user = PublicKey(hex: asked.user), let device = PublicKey(hex: asked.device)
        else {
            return try await next(Request(head: request.head, body: .init(buffer: buffer)), context)
        }
        guard let proofText = asked.sessionProof, let proof = Hex.decode(proofText),
            Ed25519.verify(
                proof, message: Self.proofMessage(session: session.id, user: user, device: device), key: device)
        else {
            throw APIError(
                status: .forbidden, code: "partner_phone",
                message: "a partner's phone admits only its own device: 'sessionProof' must be the device's signature "
                    + "over caddie-web-session-v1, this session's id, the user and the device keys")
        }
        if let person = session.person, person.user != user || person.device != device {
            throw APIError(
                status: .forbidden, code: "partner_phone",
                message: "this session belongs to device \(person.device.short): it cannot admit another")
        }
        let response = try await next(Request(head: request.head, body: .init(buffer: buffer)), context)
        if response.status == .created {
            let (web, id) = (web, session.id)
            guard try await offload({ try web.bind(id, user: user, device: device) }) else {
                throw APIError(status: .forbidden, code: "partner_phone", message: "this session belongs to another device")
            }
        }
        return response
    }
}
