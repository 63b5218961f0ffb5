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

    /// How a Caddie error reaches a client: a named record that does not exist is 404, anything the client
    /// sent that Caddie refuses is 400 or 409, a store that cannot write is 503 (507 when the disk is full), and
    /// another device that could not be reached or did not answer in time is 502.
    init(_ error: NodeError) {
        switch error {
        case .notFound: self.init(status: .notFound, code: "not_found", message: error.requestDescription)
        case .noSpace: self.init(status: .notFound, code: "no_space", message: error.description)
        case .notLoggedIn: self.init(status: .conflict, code: "not_logged_in", message: error.description)
        case .ambiguous(let text): self.init(status: .badRequest, code: "ambiguous", message: text)
        case .spaceAmbiguous: self.init(status: .badRequest, code: "space_ambiguous", message: error.description)
        case .store:
            switch error.storeFailure {
            case .diskFull:
                self.init(
                    status: .init(code: 507, reasonPhrase: "Insufficient Storage"), code: "disk_full", message: error.description)
            case .opRefused:
                // An op sent to the node (a phone's, a bundle) that fails a check: the sender's to fix, not the node's.
                self.init(status: .badRequest, code: "op_refused", message: error.description)
            case .cannotSign:
                self.init(status: .conflict, code: "cannot_sign", message: error.description)
            case .storage, nil:
                self.init(status: .serviceUnavailable, code: "store", message: error.description)
            }
        case .file(let text): self.init(status: .serviceUnavailable, code: "file", message: text)
        case .conflict: self.init(status: .conflict, code: "conflict", message: error.requestDescription)
        case .refused: self.init(status: .forbidden, code: "refused", message: error.requestDescription)
        case .badInput: self.init(status: .badRequest, code: "bad_request", message: error.requestDescription)
        case .unreachable: self.init(status: .badGateway, code: "unreachable", message: error.requestDescription)
        case .invalid, .malformed, .core, .crypto, .alreadyLoggedIn, .passphraseRequired:
            self.init(status: .badRequest, code: "bad_request", message: error.description)
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
