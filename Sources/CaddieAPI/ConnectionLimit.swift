import Foundation
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Caps the HTTP connections open at once, so a flood of connections cannot exhaust the node's file
/// descriptors or lock the owner out; with the idle timeout (`API.idleTimeout`) a connection that says nothing is
/// closed soon. One address holds at most ``maxPerAddress`` connections, so one device cannot take every place;
/// when every place is taken, the oldest connection that has not yet sent a whole request head gives its place
/// to the newcomer (a half-sent request is what a flood is made of), and only when every open connection has sent
/// one is the newcomer closed.
final class ConnectionLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// Most HTTP connections open at once.
    static let maxConnections = 256
    /// Most HTTP connections open at once from one address other than this machine's own.
    static let maxPerAddress = 32
    /// This machine's own loopback addresses.
    static let ownAddresses: Set<String> = ["127.0.0.1", "::1"]

    struct Entry {
        let channel: any Channel
        let address: String
        let order: UInt64
        var spoke: Bool
    }

    struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var next: UInt64 = 0
    }

    /// The connections open now, in this process, across every HTTP server it runs.
    static let table = Mutex(Table())

    private var key: ObjectIdentifier?

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
        let (admitted, evicted): (Bool, (any Channel)?) = Self.table.withLock { table in
            // This machine itself (its own browsers and programs, which may share one address) is not capped
            // per address; every other device is.
            guard
                Self.ownAddresses.contains(address)
                    || table.entries.values.lazy.filter({ $0.address == address }).count < Self.maxPerAddress
            else {
                return (false, nil)
            }
            var evicted: (any Channel)?
            if table.entries.count >= Self.maxConnections {
                guard
                    let oldest = table.entries.filter({ !$0.value.spoke }).min(by: { $0.value.order < $1.value.order })
                else { return (false, nil) }
                table.entries[oldest.key] = nil
                evicted = oldest.value.channel
            }
            table.next += 1
            table.entries[id] = Entry(channel: channel, address: address, order: table.next, spoke: false)
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        guard admitted else {
            context.close(promise: nil)
            return false
        }
        key = id
        return true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let key, case .head = unwrapInboundIn(data) {
            Self.table.withLock { table in table.entries[key]?.spoke = true }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let key {
            self.key = nil
            _ = Self.table.withLock { table in table.entries.removeValue(forKey: key) }
        }
        context.fireChannelInactive()
    }
}
