import ArgumentParser
import CaddieAPI
import CaddieNode
import CaddieTLS
import Foundation

struct Web: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Sign a phone's browser in to this node's web app, and list or end browser sessions.",
        discussion: """
            The node must run with `caddie serve --http HOST:PORT`. `caddie web link` prints a link that works \
            once, for 10 minutes, and a QR code of it to scan with the phone.
            """,
        subcommands: [Link.self, Sessions.self, Revoke.self, Authority.self])

    struct Authority: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authority",
            abstract: "This home's certificate authority, for a phone or a browser to trust once (HTTPS).",
            discussion: """
                `caddie serve --https` makes the authority the first time and issues the node's certificate from it. \
                Trust it on each phone once (docs/web.md, "HTTPS on the course"): compare the fingerprint shown \
                there with the one printed here.
                """)
        @OptionGroup var options: HomeOptions
        @Option(help: "Write the certificate (PEM) to this file, such as caddie-authority.crt.") var out: String?
        @Flag(help: "Print JSON ({\"fingerprint\": ..., \"pem\": ...}).") var json = false

        func run() async throws {
            try await options.read { home in
                guard let der = home.authorityCertificate() else {
                    throw NodeError.notFound(
                        "this home has no certificate authority yet: `caddie serve --https 0.0.0.0:7443` makes it")
                }
                let pem = NodeAuthority.pem(der)
                let fingerprint = NodeAuthority.fingerprint(der)
                if let out { try Console.write(Data(pem.utf8), to: out) }
                let until = NodeAuthority.validUntil(der).map {
                    Views.time(milliseconds: UInt64($0.timeIntervalSince1970 * 1000))
                }
                if json {
                    Console.json(
                        .object([
                            ("fingerprint", .string(fingerprint)), ("pem", .string(pem)), ("validUntil", .optional(until)),
                        ]))
                } else {
                    Console.print("SHA-256 fingerprint: \(fingerprint)")
                    if let until { Console.print("Valid until \(until); it vouches only for local addresses and names.") }
                    Console.print(out.map { "written to \($0)" } ?? pem)
                }
            }
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "A one-time sign-in link (and its QR code) for the web app.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The address the phone reaches the node at, when the node listens on every address (0.0.0.0).")
        var host: String?
        @Flag(
            help: ArgumentHelp(
                "Sign in a partner's phone, not your own browser: it may read, become a device of its own user and send "
                    + "what it signs, and nothing else; without it the link signs in a browser as you, the node's owner."))
        var partner = false
        @Option(help: "The space a partner's phone is signed in for (id, id prefix or name); needed when the home holds several.")
        var space: String?
        @Flag(help: "Print JSON ({\"url\": ...}) and no QR code.") var json = false

        func run() async throws {
            try await options.read { home in
                let me = try home.identity()
                guard let endpoint = try await HTTPEndpoint.read(home) else {
                    throw NodeError.conflict(
                        "no node serves the web app from \(home.directory.path): start one with "
                            + "`caddie serve --http 127.0.0.1:7480` (add --http-any-address and an address "
                            + "of this machine's network for a phone), then run this again")
                }
                let address = try Self.address(endpoint: endpoint, given: host)
                let secret =
                    partner
                    ? try WebAccess(home: home).newLink(.partner, space: try home.spaces.resolveSpace(space))
                    : try WebAccess(home: home).newLink(.owner)
                let url = "\(endpoint.scheme)://\(address):\(endpoint.port)/signin?t=\(secret)"
                // With a trust page, a new phone opens it first by a code of its own that carries no secret: a
                // plain-HTTP page, or whoever answers in its place, never sees the sign-in link.
                let trust = endpoint.trustPort.map { "http://\(address):\($0)/" }
                if json {
                    Console.json(
                        .object([
                            ("url", .string(url)), ("trustUrl", .optional(trust)),
                            ("expiresInSeconds", .int(Int(WebAccess.linkLifetime))),
                            ("kind", .string(partner ? "partner" : "owner")),
                        ]))
                    return
                }
                Console.print(
                    partner
                        ? "A partner's phone: it reads, becomes a device of its own user and sends what it signs."
                        : "This signs a browser in as you, \(me.name): give it only to your own. For a partner's phone, "
                            + "use --partner.")
                if let trust {
                    Console.print("1. A phone new to this node trusts it first: scan this code (plain HTTP, no sign-in in it).")
                    if let code = QRCode.terminal(trust) { Console.print(code) }
                    Console.print(trust)
                    Console.print("2. Then sign in: scan this code once the phone trusts the node (HTTPS only).")
                }
                if let code = QRCode.terminal(url) { Console.print(code) }
                Console.print(url)
                Console.print("Open it on the phone (or scan the code) within 10 minutes; it works once.")
            }
        }

        static func address(endpoint: HTTPEndpoint, given: String?) throws(NodeError) -> String {
            let bracket = { (host: String) in host.contains(":") ? "[\(host)]" : host }
            if let given {
                guard !given.isEmpty, !given.contains("/"), !given.contains(" ") else {
                    throw NodeError.badInput(.host, "must be an address or name, such as 192.168.1.20, not '\(given)'")
                }
                return bracket(given)
            }
            if endpoint.host == "0.0.0.0" || endpoint.host == "::" {
                guard let lan = localAddress() else { return "127.0.0.1" }
                return lan
            }
            return bracket(endpoint.host)
        }

        /// The first IPv4 address of this machine that is not loopback, for a node listening on every address.
        static func localAddress() -> String? { localAddresses().first }

        /// Every IPv4 address of this machine that is not loopback.
        static func localAddresses() -> [String] {
            var found: [String] = []
            var list: UnsafeMutablePointer<ifaddrs>?
            guard getifaddrs(&list) == 0, let first = list else { return [] }
            defer { freeifaddrs(list) }
            var cursor: UnsafeMutablePointer<ifaddrs>? = first
            while let entry = cursor {
                defer { cursor = entry.pointee.ifa_next }
                guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                guard inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil else { continue }
                let value = String(cString: text)
                if !value.hasPrefix("127."), !found.contains(value) { found.append(value) }
            }
            return found
        }
    }

    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sessions", abstract: "The browsers signed in to this node's web app.")
        @OptionGroup var options: Reporting<HomeOptions>

        func run() async throws {
            let day = { (seconds: Double) in Views.time(milliseconds: UInt64(seconds * 1000)) }
            try await options.list(
                { try WebAccess(home: $0).sessions() }, empty: "No browser is signed in. Sign one in with `caddie web link`.",
                item: {
                    .object([
                        ("id", .string($0.id)), ("created", .string(day($0.created))),
                        ("lastSeen", .string(day($0.lastSeen))), ("browser", .string($0.agent)), ("who", .string($0.who)),
                        ("user", .optional($0.user)), ("device", .optional($0.device)),
                    ])
                }
            ) { session in
                "\(session.id)  \(session.who), signed in \(day(session.created)), last used \(day(session.lastSeen))  "
                    + session.agent
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "End a browser session: that browser is signed out at once.")
        @OptionGroup var options: Reporting<HomeOptions>
        @Argument(help: "The session id, as `caddie web sessions` lists it.") var id: String

        func run() async throws {
            try await options.show {
                try WebAccess(home: $0).revoke(id)
            } json: { session in
                .object([("revoked", .string(session.id))])
            } text: { session in
                "Ended browser session \(session.id) (\(session.agent))."
            }
        }
    }
}
