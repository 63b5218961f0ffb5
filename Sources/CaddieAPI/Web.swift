import CaddieCore
import CaddieNode
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The session cookie of a signed-in browser.
enum WebCookie {
    static let name = "caddie_session"

    /// The cookie's value in a request, if it carries one.
    static func value(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix(name + "=") { return String(pair.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }

    /// `Set-Cookie` for a new session: HttpOnly (no script reads it), SameSite=Strict (no other site sends it), and
    /// over HTTPS `Secure` (never sent in clear).
    static func set(_ value: String, secure: Bool) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")"
            + "; Max-Age=\(Int(WebAccess.sessionIdleLifetime))"
    }

    static func clear(secure: Bool) -> String {
        "\(name)=; Path=/; HttpOnly; SameSite=Strict\(secure ? "; Secure" : ""); Max-Age=0"
    }
}

/// Which `Host` headers the node answers: its own address, loopback names and, when it listens on every address,
/// any IP literal or this machine's own name. A name an attacker controls (DNS rebinding: evil.example resolving
/// to 127.0.0.1) is refused, so a page from elsewhere can never read the API as same-origin.
struct HostRule: Sendable {
    let boundHost: String
    let machineNames: Set<String>

    init(boundHost: String, names extra: [String] = []) {
        self.boundHost = boundHost.lowercased()
        var names: Set<String> = Set(["localhost", "127.0.0.1", "::1"] + extra.map { $0.lowercased() })
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let name = String(cString: buffer).lowercased()
            if !name.isEmpty { names.formUnion([name, name + ".local"]) }
        }
        machineNames = names
    }

    var wildcard: Bool { boundHost == "0.0.0.0" || boundHost == "::" }

    /// The host of a request's authority ("caddie.test:7443", "[::1]:80"), without its port.
    static func host(of authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end])
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "")
    }

    func admits(_ authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return false }
        let lowered = Self.host(of: authority).lowercased()
        if lowered == boundHost || machineNames.contains(lowered) { return true }
        return wildcard && Self.isIPLiteral(lowered)
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// Checks the Host of every request and adds the browser-hardening headers to every response: a strict
/// Content-Security-Policy (no inline script, nothing from elsewhere), no sniffing, no framing, no referrer.
/// No CORS header is ever sent, so other origins cannot read any answer.
enum WebHeaders {
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
        + "frame-ancestors 'none'; form-action 'self'"
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

struct WebGuard<Context: RequestContext>: RouterMiddleware {
    let hosts: HostRule

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard hosts.admits(request.head.authority) else {
            throw APIError(
                status: .init(code: 421, reasonPhrase: "Misdirected Request"), code: "wrong_host",
                message: "this node does not answer for host '\(request.head.authority ?? "")': open it by its "
                    + "address, as `caddie web link` prints it")
        }
        return try await next(request, context)
    }
}

/// The security headers on every answer, errors included (a 421 or a 401 too): it stands outside the error
/// middleware, which turns a thrown error into its answer.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var response = try await next(request, context)
        // A response with its own, stricter policy keeps it (the printable card: no script at all).
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = WebHeaders.contentSecurityPolicy
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[WebHeaders.frameOptions] = "DENY"
        response.headers[WebHeaders.referrerPolicy] = "no-referrer"
        return response
    }
}

/// The web app's files, compiled into the binary (Sources/CaddieAPI/Web), and the sign-in exchange.
struct WebApp: Sendable {
    let web: WebAccess
    /// Served over HTTPS: the session cookie is `Secure`.
    var secure = false

    struct File: Sendable {
        let bytes: [UInt8]
        let type: String
        /// The file gzipped, when that is smaller (made once, when the files are first served).
        let gzipped: [UInt8]?
    }

    /// Every file of the app by the path it is served at.
    static let files: [String: File] = {
        var files: [String: File] = [:]
        for (name, bytes) in WebFiles.all {
            let type: String
            switch name.split(separator: ".").last {
            case "html": type = "text/html; charset=utf-8"
            case "css": type = "text/css; charset=utf-8"
            case "js": type = "text/javascript; charset=utf-8"
            case "svg": type = "image/svg+xml"
            case "webmanifest": type = "application/manifest+json"
            default: type = "application/octet-stream"
            }
            let gzipped = Gzip.compress(bytes).flatMap { $0.count < bytes.count ? $0 : nil }
            files["/" + name] = File(bytes: bytes, type: type, gzipped: gzipped)
        }
        return files
    }()

    /// A file of the app; gzipped when `request` takes gzip (Accept-Encoding), with `Vary` saying so either way.
    static func serve(
        _ path: String, status: HTTPResponse.Status = .ok, cache: String = "no-cache", for request: Request? = nil
    ) -> Response {
        guard let file = files[path] else {
            return Response.json(APIError.notFound("no such file").body, status: .notFound)
        }
        var headers: HTTPFields = [.contentType: file.type, .cacheControl: cache, .vary: "Accept-Encoding"]
        if let gzipped = file.gzipped, Gzip.accepted(request?.headers[.acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: gzipped)))
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// What a browser that arrived from another site sees for a moment after signing in.
    static func signedInPage(_ opening: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="refresh" content="0; url=\(opening)"><title>Caddie: signed in</title>
        <link rel="stylesheet" href="/app.css"></head>
        <body><main id="main"><p>Signed in. <a href="\(opening)">Open the app</a>.</p></main></body></html>
        """
    }

    func signedIn(_ request: Request) -> Bool {
        guard let cookie = WebCookie.value(in: request) else { return false }
        return ((try? web.session(cookie: cookie)) ?? nil) != nil
    }

    /// Adds the app's routes: `/` (the app for a signed-in browser, else the sign-in page), its static files,
    /// `/signin?t=SECRET` and `POST /signout`.
    func add(to router: Router<BasicRequestContext>, table: RouteTable) {
        router.on("/", method: .get) { request, _ in
            guard signedIn(request) else { return Self.serve("/signin.html", for: request) }
            // The service worker keeps this page for a phone out of the node's reach, and only this one.
            var app = Self.serve("/index.html", for: request)
            app.headers[.init("Caddie-Page")!] = "app"
            return app
        }
        table.add("/", .get)
        for path in Self.files.keys where path != "/index.html" && path != "/signin.html" {
            router.get(RouterPath(path)) { request, _ in Self.serve(path, for: request) }
            table.add(path, .get)
        }
        router.on("/signin", method: .get) { request, _ in
            guard let secret = request.uri.queryParameters.get("t"), !secret.isEmpty else { return Self.serve("/signin.html") }
            let agent = request.headers[.userAgent] ?? "unknown browser"
            let web = web
            let redeemed = try await offload { try web.redeem(secret, agent: agent) }
            guard case .session(_, let cookie, let game) = redeemed else {
                var response = Self.serve("/signin.html", status: .unauthorized, cache: "no-store")
                response.headers[.init("Caddie-Sign-In")!] = "refused"
                return response
            }
            // Arrived from another site (the plain-HTTP trust page is one: http and https differ), a redirect
            // would carry that site's context on, and the browser would not send the SameSite=Strict cookie just
            // set: the page continues by itself instead, from this origin.
            // A group's check-in code opens the group, where the phone says which player it is.
            let opening = game.flatMap(GameID.init(hex:)).map { "/#/checkin/\($0.hex)" } ?? "/#/game/current"
            if request.headers[Self.fetchSite] == "cross-site" {
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "text/html; charset=utf-8", .setCookie: WebCookie.set(cookie, secure: secure),
                        .cacheControl: "no-store",
                    ],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: Self.signedInPage(opening))))
            }
            // 303 to the app: the link leaves the address bar and the history at once.
            return Response(
                status: .seeOther,
                headers: [
                    .location: opening, .setCookie: WebCookie.set(cookie, secure: secure),
                    .cacheControl: "no-store",
                ])
        }
        table.add("/signin", .get)
        router.on("/signout", method: .post) { request, _ in
            if let cookie = WebCookie.value(in: request) {
                let web = web
                _ = try await offload { try web.end(cookie: cookie) }
            }
            return Response(status: .noContent, headers: [.setCookie: WebCookie.clear(secure: secure)])
        }
        table.add("/signout", .post)
    }
}
