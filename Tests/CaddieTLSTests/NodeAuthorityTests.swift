import Foundation
import Testing
import X509

@testable import CaddieTLS

@Suite("The home's certificate authority and the node's server certificates")
struct NodeAuthorityTests {
    @Test("the authority signs a server certificate for the node's addresses and names, for serving only")
    func issues() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        let server = try authority.issue(addresses: ["192.168.1.20", "127.0.0.1"], names: ["caddie.test"])
        #expect(server.chain.count == 2 && server.chain[1] == authority.certificateDER)
        let leaf = try Certificate(derEncoded: server.chain[0])
        let root = try Certificate(derEncoded: authority.certificateDER)
        #expect(leaf.issuer == root.subject)
        #expect(root.publicKey.isValidSignature(leaf.signature, for: leaf), "signed by the authority's key")
        let names = try #require(try leaf.extensions.subjectAlternativeNames)
        #expect(names.contains(.dnsName("caddie.test")))
        #expect(names.contains(.ipAddress(.init(contentBytes: [192, 168, 1, 20]))))
        #expect(names.contains(.ipAddress(.init(contentBytes: [127, 0, 0, 1]))))
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        // Within what browsers accept of any server certificate (398 days).
        #expect(leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) <= 398 * 24 * 3600)
        #expect(server.keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        _ = try server.serverConfiguration()
    }

    @Test("an authority read back from its certificate and key is the same; a key of another is refused")
    func storedAuthority() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        let again = try NodeAuthority(certificateDER: authority.certificateDER, keyBytes: authority.keyBytes)
        #expect(again.fingerprint == authority.fingerprint)
        #expect(authority.fingerprint.split(separator: ":").count == 32)
        #expect(authority.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        let other = try NodeAuthority.make(name: "Mal")
        #expect(throws: TLSError.self) {
            try NodeAuthority(certificateDER: authority.certificateDER, keyBytes: other.keyBytes)
        }
        #expect(throws: TLSError.self) { try NodeAuthority(certificateDER: [0x30, 0x01], keyBytes: authority.keyBytes) }
    }

    @Test("a bad address or name is refused, saying which")
    func badInput() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        for (addresses, names, said) in [
            (["192.168.1.010"], [String](), "192.168.1.010"), (["::1"], [], "::1"), ([], ["bad name"], "bad name"),
            ([], [], "needs an address or a name"),
        ] {
            do {
                _ = try authority.issue(addresses: addresses, names: names)
                Issue.record("\(addresses) \(names) was accepted")
            } catch {
                #expect(error.description.contains(said), "\(error)")
            }
        }
    }
}
