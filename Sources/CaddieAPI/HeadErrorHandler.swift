import CaddieNode
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request whose head cannot be parsed (over the size limit, or not HTTP/1.1 at all) with the same JSON
/// error body as every other API error, then closes the connection: the server would otherwise send a bare 400.
/// Sits in each connection's pipeline right after the HTTP decoder.
final class HeadErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// The most a request head may hold (the decoder's limit for the header list).
    static let headLimitKiB = 80

    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !answered else { return }
        answered = true
        let error: APIError =
            parse == .headerOverflow
            ? APIError(
                status: .init(code: 431, reasonPhrase: "Request Header Fields Too Large"), code: "head_too_large",
                message: "the request head (URL and headers) is over \(Self.headLimitKiB) KiB: send a shorter URL "
                    + "and fewer or shorter headers")
            : APIError.badRequest("the request is not valid HTTP/1.1 (\(parse)): see Protocol/openapi.yaml")
        let body = ByteBuffer(string: error.body.text)
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
