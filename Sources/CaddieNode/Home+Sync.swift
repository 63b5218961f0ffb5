import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import CaddieWire
import Foundation
import Logging

extension Home {
    /// A sync node over this home: its device credentials and the keys of every space it holds. It writes this
    /// device's join into any space that lacks one, unless `joining` is false (a node that only says what it would
    /// advertise, `caddie mdns-service`, writes nothing).
    func syncNode(
        keys: UnlockedKeys, logger: Logger,
        maxIncomingPerAddress: Int = SyncNode.defaultMaxIncomingPerAddress,
        maxIncoming: Int = SyncNode.defaultMaxIncoming,
        nodeID: [UInt8]? = nil, joining: Bool = true
    ) throws(NodeError) -> SyncNode {
        let identity = try identity()
        guard let user = identity.userKey, let certificate = Hex.decode(identity.certificate) else {
            throw .file("identity.json is damaged: restore it from a backup")
        }
        var spaceKeys: [SpaceID: [UInt8]] = [:]
        for space in try spaces.list() {
            spaceKeys[space.id] = try keys.key(for: space.id)
            if joining { try ensureJoined(space.id, keys: keys) }
        }
        let credentials = DeviceCredentials(
            device: keys.device, user: user, certifiedAt: identity.certifiedAt,
            certificate: certificate)
        do {
            let node = try SyncNode(
                store: store, credentials: credentials, spaceKeys: spaceKeys, logger: logger,
                maxIncomingPerAddress: maxIncomingPerAddress, maxIncoming: maxIncoming, nodeID: nodeID, hosted: hosted)
            node.serveInvites(spaces.inviteDesk(keys: keys))
            node.useKeyrings { [self] space in keyring(space, keys: keys) }
            return node
        } catch {
            throw NodeError.wrap(error)
        }
    }

    /// Peers this home has synced with.
    public func peers() throws(NodeError) -> [PeerRecord] {
        try run { try store.peers() }
    }
}

/// A `HOST:PORT` pair as typed on the command line.
public struct HostPort: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Host name or address.
    public let host: String
    /// TCP port.
    public let port: Int

    /// Parses `HOST:PORT` (IPv6 in brackets: `[::1]:7400`); an error names `input`, the option it was given as.
    public init(parsing text: String, input: NodeError.Input = .hostPort) throws(NodeError) {
        var rest = Substring(text)
        var host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .badInput(input, "'\(text)' is not HOST:PORT") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badInput(input, "'\(text)' is not HOST:PORT") }
            rest = rest.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else {
                throw .badInput(input, "'\(text)' is not HOST:PORT (e.g. 10.0.0.2:7400)")
            }
            host = rest[..<colon]
            rest = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(rest), (1...65535).contains(port) || (port == 0) else {
            throw .badInput(input, "'\(text)' is not HOST:PORT with a port 1...65535")
        }
        self.host = String(host)
        self.port = port
    }

    /// `host:port`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
