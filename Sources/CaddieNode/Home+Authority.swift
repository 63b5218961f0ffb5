import CaddieCore
import Foundation

/// The home's certificate authority, as kept: its certificate beside the other files (public: phones are given
/// it to trust), its key sealed with the home's other secrets. Making and using certificates is CaddieTLS's;
/// the home only keeps the bytes.
extension Home {
    var authorityURL: URL { directory.appendingPathComponent("authority.der") }

    /// The authority's certificate (DER), if the home has made one: what a phone trusts.
    public func authorityCertificate() -> [UInt8]? {
        FileManager.default.contents(atPath: authorityURL.path).map { [UInt8]($0) }
    }

    /// The authority as kept: its certificate and its key; nil when the home has none (or only half of one, which
    /// `caddie serve --https` then replaces with a new authority that phones must trust again).
    public func storedAuthority(keys: UnlockedKeys) -> (certificate: [UInt8], key: [UInt8])? {
        guard let certificate = authorityCertificate(), let key = keys.ring.authorityKey.flatMap(Hex.decode) else {
            return nil
        }
        return (certificate, key)
    }

    /// Keeps a new authority: the key sealed into the home's keys (with the key the unlock kept), then the
    /// certificate.
    public func keepAuthority(certificate: [UInt8], key: [UInt8], keys: UnlockedKeys) throws(NodeError) {
        try keys.change(in: self) { $0.authorityKey = Hex.encode(key) }
        try atomicWrite(Data(certificate), to: authorityURL, permissions: 0o644)
    }
}
