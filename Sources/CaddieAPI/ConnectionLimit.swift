import CaddieNode
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Caps the HTTP connections open at once on one server, so a flood of connections cannot exhaust the node's file
/// descriptors or lock the owner out; with the idle timeout (`API.idleTimeout`) a connection that says nothing is
/// closed soon. Each server has its own table (`Pool`): connections held open on the plain-HTTP trust page take no
/// place from the app. One address holds at most ``maxPerAddress`` connections, so one device cannot take every
/// place. When every place is taken, the newcomer takes the place of, first, the oldest connection that has not yet
/// sent a whole request head (a half-sent request, or a TLS handshake that never ends, is what a flood is made of),
/// then the connection idle longest between requests (a keep-alive connection that finished its last answer); a
/// connection in the middle of a request, such as a live-events stream, keeps its place, and only when every
/// connection is is the newcomer closed. An address at its own cap gives way the same way, among its own
/// connections only.
///
/// Two handlers share a server's table. ``Place`` sits first on the connection, added when it is accepted, before
/// TLS or any HTTP: it takes the place and gives it back when the connection closes. ``Activity`` sits behind the
/// HTTP decoder, on the connection over HTTP/1.1 or on each stream over HTTP/2, and tells the table when a request
/// begins and when its answer ends: a connection is mid-request while any of its streams is.
enum ConnectionLimit {
    /// Most HTTP connections open at once on one server.
    static let maxConnections = 256
    /// Most HTTP connections open at once from one address other than this machine's own.
    static let maxPerAddress = 32
    /// This machine's own loopback addresses.
    static let ownAddresses: Set<String> = ["127.0.0.1", "::1"]
    /// Most connections kept open beyond the places only to be told there is no room (a 503 answer a phone can show),
    /// rather than closed unread; past these, a newcomer with no place is closed at once.
    static let maxRefused = 16

    struct Entry {
        let channel: any Channel
        let address: String
        let order: UInt64
        /// Whether it sent a whole request head yet.
        var spoke = false
        /// The requests in progress: their heads came and their answers have not ended (over HTTP/2, one a stream).
        var requests = 0
        /// When it last began or ended a request, in the table's own count.
        var lastActive: UInt64
    }

    struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Connections that found no place, kept until their first request is told so.
        var refused: [ObjectIdentifier: any Channel] = [:]
        var next: UInt64 = 0

        mutating func tick() -> UInt64 {
            next += 1
            return next
        }

        /// The key of the connection that carries `channel` (the channel itself over HTTP/1.1, the stream's parent
        /// over HTTP/2), and whether it is one that found no place.
        func connection(of channel: any Channel) -> (key: ObjectIdentifier, refused: Bool)? {
            for candidate in [channel, channel.parent].compactMap({ $0 }) {
                let key = ObjectIdentifier(candidate)
                if entries[key] != nil { return (key, false) }
                if refused[key] != nil { return (key, true) }
            }
            return nil
        }

        /// The connection that gives its place to a newcomer when all are taken (of those `among` picks), if any may.
        func victim(among: (Entry) -> Bool = { _ in true }) -> ObjectIdentifier? {
            let candidates = entries.filter { among($0.value) }
            if let silent = candidates.filter({ !$0.value.spoke }).min(by: { $0.value.order < $1.value.order }) {
                return silent.key
            }
            return candidates.filter { $0.value.requests == 0 }.min(by: { $0.value.lastActive < $1.value.lastActive })?.key
        }
    }

    /// The connections of one server: each server makes one and hands it to every connection's handler.
    final class Pool: Sendable {
        let table = Mutex(Table())
        init() {}

        /// How many connections are open now.
        var count: Int { table.withLock { $0.entries.count } }
    }

    /// Takes a connection's place when it is accepted, before its TLS handshake or its first byte of HTTP, and gives
    /// it back when it closes.
    final class Place: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer

        let pool: Pool
        private var key: ObjectIdentifier?

        init(pool: Pool) { self.pool = pool }

        /// The server adds this handler to a connection that is already active, so it counts it here; a handler
        /// added before the connection is active counts it in `channelActive`.
        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { _ = admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            if key == nil, !admit(context) { return }
            context.fireChannelActive()
        }

        /// Counts the connection in, or closes it; false when it was closed.
        private func admit(_ context: ChannelHandlerContext) -> Bool {
            let channel = context.channel
            let id = ObjectIdentifier(channel)
            let address = channel.remoteAddress?.ipAddress ?? "unknown"
            let (admitted, evicted): (Bool, [any Channel]) = pool.table.withLock { table in
                var evicted: [any Channel] = []
                // This machine itself (its own browsers and programs, which may share one address) is not capped
                // per address; every other device is. At its cap, the address's own silent or idlest connection
                // gives way (phones behind one address share its places: a kept-alive connection of one yields to
                // another's new request), so a flood from one address only ever churns its own; with every one of
                // them busy, the newcomer is closed.
                // A newcomer with no place is kept, while few are, to be told so when it asks (a phone shows it).
                func noPlace() -> Bool {
                    guard table.refused.count < ConnectionLimit.maxRefused else { return false }
                    table.refused[id] = channel
                    return true
                }
                if !ConnectionLimit.ownAddresses.contains(address),
                    table.entries.values.lazy.filter({ $0.address == address }).count >= ConnectionLimit.maxPerAddress
                {
                    guard let victim = table.victim(among: { $0.address == address }) else { return (noPlace(), []) }
                    table.entries.removeValue(forKey: victim).map { evicted.append($0.channel) }
                }
                if table.entries.count >= ConnectionLimit.maxConnections {
                    guard let victim = table.victim() else { return (noPlace(), evicted) }
                    table.entries.removeValue(forKey: victim).map { evicted.append($0.channel) }
                }
                let now = table.tick()
                table.entries[id] = Entry(channel: channel, address: address, order: now, lastActive: now)
                return (true, evicted)
            }
            evicted.forEach { $0.close(promise: nil) }
            guard admitted else {
                context.close(promise: nil)
                return false
            }
            key = id
            return true
        }

        func channelInactive(context: ChannelHandlerContext) {
            if let key {
                self.key = nil
                pool.table.withLock { table in
                    table.entries.removeValue(forKey: key)
                    table.refused.removeValue(forKey: key)
                }
            }
            context.fireChannelInactive()
        }
    }

    /// Tells the table when a request begins and when its answer ends, for the connection that carries it: the
    /// channel itself over HTTP/1.1, the stream's parent over HTTP/2.
    final class Activity: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        let pool: Pool
        /// Whether this channel's request is in progress (counted in its connection's entry).
        private var inProgress = false

        init(pool: Pool) { self.pool = pool }

        private func change(_ context: ChannelHandlerContext, began: Bool) {
            let channel = context.channel
            pool.table.withLock { table in
                guard let (key, refused) = table.connection(of: channel), !refused else { return }
                let now = table.tick()
                table.entries[key]?.spoke = true
                table.entries[key]?.requests += began ? 1 : -1
                table.entries[key]?.lastActive = now
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            if case .head(let head) = unwrapInboundIn(data), !inProgress {
                let channel = context.channel
                if let (key, refused) = pool.table.withLock({ $0.connection(of: channel) }), refused {
                    return tellNoRoom(context, head: head, overHTTP2: key != ObjectIdentifier(channel))
                }
                inProgress = true
                change(context, began: true)
            }
            context.fireChannelRead(data)
        }

        /// Whether this channel was answered that there is no room (what follows of its request is dropped).
        private var answered = false

        /// Answers a request on a connection that found no place: 503 with words a person can read (a page for a
        /// browser's navigation, the API's error otherwise), then closes the connection.
        private func tellNoRoom(_ context: ChannelHandlerContext, head: HTTPRequest, overHTTP2: Bool) {
            answered = true
            let words =
                "the node has no room for another connection from this address now: all its "
                + "\(ConnectionLimit.maxPerAddress) connections are in use by the devices behind it. Try again in a "
                + "minute; entries made on a phone stay on it until the node takes them"
            var fields = HTTPFields()
            let body: ByteBuffer
            if head.headerFields[.accept]?.contains("text/html") == true {
                body = ByteBuffer(
                    string: "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\">"
                        + "<meta http-equiv=refresh content=30><title>Caddie: no room</title>"
                        + "<h1>No room on the node just now</h1><p>\(words).</p><p>This page tries again in 30 s.</p>")
                fields[.contentType] = "text/html; charset=utf-8"
            } else {
                body = ByteBuffer(string: APIError(status: .serviceUnavailable, code: "no_room", message: words).body.text)
                fields[.contentType] = "application/json; charset=utf-8"
            }
            fields[.contentLength] = String(body.readableBytes)
            fields[.retryAfter] = "30"
            // HTTP/2 carries no Connection field: the stream ends, then its connection closes.
            if !overHTTP2 { fields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .serviceUnavailable, headerFields: fields))), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            let connection = overHTTP2 ? (context.channel.parent ?? context.channel) : context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in connection.close(promise: nil) }
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data), inProgress {
                inProgress = false
                change(context, began: false)
            }
            context.write(data, promise: promise)
        }

        func channelInactive(context: ChannelHandlerContext) {
            // A stream reset or a connection closed mid-answer ends its request too.
            if inProgress {
                inProgress = false
                change(context, began: false)
            }
            context.fireChannelInactive()
        }
    }
}

/// A server's connections, each given its place (``ConnectionLimit/Place``) as it is accepted, before `Inner` sets it
/// up (TLS and HTTP/2 or HTTP/1.1 chosen by ALPN, or plain HTTP/1.1).
struct PlacedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let pool: ConnectionLimit.Pool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionLimit.Place(pool: pool), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
