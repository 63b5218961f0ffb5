import NIOSSL

extension ServerCertificate {
    /// The server side of TLS with this certificate: TLS 1.2 or later, the chain up to the home's authority.
    public func serverConfiguration() throws(TLSError) -> TLSConfiguration {
        do {
            let certificates = try chain.map { try NIOSSLCertificate(bytes: $0, format: .der) }
            let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            return configuration
        } catch {
            throw .failed("cannot use the node's certificate for TLS: \(error)")
        }
    }
}
