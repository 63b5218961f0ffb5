import CaddieCore
import CaddieCrypto

/// Constants and key schedule of the sync handshake (Protocol/wire.md, "Handshake").
public enum Handshake {
    /// The newest protocol version this build speaks, the one it offers when it dials for a live session. Version 2
    /// adds the `live` message (one of the sender's own ops, pushed as it is made, in 131 bytes on the wire instead
    /// of 173); everything else is version 1's.
    public static let version: UInt8 = 2
    /// The oldest version this build speaks: it answers a node that offers it, and offers it itself to a node that
    /// refused the newer one, and for a one-shot session (which sends no live message).
    public static let oldest: UInt8 = 1
    /// The magic that opens message 1.
    public static let magic: [UInt8] = Array("CDY".utf8)
    /// Length of message 1: magic, version, ephemeral key, tag.
    public static let message1Length = 3 + 1 + 32 + 32
    /// Length of an identity block: device, user, certified-at, certificate signature, handshake signature.
    public static let identityLength = 32 + 32 + 8 + 64 + 64

    /// The per-space handshake key: only holders of the space key can compute it.
    public static func handshakeKey(space: SpaceID, spaceKey: [UInt8]) -> [UInt8] {
        Blake2b.keyed(spaceKey, [Array("caddie-handshake-v1".utf8), space.bytes])
    }

    /// The handshake key of an invite: only holders of the invite code can compute it, and it opens nothing but
    /// the redemption of that invite at the device that made it (a space key never equals it).
    public static func inviteKey(space: SpaceID, secret: [UInt8]) -> [UInt8] {
        Blake2b.keyed(secret, [Array("caddie-invite-v1".utf8), space.bytes])
    }

    static func tag1(_ hk: [UInt8], version: UInt8, ephemeral: [UInt8]) -> [UInt8] {
        Blake2b.keyed(hk, [Array("caddie-m1".utf8), [version], ephemeral])
    }

    struct Keys {
        let message2: [UInt8]
        let message3: [UInt8]
        let initiatorToResponder: [UInt8]
        let responderToInitiator: [UInt8]
    }

    static func keys(hk: [UInt8], shared: [UInt8], initiator: [UInt8], responder: [UInt8]) -> Keys {
        let chain = Blake2b.keyed(hk, [Array("caddie-ck".utf8), shared, initiator, responder])
        return Keys(
            message2: Blake2b.keyed(chain, [Array("caddie-k2".utf8)]),
            message3: Blake2b.keyed(chain, [Array("caddie-k3".utf8)]),
            initiatorToResponder: Blake2b.keyed(chain, [Array("caddie-i2r".utf8)]),
            responderToInitiator: Blake2b.keyed(chain, [Array("caddie-r2i".utf8)]))
    }

    static func responderSignatureMessage(space: SpaceID, initiator: [UInt8], responder: [UInt8]) -> [UInt8] {
        Array("caddie-hs-r".utf8) + space.bytes + initiator + responder
    }

    static func initiatorSignatureMessage(
        space: SpaceID, initiator: [UInt8], responder: [UInt8],
        responderDevice: PublicKey
    ) -> [UInt8] {
        Array("caddie-hs-i".utf8) + space.bytes + initiator + responder + responderDevice.bytes
    }
}

/// A device's credentials for a handshake: its key and the user's certificate of it.
public struct DeviceCredentials: Sendable {
    /// The device's signing key.
    public let device: SigningKey
    /// The user the device speaks for.
    public let user: PublicKey
    /// When the user certified it.
    public let certifiedAt: UInt64
    /// The user's certificate signature.
    public let certificate: [UInt8]

    /// Creates credentials.
    public init(device: SigningKey, user: PublicKey, certifiedAt: UInt64, certificate: [UInt8]) {
        self.device = device
        self.user = user
        self.certifiedAt = certifiedAt
        self.certificate = certificate
    }

    func identityBlock(signing message: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: Handshake.identityLength)
        writer.raw(device.publicKey)
        writer.raw(user)
        writer.u64(certifiedAt)
        writer.raw(certificate)
        writer.raw(device.sign(message))
        return writer.bytes
    }
}

/// Who the peer proved to be.
public struct PeerIdentity: Sendable, Equatable {
    /// The peer's device key.
    public let device: PublicKey
    /// The user that certified it.
    public let user: PublicKey
    /// When.
    public let certifiedAt: UInt64

    /// Parses and checks an identity block: certificate by the user, signature over the transcript.
    static func verify(_ block: [UInt8], signed message: (PublicKey) -> [UInt8]) throws(WireError) -> PeerIdentity {
        guard block.count == Handshake.identityLength else { throw .malformedHandshake("identity block length") }
        var reader = ByteReader(block)
        do {
            let device = try reader.fixed(PublicKey.self, "device")
            let user = try reader.fixed(PublicKey.self, "user")
            let certifiedAt = try reader.u64("certified-at")
            let certificate = try reader.raw(64, "certificate")
            let signature = try reader.raw(64, "signature")
            guard Membership.verifyCertificate(user: user, device: device, certifiedAt: certifiedAt, signature: certificate)
            else { throw WireError.badIdentity("the device certificate is not signed by its user") }
            guard Ed25519.verify(signature, message: message(device), key: device) else {
                throw WireError.badIdentity("the handshake signature does not verify")
            }
            return PeerIdentity(device: device, user: user, certifiedAt: certifiedAt)
        } catch let error as WireError {
            throw error
        } catch {
            throw .malformedHandshake("\(error)")
        }
    }
}

/// The keys of an established session, one per direction, with their frame counters.
public struct SessionCipher: Sendable {
    private let sendKey: [UInt8]
    private let receiveKey: [UInt8]
    private var sent: UInt64 = 0
    private var received: UInt64 = 0

    init(send: [UInt8], receive: [UInt8]) {
        sendKey = send
        receiveKey = receive
    }

    /// Encrypts the next outgoing message into a frame body.
    public mutating func seal(_ message: [UInt8]) -> [UInt8] {
        defer { sent += 1 }
        return AEAD.seal(message, key: sendKey, nonce: AEAD.nonce(sent))
    }

    /// Decrypts the next incoming frame body; a frame out of order, repeated or altered fails.
    public mutating func open(_ frame: [UInt8]) throws(WireError) -> [UInt8] {
        guard let message = AEAD.open(frame, key: receiveKey, nonce: AEAD.nonce(received)) else { throw .badFrame }
        received += 1
        return message
    }
}

/// What an established handshake yields.
public struct EstablishedSession: Sendable {
    /// The space the session is bound to.
    public let space: SpaceID
    /// The peer.
    public let peer: PeerIdentity
    /// The transport keys.
    public var cipher: SessionCipher
    /// The invite whose key opened the session (responder side), when it was an invite's and not the space's:
    /// such a session may only redeem that invite.
    public var invite: [UInt8]? = nil
    /// The check (Membership.keyCheck) of the space key the session was opened with (responder side).
    public var keyCheck: [UInt8]? = nil
    /// The protocol version the two sides agreed on: the one the initiator offered (and the responder accepted).
    public var version: UInt8 = Handshake.oldest
}
