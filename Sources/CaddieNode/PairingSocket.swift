import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small blocking TCP connection with deadlines, for the one-shot pairing exchange (sync has its own
/// transport). Every read and write has a timeout so a silent peer cannot hang the command.
final class PairingSocket {
    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    private static func address(_ host: String, _ port: UInt16) throws(NodeError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .invalid("\(host) is not an IPv4 address")
        }
        return address
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    /// Listens on `host:port` (port 0 picks a free one); returns the socket and the port bound.
    static func listen(host: String, port: UInt16) throws(NodeError) -> (PairingSocket, UInt16) {
        var address = try address(host, port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .file("cannot open a socket: \(errorText())") }
        let socket = PairingSocket(descriptor: fd)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 4) == 0 else {
            throw .invalid("cannot listen on \(host):\(port): \(errorText()); choose another --listen address")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (socket, UInt16(bigEndian: actual.sin_port))
    }

    /// Waits up to `timeout` seconds for a connection; nil on timeout.
    func accept(timeout: Double) throws(NodeError) -> PairingSocket? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(0, timeout) * 1000))
        guard ready > 0 else { return nil }
        let fd = Glibc.accept(descriptor, nil, nil)
        guard fd >= 0 else { throw .file("accept failed: \(Self.errorText())") }
        let connection = PairingSocket(descriptor: fd)
        connection.setTimeouts(seconds: 10)
        return connection
    }

    /// Connects to `host:port` within `timeout` seconds.
    static func connect(host: String, port: UInt16, timeout: Int) throws(NodeError) -> PairingSocket {
        var address = try address(host, port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .file("cannot open a socket: \(errorText())") }
        let connection = PairingSocket(descriptor: fd)
        connection.setTimeouts(seconds: timeout)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            throw .invalid(
                "cannot reach the first device at \(host):\(port) (\(errorText())): is `caddie device add` still "
                    + "waiting there, on the same network?")
        }
        return connection
    }

    private func setTimeouts(seconds: Int) {
        var value = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes every byte.
    func send(_ bytes: [UInt8]) throws(NodeError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw .invalid("the pairing connection broke: \(Self.errorText())") }
            offset += written
        }
    }

    /// Reads exactly `count` bytes.
    func receive(_ count: Int) throws(NodeError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let read = buffer[offset...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { throw .invalid("the pairing connection closed or timed out before the exchange finished") }
            offset += read
        }
        return buffer
    }
}
