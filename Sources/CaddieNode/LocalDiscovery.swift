import CaddieCore
import CaddieDiscovery
import CaddieSync
import Foundation
import Logging
import Synchronization

/// mDNS for a running node: publishes `_caddie._tcp` with the node's hints and hands every sighting to
/// the sync node. Without an Avahi daemon it logs one warning and the node carries on with static peers.
public final class LocalDiscovery: Sendable {
    private let avahi: AvahiDiscovery
    /// Sightings for ``SyncNode/serve(host:port:peers:sightings:listening:)``.
    let sightings: AsyncStream<PeerSighting>
    private let continuation: AsyncStream<PeerSighting>.Continuation

    /// The last sighting of each service seen and not lost, to hand over again when the node's spaces change.
    private let known: KnownSightings

    /// Starts publishing and browsing for `node`, listening on `port`. When the node takes up a space (created or
    /// joined while it runs), the advert gets the new hint and every node seen is looked at again for it.
    convenience init(node: SyncNode, port: Int, logger: Logger) throws {
        try self.init(
            advert: ServiceAdvert(name: "caddie-\(Hex.encode(node.nodeID))", port: port, txt: node.advertTXT()),
            logger: logger)
        node.observeSpaces { [weak self, weak node] in
            guard let self, let node else { return }
            self.avahi.update(txt: node.advertTXT())
            // Under the lock the callbacks take too: a service lost meanwhile is not handed over again after its loss.
            self.known.map.withLock { known in
                for sighting in known.values { self.continuation.yield(sighting) }
            }
        }
    }

    /// Starts browsing only, publishing nothing (a device looking for the node that made its invite).
    public convenience init(browsingFor logger: Logger) throws {
        try self.init(advert: nil, logger: logger)
    }

    private init(advert: ServiceAdvert?, logger: Logger) throws {
        let (sightings, continuation) = AsyncStream<PeerSighting>.makeStream(bufferingPolicy: .bufferingNewest(256))
        self.sightings = sightings
        self.continuation = continuation
        let warned = Mutex(false)
        let known = KnownSightings()
        self.known = known
        avahi = AvahiDiscovery(advert: advert) { event in
            switch event {
            case .found(let service):
                let sighting = PeerSighting(
                    name: service.name, host: service.host, port: service.port, txt: service.txt, lost: false)
                known.map.withLock {
                    $0[service.name] = sighting
                    continuation.yield(sighting)
                }
            case .lost(let name):
                known.map.withLock {
                    $0[name] = nil
                    continuation.yield(PeerSighting(name: name, host: "", port: 0, txt: [:], lost: true))
                }
            case .unavailable(let reason):
                let first = warned.withLock { already in
                    defer { already = true }
                    return !already
                }
                if first { logger.warning("mDNS unavailable: \(reason); static peers only") }
            case .available:
                // Reset, so that a later outage is reported again.
                if warned.withLock({ was in
                    defer { was = false }
                    return was
                }) {
                    logger.info("mDNS available again")
                }
            }
        }
        try avahi.start()
    }

    /// Stops advertising and browsing.
    public func stop() {
        avahi.stop()
        continuation.finish()
    }
}

/// The services discovery has seen and not lost, by name.
private final class KnownSightings: Sendable {
    let map = Mutex<[String: PeerSighting]>([:])
}
