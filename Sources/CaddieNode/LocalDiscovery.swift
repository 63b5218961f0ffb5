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

    /// Starts publishing and browsing for `node`, listening on `port`.
    convenience init(node: SyncNode, port: Int, logger: Logger) throws {
        try self.init(
            advert: ServiceAdvert(name: "caddie-\(Hex.encode(node.nodeID))", port: port, txt: node.advertTXT()),
            logger: logger)
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
        avahi = AvahiDiscovery(advert: advert) { event in
            switch event {
            case .found(let service):
                continuation.yield(
                    PeerSighting(
                        name: service.name, host: service.host, port: service.port,
                        txt: service.txt, lost: false))
            case .lost(let name):
                continuation.yield(PeerSighting(name: name, host: "", port: 0, txt: [:], lost: true))
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
