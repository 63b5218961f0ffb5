import CaddieCore
import CaddieCrypto
import CaddieNode
import Foundation
import HTTPTypes
import Hummingbird

/// The bearer token every API request carries. `caddie serve` keeps it in the home as `api-token`, readable by
/// the owner only; a client on the same device reads it from there.
public struct APIToken: Sendable {
    /// The token text (64 hex digits).
    public let text: String

    /// The token file of a home.
    public static func path(in home: Home) -> String { home.directory.appendingPathComponent("api-token").path }

    /// Reads the home's token, or writes a new one (owner-only) when there is none or `rotate` is set. A token
    /// file that others could read is rewritten.
    public static func load(home: Home, rotate: Bool) throws(NodeError) -> APIToken {
        let path = path(in: home)
        let manager = FileManager.default
        if !rotate, let attributes = try? manager.attributesOfItem(atPath: path),
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue, permissions & 0o077 == 0,
            let data = manager.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            text.count == 64, Hex.decode(text) != nil
        {
            return APIToken(text: text)
        }
        let text = Hex.encode(SecureRandom.bytes(32))
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw .file("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array((text + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .file("cannot write the API token to \(path): \(String(cString: strerror(errno)))")
        }
        return APIToken(text: text)
    }

    init(text: String) { self.text = text }

    /// Whether an `Authorization` header carries this token (compared in constant time).
    func admits(_ header: String?) -> Bool {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return false }
        let given = Array(header.dropFirst(7).trimmingCharacters(in: .whitespaces).utf8)
        let expected = Array(text.utf8)
        return given.count == expected.count && MessageAuthentication.constantTimeEqual(given, expected)
    }
}

/// Lets a request reach the API when it carries the node's bearer token (programs) or the session cookie of a
/// signed-in browser. A browser's writes must also come from the app's own origin (`Origin` equal to the page's
/// scheme and host), so another site cannot make a signed-in browser act. Everything else gets 401.
///
/// A session is a person (WebAccess): the owner's browser acts as this home's user; a partner's phone goes through
/// `PartnerAccess`, and its session ends as soon as its user is removed from a space here or its device revoked.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: APIToken
    let web: WebAccess
    /// Served over HTTPS: a browser's writes must come from an `https://` page.
    var secure = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let header = request.headers[.authorization]
        if token.admits(header) { return try await next(request, context) }
        if header == nil, let cookie = WebCookie.value(in: request) {
            let web = web
            guard let session = try? await offload({ try web.session(cookie: cookie) }) else {
                throw APIError(
                    status: .unauthorized, code: "session_ended",
                    message: "this browser's session has ended: get a new sign-in link from the node's owner "
                        + "(`caddie web link`, or the Devices screen's sign-in code)")
            }
            let ended: Bool
            do { ended = try await offload { session.isOwner ? false : try web.personEnded(session) } } catch {
                // The store could not say: the session stays, this request waits for a later try.
                throw APIError(
                    status: .serviceUnavailable, code: "unavailable",
                    message: "the node could not read its members just now: try again in a moment")
            }
            if ended {
                _ = try? await offload { try web.end { $0.id == session.id } }
                throw APIError(
                    status: .unauthorized, code: "session_ended",
                    message: "this phone's user was removed from a space of this node, or its device revoked: "
                        + "its session has ended")
            }
            if request.method != .get, request.method != .head {
                let scheme = secure ? "https" : "http"
                guard let origin = request.headers[.origin], let host = request.head.authority, origin == "\(scheme)://\(host)"
                else {
                    throw APIError(
                        status: .forbidden, code: "origin",
                        message: "a browser may change this node's data only from the Caddie app's own page")
                }
            }
            if session.isOwner { return try await next(request, context) }
            return try await PartnerAccess(web: web, session: session).handle(request, context: context, next: next)
        }
        throw APIError(
            status: .unauthorized, code: header == nil ? "token_missing" : "token_wrong",
            message: header == nil
                ? "send the node's token as 'Authorization: Bearer TOKEN' (it is in the home's api-token file), "
                    + "or sign a browser in with `caddie web link`"
                : "the bearer token is not this node's: read it again from the home's api-token file")
    }
}
