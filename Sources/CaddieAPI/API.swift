import CaddieCore
import CaddieCrypto
import CaddieNode
import CaddieServices
import CaddieTLS
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// The HTTP API of a running node (Protocol/openapi.yaml): the merged state read and written by the programs
/// a golfer holds. It acts as this home's user and device; every request needs the home's bearer token.
public struct NodeAPI: Sendable {
    let home: Home
    let keys: UnlockedKeys
    let node: NodeRuntime
    let hub: EventHub
    let token: APIToken
    /// Seconds between keep-alive comments on an event stream.
    let keepAliveSeconds: Double

    public init(
        home: Home, keys: UnlockedKeys, node: NodeRuntime, hub: EventHub, token: APIToken,
        keepAliveSeconds: Double = 15
    ) {
        self.home = home
        self.keys = keys
        self.node = node
        self.hub = hub
        self.token = token
        self.keepAliveSeconds = keepAliveSeconds
    }

    /// How long a connection with no request in progress stays open: 60 s, or `CADDIE_HTTP_IDLE_SECONDS`.
    /// (A live-events stream is a request in progress: its keep-alives hold it open.)
    static var idleTimeout: TimeAmount {
        let seconds = ProcessInfo.processInfo.environment["CADDIE_HTTP_IDLE_SECONDS"].flatMap(Int64.init) ?? 60
        return .seconds(max(1, min(seconds, 3600)))
    }

    /// Largest request body accepted.
    static let maxBody = 64 * 1024

    /// The HTTP server, listening on `host:port`; `running` gets the port bound. With `https`, it speaks TLS with
    /// the node's certificate, answers for the names in it, and sets `Secure` session cookies.
    public func application(
        host: String, port: Int, https: ServerCertificate? = nil, logger: Logger,
        running: @escaping @Sendable (Int) async -> Void
    ) throws -> some Service {
        let pool = ConnectionLimit.Pool()
        let perRequest = HTTP1Channel.Configuration(
            additionalChannelHandlers: [HeadErrorHandler(), ConnectionLimit.Activity(pool: pool)], idleTimeout: Self.idleTimeout)
        let server: HTTPServerBuilder
        if let https {
            // HTTPS speaks HTTP/2 where the browser offers it (ALPN), so a phone holds one connection for its page, its
            // reads, its sends and its live events; HTTP/1.1 otherwise. Each connection takes its place when it is
            // accepted, before its handshake (`PlacedChildChannel`); over HTTP/2 each request is a stream of it.
            let tls = try https.serverConfiguration()
            let configuration = HTTP2UpgradeChannel.Configuration(
                idleTimeout: .seconds(Self.idleTimeout.nanoseconds / 1_000_000_000), streamConfiguration: perRequest)
            server = HTTPServerBuilder { responder in
                PlacedChildChannel(
                    inner: try HTTP2UpgradeChannel(tlsConfiguration: tls, configuration: configuration, responder: responder),
                    pool: pool)
            }
        } else {
            server = HTTPServerBuilder { responder in
                PlacedChildChannel(inner: HTTP1Channel(responder: responder, configuration: perRequest), pool: pool)
            }
        }
        return HTTPServer(
            responder: router(boundHost: host, names: https?.names ?? [], secure: https != nil).buildResponder(),
            server: server, address: .hostname(host, port: port), logger: logger,
            running: { channel in await running(channel.localAddress?.port ?? port) })
    }

    /// Every route, behind the error and token checks. `names`: host names the node answers for besides its
    /// address (those of its certificate); `secure`: served over HTTPS.
    public func router(boundHost: String = "127.0.0.1", names: [String] = [], secure: Bool = false) -> Router<BasicRequestContext>
    {
        router(boundHost: boundHost, names: names, secure: secure, resources: resources())
    }

    /// The router with only `resources` under `/v1/spaces/{space}` (every other route as always): `router()` mounts
    /// them all, a test one alone.
    func router(boundHost: String, names: [String], secure: Bool, resources: [Resource]) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        let routes = RouteTable()
        let web = WebAccess(home: home)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ErrorMiddleware(routes: routes))
        router.add(middleware: WebGuard(hosts: HostRule(boundHost: boundHost, names: names)))
        WebApp(web: web, secure: secure).add(to: router, table: routes)
        addPublicBoards(to: router, table: routes)
        // The home's certificate authority, for a phone to trust once: public, like any certificate.
        router.on("/authority.crt", method: .get) { _, _ in
            guard let der = home.authorityCertificate() else {
                throw APIError.notFound("this node has no certificate authority yet: run it with --https")
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/x-x509-ca-cert", .cacheControl: "no-cache",
                    .contentDisposition: "attachment; filename=\"caddie-authority.crt\"",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: der)))
        }
        routes.add("/authority.crt", .get)
        let v1 = RecordingGroup(
            inner: router.group("v1").add(middleware: AccessMiddleware(token: token, web: web, secure: secure)),
            prefix: "/v1", table: routes)
        v1.on("whoami", method: .get) { _, _ in Response.json(Views.whoami(try await read { try home.identity() })) }
        // The list a phone writes its user's recovery words from (the one `caddie login --recover` reads).
        v1.on("formats", method: .get) { _, _ in Response.json(Views.formats()) }
        v1.on("recovery-words", method: .get) { _, _ in Response.json(.array(RecoveryPhrase.words.map { .string($0) })) }
        v1.on("spaces", method: .get) { _, _ in Response.json(.array(try await read { try home.spaces.list() }.map(Views.space)))
        }
        v1.on("peers", method: .get) { _, _ in Response.json(.array(try await read { try home.peers() }.map(Views.peer))) }
        v1.on("sync", method: .get) { _, _ in try await syncStatus() }
        v1.on("events", method: .get) { request, _ in events(watch: try await EventWatch(request, web: web)) }
        v1.on("signin-links", method: .post) { request, _ in try await makeSignInLink(request, secure: secure) }

        // Under a space, by resource: each is a route collection of its own (and the table that answers 405 learns
        // its routes as it is mounted).
        let space = v1.group("spaces/:space")
        for resource in resources { space.mount(resource) }
        return router
    }

    /// The resources under `/v1/spaces/{space}`, each with its own routes (API+Routes.swift and the files of the
    /// invites, device requests, drafts and competitions).
    func resources() -> [Resource] {
        [
            playerRoutes(), courseRoutes(), gameRoutes(), entryRoutes(), guidanceRoutes(), inviteRoutes(),
            deviceRequestRoutes(), draftRoutes(), competitionRoutes(),
        ]
    }

    // MARK: Helpers

    /// Runs store work off the server's threads.
    func read<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await offload(body)
    }

    /// Runs a write off the server's threads, as one unit of work (``Home/unitOfWork(_:)``: its checks and its
    /// append commit together, as a command's do). Its commit reaches the sync sessions and the event hub through the
    /// store's observers (``Home/observe(_:)``).
    func write<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let home = home
        return try await read { try home.unitOfWork(body) }
    }

    func spaceID(_ context: BasicRequestContext) async throws -> SpaceID {
        let text = try Self.parameter(context, "space")
        return try await read { try home.spaces.resolveSpace(text) }
    }

    /// GET `path` below a space: what `items` reads from the space, each item as its view, in a JSON array.
    func listRoute<Item: Sendable>(
        _ routes: Resource, _ path: String, _ items: @escaping @Sendable (SpaceID) throws -> [Item],
        as view: @escaping @Sendable (Item) -> JSON
    ) {
        routes.on(path, method: .get) { _, context in
            let id = try await spaceID(context)
            return Response.json(.array(try await read { try items(id) }.map(view)))
        }
    }

    /// The space and one more path parameter as given (`game`, `player`).
    func spaceParameters(_ context: BasicRequestContext, _ name: String) async throws -> (SpaceID, String) {
        (try await spaceID(context), try Self.parameter(context, name))
    }

    func gameParameters(_ context: BasicRequestContext) async throws -> (SpaceID, String) {
        try await spaceParameters(context, "game")
    }

    /// A path parameter, percent-decoded (a name may hold spaces: `/spaces/Saturday%20foursome`).
    static func parameter(_ context: BasicRequestContext, _ name: String) throws -> String {
        let raw = try context.parameters.require(name)
        guard let text = raw.removingPercentEncoding else {
            throw APIError.badRequest("the \(name) in the path is not valid percent-encoding")
        }
        return text
    }

    func intQuery(_ request: Request, _ name: String, default value: Int?, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else {
            guard let value else { throw APIError.badRequest("give ?\(name)=N (\(range.lowerBound)...\(range.upperBound))") }
            return value
        }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.badRequest("\(name) must be a whole number \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return number
    }

    func doubleQuery(_ request: Request, _ name: String) throws -> Double? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let number = PlainDecimal.parse(text) else { throw APIError.badRequest("\(name): " + PlainDecimal.problem(text)) }
        return number
    }

    /// Decodes a JSON body, saying which field is wrong when it does not fit.
    func decode<T: Decodable>(_ request: Request, as type: T.Type) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxBody)
        } catch {
            throw APIError(status: .contentTooLarge, code: "too_large", message: "the body is over \(Self.maxBody) bytes")
        }
        guard buffer.readableBytes > 0 else {
            throw APIError.badRequest("this request needs a JSON body: see Protocol/openapi.yaml")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, context) {
            throw APIError.badRequest("the field '\(Self.path(context.codingPath + [key]))' is missing")
        } catch let DecodingError.typeMismatch(expected, context) {
            throw APIError.badRequest("the field '\(Self.path(context.codingPath))' should be \(Self.name(expected))")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw APIError.badRequest("the field '\(Self.path(context.codingPath))' should be \(Self.name(expected)), not null")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw APIError.badRequest("the field '\(Self.path(context.codingPath))' is not valid")
        } catch {
            throw APIError.badRequest("the body is not a JSON object of the documented shape (Protocol/openapi.yaml)")
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type, is [Any].Type: "a list"
        default: "an object"
        }
    }

    // MARK: Sync and events

    func syncStatus() async throws -> Response {
        let sessions = node.sessions
        let home = home
        let spaces = try await read { try home.spaces.list() }
        let hashes: [(SpaceSummary, String, String)] = try await read {
            try spaces.map { space in (space, try home.stateHash(space.id).hex, try home.vector(space.id).description) }
        }
        return Response.json(
            .object([
                (
                    "sessions",
                    .array(
                        sessions.map {
                            .object([
                                ("space", .string($0.space.hex)), ("device", .string($0.device.hex)),
                                ("user", .string($0.user.hex)),
                                ("address", .string($0.address)), ("foundBy", .string($0.foundBy)),
                                ("since", .string(Views.time(milliseconds: UInt64($0.since.timeIntervalSince1970 * 1000)))),
                                ("inStep", $0.inStep.map { .bool($0) } ?? .null),
                            ])
                        })
                ),
                (
                    "spaces",
                    .array(
                        hashes.map {
                            .object([
                                ("space", .string($0.0.id.hex)), ("name", .string($0.0.name)), ("ops", .int($0.0.ops)),
                                ("stateHash", .string($0.1)), ("vector", .string($0.2)),
                            ])
                        })
                ),
                ("wireBytesSent", .int(node.wireBytesSent)),
                ("eventSubscribers", .int(hub.subscriberCount)),
            ]))
    }

    /// What a browser's event stream is held to: it ends when the session no longer opens the app (checked at each
    /// keep-alive), and a partner's carries only its own space's events. Nil for a program with the bearer token.
    struct EventWatch: Sendable {
        let stillOpens: @Sendable () -> Bool
        let space: String?

        init?(_ request: Request, web: WebAccess) async throws {
            guard request.headers[.authorization] == nil, let cookie = WebCookie.value(in: request) else { return nil }
            let session = try await offload { try web.session(cookie: cookie) }
            stillOpens = { web.stillOpens(cookie: cookie) }
            space = session?.isOwner == false ? (session?.space ?? "") : nil
        }

        /// Whether an event may go to this stream: another space's does not reach a partner's.
        func carries(_ event: LiveEvent) -> Bool {
            guard let space, case .object(let fields) = event.data,
                let named = fields.first(where: { $0.0 == "space" }), case .string(let eventSpace) = named.1
            else { return true }
            return eventSpace == space
        }
    }

    /// A server-sent events stream of live changes, with a keep-alive comment when nothing happens.
    func events(watch: EventWatch? = nil) -> Response {
        let hub = hub
        return eventStream(watch: watch) { hub.subscribe() }
    }

    /// A server-sent events stream of what `subscribe` gives (the hub's events, or one public board's), with a
    /// keep-alive comment when nothing happens; it ends with the subscription, or when `watch`'s session ends.
    func eventStream(
        watch: EventWatch? = nil, _ subscribe: @escaping @Sendable () -> (Int, AsyncStream<LiveEvent>)
    ) -> Response {
        let (hub, keepAlive) = (hub, keepAliveSeconds)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                let (id, stream) = subscribe()
                defer { hub.unsubscribe(id) }
                // A browser that lost the stream tries again a second after each failure (its default is
                // about three): a phone back in reach sends what it kept within a second or two.
                try await writer.write(ByteBuffer(string: ": caddie live events\nretry: 1000\n\n"))
                let (merged, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1024))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in stream where watch?.carries(event) ?? true {
                            // A client so slow that an event was dropped would miss a change: its stream ends, and the
                            // client, reconnecting, reads afresh.
                            if case .dropped = continuation.yield(event.sse) { break }
                        }
                        continuation.finish()
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: .milliseconds(Int(keepAlive * 1000)))
                            // A session ended (signed out, revoked, its person removed) ends its stream too.
                            if let watch, !((try? await offload { watch.stillOpens() }) ?? false) {
                                continuation.finish()
                                return
                            }
                            continuation.yield(": keep-alive\n\n")
                        }
                    }
                    for await text in merged { try await writer.write(ByteBuffer(string: text)) }
                    group.cancelAll()
                }
                try await writer.finish(nil)
            })
    }
}
