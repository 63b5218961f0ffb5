import Foundation
import Testing

/// `caddie serve --https`: the home's own certificate authority, the node's certificate from it, and the web
/// app's session over TLS, checked by a TLS client that is not Caddie's (Python's `ssl`, OpenSSL underneath)
/// trusting only that authority. Deploy/web-check.sh opens the same in Debian's chromium at a name that is not
/// loopback.
@Suite("caddie serve --https: the web app on a course with no internet", .serialized)
struct HTTPSTests {
    /// One HTTPS request through Python's ssl module, verifying the chain against `authority` and the name
    /// `name`; the reply's status, headers (lower-case names) and body, or the client's error.
    static func request(
        port: Int, authority: String, name: String, method: String = "GET", path: String,
        headers: [String: String] = [:], body: String = ""
    ) throws -> (status: Int, headers: [String: String], body: String, error: String?) {
        let script = """
            import json, socket, ssl, sys
            cafile, port, name, method, path, headers, body = sys.argv[1:8]
            context = ssl.create_default_context(cafile=cafile)
            try:
                raw = socket.create_connection(("127.0.0.1", int(port)), timeout=20)
                tls = context.wrap_socket(raw, server_hostname=name)
            except Exception as error:
                print(json.dumps({"error": "%s: %s" % (type(error).__name__, error)})); sys.exit(0)
            lines = ["%s %s HTTP/1.1" % (method, path), "Host: %s:%s" % (name, port), "Connection: close"]
            lines += ["%s: %s" % pair for pair in json.loads(headers).items()]
            if body: lines += ["Content-Type: application/json", "Content-Length: %d" % len(body.encode())]
            tls.sendall(("\\r\\n".join(lines) + "\\r\\n\\r\\n" + body).encode())
            data = b""
            while True:
                chunk = tls.recv(65536)
                if not chunk: break
                data += chunk
            head, _, rest = data.partition(b"\\r\\n\\r\\n")
            status = head.split(b"\\r\\n")[0].split(b" ")[1]
            fields = {}
            for line in head.split(b"\\r\\n")[1:]:
                key, _, value = line.decode().partition(":")
                fields[key.strip().lower()] = value.strip()
            print(json.dumps({"status": int(status), "headers": fields, "body": rest.decode(errors="replace"),
                              "version": tls.version()}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let headerText = String(decoding: try JSONSerialization.data(withJSONObject: headers), as: UTF8.self)
        process.arguments = ["python3", "-c", script, authority, "\(port)", name, method, path, headerText, body]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.killAfter(CLI.commandDeadline)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        if let error = object["error"] as? String { return (0, [:], "", error) }
        if let version = object["version"] as? String {
            #expect(version == "TLSv1.2" || version == "TLSv1.3", "\(version)")
        }
        return (
            object["status"] as? Int ?? 0, object["headers"] as? [String: String] ?? [:], object["body"] as? String ?? "",
            nil
        )
    }

    /// The application protocol the node picks (ALPN) when a client offers `offered`, or the TLS error.
    static func negotiated(port: Int, authority: String, offered: [String]) throws -> String {
        let script = """
            import socket, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[1])
            context.set_alpn_protocols(sys.argv[3].split(","))
            tls = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=20),
                                      server_hostname="caddie.test")
            print(tls.selected_alpn_protocol())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, authority, "\(port)", offered.joined(separator: ",")]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        process.killAfter(CLI.commandDeadline)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a node serves HTTPS with a certificate from its home's authority; the session cookie is Secure")
    func servesHTTPS() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        try ana.fails(["web", "authority"], saying: "this home has no certificate authority yet")
        let node = try NodeProcess(ana, http: true, https: true)
        let authority = ana.home.appendingPathComponent("trust.crt")
        let shown = try ana.ok(["web", "authority", "--out", authority.path, "--json"])
        let fingerprint = try shown.field("fingerprint")
        #expect(fingerprint.split(separator: ":").count == 32)
        #expect(try String(contentsOf: authority, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        // Its key is sealed with the other secrets, never in a file of its own.
        let files = try FileManager.default.contentsOfDirectory(atPath: ana.home.path)
        #expect(!files.contains { $0.contains("key") && $0 != "keys.sealed" }, "\(files)")

        // A client that trusts only this authority reaches the node by the name its certificate carries...
        let page = try Self.request(port: node.httpsPort, authority: authority.path, name: "caddie.test", path: "/")
        #expect(page.error == nil && page.status == 200, "\(page)")
        #expect(page.body.contains("Sign in with a link"))
        // HTTP/2 for a client that offers it (a browser: one connection for everything), HTTP/1.1 for one that does not.
        #expect(try Self.negotiated(port: node.httpsPort, authority: authority.path, offered: ["h2", "http/1.1"]) == "h2")
        #expect(try Self.negotiated(port: node.httpsPort, authority: authority.path, offered: ["http/1.1"]) == "http/1.1")
        // ...and refuses it under a name the certificate does not carry, or without the authority.
        let wrongName = try Self.request(port: node.httpsPort, authority: authority.path, name: "evil.test", path: "/")
        #expect(wrongName.error?.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(wrongName)")
        let otherAuthority = ana.home.appendingPathComponent("other.crt")
        try FileManager.default.copyItem(atPath: "/etc/ssl/certs/ca-certificates.crt", toPath: otherAuthority.path)
        let untrusted = try Self.request(
            port: node.httpsPort, authority: otherAuthority.path, name: "caddie.test", path: "/")
        #expect(untrusted.error?.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(untrusted)")

        // `caddie web link` names the HTTPS server; signing in sets a Secure cookie.
        let url = try ana.ok(["web", "link", "--json"]).field("url")
        #expect(url.hasPrefix("https://127.0.0.1:\(node.httpsPort)/signin?t="), "\(url)")
        let path = String(url.dropFirst("https://127.0.0.1:\(node.httpsPort)".count))
        let signedIn = try Self.request(port: node.httpsPort, authority: authority.path, name: "caddie.test", path: path)
        #expect(signedIn.status == 303, "\(signedIn)")
        let cookie = try #require(signedIn.headers["set-cookie"])
        #expect(cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let session = try #require(cookie.split(separator: ";").first.map(String.init))
        let whoami = try Self.request(
            port: node.httpsPort, authority: authority.path, name: "caddie.test", path: "/v1/whoami",
            headers: ["Cookie": session])
        #expect(whoami.status == 200 && whoami.body.contains("\"Ana\""), "\(whoami)")
        // A write must come from the app's own https:// page.
        let space = try ana.ok(["space", "list", "--json"])
        let spaceID = try #require((try space.json() as? [[String: Any]])?.first?["space"] as? String)
        func invite(origin: String) throws -> Int {
            try Self.request(
                port: node.httpsPort, authority: authority.path, name: "caddie.test", method: "POST",
                path: "/v1/spaces/\(spaceID)/invites", headers: ["Cookie": session, "Origin": origin], body: #"{"uses": 1}"#
            ).status
        }
        #expect(try invite(origin: "http://caddie.test:\(node.httpsPort)") == 403)
        let made = try invite(origin: "https://caddie.test:\(node.httpsPort)")
        #expect(made == 200 || made == 201)
        // The authority is offered at /authority.crt, the same as `caddie web authority` prints.
        let offered = try HTTPClient(port: node.httpPort, token: nil).get("/authority.crt")
        #expect(offered.status == 200 && offered.headers["content-type"] == "application/x-x509-ca-cert")

        // Restarted, the node keeps its authority: a phone trusts it once.
        node.stop()
        let again = try NodeProcess(ana, https: true)
        defer { again.stop() }
        #expect(try ana.ok(["web", "authority", "--json"]).field("fingerprint") == fingerprint)
        let later = try Self.request(port: again.httpsPort, authority: authority.path, name: "caddie.test", path: "/")
        #expect(later.status == 200, "\(later)")
    }

    @Test("--https refuses a name or a bad port, and --https-name or --trust-page without it, saying what to give")
    func badArguments() throws {
        let cli = try CLI(name: "https-bad")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        try cli.fails(["serve", "--https", "caddie.local:7443", "--no-mdns"], saying: "--https takes an IPv4 address")
        try cli.fails(["serve", "--https-name", "caddie.test", "--no-mdns"], saying: "give --https as well")
        try cli.fails(["serve", "--trust-page", "127.0.0.1:7480", "--no-mdns"], saying: "give --https with a port")
        try cli.fails(
            ["serve", "--https", "127.0.0.1:7443", "--http", "0.0.0.0:7480", "--http-any-address", "--no-mdns"],
            saying: "--http stays on loopback")
        try cli.fails(
            ["serve", "--https", "127.0.0.1:0", "--trust-page", "127.0.0.1:7480", "--no-mdns"], saying: "give --https with a port"
        )
        try cli.fails(
            ["serve", "--https", "127.0.0.1:7443", "--trust-page", "caddie.local:7480", "--no-mdns"],
            saying: "--trust-page takes an IPv4 address")
        // The third review's H3: the home's authority vouched for any name given. A website's name or a public
        // address is refused before any authority is made.
        try cli.fails(
            ["serve", "--https", "127.0.0.1:0", "--https-name", "accounts.google.com", "--no-mdns"],
            saying: "'accounts.google.com' is not a local name")
        try cli.fails(["serve", "--https", "8.8.8.8:7443", "--no-mdns"], saying: "not an address of a local network")
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("authority.der").path))
    }

    @Test("no sign-in secret ever reaches a plain-HTTP page: the trust page has a code of its own, the sign-in is HTTPS")
    func signInNeverPlain() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        let (https, trust) = (try SyncTests.freePort(), try SyncTests.freePort())
        let node = try NodeProcess(ana, http: true, trustPage: (https, trust))
        defer { node.stop() }
        let authority = ana.home.appendingPathComponent("trust.crt")
        _ = try ana.ok(["web", "authority", "--out", authority.path, "--json"])
        // The third review's H2: the QR code was http://NODE:TRUST/#https://NODE:HTTPS/signin?t=SECRET, and whoever
        // answered that plain request could read the fragment with a script and sign in first.
        let made = try ana.ok(["web", "link", "--json", "--host", "caddie.test"])
        let url = try made.field("url")
        let trustURL = try made.field("trustUrl")
        let secret = try #require(url.split(separator: "t=").last.map(String.init))
        #expect(url.hasPrefix("https://caddie.test:\(https)/signin?t="), "\(url)")
        #expect(trustURL == "http://caddie.test:\(trust)/", "the trust page's code carries nothing else: \(trustURL)")
        let text = try ana.ok(["web", "link", "--host", "caddie.test"]).stdout
        let plain = text.split(separator: "\n").filter { $0.hasPrefix("http://") }
        #expect(plain == ["http://caddie.test:\(trust)/"], "\(plain)")
        // The plain page names no secret and loads no script that could look for one.
        let page = try HTTPClient(port: trust, token: nil).get("/")
        #expect(page.status == 200 && !page.text.contains(secret) && !page.text.contains("<script"), "\(page.text)")
        #expect(page.text.contains("never for a website") && page.text.contains("sign-in code"))
        // The Devices screen's code: the sign-in QR code encodes the HTTPS link; the trust page's its own address.
        let signedIn = try Self.request(
            port: https, authority: authority.path, name: "caddie.test",
            path: String(url.dropFirst("https://caddie.test:\(https)".count)))
        let session = try #require(signedIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let fromApp = try Self.request(
            port: https, authority: authority.path, name: "caddie.test", method: "POST", path: "/v1/signin-links",
            headers: ["Cookie": session, "Origin": "https://caddie.test:\(https)"])
        #expect(fromApp.status == 201, "\(fromApp)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(fromApp.body.utf8)) as? [String: Any])
        let appURL = try #require(answer["url"] as? String)
        #expect(appURL.hasPrefix("https://caddie.test:\(https)/signin?t="), "\(appURL)")
        #expect(answer["trustUrl"] as? String == "http://caddie.test:\(trust)/", "\(answer)")
        #expect((answer["trustQr"] as? String)?.contains("<svg") == true, "the trust page's own QR code")
    }
}
