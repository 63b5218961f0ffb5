import Foundation
import Testing

/// The web app as served over real sockets, without a browser (Deploy/web-check.sh drives Debian's chromium): its
/// files and headers, the one-time link, the session cookie and the refusals. Every file of Sources/CaddieAPI/Web
/// must be served, so a file added there but not embedded fails here.
@Suite("the web app served by caddie serve --http", .serialized)
struct WebAppTests {
    @Test("every file of the app is served with its type and a strict CSP; / is the sign-in page without a session")
    func files() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let node = try NodeProcess(homes[0], http: true)
        defer { node.stop() }
        let client = HTTPClient(port: node.httpPort, token: nil)
        let folder = CLI.repository.appendingPathComponent("Sources/CaddieAPI/Web")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(names.count >= 10)
        var total = 0
        for name in names where name != "index.html" && name != "signin.html" {
            let reply = try client.get("/" + name)
            #expect(reply.status == 200, "/\(name)")
            #expect(reply.body == (try Data(contentsOf: folder.appendingPathComponent(name))), "/\(name) is the file")
            total += reply.body.count
        }
        let root = try client.get("/")
        #expect(root.status == 200)
        #expect(String(decoding: root.body, as: UTF8.self).contains("Sign in with a link"))
        #expect(root.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(root.headers["x-frame-options"] == "DENY")
        #expect(root.headers.keys.allSatisfy { !$0.hasPrefix("access-control") })
        #expect(total < 150 * 1024, "the app's files are \(total) bytes")
    }

    @Test("a link works once and gives an HttpOnly SameSite=Strict session; sessions are listed and revoked")
    func signIn() throws {
        let (homes, _, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let ana = homes[0]
        try ana.fails(["web", "link"], saying: "no node serves the web app")
        let node = try NodeProcess(ana, http: true)
        defer { node.stop() }
        let url = try ana.ok(["web", "link", "--json"]).field("url")
        #expect(url.hasPrefix("http://127.0.0.1:\(node.httpPort)/signin?t="))
        let path = String(url.dropFirst("http://127.0.0.1:\(node.httpPort)".count))
        let client = HTTPClient(port: node.httpPort, token: nil)
        let first = try client.get(path)
        #expect(first.status == 303)
        #expect(first.headers["location"] == "/#/game/current")
        let cookie = try #require(first.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(try client.get(path).status == 401)
        let value = try #require(cookie.split(separator: ";").first.map(String.init))
        let whoami = try client.request("GET", "/v1/whoami", extra: ["Cookie": value])
        #expect(whoami.status == 200)
        #expect(try whoami.object()["name"] as? String == "Ana")
        let sessions = try #require(try ana.ok(["web", "sessions", "--json"]).json() as? [[String: Any]])
        let id = try #require(sessions.first?["id"] as? String)
        try ana.ok(["web", "revoke", id])
        #expect(try client.request("GET", "/v1/whoami", extra: ["Cookie": value]).status == 401)
        try ana.fails(["web", "revoke", id], saying: "no browser session")
        #expect(try client.request("GET", "/", extra: ["Host": "rebind.example:\(node.httpPort)"]).status == 421)
    }
}
