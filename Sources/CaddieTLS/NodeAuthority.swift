import Crypto
import Foundation
import SwiftASN1
import X509

/// A home's own certificate authority: a P-256 key and a self-signed certificate, made once. A phone trusts it
/// once (docs/web.md, "HTTPS on the course"), and from then on every certificate the node issues itself for the
/// addresses it serves, so the web app is a secure context on a course with no internet and no public authority.
public struct NodeAuthority: Sendable {
    /// How long the authority is valid: long, as a phone trusts it by hand.
    static let lifetime: TimeInterval = 10 * 365 * 24 * 3600
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

    /// Issues a server certificate for the IP addresses and host names the node serves, with a new key.
    public func issue(addresses: [String], names: [String], now: Date = Date()) throws(TLSError) -> ServerCertificate {
        var alternatives: [GeneralName] = []
        for address in addresses {
            guard let bytes = IPv4.bytes(address) else { throw .notIPv4(address) }
            alternatives.append(.ipAddress(ASN1OctetString(contentBytes: bytes[...])))
        }
        let label = "[A-Za-z0-9][A-Za-z0-9-]{0,62}"
        for name in names {
            guard name.range(of: "^\(label)(\\.\(label))*$", options: .regularExpression) != nil else {
                throw .notHostName(name)
            }
            alternatives.append(.dnsName(name.lowercased()))
        }
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
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.serverLifetime),
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
        case .nothingToName: "a server certificate needs an address or a name"
        case .damaged(let text), .failed(let text): text
        }
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
