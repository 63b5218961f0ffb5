import CaddieCore
import Testing

@testable import CaddieCrypto

@Suite("libsodium primitives")
struct CryptoTests {
    @Test("BLAKE2b-256 matches the published digest of the empty string and of 'abc'")
    func blake2bVectors() {
        // BLAKE2b-256 reference values (RFC 7693 parameters, 32-byte output).
        #expect(Blake2b.hash([UInt8]()).hex == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
        #expect(Blake2b.hash(Array("abc".utf8)).hex == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
        var hasher = Blake2bHasher()
        hasher.update(Array("a".utf8))
        hasher.update(Array("bc".utf8))
        #expect(hasher.finalize() == Blake2b.hash(Array("abc".utf8)))
    }

    @Test("Ed25519 matches RFC 8032 test 1 and rejects a changed message")
    func ed25519Vector() throws {
        // RFC 8032 section 7.1, TEST 1 (empty message).
        let seed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60") ?? []
        let key = try SigningKey(seed: seed)
        #expect(key.publicKey.hex == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = key.sign([UInt8]())
        #expect(
            Hex.encode(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        #expect(Ed25519.verify(signature, message: [UInt8](), key: key.publicKey))
        #expect(!Ed25519.verify(signature, message: [0], key: key.publicKey))
        #expect(!Ed25519.verify(signature, message: [UInt8](), context: [1], key: key.publicKey))
    }

    @Test("sealed keys open with the passphrase and refuse another or a damaged file")
    func sealedBox() throws {
        let secret = SecureRandom.bytes(80)
        let sealed = try SealedBox.seal(secret, passphrase: "correct horse")
        #expect(try SealedBox.open(sealed, passphrase: "correct horse") == secret)
        #expect(throws: CryptoError.wrongPassphrase) { try SealedBox.open(sealed, passphrase: "wrong") }
        var damaged = sealed
        damaged[damaged.count - 1] ^= 1
        #expect(throws: CryptoError.wrongPassphrase) { try SealedBox.open(damaged, passphrase: "correct horse") }
        #expect(throws: CryptoError.self) { try SealedBox.open(Array(sealed.prefix(20)), passphrase: "correct horse") }
        #expect(!sealed.containsSubsequence(secret))
    }

    @Test("a device certificate and a membership proof verify only for what they were made for")
    func membership() {
        let user = SigningKey.generate()
        let device = SigningKey.generate()
        let other = SigningKey.generate()
        let signature = Membership.certify(device: device.publicKey, by: user, at: 99)
        #expect(
            Membership.verifyCertificate(user: user.publicKey, device: device.publicKey, certifiedAt: 99, signature: signature))
        #expect(
            !Membership.verifyCertificate(user: user.publicKey, device: other.publicKey, certifiedAt: 99, signature: signature))
        #expect(
            !Membership.verifyCertificate(user: user.publicKey, device: device.publicKey, certifiedAt: 98, signature: signature))
        let space = SecureRandom.spaceID()
        let key = SecureRandom.bytes(32)
        let proof = Membership.membershipProof(space: space, spaceKey: key, device: device.publicKey, user: user.publicKey)
        #expect(
            Membership.verifyMembershipProof(proof, space: space, spaceKey: key, device: device.publicKey, user: user.publicKey))
        #expect(
            !Membership.verifyMembershipProof(
                proof, space: space, spaceKey: SecureRandom.bytes(32),
                device: device.publicKey, user: user.publicKey))
        #expect(
            !Membership.verifyMembershipProof(
                proof, space: SecureRandom.spaceID(), spaceKey: key,
                device: device.publicKey, user: user.publicKey))
    }
}

extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
