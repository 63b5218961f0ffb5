import CaddieCore
import CaddieSync
import Foundation
import Logging

/// A home's sync node as the CLI and the HTTP API see it while `caddie serve` runs: it listens, keeps sessions with
/// its peers, and says who is connected. It wraps `CaddieSync`'s `SyncNode`, so that the layers above the node
/// import no Sync or Store module and the compiler keeps them apart (docs/architecture.md).
public final class NodeRuntime: Sendable {
    /// Incoming connections open at once, at most, unless `caddie serve --max-connections` says otherwise.
    public static let defaultMaxIncoming = SyncNode.defaultMaxIncoming
    /// Incoming connections from one address, at most, unless `caddie serve --max-per-address` says otherwise.
    public static let defaultMaxIncomingPerAddress = SyncNode.defaultMaxIncomingPerAddress

    let node: SyncNode

    init(_ node: SyncNode) { self.node = node }

    /// The node's id in its mDNS name (`caddie-ID`).
    public var nodeID: [UInt8] { node.nodeID }

    /// The TXT records the node advertises over mDNS.
    public func advertTXT() -> [String] { node.advertTXT() }

    /// Bytes written to peers since the node started.
    public var wireBytesSent: Int { node.wireBytesSent }

    /// The sessions open now, oldest first.
    public var sessions: [LiveSession] { node.sessions }

    /// Calls `peers` whenever a session opens or ends (nil: stop).
    public func observePeers(_ peers: (@Sendable (PeerEvent) -> Void)?) { node.observePeers(peers) }

    /// Listens on `host:port` and keeps sessions with `peers` and with those `discovery` sees, until the task is
    /// cancelled; `listening` gets the port bound once connections are accepted.
    public func serve(
        host: String, port: Int, peers: [(host: String, port: Int)], discovery: LocalDiscovery? = nil,
        listening: @Sendable (Int) -> Void
    ) async throws {
        try await node.serve(host: host, port: port, peers: peers, sightings: discovery?.sightings, listening: listening)
    }

    /// Starts mDNS for this node listening on `port`: publishing its advert and handing it what it sees.
    public func discovery(port: Int, logger: Logger) throws -> LocalDiscovery {
        try LocalDiscovery(node: node, port: port, logger: logger)
    }
}

/// Runs blocking work (a read or write of the home's SQLite database) off the caller's task, on the pool every
/// blocking call of the node uses, and returns its result.
public func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await blocking(body)
}

extension Home {
    /// The running node of this home: its device credentials and the keys of every space it holds.
    public func runtime(
        keys: UnlockedKeys, logger: Logger, maxIncomingPerAddress: Int = NodeRuntime.defaultMaxIncomingPerAddress,
        maxIncoming: Int = NodeRuntime.defaultMaxIncoming, nodeID: [UInt8]? = nil
    ) throws(NodeError) -> NodeRuntime {
        NodeRuntime(
            try syncNode(
                keys: keys, logger: logger, maxIncomingPerAddress: maxIncomingPerAddress, maxIncoming: maxIncoming,
                nodeID: nodeID))
    }

    /// The TXT records a node of this home would advertise under `nodeID`, with nothing written.
    public func advertTXT(keys: UnlockedKeys, nodeID: [UInt8]) throws(NodeError) -> [String] {
        try syncNode(keys: keys, logger: Logger(label: "caddie.mdns"), nodeID: nodeID, joining: false).advertTXT()
    }

    /// Whether a node runs on this home now (its control socket answers).
    public func nodeAnswers() async -> Bool { await ControlSocket.answers(path: controlSocketPath) }

    /// What a second `caddie serve` on this home is told.
    public var nodeInUse: NodeError { .conflict(ControlSocket.Failure.inUse(controlSocketPath).description) }
}
