import CaddieStore
import CaddieWire
import Foundation
import NIOCore

/// How a session names its errors, tells a refusal apart, and ends a connection whose peer stopped reading.
extension SyncSession {
    /// Whether an error is a refusal, by its type (never by its text).
    static func isRefusal(_ error: any Error) -> Bool {
        switch error {
        case SyncError.refused: true
        case WireError.notAMember: true
        default: false
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as WireError: error.description
        case let error as SyncError: error.description
        case let error as StoreError: error.description
        case let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed:
            "the connection closed"
        default: "\(error)"
        }
    }

    /// Ends a connection whose peer stopped reading with a reset, not an orderly close. An orderly close queues its
    /// FIN behind the bytes the peer never read, so the peer would not learn that the session ended and the kernel
    /// would keep those bytes for a reader that never comes; a reset drops them and tells the peer at once.
    static func reset(_ connection: any Channel) {
        guard let socket = connection as? any SocketOptionProvider else { return connection.close(promise: nil) }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in connection.close(promise: nil) }
    }
}
