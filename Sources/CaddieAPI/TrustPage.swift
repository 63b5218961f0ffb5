import CaddieNode
import CaddieTLS
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The plain-HTTP server a new phone meets first (`caddie serve --trust-page`): a page with the home's certificate
/// authority (a `.crt` for Android and desktops, a `.mobileconfig` profile for iPhones), its fingerprint and the
/// steps for each platform, then a link to the node over HTTPS. It has no API, no app and no sign-in: every other
/// path is redirected to HTTPS, so nothing secret crosses the Wi-Fi in clear. It never carries a sign-in link, not
/// even in a fragment: whoever answers a plain-HTTP request could serve a script that reads it. The sign-in is a
/// second code, an `https://` address, which the phone opens once it trusts the authority.
public struct TrustPage: Sendable {
    let home: Home
    /// The port of the node's HTTPS server.
    let httpsPort: Int

    public init(home: Home, httpsPort: Int) {
        self.home = home
        self.httpsPort = httpsPort
    }

    /// The server, listening on `host:port`; `names` are the host names of the node's certificate.
    public func application(
        host: String, port: Int, names: [String], logger: Logger, running: @escaping @Sendable (Int) async -> Void
    ) -> some Service {
        // A table of its own and the same idle timeout as the app's: connections held here take no place there.
        let pool = ConnectionLimit.Pool()
        return HTTPServer(
            responder: router(boundHost: host, names: names).buildResponder(),
            server: HTTPServerBuilder { responder in
                PlacedChildChannel(
                    inner: HTTP1Channel(
                        responder: responder,
                        configuration: .init(
                            additionalChannelHandlers: [HeadErrorHandler(), ConnectionLimit.Activity(pool: pool)],
                            idleTimeout: NodeAPI.idleTimeout)),
                    pool: pool)
            },
            address: .hostname(host, port: port), logger: logger,
            running: { channel in await running(channel.localAddress?.port ?? port) })
    }

    func router(boundHost: String, names: [String]) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ErrorMiddleware(routes: RouteTable()))
        router.add(middleware: WebGuard(hosts: HostRule(boundHost: boundHost, names: names)))
        let (home, httpsPort) = (home, httpsPort)
        router.get("/") { request, _ in
            guard let der = home.authorityCertificate() else {
                throw APIError.notFound("this node has no certificate authority yet: run it with --https")
            }
            let host = HostRule.host(of: request.head.authority ?? "127.0.0.1")
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string: Self.page(
                            fingerprint: NodeAuthority.fingerprint(der), validUntil: NodeAuthority.validUntil(der),
                            https: "https://\(Self.bracketed(host)):\(httpsPort)/"))))
        }
        router.get("/app.css") { _, _ in WebApp.serve("/app.css") }
        router.get("/authority.crt") { _, _ in
            guard let der = home.authorityCertificate() else {
                throw APIError.notFound("this node has no certificate authority yet")
            }
            return Self.download(der, type: "application/x-x509-ca-cert", name: "caddie-authority.crt")
        }
        router.get("/caddie.mobileconfig") { _, _ in
            guard let der = home.authorityCertificate() else {
                throw APIError.notFound("this node has no certificate authority yet")
            }
            return Self.download(
                Array(Self.profile(der, fingerprint: NodeAuthority.fingerprint(der)).utf8),
                type: "application/x-apple-aspen-config", name: "caddie.mobileconfig")
        }
        // Everything else (the app, the API, a sign-in link) only over HTTPS.
        router.on("/**", method: .get) { request, _ in Self.toHTTPS(request, port: httpsPort) }
        router.on("/**", method: .post) { request, _ in Self.toHTTPS(request, port: httpsPort) }
        return router
    }

    static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    static func toHTTPS(_ request: Request, port: Int) -> Response {
        let host = HostRule.host(of: request.head.authority ?? "127.0.0.1")
        return Response(
            status: .permanentRedirect,
            headers: [.location: "https://\(bracketed(host)):\(port)\(request.uri.path)", .cacheControl: "no-store"])
    }

    static func download(_ bytes: [UInt8], type: String, name: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache", .contentDisposition: "attachment; filename=\"\(name)\""],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The page: the fingerprint to compare, the two downloads, the steps for each platform, and the way on.
    static func page(fingerprint: String, validUntil: Date?, https: String) -> String {
        let until =
            validUntil.map { " It is valid until \(Self.day($0)); before then the node makes a new one, trusted the same way." }
            ?? ""
        let suffixes = LocalNames.suffixes.map { ".\($0)" }.joined(separator: ", ")
        return
            """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <title>Trust this Caddie node</title>
              <link rel="stylesheet" href="/app.css">
              <link rel="icon" href="data:,">
            </head>
            <body>
              <header class="bar"><h1>Caddie</h1></header>
              <main id="main" class="trust">
                <h2>Trust this node once</h2>
                <p>The node serves the app over HTTPS with a certificate from its own authority, made on this node. Your
                  phone trusts that authority once; then the app opens securely, keeps scores offline and can use your
                  position.</p>
                <p>Compare this fingerprint with the one the node's owner sees (<code>caddie web authority</code>) or
                  with the one your phone shows while installing:</p>
                <p><code id="fingerprint" class="fingerprint">\(Views.escapedHTML(fingerprint))</code></p>
                <p id="scope">The authority can vouch only for addresses of a local network (10.x, 172.16-31.x, 192.168.x,
                  169.254.x, 127.x) and names ending in \(Views.escapedHTML(suffixes)), never for a website.\(Views.escapedHTML(until))</p>
                <h3>iPhone or iPad</h3>
                <ol>
                  <li><a id="profile" href="/caddie.mobileconfig">Download the profile</a> and allow it.</li>
                  <li>Settings, Profile Downloaded: Install.</li>
                  <li>Settings, General, About, Certificate Trust Settings: turn on full trust for the Caddie authority.</li>
                </ol>
                <h3>Android</h3>
                <ol>
                  <li><a id="certificate" href="/authority.crt">Download the certificate</a>.</li>
                  <li>Settings, Security, Encryption and credentials, Install a certificate, CA certificate: choose
                    caddie-authority.crt.</li>
                </ol>
                <h3>A computer</h3>
                <p>Import <a href="/authority.crt">the certificate</a> into the browser's certificate authorities, for
                  identifying websites.</p>
                <h3>Then sign in</h3>
                <p id="next">Once the authority is trusted, scan the <strong>sign-in code</strong> the node's owner shows
                  you (the second code): it opens the node over HTTPS and signs this phone in. If that page says the
                  connection is not private, the authority is not trusted yet.</p>
                <p><a id="continue" class="button" href="\(Views.escapedHTML(https))">Open the node over HTTPS</a></p>
                <p class="hint">This page is plain HTTP: it carries no sign-in and no scores, and a sign-in code is never
                  sent through it.</p>
              </main>
            </body>
            </html>
            """
    }

    /// A day as the page shows it, such as 2027-03-01.
    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// An iOS configuration profile that installs the authority (trusted once the person turns it on).
    static func profile(_ der: [UInt8], fingerprint: String) -> String {
        let id = fingerprint.replacingOccurrences(of: ":", with: "").prefix(32).lowercased()
        let uuid = { (salt: String) -> String in
            let hex = Array((salt + id).utf8).map { String(format: "%02x", $0) }.joined()
            let digits = Array(String(hex.suffix(32)))
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-").uppercased()
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>PayloadContent</key>
              <array>
                <dict>
                  <key>PayloadCertificateFileName</key><string>caddie-authority.crt</string>
                  <key>PayloadContent</key><data>\(Data(der).base64EncodedString())</data>
                  <key>PayloadDisplayName</key><string>Caddie node authority</string>
                  <key>PayloadIdentifier</key><string>caddie.authority.\(id).certificate</string>
                  <key>PayloadType</key><string>com.apple.security.root</string>
                  <key>PayloadUUID</key><string>\(uuid("c"))</string>
                  <key>PayloadVersion</key><integer>1</integer>
                </dict>
              </array>
              <key>PayloadDescription</key><string>Trusts the certificate authority of one Caddie node (\(fingerprint)).</string>
              <key>PayloadDisplayName</key><string>Caddie node</string>
              <key>PayloadIdentifier</key><string>caddie.authority.\(id)</string>
              <key>PayloadType</key><string>Configuration</string>
              <key>PayloadUUID</key><string>\(uuid("p"))</string>
              <key>PayloadVersion</key><integer>1</integer>
            </dict>
            </plist>

            """
    }
}
