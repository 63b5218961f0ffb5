/// Which mDNS sightings a node dials: a pure value, no I/O, fed sightings and dial outcomes, and told which dial
/// loops to start and which to stop.
///
/// An advert is easy to forge or replay (a stranger can repeat a member's advert with any address and port),
/// so the plan bounds what adverts can make a node do: at most `maxAddressesPerNode` addresses dialled for
/// one advertised node id, at most `maxLoops` dial loops in all, and a loop ends when its advert goes. Dead or
/// forged adverts cannot hold those places for ever either: when every place is taken, a new sighting takes the
/// place of the oldest loop that has never completed a handshake and has failed its last dial, so members keep
/// finding each other. A loop is never ended by failures alone: Avahi reports a standing advert once, so a real
/// peer whose first dials fail (still starting, a Wi-Fi blip) must keep its loop.
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

    /// What the plan knows of a running loop.
    struct Progress {
        /// When it started, in sightings (for "oldest").
        let started: Int
        /// Failed dials in a row.
        var failures = 0
        /// Whether a dial of it ever completed a handshake.
        var proven = false
    }

    /// Loops started and not yet ended, by the service name whose advert started them.
    private(set) var loopsOf: [String: Set<Loop>] = [:]
    /// Every running loop's progress.
    private(set) var progress: [Loop: Progress] = [:]
    private var sightings = 0

    /// How many loops are running.
    var count: Int { progress.count }

    /// A service was seen with `node` id at `host:port`, sharing `spaces` with this node: the loops to start, the
    /// loops to stop to make room for them, and how many it asked for that the bounds refuse.
    mutating func sighted(
        name: String, node: String, host: String, port: Int, spaces: [SpaceKey]
    )
        -> (start: [Loop], stop: [Loop], refused: Int)
    {
        sightings += 1
        var started: [Loop] = []
        var stopped: [Loop] = []
        var refused = 0
        for space in spaces {
            let loop = Loop(node: node, host: host, port: port, space: space)
            guard progress[loop] == nil else { continue }
            let addresses = Set(progress.keys.filter { $0.node == node }.map { "\($0.host):\($0.port)" })
            guard addresses.contains("\(host):\(port)") || addresses.count < Self.maxAddressesPerNode else {
                refused += 1
                continue
            }
            if count >= Self.maxLoops {
                guard let room = oldestFailing() else {
                    refused += 1
                    continue
                }
                end(room)
                stopped.append(room)
            }
            progress[loop] = Progress(started: sightings)
            started.append(loop)
        }
        loopsOf[name, default: []].formUnion(started)
        return (started, stopped, refused)
    }

    /// The oldest loop that never completed a handshake and failed its last dial: the first to give up its place.
    private func oldestFailing() -> Loop? {
        progress.filter { !$0.value.proven && $0.value.failures > 0 }.min { $0.value.started < $1.value.started }?.key
    }

    /// A dial of `loop` completed a handshake (whatever came of the session after).
    mutating func handshook(_ loop: Loop) {
        progress[loop]?.proven = true
        progress[loop]?.failures = 0
    }

    /// A dial of `loop` failed before any handshake: until it completes one, the loop may give its place to a
    /// new sighting. False when the plan no longer runs the loop (it gave its place away, or its advert went).
    mutating func dialFailed(_ loop: Loop) -> Bool {
        guard progress[loop] != nil else { return false }
        progress[loop]?.failures += 1
        return true
    }

    /// A service's advert went away: the loops it started, which should stop.
    mutating func lost(name: String) -> Set<Loop> {
        let loops = loopsOf.removeValue(forKey: name) ?? []
        for loop in loops where !loopsOf.values.contains(where: { $0.contains(loop) }) { progress[loop] = nil }
        return loops
    }

    /// A loop ended by itself (its peer kept refusing, it failed too often, or the node stops).
    mutating func ended(_ loop: Loop) { end(loop) }

    private mutating func end(_ loop: Loop) {
        for name in loopsOf.keys { loopsOf[name]?.remove(loop) }
        progress[loop] = nil
    }
}
