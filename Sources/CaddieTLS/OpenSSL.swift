import COpenSSL
import Foundation

/// A P-256 key held by libcrypto, freed with the value.
final class P256Key: @unchecked Sendable {
    // Never changed after init; libcrypto's key objects may be read from several threads.
    let pointer: OpaquePointer

    /// A new random key.
    init() throws(TLSError) {
        guard let made = caddie_p256_key(nil) else { throw .failed("cannot make a P-256 key (libcrypto)") }
        pointer = made
    }

    /// The key of a 32-byte private scalar.
    init(scalar: [UInt8]) throws(TLSError) {
        guard scalar.count == 32, let made = caddie_p256_key(scalar) else {
            throw .damaged("not a P-256 private key (32 bytes, below the group order)")
        }
        pointer = made
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The 32-byte private scalar.
    var scalar: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        _ = caddie_p256_scalar(pointer, &bytes)
        return bytes
    }

    /// The key as PKCS #8 PEM ("BEGIN PRIVATE KEY").
    func pem() throws(TLSError) -> String {
        guard let text = caddie_key_pem(pointer) else { throw .failed("cannot write the node's key as PEM (libcrypto)") }
        defer { caddie_free(text) }
        return String(cString: text)
    }
}

/// An X.509 certificate held by libcrypto, freed with the value.
final class X509Certificate: @unchecked Sendable {
    // Never changed after init.
    let pointer: OpaquePointer

    /// Makes and signs a certificate of `key` (see `caddie_certificate`): self-signed when `issuer` is nil.
    init(
        key: P256Key, commonName: String, notBefore: Date, notAfter: Date, issuer: (X509Certificate, P256Key)?,
        extensions: [(Int32, String)], failure: String
    ) throws(TLSError) {
        let nids = extensions.map(\.0)
        let values = extensions.map { strdup($0.1) }
        defer { values.forEach { free($0) } }
        let made = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
            caddie_certificate(
                key.pointer, commonName, Int64(notBefore.timeIntervalSince1970), Int64(notAfter.timeIntervalSince1970),
                issuer?.0.pointer, issuer?.1.pointer ?? key.pointer, nids, valuePointers.baseAddress,
                Int32(extensions.count))
        }
        guard let made else {
            ERR_clear_error()
            throw .failed("\(failure) (libcrypto refused the certificate)")
        }
        pointer = made
    }

    /// A certificate from DER; nil when it does not read.
    init?(der: [UInt8]) {
        guard let read = caddie_read_certificate(der, der.count) else {
            ERR_clear_error()
            return nil
        }
        pointer = read
    }

    deinit { X509_free(pointer) }

    /// The certificate's DER.
    func der() throws(TLSError) -> [UInt8] {
        var length: Int32 = 0
        guard let bytes = caddie_der(pointer, &length) else { throw .failed("cannot encode a certificate (libcrypto)") }
        defer { caddie_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }

    /// When it stops being valid.
    var notAfter: Date? {
        var seconds: Int64 = 0
        return caddie_not_after(pointer, &seconds) == 1 ? Date(timeIntervalSince1970: Double(seconds)) : nil
    }

    /// When it starts being valid.
    var notBefore: Date? {
        var seconds: Int64 = 0
        return caddie_not_before(pointer, &seconds) == 1 ? Date(timeIntervalSince1970: Double(seconds)) : nil
    }

    /// Its Name Constraints extension: the value's DER and whether it is critical; nil without one.
    var nameConstraints: (value: [UInt8], critical: Bool)? {
        var bytes: UnsafePointer<UInt8>?
        var length: Int32 = 0
        var critical: Int32 = 0
        guard caddie_name_constraints(pointer, &bytes, &length, &critical) == 1, let bytes else { return nil }
        return (Array(UnsafeBufferPointer(start: bytes, count: Int(length))), critical == 1)
    }
}

/// Just enough DER to compare two Name Constraints by what they permit and exclude, whatever the order of their
/// subtrees (an authority made by an earlier version of Caddie lists them in another order).
enum DER {
    /// The permitted and excluded subtrees, each as its encoded bytes.
    struct Subtrees: Equatable, Sendable {
        var permitted: Set<[UInt8]> = []
        var excluded: Set<[UInt8]> = []
    }

    /// The subtrees of a NameConstraints value (RFC 5280 4.2.1.10); nil when it does not read.
    static func subtrees(of value: [UInt8]) -> Subtrees? {
        guard let outer = element(value[...]), outer.tag == 0x30, outer.rest.isEmpty else { return nil }
        var result = Subtrees()
        var cursor = outer.content
        while !cursor.isEmpty {
            guard let part = element(cursor), part.tag == 0xA0 || part.tag == 0xA1 else { return nil }
            var trees = part.content
            while !trees.isEmpty {
                guard let tree = element(trees) else { return nil }
                let bytes = Array(trees[trees.startIndex..<tree.rest.startIndex])
                if part.tag == 0xA0 { result.permitted.insert(bytes) } else { result.excluded.insert(bytes) }
                trees = tree.rest
            }
            cursor = part.rest
        }
        return result
    }

    /// One element: its tag, its content, and what follows it; nil when it does not read.
    static func element(_ bytes: ArraySlice<UInt8>) -> (tag: UInt8, content: ArraySlice<UInt8>, rest: ArraySlice<UInt8>)? {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        index += 1
        guard index < bytes.endIndex else { return nil }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...3).contains(count), bytes.endIndex - index >= count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard bytes.endIndex - index >= length else { return nil }
        return (tag, bytes[index..<index + length], bytes[(index + length)...])
    }
}
