import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes

/// Requests handed straight to the node's router: no socket, no server, no process. What a route decides (status,
/// headers, body) comes back as one ``Reply``. `APITests` and Deploy/api-check.sh drive the same routes over real
/// HTTP; this is for checking each route's decisions in milliseconds.
struct RouterClient: Sendable {
    let responder: RouterResponder<BasicRequestContext>
    let logger: Logger

    init(router: Router<BasicRequestContext>, logger: Logger = Logger(label: "caddie-router-client")) {
        responder = router.buildResponder()
        self.logger = logger
    }

    /// A route's whole answer.
    struct Reply {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    /// Collects a response body as the router writes it.
    private final class Collected: ResponseBodyWriter, @unchecked Sendable {
        var buffer = ByteBuffer()
        func write(_ part: ByteBuffer) async throws { buffer.writeImmutableBuffer(part) }
        func write(contentsOf parts: some Sequence<ByteBuffer>) async throws {
            for part in parts { buffer.writeImmutableBuffer(part) }
        }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    /// Sends one request (host `localhost`) and hands its reply to `check`.
    func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ check: (Reply) async throws -> Void
    ) async throws {
        var fields = headers
        if let body { fields[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: fields),
            body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = BasicRequestContext(source: .init(channel: EmbeddedChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        let collected = Collected()
        try await response.body.write(collected)
        try await check(Reply(status: response.status, headers: response.headers, body: collected.buffer))
    }
}
