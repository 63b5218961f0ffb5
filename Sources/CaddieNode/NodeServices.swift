import Foundation
import Logging
import ServiceLifecycle

// The node's own services in `caddie serve`'s service group. They live with the node, not with the HTTP API, so that
// a node serves sync and commands with no HTTP server linked into it; the API adds its own (the event hub, the web
// servers) beside them.

/// The sync node as a service of `caddie serve`'s service group: it listens, keeps its sessions, and stops
/// when the group shuts down.
public struct SyncService: Service {
    let node: NodeRuntime
    let host: String
    let port: Int
    let peers: [(host: String, port: Int)]
    let discovery: LocalDiscovery?
    let listening: @Sendable (Int) -> Void

    public init(
        node: NodeRuntime, host: String, port: Int, peers: [(host: String, port: Int)], discovery: LocalDiscovery?,
        listening: @escaping @Sendable (Int) -> Void
    ) {
        self.node = node
        self.host = host
        self.port = port
        self.peers = peers
        self.discovery = discovery
        self.listening = listening
    }

    public func run() async throws {
        try await untilShutdown {
            try await node.serve(host: host, port: port, peers: peers, discovery: discovery, listening: listening)
        }
    }
}

/// The node's control socket as a service: while `caddie serve` runs, commands on the same home hand it their
/// writes (`Home.serveControl`), and each one reaches the node's sessions the moment it commits.
public struct ControlService: Service {
    let home: Home
    let keys: UnlockedKeys
    let logger: Logger

    public init(home: Home, keys: UnlockedKeys, logger: Logger) {
        self.home = home
        self.keys = keys
        self.logger = logger
    }

    public func run() async throws {
        let (home, keys, logger) = (home, keys, logger)
        try await untilShutdown { try await home.serveControl(keys: keys, logger: logger) }
    }
}

/// Runs `body` until the service group shuts down. A graceful shutdown (SIGTERM from systemd, SIGINT from a
/// terminal) stops it by cancelling it: that is a clean stop, not a failure.
/// Returns what `body` returned, or nil when the shutdown stopped it.
@discardableResult
func untilShutdown<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T? {
    do {
        return try await cancelWhenGracefulShutdown { try await body() }
    } catch is CancellationError {
        return nil
    }
}
