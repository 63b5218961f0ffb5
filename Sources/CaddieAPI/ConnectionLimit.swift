import Foundation
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Caps the HTTP connections open at once, so a flood of connections cannot exhaust the node's file
/// descriptors; with the idle timeout (`API.idleTimeout`) a connection that says nothing is closed soon.
final class ConnectionLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// Most HTTP connections open at once; a connection over it is closed at once.
    static let maxConnections = 256
    /// HTTP connections open now, in this process.
    static let open = Atomic<Int>(0)

    private var counted = false

    func channelActive(context: ChannelHandlerContext) {
        counted = true
        if Self.open.add(1, ordering: .relaxed).newValue > Self.maxConnections {
            context.close(promise: nil)
            return
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            Self.open.subtract(1, ordering: .relaxed)
        }
        context.fireChannelInactive()
    }
}
