/// Which mDNS sightings a node dials: a pure value, no I/O, fed sightings and told which dial loops to start.
///
/// An advert is easy to forge or replay (a stranger can repeat a member's advert with any address and port),
/// so the plan bounds what adverts can make a node do: at most `maxAddressesPerNode` addresses dialled for
/// one advertised node id, at most `maxLoops` dial loops in all, and a loop ends when its advert goes.
struct DialPlan {
    /// Most addresses dialled for one advertised node id (a real node has one; a move between networks, two).
    static let maxAddressesPerNode = 2
    /// Most mDNS dial loops at once.
    static let maxLoops = 32

    /// One dial loop: a node id at an address, for a space.
    struct Loop: Hashable {
        let node: String
        let host: String
        let port: Int
        let space: SpaceKey

        var key: String { "\(node)|\(host):\(port)|\(space)" }
    }

    /// A space by its hex id (the plan needs no keys).
    typealias SpaceKey = String

    /// Loops started and not yet ended, by the service name whose advert started them.
    private(set) var loopsOf: [String: Set<Loop>] = [:]

    /// How many loops are running.
    var count: Int { loopsOf.values.reduce(0) { $0 + $1.count } }

    /// A service was seen with `node` id at `host:port`, sharing `spaces` with this node: the loops to start,
    /// and how many it asked for that the bounds refuse.
    mutating func sighted(
        name: String, node: String, host: String, port: Int, spaces: [SpaceKey]
    )
        -> (start: [Loop], refused: Int)
    {
        var started: [Loop] = []
        var refused = 0
        let running = Set(loopsOf.values.joined())
        for space in spaces {
            let loop = Loop(node: node, host: host, port: port, space: space)
            guard !running.contains(loop) else { continue }
            let addresses = Set(running.filter { $0.node == node }.map { "\($0.host):\($0.port)" })
            guard addresses.contains("\(host):\(port)") || addresses.count < Self.maxAddressesPerNode,
                count + started.count < Self.maxLoops
            else {
                refused += 1
                continue
            }
            started.append(loop)
        }
        loopsOf[name, default: []].formUnion(started)
        return (started, refused)
    }

    /// A service's advert went away: the loops it started, which should stop.
    mutating func lost(name: String) -> Set<Loop> {
        loopsOf.removeValue(forKey: name) ?? []
    }

    /// A loop ended by itself (its peer kept refusing, or the node stops).
    mutating func ended(_ loop: Loop) {
        for name in loopsOf.keys { loopsOf[name]?.remove(loop) }
    }
}
