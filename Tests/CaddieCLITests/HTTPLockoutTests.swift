import Foundation
import Testing

/// The second security review's HTTP lock-out: half-sent requests, reopened as the idle timeout closes them, kept
/// the API and the web app out of reach. Several devices are played from one machine by connecting from different
/// loopback addresses (127.0.0.2, 127.0.0.3, ...).
@Suite("HTTP lock-out: a cap per address, and half-sent requests give their places first", .serialized)
struct HTTPLockoutTests {
    /// Opens a connection from `source` and sends a request head that never ends.
    static func halfSent(port: Int, from source: String) throws -> Int32 {
        let fd = try HTTPClient.connect(port: port, timeout: 2, from: source)
        try HTTPClient.send(fd, Array("GET /v1/whoami HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ".utf8))
        return fd
    }

    /// Whether the node closed the connection: within 200 ms it reads as ended, or as reset (the node closed it with
    /// the unread request in its buffer); an open one has nothing to read.
    static func closed(_ fd: Int32) -> Bool {
        var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, 200) == 1 else { return false }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) <= 0
    }

    static func node() throws -> (CLI, NodeProcess, HTTPClient) {
        let cli = try CLI(name: "lockout")
        try cli.ok(["login", "--name", "Ana"])
        let node = try NodeProcess(cli, http: true)
        return (cli, node, HTTPClient(port: node.httpPort, token: try APITests.token(cli)))
    }

    @Test("one address holds at most 32 connections: its 40 half-sent requests leave the owner's answered")
    func capPerAddress() throws {
        let (cli, node, api) = try Self.node()
        defer {
            node.stop()
            cli.remove()
        }
        let flood = try (0..<40).map { _ in try Self.halfSent(port: node.httpPort, from: "127.0.0.2") }
        defer { flood.forEach { close($0) } }
        let refused = flood.filter(Self.closed).count
        #expect(refused == 8, "the node closed \(refused) of 40 connections from one address (it keeps 32)")
        #expect(try api.get("/v1/whoami").status == 200)
    }

    @Test(
        "phones behind one address: with its 32 places held by answered keep-alive connections, its next request is answered and the idlest gives way"
    )
    func oneAddressSharesItsPlaces() throws {
        let (cli, node, _) = try Self.node()
        defer {
            node.stop()
            cli.remove()
        }
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<32 { held.append(try Self.keptAlive(port: node.httpPort, from: "127.0.0.3")) }
        #expect(Self.closedAll(held).isEmpty, "the address holds its 32 connections")
        // A 33rd request from the same address (another phone behind the same router): answered, not closed unread.
        let fd = try HTTPClient.connect(port: node.httpPort, timeout: 2, from: "127.0.0.3")
        defer { close(fd) }
        try HTTPClient.send(fd, Array("GET /v1/whoami HTTP/1.1\r\nHost: 127.0.0.1:\(node.httpPort)\r\n\r\n".utf8))
        var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&watched, 1, 2000)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        let answer = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        #expect(
            answer.hasPrefix("HTTP/1.1 401"),
            "the newcomer's request is answered (401: it carries no token): \(answer.prefix(40))")
        let gone = Self.closedAll(held)
        #expect(gone == [held[0]], "the connection of that address idle longest gave its place: \(gone.count) closed")
    }

    @Test("with every place taken by half-sent requests from eight addresses, the owner's request takes the oldest's place")
    func halfSentGiveWay() throws {
        let (cli, node, api) = try Self.node()
        defer {
            node.stop()
            cli.remove()
        }
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for host in 2...9 {
            for _ in 0..<32 { flood.append(try Self.halfSent(port: node.httpPort, from: "127.0.0.\(host)")) }
        }
        #expect(flood.count == 256)
        #expect(try api.get("/v1/whoami").status == 200)
        #expect(try api.get("/v1/spaces").status == 200)
        // The oldest give way first (the place of one that was not yet counted when the owner came may have been
        // free): look among the first 32.
        let gone = flood.prefix(32).indices.filter { Self.closed(flood[$0]) }
        #expect((1...2).contains(gone.count), "the oldest half-sent requests gave their places to the owner's: \(gone)")
    }

    /// Opens a connection from `source`, sends one whole request and leaves the connection open (keep-alive) once
    /// the answer has come.
    static func keptAlive(port: Int, from source: String, path: String = "/v1/whoami") throws -> Int32 {
        let fd = try HTTPClient.connect(port: port, timeout: 2, from: source)
        try HTTPClient.send(fd, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
        var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&watched, 1, 2000)
        var buffer = [UInt8](repeating: 0, count: 65536)
        _ = read(fd, &buffer, buffer.count)
        return fd
    }

    /// Which of `fds` the node has closed, all looked at together within 200 ms (one poll, not one a connection:
    /// 256 connections looked at one by one would outlast an idle timeout). What waits to be read is read first.
    static func closedAll(_ fds: [Int32]) -> [Int32] {
        var watched = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&watched, nfds_t(watched.count), 200)
        var closed: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        for entry in watched where entry.revents != 0 {
            _ = fcntl(entry.fd, F_SETFL, fcntl(entry.fd, F_GETFL) | O_NONBLOCK)
            while true {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 { continue }
                if count == 0 || errno != EAGAIN { closed.append(entry.fd) }
                break
            }
        }
        return closed
    }

    @Test(
        "the third review's M2: 256 kept-alive connections to the trust page leave the app answered; idle answered ones give way; the trust page times out"
    )
    func trustPageHasItsOwnPlaces() throws {
        let cli = try CLI(name: "lockout-trust")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        let (https, trust) = (try SyncTests.freePort(), try SyncTests.freePort())
        let node = try NodeProcess(
            cli, http: true, trustPage: (https, trust), environment: ["CADDIE_HTTP_IDLE_SECONDS": "8"])
        defer { node.stop() }
        let api = HTTPClient(port: node.httpPort, token: try APITests.token(cli))
        let authority = cli.home.appendingPathComponent("trust.crt")
        _ = try cli.ok(["web", "authority", "--out", authority.path, "--json"])
        // The replay: every place of the one shared table taken by answered keep-alive requests to the trust page.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for host in 2...9 {
            for _ in 0..<32 { held.append(try Self.keptAlive(port: trust, from: "127.0.0.\(host)", path: "/")) }
        }
        #expect(Self.closedAll(held).isEmpty, "the trust page holds its 256 connections")
        let page = try HTTPSTests.request(port: https, authority: authority.path, name: "caddie.test", path: "/")
        #expect(page.error == nil && page.status == 200, "the app over HTTPS answers beside them: \(page)")
        #expect(try api.get("/v1/whoami").status == 200)
        // On one table, answered connections idle between requests give their places to a newcomer.
        var app: [Int32] = []
        defer { app.forEach { close($0) } }
        for host in 2...9 {
            for _ in 0..<32 { app.append(try Self.keptAlive(port: node.httpPort, from: "127.0.0.\(host)")) }
        }
        #expect(try api.get("/v1/whoami").status == 200, "the owner's request takes an idle connection's place")
        let gone = Self.closedAll(Array(app.prefix(32))).count
        #expect((1...2).contains(gone), "the connection idle longest gave its place: \(gone)")
        // The trust page closes connections idle past the timeout (8 s here).
        Thread.sleep(forTimeInterval: 9.5)
        let timedOut = Self.closedAll(held).count
        #expect(timedOut == held.count, "the trust page closed \(timedOut) of \(held.count) idle connections")
    }

    @Test(
        "over HTTPS (HTTP/2 or HTTP/1.1) a connection takes its place when accepted: 40 that never begin their TLS handshake from one address leave 32 open, and the app answers"
    )
    func placeTakenBeforeTheHandshake() throws {
        let cli = try CLI(name: "lockout-tls")
        defer { cli.remove() }
        try cli.ok(["login", "--name", "Ana"])
        let node = try NodeProcess(cli, http: true, https: true)
        defer { node.stop() }
        let authority = cli.home.appendingPathComponent("trust.crt")
        _ = try cli.ok(["web", "authority", "--out", authority.path, "--json"])
        // Connections that say nothing at all: no ClientHello, so no ALPN and no HTTP yet.
        let silent = try (0..<40).map { _ in try HTTPClient.connect(port: node.httpsPort, timeout: 2, from: "127.0.0.2") }
        defer { silent.forEach { close($0) } }
        Thread.sleep(forTimeInterval: 0.5)  // the node accepts them all (the kernel finished each connect before)
        let gone = Self.closedAll(silent).count
        #expect(gone == 8, "the node closed \(gone) of 40 silent connections from one address (it keeps 32)")
        let page = try HTTPSTests.request(port: node.httpsPort, authority: authority.path, name: "caddie.test", path: "/")
        #expect(page.error == nil && page.status == 200, "the app answers over HTTPS beside them: \(page)")
    }

    /// Sends `head` on a new connection from `source` and reads the whole answer (the node closes after it).
    static func answer(port: Int, from source: String, head: String) throws -> String {
        let fd = try HTTPClient.connect(port: port, timeout: 2, from: source)
        defer { close(fd) }
        try HTTPClient.send(fd, Array(head.utf8))
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&watched, 1, 2000) == 1 {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer.prefix(count), as: UTF8.self)
        }
        return text
    }

    @Test(
        "with all 32 places of an address mid-request (live streams), its next phone is told there is no room (503, a page for a browser), and the streams keep theirs"
    )
    func noRoomIsSaid() throws {
        let (cli, node, _) = try Self.node()
        defer {
            node.stop()
            cli.remove()
        }
        let token = try APITests.token(cli)
        let streams = try (0..<32).map { _ in
            let fd = try HTTPClient.connect(port: node.httpPort, timeout: 2, from: "127.0.0.5")
            try HTTPClient.send(
                fd,
                Array(
                    "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(node.httpPort)\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8))
            return fd
        }
        defer { streams.forEach { close($0) } }
        Thread.sleep(forTimeInterval: 0.5)  // every stream's head has come: all 32 are mid-request
        #expect(Self.closedAll(streams).isEmpty, "the address holds its 32 live streams")
        let api = try Self.answer(
            port: node.httpPort, from: "127.0.0.5",
            head: "GET /v1/whoami HTTP/1.1\r\nHost: 127.0.0.1:\(node.httpPort)\r\nAccept: application/json\r\n\r\n")
        #expect(api.hasPrefix("HTTP/1.1 503"), "\(api.prefix(60))")
        #expect(api.contains("\"no_room\"") && api.contains("no room for another connection from this address"), "\(api)")
        #expect(api.lowercased().contains("retry-after: 30"))
        let page = try Self.answer(
            port: node.httpPort, from: "127.0.0.5",
            head: "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(node.httpPort)\r\nAccept: text/html,*/*\r\n\r\n")
        #expect(page.hasPrefix("HTTP/1.1 503") && page.contains("<h1>No room on the node just now</h1>"), "\(page.prefix(300))")
        #expect(Self.closedAll(streams).isEmpty, "no live stream lost its place to a newcomer")
        // Another address is not affected.
        let other = try Self.answer(
            port: node.httpPort, from: "127.0.0.6", head: "GET /v1/whoami HTTP/1.1\r\nHost: 127.0.0.1:\(node.httpPort)\r\n\r\n")
        #expect(other.hasPrefix("HTTP/1.1 401"), "\(other.prefix(60))")
    }
}
