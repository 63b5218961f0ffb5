import Foundation
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Caps the HTTP connections open at once on one server, so a flood of connections cannot exhaust the node's file
/// descriptors or lock the owner out; with the idle timeout (`API.idleTimeout`) a connection that says nothing is
/// closed soon. Each server has its own table (`Pool`): connections held open on the plain-HTTP trust page take no
/// place from the app. One address holds at most ``maxPerAddress`` connections, so one device cannot take every
/// place. When every place is taken, the newcomer takes the place of, first, the oldest connection that has not yet
/// sent a whole request head (a half-sent request is what a flood is made of), then the connection idle longest
/// between requests (a keep-alive connection that finished its last answer); a connection in the middle of a
/// request, such as a live-events stream, keeps its place, and only when every connection is is the newcomer closed.
/// An address at its own cap gives way the same way, among its own connections only.
final class ConnectionLimit: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Most HTTP connections open at once on one server.
    static let maxConnections = 256
    /// Most HTTP connections open at once from one address other than this machine's own.
    static let maxPerAddress = 32
    /// This machine's own loopback addresses.
    static let ownAddresses: Set<String> = ["127.0.0.1", "::1"]

    struct Entry {
        let channel: any Channel
        let address: String
        let order: UInt64
        /// Whether it sent a whole request head yet.
        var spoke = false
        /// Whether a request is in progress: its head came and its answer has not ended.
        var busy = false
        /// When it last began or ended a request, in the table's own count.
        var lastActive: UInt64
    }

    struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var next: UInt64 = 0

        mutating func tick() -> UInt64 {
            next += 1
            return next
        }

        /// The connection that gives its place to a newcomer when all are taken (of those `among` picks), if any may.
        func victim(among: (Entry) -> Bool = { _ in true }) -> ObjectIdentifier? {
            let candidates = entries.filter { among($0.value) }
            if let silent = candidates.filter({ !$0.value.spoke }).min(by: { $0.value.order < $1.value.order }) {
                return silent.key
            }
            return candidates.filter { !$0.value.busy }.min(by: { $0.value.lastActive < $1.value.lastActive })?.key
        }
    }

    /// The connections of one server: each server makes one and hands it to every connection's handler.
    final class Pool: Sendable {
        let table = Mutex(Table())
        init() {}

        /// How many connections are open now.
        var count: Int { table.withLock { $0.entries.count } }
    }

    let pool: Pool
    private var key: ObjectIdentifier?

    init(pool: Pool) { self.pool = pool }

    /// The server adds this handler to a connection that is already active, so it counts it here; a handler added
    /// before the connection is active counts it in `channelActive`.
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
            // per address; every other device is. At its cap, the address's own silent or idlest connection gives
            // way (phones behind one address share its places: a kept-alive connection of one yields to another's
            // new request), so a flood from one address only ever churns its own; with every one of them busy, the
            // newcomer is closed.
            if !Self.ownAddresses.contains(address),
                table.entries.values.lazy.filter({ $0.address == address }).count >= Self.maxPerAddress
            {
                guard let victim = table.victim(among: { $0.address == address }) else { return (false, []) }
                table.entries.removeValue(forKey: victim).map { evicted.append($0.channel) }
            }
            if table.entries.count >= Self.maxConnections {
                guard let victim = table.victim() else { return (false, evicted) }
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

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let key, case .head = unwrapInboundIn(data) {
            pool.table.withLock { table in
                let now = table.tick()
                table.entries[key]?.spoke = true
                table.entries[key]?.busy = true
                table.entries[key]?.lastActive = now
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let key, case .end = unwrapOutboundIn(data) {
            pool.table.withLock { table in
                let now = table.tick()
                table.entries[key]?.busy = false
                table.entries[key]?.lastActive = now
            }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let key {
            self.key = nil
            _ = pool.table.withLock { table in table.entries.removeValue(forKey: key) }
        }
        context.fireChannelInactive()
    }
}
