import CaddieNode
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// An API failure as a client sees it: an HTTP status and a JSON body `{"code": ..., "message": ...}` whose
/// message says what was wrong and what to do.
struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, code: "bad_request", message: message) }
    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, code: "not_found", message: message) }

    /// The JSON body.
    var body: JSON { .object([("code", .string(code)), ("message", .string(message))]) }

    /// How a Caddie error reaches a client, by its kind: a named record that does not exist is 404, anything the
    /// client sent that Caddie refuses is 400, 403 or 409, a store that cannot write is 503 (507 when the disk is
    /// full), and another device that could not be reached or did not answer in time is 502. The message is the
    /// error in the API's words (``RequestWords``): fields by their names, remedies as requests.
    init(_ error: NodeError) {
        let message = error.worded(by: RequestWords())
        let status: HTTPResponse.Status
        switch error.kind {
        case .invalid, .ambiguous: status = .badRequest
        case .notFound: status = .notFound
        case .conflict, .notLoggedIn: status = .conflict
        case .refused: status = .forbidden
        case .unreachable: status = .badGateway
        case .storage:
            switch error.storeFailure {
            case .diskFull: status = .init(code: 507, reasonPhrase: "Insufficient Storage")
            // An op sent to the node (a phone's, a bundle) that fails a check: the sender's to fix, not the node's.
            case .opRefused: status = .badRequest
            case .cannotSign: status = .conflict
            case .storage, nil: status = .serviceUnavailable
            }
        }
        self.init(status: status, code: Self.code(error), message: message)
    }

    /// The error's code in the body: its kind, named more closely where a client acts on the difference.
    static func code(_ error: NodeError) -> String {
        switch error {
        case .noSpace: "no_space"
        case .notLoggedIn: "not_logged_in"
        case .spaceAmbiguous: "space_ambiguous"
        case .file: "file"
        default:
            switch error.storeFailure {
            case .diskFull: "disk_full"
            case .opRefused: "op_refused"
            case .cannotSign: "cannot_sign"
            case .storage: "store"
            case nil:
                switch error.kind {
                case .notFound: "not_found"
                case .ambiguous: "ambiguous"
                case .conflict: "conflict"
                case .refused: "refused"
                case .unreachable: "unreachable"
                case .invalid, .notLoggedIn, .storage: "bad_request"
                }
            }
        }
    }

    init(status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}

/// Turns every error into a JSON response: the API never answers 500 with an empty body, and an error it did
/// not foresee is logged and reported as 503 with what is known.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes, to tell a wrong method (405) from a path that does not exist (404).
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return respond(error)
        } catch let error as NodeError {
            return respond(APIError(error))
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                let allowed = routes.methods(for: request.uri.path)
                if !allowed.isEmpty {
                    let names = allowed.map(\.rawValue).joined(separator: ", ")
                    var response = respond(
                        APIError(
                            status: .methodNotAllowed, code: "method_not_allowed",
                            message: "\(request.method) is not allowed on \(request.uri.path); use \(names)"))
                    response.headers[.allow] = names
                    return response
                }
                return respond(
                    APIError(
                        status: .notFound, code: "no_such_resource",
                        message: "\(request.method) \(request.uri.path) is not part of the Caddie API: see Protocol/openapi.yaml")
                )
            case .methodNotAllowed:
                return respond(
                    APIError(
                        status: .methodNotAllowed, code: "method_not_allowed",
                        message: "\(request.method) is not allowed on \(request.uri.path): see Protocol/openapi.yaml"))
            case .contentTooLarge:
                return respond(APIError(status: .contentTooLarge, code: "too_large", message: "the request body is too large"))
            default:
                let code = error.status.code
                return respond(
                    APIError(
                        status: code >= 500 ? .serviceUnavailable : error.status, code: "http",
                        message: error.body ?? error.status.reasonPhrase))
            }
        } catch {
            // The store's own error has its kind (a full disk, a refused op): answered as the node's error. Any other
            // is the node's fault, not the client's, and is logged.
            let wrapped = NodeError.wrap(error)
            if wrapped.storeFailure != nil { return respond(APIError(wrapped)) }
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return respond(
                APIError(status: .serviceUnavailable, code: "unavailable", message: "the node could not answer: \(error)"))
        }
    }

    func respond(_ error: APIError) -> Response {
        var response = Response.json(error.body, status: error.status)
        if error.status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer realm=\"caddie\"" }
        return response
    }
}

extension Response {
    /// A JSON response.
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: value.text)))
    }
}
