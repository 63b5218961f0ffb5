import CaddieWire
import Foundation
import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// The running node's local control socket: a Unix domain socket in the home (mode 0600, answering only
/// processes of the node's own user), through which a command hands the node its writes while the node runs,
/// so that the node is the home's one writer. Requests and replies are length-prefixed frames as on the sync
/// wire (``FrameDecoder``); what they mean is the node layer's (`NodeControl`).
public enum ControlSocket {
    /// The socket's file name in the home.
    public static let fileName = "control.sock"
    /// The longest path a Unix domain socket address holds (sun_path, with its terminating zero). A longer one is
    /// reached through the directory's descriptor (``address(of:_:)``).
    public static let maxPathBytes = 107
    /// Seconds a command waits for the node's answer.
    public static let replyTimeoutSeconds: Int64 = 30

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another process answers on the socket already: a second node on the same home.
        case inUse(String)
        /// The home's path is too long for a socket address, and the directory could not be opened to reach it by
        /// its descriptor.
        case pathTooLong(String)
        /// The node took the request but did not answer.
        case noAnswer(String)
        /// The request is more bytes than one frame carries: nothing was sent.
        case tooLarge(Int)

        public var description: String {
            switch self {
            case .inUse(let path):
                "another `caddie serve` runs on this home (\(path) answers): stop it first, or use another --home"
            case .pathTooLong(let path):
                "the home's path is too long for its control socket (\(path)): use a shorter --home"
            case .noAnswer(let why): "the running node did not answer: \(why)"
            case .tooLarge(let bytes): "the request is \(bytes) bytes, more than one frame carries: nothing was sent"
            }
        }
    }

    /// Serves the socket at `path` until the task is cancelled, answering each request frame with
    /// `handle`'s reply. Refuses to start when another process answers at `path`; a socket file left by a node
    /// that died is replaced. The file is removed when serving ends.
    public static func serve(
        path: String, logger: Logger, ready: @Sendable () -> Void = {},
        handle: @escaping @Sendable ([UInt8]) async -> [UInt8]
    ) async throws {
        if await answers(path: path) { throw Failure.inUse(path) }
        let server = try await address(of: path) { address in
            try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(unixDomainSocketPath: address, cleanupExistingSocketFile: true) { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.framedChannel(channel) }
                }
        }
        defer { unlink(path) }
        chmod(path, 0o600)
        ready()
        let owner = getuid()
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask {
                        // The file's mode keeps other users out; the peer's credentials say so again.
                        let uid = (try? await peerUID(connection.channel)) ?? nil
                        guard admits(peer: uid, owner: owner) else {
                            logger.warning(
                                "control socket: refused a process of \(uid.map { "user \($0)" } ?? "a user it could not read")")
                            try? await connection.channel.close()
                            return
                        }
                        do {
                            try await connection.executeThenClose { inbound, outbound in
                                for try await frame in inbound { try await outbound.write(await handle(frame)) }
                            }
                        } catch {
                            logger.warning("control socket: a connection ended: \(error)")
                        }
                    }
                }
            }
        }
    }

    /// Whether a process serves the socket at `path` now (a node running on this home).
    public static func answers(path: String) async -> Bool {
        guard FileManager.default.fileExists(atPath: path),
            let other = try? await address(
                of: path,
                { address in
                    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .connect(unixDomainSocketPath: address).get()
                })
        else { return false }
        try? await other.close()
        return true
    }

    /// Runs `body` with an address for the socket at `path` that fits in a socket address: the path itself, or,
    /// when it is longer, the socket's name under `/proc/self/fd/N`, where N is the directory opened for the
    /// while (the kernel follows it to the directory, so a home at any depth has its socket).
    static func address<T>(of path: String, _ body: (String) async throws -> T) async throws -> T {
        guard path.utf8.count > maxPathBytes else { return try await body(path) }
        let url = URL(fileURLWithPath: path)
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let short = "/proc/self/fd/\(directory)/\(url.lastPathComponent)"
        guard directory >= 0, short.utf8.count <= maxPathBytes, FileManager.default.fileExists(atPath: "/proc/self/fd")
        else {
            if directory >= 0 { close(directory) }
            throw Failure.pathTooLong(path)
        }
        defer { close(directory) }
        return try await body(short)
    }

    /// `struct ucred` of Linux (pid, uid, gid), which Glibc shows Swift only under _GNU_SOURCE.
    struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Whether a process may use the socket: it runs as the node's own user or as root. A process whose user could
    /// not be read (nil) is refused: the file's mode already keeps others out, and a failed check is no pass.
    static func admits(peer uid: UInt32?, owner: UInt32) -> Bool {
        guard let uid else { return false }
        return uid == owner || uid == 0
    }

    /// The user id of the process at the other end of a Unix domain socket (SO_PEERCRED).
    static func peerUID(_ channel: any Channel) async throws -> UInt32? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let credentials: PeerCredentials = try await provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        ).get()
        return credentials.uid
    }

    /// Sends one request to the node serving `path` and returns its reply; nil when no node serves there (no
    /// socket file, or one a stopped node left behind), so the caller writes itself.
    public static func request(
        path: String, _ body: [UInt8], replyTimeout: Int64 = replyTimeoutSeconds
    ) async throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard body.count <= FrameDecoder.maxFrame else { throw Failure.tooLarge(body.count) }
        do {
            return try await address(of: path) { address throws(FrameExchange.Failure) in
                try await FrameExchange.request(.unix(path: address), body, connectTimeout: 5, replyTimeout: replyTimeout)
            }
        } catch Failure.pathTooLong {
            return nil
        } catch FrameExchange.Failure.unreachable {
            return nil
        } catch FrameExchange.Failure.noReply(let why) {
            // The node took the request but did not answer: whether it wrote is not known.
            throw Failure.noAnswer("\(why); check with `caddie card` before trying again")
        }
    }
}
