/// A service seen on the local network.
public struct DiscoveredService: Sendable, Hashable {
    /// The service instance name (unique on the link).
    public let name: String
    /// Its IPv4 address.
    public let host: String
    /// Its TCP port.
    public let port: Int
    /// Its TXT record as key=value pairs.
    public let txt: [String: String]

    /// Creates a record.
    public init(name: String, host: String, port: Int, txt: [String: String]) {
        self.name = name
        self.host = host
        self.port = port
        self.txt = txt
    }
}

/// What discovery reports.
public enum DiscoveryEvent: Sendable, Hashable {
    /// A service was resolved (again, if its address or TXT changed).
    case found(DiscoveredService)
    /// A service left the network.
    case lost(name: String)
    /// Discovery cannot work now (no daemon, no D-Bus); the reason is for the log.
    case unavailable(String)
    /// Discovery works (again).
    case available
}

/// What a node advertises: its service name, port and TXT strings.
public struct ServiceAdvert: Sendable, Hashable {
    /// The DNS-SD service type.
    public static let type = "_caddie._tcp"
    /// Instance name.
    public let name: String
    /// TCP port.
    public let port: Int
    /// TXT strings, each "key=value".
    public let txt: [String]

    /// Creates an advert.
    public init(name: String, port: Int, txt: [String]) {
        self.name = name
        self.port = port
        self.txt = txt
    }
}
