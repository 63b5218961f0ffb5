import ArgumentParser
import CaddieAPI
import CaddieCore
import CaddieCrypto
import CaddieNode
import CaddieTLS
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Logs to standard error, at the level given by CADDIE_LOG (default info).
func makeLogger(_ label: String) -> Logger {
    var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
    let level = ProcessInfo.processInfo.environment["CADDIE_LOG"].flatMap { Logger.Level(rawValue: $0) }
    logger.logLevel = level ?? .info
    return logger
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the node: accept peers, keep sessions with static peers, push every edit at once; with --http, "
            + "serve the HTTP API and live events.")
    @OptionGroup var options: HomeOptions
    @Option(help: "Address and port to listen on for peers.") var listen = "0.0.0.0:7400"
    @Option(name: .customLong("peer"), help: "A peer to keep in sync with, HOST:PORT (repeatable).") var peers: [String] = []
    @Flag(help: "Do not publish or browse mDNS (static peers only).") var noMdns = false
    @Option(help: "Most connections at once from one address (raise it for a hub behind one NAT address).")
    var maxPerAddress = NodeRuntime.defaultMaxIncomingPerAddress
    @Option(help: "Most incoming connections at once (raise it for a hub that serves a whole field; at most 4096).")
    var maxConnections = NodeRuntime.defaultMaxIncoming
    @Option(
        help: ArgumentHelp(
            "Serve the HTTP API on HOST:PORT (127.0.0.1:7480 is the usual; see Protocol/openapi.yaml).",
            valueName: "host:port"))
    var http: String?
    @Flag(help: "Allow --http on an address other than loopback (anyone who can reach it and holds the token can act as you).")
    var httpAnyAddress = false
    @Option(
        help: ArgumentHelp(
            "Serve the web app and the API over HTTPS on IPV4:PORT (0.0.0.0:7443 for phones on this network), with a "
                + "certificate from this home's own authority (docs/web.md, \"HTTPS on the course\").",
            valueName: "ipv4:port"))
    var https: String?
    @Option(
        name: .customLong("https-name"),
        help: ArgumentHelp(
            "A host name the node's certificate also names (repeatable), such as this machine's .local name.",
            valueName: "name"))
    var httpsNames: [String] = []
    @Option(
        name: .customLong("trust-page"),
        help: ArgumentHelp(
            "With --https: serve on IPV4:PORT, over plain HTTP, only the page a new phone trusts the node's authority "
                + "from (its fingerprint, a .crt and an iPhone profile) and redirects to HTTPS (0.0.0.0:7480).",
            valueName: "ipv4:port"))
    var trustPage: String?
    @Flag(help: "Write a new API token into the home, invalidating the old one.") var newToken = false
    @Option(
        help: ArgumentHelp(
            "A fixed mDNS node id, 16 hex digits, to match a static Avahi service file (`caddie mdns-service`).",
            valueName: "hex"))
    var nodeId: String?

    func run() async throws {
        try await guarded {
            let addresses = try checkedAddresses()
            let (address, httpAddress, httpsAddress) = (addresses.listen, addresses.http, addresses.https)
            let logger = makeLogger("caddie.serve")
            if let httpAddress, !Self.isLoopback(httpAddress.host) {
                logger.warning(
                    "the HTTP API listens on \(httpAddress), reachable from other machines; only the bearer token protects it")
            }
            let home = try options.open()
            if await home.nodeAnswers() { throw home.nodeInUse }
            // From here this process is the home's one writer (its database and its sealed keys): commands hand theirs
            // over the control socket. Taken before the keys are read, so that a command still writing them (a join)
            // is waited for, not overwritten by a new authority's sealing.
            try home.takeWrites()
            let keys = try home.unlock(passphrase: try Passphrase.obtain())
            let certificate = try httpsAddress.map {
                try Self.serverCertificate(home: home, keys: keys, host: $0.host, names: httpsNames, logger: logger)
            }
            let fixedID = try nodeId.map { text throws(NodeError) -> [UInt8] in
                guard let bytes = Hex.decode(text), bytes.count == 8 else {
                    throw NodeError.badInput(.nodeID, "must be 16 hex digits, as `caddie mdns-service` printed")
                }
                return bytes
            }
            // On the owner's devices: a space key that reached a removed member is renewed before serving.
            for (space, epoch) in try home.renewExposedKeys(keys: keys) {
                logger.info("renewed the space key", metadata: ["space": "\(space.short)", "epoch": "\(epoch)"])
            }
            let node = try home.runtime(
                keys: keys, logger: logger, maxIncomingPerAddress: maxPerAddress,
                maxIncoming: maxConnections, nodeID: fixedID)
            var discovery: LocalDiscovery?
            if !noMdns {
                guard address.port != 0 else {
                    throw NodeError.badInput(
                        .listen, "needs a fixed port for mDNS to advertise: give HOST:PORT with a port, or --no-mdns")
                }
                do {
                    discovery = try node.discovery(port: address.port, logger: logger)
                } catch {
                    logger.warning("mDNS unavailable: \(error); static peers only")
                }
            }
            defer { discovery?.stop() }
            var services: [any Service] = [
                ControlService(home: home, keys: keys, logger: logger),
                SyncService(
                    node: node, host: address.host, port: address.port, peers: addresses.peers.map { ($0.host, $0.port) },
                    discovery: discovery
                ) { port in
                    Console.print("listening on \(address.host):\(port)")
                },
            ]
            if httpAddress != nil || httpsAddress != nil {
                services += try webServices(
                    home: home, keys: keys, node: node, addresses: addresses, certificate: certificate, logger: logger)
            }
            let group = ServiceGroup(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                cancellationSignals: [], logger: logger)
            defer { HTTPEndpoint.remove(from: home, pid: getpid()) }
            try await group.run()
            logger.info("stopped")
        }
    }

    /// The addresses of `--listen`, `--peer`, `--http`, `--https` and `--trust-page`, each read and checked with the
    /// others, before the home is opened.
    struct Addresses {
        let listen: HostPort
        let peers: [HostPort]
        let http: HostPort?
        let https: HostPort?
        let trust: HostPort?
    }

    func checkedAddresses() throws -> Addresses {
        let address = try HostPort(parsing: listen, input: .listen)
        let peerList = try peers.map { try HostPort(parsing: $0, input: .peer) }
        let httpAddress = try http.map { try HostPort(parsing: $0, input: .http) }
        let httpsAddress = try https.map { try HostPort(parsing: $0, input: .https) }
        if let httpsAddress, httpsAddress.host != "0.0.0.0", !Self.isIPv4(httpsAddress.host) {
            throw NodeError.badInput(
                .https,
                "takes an IPv4 address and a port, such as 0.0.0.0:7443 or 192.168.1.20:7443, not "
                    + "'\(httpsAddress.host)' (a name goes in --https-name)")
        }
        let trustAddress = try trustPage.map { try HostPort(parsing: $0, input: .trustPage) }
        if let trustAddress {
            guard httpsAddress.map({ $0.port != 0 }) == true else {
                throw NodeError.badInput(
                    .trustPage,
                    "sends new phones on to the HTTPS server: give --https with a port, such as 0.0.0.0:7443")
            }
            guard trustAddress.host == "0.0.0.0" || Self.isIPv4(trustAddress.host) else {
                throw NodeError.badInput(
                    .trustPage,
                    "takes an IPv4 address and a port, such as 0.0.0.0:7480, not '\(trustAddress.host)'")
            }
        }
        if !httpsNames.isEmpty, httpsAddress == nil {
            throw NodeError.badInput(.httpsName, "names the HTTPS certificate: give --https as well")
        }
        if let httpAddress, !Self.isLoopback(httpAddress.host) {
            // With HTTPS, plain HTTP beyond this machine carries only the trust page: never the app or a session.
            guard httpsAddress == nil else {
                throw NodeError.badInput(
                    .http,
                    "stays on loopback (127.0.0.1:7480) with --https, for this machine's own browser and programs; "
                        + "phones get the trust page over plain HTTP with --trust-page 0.0.0.0:7480")
            }
            guard httpAnyAddress else {
                throw NodeError.badInput(
                    .http,
                    "\(httpAddress) is not a loopback address: the API acts as you, so "
                        + "binding it elsewhere needs --http-any-address as well")
            }
        }
        return Addresses(listen: address, peers: peerList, http: httpAddress, https: httpsAddress, trust: trustAddress)
    }

    /// The web app's and the API's servers (plain HTTP, HTTPS, the trust page) and the live events' hub, for a node
    /// that serves them.
    func webServices(
        home: Home, keys: UnlockedKeys, node: NodeRuntime, addresses: Addresses, certificate: ServerCertificate?,
        logger: Logger
    ) throws -> [any Service] {
        let (httpAddress, httpsAddress, trustAddress) = (addresses.http, addresses.https, addresses.trust)
        var services: [any Service] = []
        let token = try APIToken.load(home: home, rotate: newToken)
        let hub = EventHub(home: home, logger: logger)
        node.observePeers { hub.peer($0) }
        let api = NodeAPI(home: home, keys: keys, node: node, hub: hub, token: token)
        let tokenPath = APIToken.path(in: home)
        // `caddie web link` names the HTTPS server when there is one.
        let trustPort = trustAddress?.port
        let record: @Sendable (String, Int, Bool) -> Void = { host, port, https in
            do {
                try HTTPEndpoint(host: host, port: port, pid: getpid(), https: https, trustPort: https ? trustPort : nil)
                    .write(to: home)
            } catch {
                logger.warning("cannot record the web address for `caddie web link`: \(error)")
            }
        }
        if let httpAddress {
            services.append(
                try api.application(host: httpAddress.host, port: httpAddress.port, logger: logger) { port in
                    let host = httpAddress.host.contains(":") ? "[\(httpAddress.host)]" : httpAddress.host
                    if httpsAddress == nil { record(httpAddress.host, port, false) }
                    Console.print(
                        "api on http://\(host):\(port) (bearer token in \(tokenPath)); web app: `caddie web link`")
                })
        }
        if let httpsAddress, let certificate {
            services.append(
                try api.application(
                    host: httpsAddress.host, port: httpsAddress.port, https: certificate, logger: logger
                ) { port in
                    record(httpsAddress.host, port, true)
                    Console.print(
                        "web app on https://\(httpsAddress.host):\(port) for \((certificate.addresses + certificate.names).joined(separator: ", ")) "
                            + "(bearer token in \(tokenPath)); phones trust this home's authority once: `caddie web authority`"
                    )
                })
        }
        if let trustAddress, let httpsAddress, let certificate {
            services.append(
                TrustPage(home: home, httpsPort: httpsAddress.port).application(
                    host: trustAddress.host, port: trustAddress.port, names: certificate.names, logger: logger
                ) { port in
                    Console.print(
                        "trust page for new phones on http://\(trustAddress.host):\(port) (plain HTTP: no app, no API)")
                })
        }
        // Last, so that it stops first: it ends the open event streams the HTTP server would wait for.
        services.append(EventHubService(hub: hub))
        return services
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func isIPv4(_ host: String) -> Bool {
        var address = in_addr()
        return host.split(separator: ".").count == 4 && inet_pton(AF_INET, host, &address) == 1
    }

    /// The home's certificate authority (made and kept the first time) and a new server certificate from it for
    /// the addresses the node serves (every IPv4 address of this machine for 0.0.0.0) and the names given, with
    /// this machine's own name and `.local` name when it serves every address.
    static func serverCertificate(
        home: Home, keys: UnlockedKeys, host: String, names given: [String], logger: Logger
    ) throws -> ServerCertificate {
        do {
            // What the node was given is checked before any authority is made or replaced.
            try NodeAuthority.check(addresses: host == "0.0.0.0" ? [] : [host], names: given)
            let authority: NodeAuthority
            let stored = try home.storedAuthority(keys: keys).map {
                try NodeAuthority(certificateDER: $0.certificate, keyBytes: $0.key)
            }
            if let stored, stored.isCurrent() {
                authority = stored
            } else {
                authority = try NodeAuthority.make(name: try home.identity().name)
                try home.keepAuthority(certificate: authority.certificateDER, key: authority.keyBytes, keys: keys)
                if let stored {
                    // An authority near its end, or one made before the Name Constraints (it could vouch for any
                    // website): phones that trusted it must trust the new one, and should remove the old one.
                    let why = stored.isCurrent(now: .distantPast) ? "near its end" : "it could vouch for any website"
                    let told =
                        "replaced this home's certificate authority (\(why)): every phone must trust the new one once "
                        + "(`caddie web authority`) and remove the old one"
                    logger.notice(
                        "\(told)",
                        metadata: ["fingerprint": "\(authority.fingerprint)", "old": "\(stored.fingerprint)"])
                } else {
                    logger.notice(
                        "made this home's certificate authority: phones trust it once (`caddie web authority`)",
                        metadata: ["fingerprint": "\(authority.fingerprint)"])
                }
            }
            var addresses = [host]
            var names = given
            if host == "0.0.0.0" {
                // Only the addresses the authority may vouch for: a public address of this machine is left out.
                addresses = ["127.0.0.1"] + Web.Link.localAddresses().filter { LocalNames.permits(address: $0) }
                var buffer = [CChar](repeating: 0, count: 256)
                if gethostname(&buffer, buffer.count) == 0 {
                    // The bare machine name is no name the authority may vouch for; its .local name is.
                    let name = String(cString: buffer).lowercased()
                    if LocalNames.permits(name: name) {
                        names.append(name)
                    } else if !name.isEmpty, !name.contains("_"), !name.contains(".") {
                        names.append(name + ".local")
                    }
                }
                names.append("localhost")
            }
            var seen = Set<String>()
            names = names.map { $0.lowercased() }.filter { seen.insert($0).inserted }
            return try authority.issue(addresses: addresses, names: names)
        } catch let error as TLSError {
            switch error {
            case .notIPv4: throw NodeError.badInput(.https, error.description)
            case .notHostName, .notLocalName: throw NodeError.badInput(.httpsName, error.description)
            case .notLocalAddress: throw NodeError.badInput(.https, error.description)
            case .nothingToName: throw NodeError.badInput(.https, "needs an address for the certificate to name")
            case .damaged(let text): throw NodeError.malformed(what: "certificate authority", text)
            case .failed(let text): throw NodeError.malformed(what: "certificate", text)
            }
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync with one peer once, both ways, and exit.")
    @OptionGroup var options: Reporting<SpaceOptions>
    @Option(help: "The peer, HOST:PORT.") var peer: String

    func run() async throws {
        try await guarded {
            let address = try HostPort(parsing: peer, input: .peer)
            let (home, space) = try options.open()
            var logger = makeLogger("caddie.sync")
            if ProcessInfo.processInfo.environment["CADDIE_LOG"] == nil { logger.logLevel = .warning }
            // A running node syncs with its own keys (no passphrase); with none, this process does.
            let (sent, received, hash, lost) = try await home.runAsync(
                .sync(space: space, host: address.host, port: address.port), logger: logger, unlock: Passphrase.unlock(home)
            ).expect("the sync it made") { if case .synced(let s, let r, let h, let l) = $0 { (s, r, h, l) } else { nil } }
            if options.json {
                Console.json(
                    .object([
                        ("sent", .int(sent)), ("received", .int(received)),
                        ("stateHash", .string(hash.hex)),
                        ("revokedLostDevices", .array(lost.map { .string($0.hex) })),
                    ]))
            } else {
                Console.print("Synced with \(address): sent \(sent) ops, received \(received); state \(hash.short)")
                for device in lost {
                    Console.print(
                        "Revoked \(device.short), a device of yours from before the recovery: it is refused from now on")
                }
                if let note = home.spaces.nameNote(space) { Console.print(note) }
            }
        }
    }
}

struct Peers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "peers", abstract: "Peers this home has synced with.")
    @OptionGroup var options: Reporting<HomeOptions>

    func run() async throws {
        try await options.list({ try $0.peers() }, empty: "No peers yet.", item: Views.peer) { peer in
            "\(peer.userName) \(peer.device.short) at \(peer.address) (\(peer.foundBy)), space \(peer.space.short), "
                + "last seen \(Views.time(milliseconds: peer.lastSeen))"
                + (peer.lastSync.map { ", last sync \(Views.time(milliseconds: $0))" } ?? "")
                + ", sent \(peer.sent), received \(peer.received)"
        }
    }
}

struct MdnsService: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdns-service",
        abstract: "Print an Avahi static service file that advertises this home's node (for a hub run with --no-mdns).",
        discussion: """
            Write it to /etc/avahi/services/caddie.service and run `caddie serve --no-mdns --node-id ID` with the id \
            it names; Avahi then advertises the node without the node talking to D-Bus. The advert carries a fixed \
            node id and the space hints for that id, so the device is recognisable across restarts: use it for a \
            clubhouse hub, not for a phone. Print it again after joining a space.
            """)
    @OptionGroup var options: HomeOptions
    @Option(help: "The sync port `caddie serve --listen` uses.") var port = 7400
    @Option(help: "The node id to advertise (16 hex digits); a new random one by default.") var nodeId: String?

    func run() async throws {
        try await guarded {
            guard (1...65535).contains(port) else { throw NodeError.badInput(.port, "must be 1...65535") }
            let id =
                try nodeId.map { text throws(NodeError) -> [UInt8] in
                    guard let bytes = Hex.decode(text), bytes.count == 8 else {
                        throw NodeError.badInput(.nodeID, "must be 16 hex digits")
                    }
                    return bytes
                } ?? SecureRandom.bytes(8)
            let home = try options.open()
            let keys = try home.unlock(passphrase: try Passphrase.obtain())
            let records = try home.advertTXT(keys: keys, nodeID: id).map { "    <txt-record>\($0)</txt-record>" }
                .joined(separator: "\n")
            Console.print(
                """
                <?xml version="1.0" standalone='no'?>
                <!DOCTYPE service-group SYSTEM "avahi-service.dtd">
                <!-- Caddie node \(Hex.encode(id)): run `caddie serve --no-mdns --node-id \(Hex.encode(id)) --listen 0.0.0.0:\(port)` -->
                <service-group>
                  <name replace-wildcards="yes">caddie-\(Hex.encode(id))</name>
                  <service>
                    <type>_caddie._tcp</type>
                    <port>\(port)</port>
                \(records)
                  </service>
                </service-group>
                """)
        }
    }
}
