import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging

/// The spaces a node serves and how it advertises them: its mDNS hints, the spaces a sighted node shares, and a
/// space created or joined while it runs, served from its first commit on.
extension SyncNode {
    /// The TXT strings this node advertises: protocol version, node id, and per space a hint that only
    /// holders of that space's key can recognise (no person and no space in the clear). The version is the oldest
    /// this node answers (1), so that nodes of every version since see each other; a dialler offers its newest and
    /// learns in the handshake whether the other speaks it.
    public func advertTXT() -> [String] {
        var hints = allSpaceKeys().map { Self.hint(space: $0.0, key: $0.1, node: nodeID) }
        // Padded with decoys to a multiple of four (at least four), so the advert does not tell a stranger how
        // many spaces this device holds. Decoys are random per node id and look like any other keyed hint.
        let padded = max(4, (hints.count + 3) / 4 * 4)
        hints += decoyHints.prefix(padded - hints.count)
        return ["v=\(Handshake.oldest)", "id=\(Hex.encode(nodeID))"]
            + hints.sorted { Hex.encode($0) < Hex.encode($1) }.enumerated().map { "h\($0.offset)=\(Hex.encode($0.element))" }
    }

    static func hint(space: SpaceID, key: [UInt8], node: [UInt8]) -> [UInt8] {
        Array(
            Blake2b.keyed(Handshake.handshakeKey(space: space, spaceKey: key), [Array("caddie-mdns-hint".utf8), node]).prefix(8))
    }

    /// The spaces a sighted node shares with this one, by its TXT hints.
    func sharedSpaces(_ sighting: PeerSighting) -> [SpaceID] {
        guard let version = sighting.txt["v"].flatMap(UInt8.init), (Handshake.oldest...Handshake.version).contains(version),
            let id = sighting.txt["id"].flatMap(Hex.decode), id.count == 8,
            id != nodeID
        else { return [] }
        let hints = Set(sighting.txt.filter { $0.key.hasPrefix("h") }.compactMap { Hex.decode($0.value) })
        var shared: [SpaceID] = []
        for (space, key) in allSpaceKeys()
        where !shared.contains(space) && hints.contains(Self.hint(space: space, key: key, node: id)) {
            shared.append(space)
        }
        return shared
    }

    /// Hands the spaces a commit touched that the node does not serve to ``startServing(_:)`` (on the writing thread: no
    /// read here).
    func noticeSpaces(in change: StoreChange) {
        let new = served.withLock { served in change.spaces.keys.filter { !served.contains($0) } }
        guard !new.isEmpty, let continuation = unserved.withLock({ $0 }) else { return }
        for space in new { continuation.yield(space) }
    }

    /// Serves `space` from now on if this device holds a key for it and does not serve it yet; true if it was added.
    /// It reads the keyring (the store, maybe): run it off the cooperative pool.
    func startServing(_ space: SpaceID) -> Bool {
        guard !keyring(space).keys.isEmpty else { return false }
        let added = served.withLock { served in
            guard !served.contains(space) else { return false }
            served.append(space)
            return true
        }
        guard added else { return false }
        logger.info("serving a space created or joined while the node runs", metadata: ["space": "\(space.short)"])
        spacesObserver.withLock { $0 }?()
        return true
    }

    /// Sets what to call after a space was added to those served (nil: nothing).
    public func observeSpaces(_ observer: (@Sendable () -> Void)?) { spacesObserver.withLock { $0 = observer } }
}
