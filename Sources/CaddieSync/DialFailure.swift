import Foundation
import NIOCore
import NIOPosix

/// Why a dial failed, in a person's words: "connection refused (nothing listens on that port)", not the text of
/// SwiftNIO's error types.
enum DialFailure {
    static func reason(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            // One failure per address tried; the first says it (a name with one address has one).
            if let first = error.connectionErrors.first { return reason(first.error) }
            if let dns = error.dnsAError ?? error.dnsAAAAError { return "the name was not found (\(dns))" }
            return "no address to try"
        }
        if let error = error as? IOError { return reason(errno: error.errnoCode) }
        if let error = error as? ChannelError, case .connectTimeout(let timeout) = error {
            return "no answer within \(timeout.nanoseconds / 1_000_000_000) s (is it on this network, and awake?)"
        }
        return "\(error)"
    }

    static func reason(errno code: CInt) -> String {
        switch code {
        case ECONNREFUSED: "connection refused (nothing listens on that port there)"
        case ETIMEDOUT: "no answer (is it on this network, and awake?)"
        case EHOSTUNREACH, ENETUNREACH: "no route to that address from this network"
        case ECONNRESET: "the connection was reset"
        default: String(cString: strerror(code))
        }
    }
}
