import Crypto
import Foundation
import SwiftASN1
import X509

/// A home's own certificate authority: a P-256 key and a self-signed certificate, made once. A phone trusts it
/// once (docs/web.md, "HTTPS on the course"), and from then on every certificate the node issues itself for the
/// addresses it serves, so the web app is a secure context on a course with no internet and no public authority.
///
/// The authority can vouch only for what a node on a course can be called (`LocalNames`): a critical Name
/// Constraints extension permits the private, link-local and loopback IPv4 ranges and names under suffixes no
/// public website has, and excludes every IPv6 address, e-mail address and URI. A phone that trusts it can be shown
/// no other site's certificate, whoever holds the key.
public struct NodeAuthority: Sendable {
    /// How long the authority is valid: a phone trusts it by hand, so a couple of seasons, not a decade.
    static let lifetime: TimeInterval = 825 * 24 * 3600
    /// A node makes a new authority when its own has less than this left (phones then trust the new one).
    public static let renewal: TimeInterval = 60 * 24 * 3600
    /// How long a server certificate is valid: within what browsers accept of any certificate (398 days).
    static let serverLifetime: TimeInterval = 397 * 24 * 3600

    let key: P256.Signing.PrivateKey
    let certificate: Certificate
    /// The authority's certificate, DER.
    public let certificateDER: [UInt8]

    /// Makes a new authority for the home of `name`.
    public static func make(name: String, now: Date = Date()) throws(TLSError) -> NodeAuthority {
        let key = P256.Signing.PrivateKey()
        let signer = Certificate.PrivateKey(key)
        do {
            let subject = try DistinguishedName {
                OrganizationName("Caddie")
                CommonName("Caddie node of \(String(name.prefix(40)))")
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signer.publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(lifetime),
                issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    Critical(LocalNames.constraints)
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectKeyIdentifier(hash: signer.publicKey)
                },
                issuerPrivateKey: signer)
            return try NodeAuthority(key: key, certificate: certificate)
        } catch let error as TLSError {
            throw error
        } catch {
            throw .failed("cannot make the home's certificate authority: \(error)")
        }
    }

    /// The authority a home keeps: its certificate (DER) and its key (the 32 raw bytes of the P-256 scalar).
    public init(certificateDER: [UInt8], keyBytes: [UInt8]) throws(TLSError) {
        do {
            let key = try P256.Signing.PrivateKey(rawRepresentation: keyBytes)
            let certificate = try Certificate(derEncoded: certificateDER)
            guard certificate.publicKey == Certificate.PrivateKey(key).publicKey else {
                throw TLSError.damaged("the home's authority certificate does not match its key")
            }
            try self.init(key: key, certificate: certificate)
        } catch let error as TLSError {
            throw error
        } catch {
            throw .damaged(
                "the home's certificate authority is damaged (\(error)): delete authority.der in the home to make a new one")
        }
    }

    init(key: P256.Signing.PrivateKey, certificate: Certificate) throws(TLSError) {
        self.key = key
        self.certificate = certificate
        var serializer = DER.Serializer()
        do { try serializer.serialize(certificate) } catch { throw .failed("cannot encode a certificate: \(error)") }
        certificateDER = serializer.serializedBytes
    }

    /// The key's 32 raw bytes, to be kept sealed with the home's other secrets.
    public var keyBytes: [UInt8] { Array(key.rawRepresentation) }

    /// The certificate as PEM, for a `.crt` file.
    public var certificatePEM: String { Self.pem(certificateDER) }

    /// The SHA-256 fingerprint of the certificate, as browsers and phones show it (colon-separated hex).
    public var fingerprint: String { Self.fingerprint(certificateDER) }

    /// A certificate's PEM text.
    public static func pem(_ der: [UInt8]) -> String { PEM.encode(der, label: "CERTIFICATE") }

    /// A certificate's SHA-256 fingerprint, colon-separated hex.
    public static func fingerprint(_ der: [UInt8]) -> String {
        SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// When the authority stops being valid.
    public var validUntil: Date { certificate.notValidAfter }

    /// Whether a node should keep using this authority at `now`: it carries the Name Constraints that keep it to
    /// local names (an authority made before them could vouch for any website) and has more than `renewal` left.
    public func isCurrent(now: Date = Date()) -> Bool {
        let constrained = (try? certificate.extensions.nameConstraints).flatMap { $0 } == LocalNames.constraints
        return constrained && certificate.notValidAfter.timeIntervalSince(now) > Self.renewal
    }

    /// When the authority in `der` stops being valid, nil if it does not read.
    public static func validUntil(_ der: [UInt8]) -> Date? { (try? Certificate(derEncoded: der))?.notValidAfter }

    /// The subject alternative names of a server certificate for these addresses and names, each checked: a dotted
    /// IPv4 address or a host name, and one the authority may vouch for (`LocalNames`). A node checks what it was
    /// given with it before it makes or changes anything.
    public static func alternatives(addresses: [String], names: [String]) throws(TLSError) -> [GeneralName] {
        var alternatives: [GeneralName] = []
        for address in addresses {
            guard let bytes = IPv4.bytes(address) else { throw .notIPv4(address) }
            guard LocalNames.permits(address: bytes) else { throw .notLocalAddress(address) }
            alternatives.append(.ipAddress(ASN1OctetString(contentBytes: bytes[...])))
        }
        let label = "[A-Za-z0-9][A-Za-z0-9-]{0,62}"
        for name in names {
            guard name.range(of: "^\(label)(\\.\(label))*$", options: .regularExpression) != nil else {
                throw .notHostName(name)
            }
            guard LocalNames.permits(name: name) else { throw .notLocalName(name) }
            alternatives.append(.dnsName(name.lowercased()))
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
        let serverKey = P256.Signing.PrivateKey()
        let signer = Certificate.PrivateKey(key)
        do {
            let subject = try DistinguishedName {
                OrganizationName("Caddie")
                CommonName(names.first ?? addresses[0])
            }
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PrivateKey(serverKey).publicKey,
                notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: min(now.addingTimeInterval(Self.serverLifetime), certificate.notValidAfter),
                issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(alternatives)
                    AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: signer.publicKey).keyIdentifier)
                },
                issuerPrivateKey: signer)
            var serializer = DER.Serializer()
            try serializer.serialize(leaf)
            return ServerCertificate(
                chain: [serializer.serializedBytes, certificateDER], keyPEM: serverKey.pemRepresentation,
                addresses: addresses, names: names.map { $0.lowercased() })
        } catch let error as TLSError {
            throw error
        } catch {
            throw .failed("cannot issue the node's certificate: \(error)")
        }
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

    /// The authority's critical Name Constraints: the permitted ranges and suffixes; every IPv6 address, and
    /// every e-mail address and URI, excluded.
    static var constraints: NameConstraints {
        NameConstraints(
            permittedDNSDomains: suffixes,
            permittedIPRanges: ranges.map { ASN1OctetString(contentBytes: ($0.network + mask($0.prefix))[...]) },
            excludedIPRanges: [ASN1OctetString(contentBytes: [UInt8](repeating: 0, count: 32)[...])],
            permittedEmailAddresses: ["invalid"], permittedURIDomains: ["invalid"])
    }
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
