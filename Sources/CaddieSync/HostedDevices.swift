import CaddieCore
import Synchronization

/// The phones a node hosts, per space: devices whose signed ops came to this node over HTTP (`POST .../ops`), not
/// from a peer's session. The node is the origin of their ops as of its own device's, so its live sessions push
/// them at once to every peer (``SessionMachine/origin``), not only to one that asks for everything; a peer that
/// has them from another node (the phone moved) takes them as duplicates. Kept in memory while the node runs: a
/// restarted node sends them at the next digest until the phone sends again.
public final class HostedDevices: Sendable {
    private let devices = Mutex<[SpaceID: Set<PublicKey>]>([:])

    public init() {}

    /// Records that this node takes ops of `hosted` in `space` from a phone; returns those it did not host before.
    @discardableResult
    public func host(_ hosted: some Sequence<PublicKey>, in space: SpaceID) -> Set<PublicKey> {
        devices.withLock { table in
            let added = Set(hosted).subtracting(table[space] ?? [])
            table[space, default: []].formUnion(added)
            return added
        }
    }

    /// Takes back what ``host(_:in:)`` added when the ops were refused.
    public func forget(_ devices: Set<PublicKey>, in space: SpaceID) {
        guard !devices.isEmpty else { return }
        self.devices.withLock { $0[space]?.subtract(devices) }
    }

    /// The phones this node hosts in `space`.
    public func devices(in space: SpaceID) -> Set<PublicKey> { devices.withLock { $0[space] ?? [] } }
}
