import Foundation
import Testing

@testable import CaddieTLS

@Suite("The home's certificate authority and the node's server certificates")
struct NodeAuthorityTests {
    @Test("the authority signs a server certificate for the node's addresses and names, for serving only")
    func issues() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        let server = try authority.issue(addresses: ["192.168.1.20", "127.0.0.1"], names: ["caddie.test"])
        #expect(server.chain.count == 2 && server.chain[1] == authority.certificateDER)
        // Read back by OpenSSL's own command, not by the code that wrote them.
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = try Self.write(authority.certificatePEM, "authority.pem", in: directory)
        let leafPEM = try Self.write(NodeAuthority.pem(server.chain[0]), "leaf.pem", in: directory)
        let verified = try Self.run("/usr/bin/openssl", ["verify", "-CAfile", ca.path, leafPEM.path])
        #expect(verified.status == 0 && verified.output.contains("OK"), "signed by the authority: \(verified.output)")
        let leaf = try Self.run("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", leafPEM.path]).output
        let root = try Self.run("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", ca.path]).output
        #expect(leaf.contains("DNS:caddie.test") && leaf.contains("IP Address:192.168.1.20"), "\(leaf)")
        #expect(leaf.contains("IP Address:127.0.0.1"))
        #expect(leaf.contains("CA:FALSE") && leaf.contains("TLS Web Server Authentication"), "\(leaf)")
        #expect(leaf.contains("Issuer: O = Caddie, CN = Caddie node of Ana"), "\(leaf)")
        #expect(root.contains("CA:TRUE, pathlen:0") && root.contains("Certificate Sign, CRL Sign"), "\(root)")
        // Within what browsers accept of any server certificate (398 days).
        let certificate = try #require(X509Certificate(der: server.chain[0]))
        let lifetime = try #require(certificate.notAfter).timeIntervalSince(try #require(certificate.notBefore))
        #expect(lifetime <= 398 * 24 * 3600 && lifetime > 390 * 24 * 3600)
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

    @Test("a bad address or name is refused: not local, or not an address or a name")
    func outsideLocalNames() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        for (addresses, names, said) in [
            (["8.8.8.8"], [String](), "not an address of a local network"),
            (["172.32.0.1"], [], "not an address of a local network"),
            ([], ["accounts.google.com"], "not a local name"), ([], ["local.example.com"], "not a local name"),
            ([], ["caddie"], "not a local name"),
        ] {
            #expect(throws: TLSError.self, "\(addresses) \(names) \(said)") {
                try authority.issue(addresses: addresses, names: names)
            }
        }
        for ok in ["10.1.2.3", "172.31.255.1", "192.168.1.20", "169.254.3.4", "127.0.0.1"] {
            #expect(LocalNames.permits(address: ok), "\(ok)")
        }
        for name in ["ana-laptop.local", "clubhouse.home.arpa", "node.internal", "caddie.test", "localhost"] {
            #expect(LocalNames.permits(name: name), "\(name)")
        }
        _ = try authority.issue(addresses: ["192.168.1.20"], names: ["ana-laptop.local", "caddie.test"])
    }

    @Test("the authority's critical Name Constraints make any other site's certificate fail in OpenSSL and Python's ssl")
    func nameConstraintsHold() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        let constraints = try #require(authority.certificate.nameConstraints)
        #expect(constraints.critical)
        let subtrees = try #require(DER.subtrees(of: constraints.value))
        #expect(subtrees.permitted.count == 5 + 5 + 2 && subtrees.excluded.count == 1, "\(subtrees)")
        let lifetime = try #require(authority.certificate.notAfter).timeIntervalSince(
            try #require(authority.certificate.notBefore))
        #expect(lifetime < 3 * 365 * 24 * 3600, "not a decade")
        #expect(authority.isCurrent())
        // Whoever holds the authority's key signs a certificate for a website, bypassing `issue`'s own check: the
        // constraints still make every client that trusts the authority refuse it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-nc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = directory.appendingPathComponent("authority.pem")
        try authority.certificatePEM.write(to: ca, atomically: true, encoding: .utf8)
        for (name, address, accepted) in [
            ("accounts.google.com", [UInt8]([8, 8, 8, 8]), false), ("caddie.test", [UInt8]([192, 168, 1, 20]), true),
        ] {
            let (leaf, key) = try Self.forged(authority: authority, name: name, address: address)
            let leafURL = directory.appendingPathComponent("\(name).pem")
            let keyURL = directory.appendingPathComponent("\(name).key")
            try leaf.write(to: leafURL, atomically: true, encoding: .utf8)
            try key.write(to: keyURL, atomically: true, encoding: .utf8)
            let openssl = try Self.run(
                "/usr/bin/openssl", ["verify", "-CAfile", ca.path, "-verify_hostname", name, leafURL.path])
            let python = try Self.run(
                "/usr/bin/env", ["python3", "-c", Self.handshake, ca.path, leafURL.path, keyURL.path, name])
            if accepted {
                #expect(openssl.status == 0, "\(openssl.output)")
                #expect(python.output.contains("verified"), "\(python.output)")
            } else {
                #expect(openssl.status != 0 && openssl.output.contains("subtree violation"), "\(openssl.output)")
                #expect(python.output.contains("CERTIFICATE_VERIFY_FAILED"), "\(python.output)")
            }
        }
    }

    @Test("a certificate for addresses alone (a node reached by its IP, no name) verifies in OpenSSL and Python's ssl")
    func addressesAloneVerify() throws {
        let authority = try NodeAuthority.make(name: "Ana")
        let server = try authority.issue(addresses: ["127.0.0.1", "192.168.1.20"], names: [])
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = try Self.write(authority.certificatePEM, "authority.pem", in: directory)
        let leaf = try Self.write(NodeAuthority.pem(server.chain[0]), "leaf.pem", in: directory)
        let key = try Self.write(server.keyPEM, "leaf.key", in: directory)
        // OpenSSL checks a subject's common name as a host name where the certificate names no host: an address
        // there is under none of the permitted names, and every OpenSSL client refused the node by its address.
        let openssl = try Self.run("/usr/bin/openssl", ["verify", "-CAfile", ca.path, "-verify_ip", "127.0.0.1", leaf.path])
        #expect(openssl.status == 0, "\(openssl.output)")
        let python = try Self.run("/usr/bin/env", ["python3", "-c", Self.handshake, ca.path, leaf.path, key.path, "127.0.0.1"])
        #expect(python.output.contains("verified"), "\(python.output)")
    }

    @Test("an authority made before the Name Constraints, or near its end, is not current: the node makes a new one")
    func renewal() throws {
        let old = try NodeAuthority.make(name: "Ana", now: Date().addingTimeInterval(-800 * 24 * 3600))
        #expect(!old.isCurrent(), "25 days left is within the renewal")
        #expect(old.isCurrent(now: Date().addingTimeInterval(-700 * 24 * 3600)))
        let unconstrained = try NodeAuthority.make(name: "Ana", now: Date(), constrained: false)
        #expect(unconstrained.certificate.nameConstraints == nil)
        #expect(!unconstrained.isCurrent(), "an authority with no constraints")
        // A server certificate never outlives its authority.
        let server = try old.issue(addresses: ["127.0.0.1"], names: [])
        #expect(try #require(X509Certificate(der: server.chain[0])?.notAfter) <= old.validUntil)
    }

    @Test("an authority an earlier version made (its subtrees in another order) is still current: phones keep it")
    func earlierAuthorityStaysCurrent() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/authority-1.der")
        let certificate = try #require(X509Certificate(der: [UInt8](try Data(contentsOf: fixture))))
        #expect(NodeAuthority.constrained(certificate))
        // The same subtrees, made now: equal as sets, whatever the order.
        let made = try NodeAuthority.make(name: "Ana")
        #expect(
            DER.subtrees(of: try #require(certificate.nameConstraints).value)
                == DER.subtrees(of: try #require(made.certificate.nameConstraints).value))
        // One byte of a subtree changed (the excluded IPv6 range): not the same constraints.
        var value = try #require(certificate.nameConstraints).value
        value[value.count - 1] ^= 0xFF
        #expect(DER.subtrees(of: value) != DER.subtrees(of: try #require(made.certificate.nameConstraints).value))
    }

    /// A server certificate for `name` and `address` signed with the authority's key directly (bypassing `issue`'s
    /// own check), as its PEM and its key's PEM.
    static func forged(authority: NodeAuthority, name: String, address: [UInt8]) throws -> (String, String) {
        let (der, key) = try authority.sign(
            commonName: name, alternatives: ["DNS:\(name)", "IP:" + address.map(String.init).joined(separator: ".")],
            now: Date(), notAfter: Date().addingTimeInterval(30 * 24 * 3600))
        return (NodeAuthority.pem(der), key)
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A TLS server with the certificate and a client trusting only the authority, in one Python process.
    static let handshake = """
        import socket, ssl, sys, threading
        ca, cert, key, name = sys.argv[1:5]
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); server.load_cert_chain(cert, key)
        listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(1)
        def serve():
            connection, _ = listener.accept()
            try: server.wrap_socket(connection, server_side=True).close()
            except Exception: connection.close()
        threading.Thread(target=serve, daemon=True).start()
        client = ssl.create_default_context(cafile=ca)
        try:
            client.wrap_socket(socket.create_connection(listener.getsockname(), timeout=10), server_hostname=name).close()
            print("verified")
        except Exception as error:
            print("%s: %s" % (type(error).__name__, error))
        """

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
