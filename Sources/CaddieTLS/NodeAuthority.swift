import COpenSSL
import Foundation

/// A home's own certificate authority: a P-256 key and a self-signed certificate, made once. A phone trusts it
/// once (docs/web.md, "HTTPS on the course"), and from then on every certificate the node issues itself for the
/// addresses it serves, so the web app is a secure context on a course with no internet and no public authority.
///
/// The authority can vouch only for what a node on a course can be called (`LocalNames`): a critical Name
/// Constraints extension permits the private, link-local and loopback IPv4 ranges and names under suffixes no
/// public website has, and excludes every IPv6 address, e-mail address and URI. A phone that trusts it can be shown
/// no other site's certificate, whoever holds the key.
///
/// The certificates are made with Debian's libcrypto (OpenSSL 3, `COpenSSL`); TLS itself is NIOSSL's.
public struct NodeAuthority: Sendable {
    /// How long the authority is valid: a phone trusts it by hand, so a couple of seasons, not a decade.
    static let lifetime: TimeInterval = 825 * 24 * 3600
    /// A node makes a new authority when its own has less than this left (phones then trust the new one).
    public static let renewal: TimeInterval = 60 * 24 * 3600
    /// How long a server certificate is valid: within what browsers accept of any certificate (398 days).
    static let serverLifetime: TimeInterval = 397 * 24 * 3600

    let key: P256Key
    let certificate: X509Certificate
    /// The authority's certificate, DER.
    public let certificateDER: [UInt8]

    /// Makes a new authority for the home of `name` (`constrained: false` only for tests of an authority made
    /// before the Name Constraints).
    public static func make(name: String, now: Date = Date()) throws(TLSError) -> NodeAuthority {
        try make(name: name, now: now, constrained: true)
    }

    static func make(name: String, now: Date, constrained: Bool) throws(TLSError) -> NodeAuthority {
        let key = try P256Key()
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
        ]
        if constrained { extensions.append((NID_name_constraints, LocalNames.constraints)) }
        extensions += [(NID_ext_key_usage, "serverAuth"), (NID_subject_key_identifier, "hash")]
        let certificate = try X509Certificate(
            key: key, commonName: "Caddie node of \(String(name.prefix(40)))", notBefore: now.addingTimeInterval(-3600),
            notAfter: now.addingTimeInterval(lifetime), issuer: nil, extensions: extensions,
            failure: "cannot make the home's certificate authority")
        return try NodeAuthority(key: key, certificate: certificate)
    }

    /// The authority a home keeps: its certificate (DER) and its key (the 32 raw bytes of the P-256 scalar).
    public init(certificateDER: [UInt8], keyBytes: [UInt8]) throws(TLSError) {
        let damaged =
            "the home's certificate authority is damaged: delete authority.der in the home to make a new one"
        guard keyBytes.count == 32, let key = try? P256Key(scalar: keyBytes) else {
            throw .damaged(damaged + " (its key does not read)")
        }
        guard let certificate = X509Certificate(der: certificateDER) else {
            throw .damaged(damaged + " (its certificate does not read)")
        }
        guard caddie_certifies(certificate.pointer, key.pointer) == 1 else {
            throw .damaged("the home's authority certificate does not match its key")
        }
        try self.init(key: key, certificate: certificate)
    }

    init(key: P256Key, certificate: X509Certificate) throws(TLSError) {
        self.key = key
        self.certificate = certificate
        certificateDER = try certificate.der()
    }

    /// The key's 32 raw bytes, to be kept sealed with the home's other secrets.
    public var keyBytes: [UInt8] { key.scalar }

    /// The certificate as PEM, for a `.crt` file.
    public var certificatePEM: String { Self.pem(certificateDER) }

    /// The SHA-256 fingerprint of the certificate, as browsers and phones show it (colon-separated hex).
    public var fingerprint: String { Self.fingerprint(certificateDER) }

    /// A certificate's PEM text.
    public static func pem(_ der: [UInt8]) -> String { PEM.encode(der, label: "CERTIFICATE") }

    /// A certificate's SHA-256 fingerprint, colon-separated hex.
    public static func fingerprint(_ der: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = caddie_sha256(der, der.count, &digest)
        return digest.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// When the authority stops being valid.
    public var validUntil: Date { certificate.notAfter ?? .distantPast }

    /// Whether a node should keep using this authority at `now`: it carries the Name Constraints that keep it to
    /// local names (an authority made before them could vouch for any website) and has more than `renewal` left.
    public func isCurrent(now: Date = Date()) -> Bool {
        Self.constrained(certificate) && validUntil.timeIntervalSince(now) > Self.renewal
    }

    /// Whether a certificate carries the critical Name Constraints of `LocalNames`, whatever the order of its
    /// subtrees.
    static func constrained(_ certificate: X509Certificate) -> Bool {
        guard let constraints = certificate.nameConstraints, constraints.critical,
            let expected = LocalNames.expectedSubtrees
        else { return false }
        return DER.subtrees(of: constraints.value) == expected
    }

    /// When the authority in `der` stops being valid, nil if it does not read.
    public static func validUntil(_ der: [UInt8]) -> Date? { X509Certificate(der: der)?.notAfter }

    /// The subject alternative names of a server certificate for these addresses and names, each checked: a dotted
    /// IPv4 address or a host name, and one the authority may vouch for (`LocalNames`); in OpenSSL's syntax
    /// (`IP:192.168.1.20`, `DNS:caddie.test`). A node checks what it was given with it before it makes or changes
    /// anything.
    static func alternatives(addresses: [String], names: [String]) throws(TLSError) -> [String] {
        var alternatives: [String] = []
        for address in addresses {
            guard let bytes = IPv4.bytes(address) else { throw .notIPv4(address) }
            guard LocalNames.permits(address: bytes) else { throw .notLocalAddress(address) }
            alternatives.append("IP:" + bytes.map(String.init).joined(separator: "."))
        }
        let label = "[A-Za-z0-9][A-Za-z0-9-]{0,62}"
        for name in names {
            guard name.range(of: "^\(label)(\\.\(label))*$", options: .regularExpression) != nil else {
                throw .notHostName(name)
            }
            guard LocalNames.permits(name: name) else { throw .notLocalName(name) }
            alternatives.append("DNS:" + name.lowercased())
        }
        return alternatives
    }

    /// Checks addresses and names as `alternatives` does, saying what is wrong with the first that fails.
    public static func check(addresses: [String], names: [String]) throws(TLSError) {
        _ = try alternatives(addresses: addresses, names: names)
    }

    /// Issues a server certificate for the IP addresses and host names the node serves, with a new key. Every
    /// address and name must be one `LocalNames` permits: the authority's constraints would refuse any other.
    public func issue(addresses: [String], names: [String], now: Date = Date()) throws(TLSError) -> ServerCertificate {
        let alternatives = try Self.alternatives(addresses: addresses, names: names)
        guard !alternatives.isEmpty else { throw .nothingToName }
        // The subject names the node in words, never by its address: where a certificate names no host, OpenSSL
        // checks a host-like common name against the authority's permitted names, and an address is under none of
        // them (every OpenSSL client refused a node reached by its address alone).
        let (der, keyPEM) = try sign(
            commonName: names.first ?? "Caddie node", alternatives: alternatives, now: now,
            notAfter: min(now.addingTimeInterval(Self.serverLifetime), validUntil))
        return ServerCertificate(
            chain: [der, certificateDER], keyPEM: keyPEM, addresses: addresses, names: names.map { $0.lowercased() })
    }

    /// A server certificate for these subject alternative names (OpenSSL's syntax, unchecked) signed with the
    /// authority's key, as DER, with its new key's PEM: what `issue` makes once it has checked the names, and what a
    /// test makes to forge a certificate the constraints must refuse.
    func sign(commonName: String, alternatives: [String], now: Date, notAfter: Date) throws(TLSError) -> ([UInt8], String) {
        let serverKey = try P256Key()
        let leaf = try X509Certificate(
            key: serverKey, commonName: commonName, notBefore: now.addingTimeInterval(-3600), notAfter: notAfter,
            issuer: (certificate, key),
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, alternatives.joined(separator: ",")),
                (NID_authority_key_identifier, "keyid:always"),
            ], failure: "cannot issue the node's certificate")
        return (try leaf.der(), try serverKey.pem())
    }
}

/// A server certificate the authority issued: the chain (the node's certificate, then the authority's) and its key.
public struct ServerCertificate: Sendable {
    /// DER certificates, the node's first.
    public let chain: [[UInt8]]
    /// The node's private key, PEM (PKCS #8).
    public let keyPEM: String
    /// The addresses and names it is valid for.
    public let addresses: [String]
    public let names: [String]
}

/// What went wrong making or reading certificates, in words a person can act on.
public enum TLSError: Error, CustomStringConvertible, Sendable {
    /// An address a certificate was asked to name is not a dotted IPv4 address.
    case notIPv4(String)
    /// A name a certificate was asked to name is not a host name.
    case notHostName(String)
    /// An address outside the private, link-local and loopback IPv4 ranges (`LocalNames`).
    case notLocalAddress(String)
    /// A name outside the suffixes `LocalNames` permits.
    case notLocalName(String)
    /// A server certificate was asked for with no address and no name.
    case nothingToName
    /// The home's stored authority does not read, or its certificate does not match its key; the text says what
    /// to do.
    case damaged(String)
    /// Making, encoding or using a certificate failed in the X.509 or TLS library; the text says which step.
    case failed(String)

    public var description: String {
        switch self {
        case .notIPv4(let address): "'\(address)' is not an IPv4 address"
        case .notHostName(let name): "'\(name)' is not a host name (letters, digits, '-' and '.')"
        case .notLocalAddress(let address):
            "'\(address)' is not an address of a local network: the node's certificate names only private "
                + "(10/8, 172.16/12, 192.168/16), link-local (169.254/16) and loopback (127/8) addresses"
        case .notLocalName(let name):
            "'\(name)' is not a local name: the node's certificate names only names ending in "
                + LocalNames.suffixes.map { ".\($0)" }.joined(separator: ", ")
                + " (this machine's .local name, for one), never a website's"
        case .nothingToName: "a server certificate needs an address or a name"
        case .damaged(let text), .failed(let text): text
        }
    }
}

/// What a node on a course can be called, and so all the home's authority may vouch for: the private, link-local
/// and loopback IPv4 ranges, and names under suffixes that no public website can have (RFC 6762's `.local`,
/// RFC 8375's `.home.arpa`, `.internal`, and RFC 6761's `.test` and `localhost`).
public enum LocalNames {
    /// The permitted DNS suffixes: a name is one of them or ends in "." and one of them.
    public static let suffixes = ["local", "home.arpa", "internal", "test", "localhost"]
    /// The permitted IPv4 ranges: network and prefix length.
    static let ranges: [(network: [UInt8], prefix: Int)] = [
        ([10, 0, 0, 0], 8), ([172, 16, 0, 0], 12), ([192, 168, 0, 0], 16), ([169, 254, 0, 0], 16), ([127, 0, 0, 0], 8),
    ]

    /// The four bytes of a network mask of `prefix` bits.
    static func mask(_ prefix: Int) -> [UInt8] {
        (0..<4).map { index in
            let bits = min(8, max(0, prefix - index * 8))
            return bits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }

    /// Whether the four bytes of an IPv4 address lie in a permitted range.
    public static func permits(address bytes: [UInt8]) -> Bool {
        guard bytes.count == 4 else { return false }
        return ranges.contains { range in
            zip(zip(bytes, range.network), mask(range.prefix)).allSatisfy { ($0.0 & $1) == ($0.1 & $1) }
        }
    }

    /// Whether a dotted IPv4 address lies in a permitted range.
    public static func permits(address: String) -> Bool { IPv4.bytes(address).map { permits(address: $0) } ?? false }

    /// Whether a host name is under a permitted suffix.
    public static func permits(name: String) -> Bool {
        let name = name.lowercased()
        return suffixes.contains { name == $0 || name.hasSuffix("." + $0) }
    }

    /// The authority's critical Name Constraints in OpenSSL's syntax: the permitted ranges and suffixes; every
    /// IPv6 address, and every e-mail address and URI, excluded (permitted only under `invalid`, which nothing is).
    static var constraints: String {
        var parts = ["critical"]
        parts += suffixes.map { "permitted;DNS:\($0)" }
        parts += ranges.map { range in
            "permitted;IP:" + range.network.map(String.init).joined(separator: ".") + "/"
                + mask(range.prefix).map(String.init).joined(separator: ".")
        }
        parts += ["permitted;email:invalid", "permitted;URI:invalid", "excluded;IP:::/::"]
        return parts.joined(separator: ",")
    }

    /// The subtrees of `constraints`, as an authority made now carries them: what `isCurrent` compares an
    /// authority's own with, in any order. Nil if OpenSSL cannot make them (never, for these values).
    static let expectedSubtrees: DER.Subtrees? = {
        guard let key = try? P256Key(),
            let certificate = try? X509Certificate(
                key: key, commonName: "constraints", notBefore: Date(), notAfter: Date().addingTimeInterval(60),
                issuer: nil, extensions: [(NID_name_constraints, constraints)], failure: ""),
            let value = certificate.nameConstraints?.value
        else { return nil }
        return DER.subtrees(of: value)
    }()
}

/// PEM text: base64 of DER between labelled lines.
enum PEM {
    static func encode(_ der: [UInt8], label: String) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }
}

/// Dotted IPv4 addresses.
enum IPv4 {
    /// The four bytes of a plain dotted address ("192.168.1.20"), nil for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = UInt8(part),
                part == "0" || !part.hasPrefix("0")
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }
}
