import CaddieCore
import CaddieNode
import Foundation
import Logging
import ServiceLifecycle

/// The live-event hub as a service: it watches the store while the node runs, and at shutdown ends every open
/// event stream so that the HTTP server can stop.
public struct EventHubService: Service {
    let hub: EventHub

    public init(hub: EventHub) { self.hub = hub }

    public func run() async throws {
        await withGracefulShutdownHandler {
            await hub.run()
        } onGracefulShutdown: {
            hub.close()
        }
    }
}
