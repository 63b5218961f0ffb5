import CaddieCore
import CaddieCrypto

/// The initiator's side of the handshake: it dials, names no space in the clear, and proves the space key
/// with a tag only members can make.
public struct HandshakeInitiator: Sendable {
    /// What the driver does next.
    public enum Action: Sendable {
        /// Send this frame (message 3); the session is established.
        case established(send: [UInt8], EstablishedSession)
        /// End the connection for this reason.
        case fail(WireError)
    }

    private enum State { case idle, awaitingMessage2, done }

    private let space: SpaceID
    private let hk: [UInt8]
    private let credentials: DeviceCredentials
    private let ephemeral: EphemeralKey
    /// The protocol version this side offers (``Handshake/oldest`` ... ``Handshake/version``).
    private let version: UInt8
    private var state = State.idle

    /// Prepares a handshake for `space`, offering `version`.
    public init(
        space: SpaceID, spaceKey: [UInt8], credentials: DeviceCredentials, version: UInt8 = Handshake.oldest,
        ephemeral: EphemeralKey = .generate()
    ) {
        self.space = space
        hk = Handshake.handshakeKey(space: space, spaceKey: spaceKey)
        self.credentials = credentials
        self.version = version
        self.ephemeral = ephemeral
    }

    /// Prepares the redemption of an invite to `space`: the same handshake under the invite's key.
    public init(
        space: SpaceID, inviteSecret: [UInt8], credentials: DeviceCredentials,
        ephemeral: EphemeralKey = .generate()
    ) {
        self.space = space
        hk = Handshake.inviteKey(space: space, secret: inviteSecret)
        self.credentials = credentials
        version = Handshake.oldest
        self.ephemeral = ephemeral
    }

    /// Message 1: magic, version, ephemeral key, and the tag under the space's handshake key.
    public mutating func start() -> [UInt8] {
        state = .awaitingMessage2
        return Handshake.magic + [version] + ephemeral.publicKey
            + Handshake.tag1(hk, version: version, ephemeral: ephemeral.publicKey)
    }

    /// Handles the responder's reply.
    public mutating func receive(_ frame: [UInt8]) -> Action {
        guard state == .awaitingMessage2 else { return .fail(.unexpected("handshake message after the handshake")) }
        state = .done
        if frame.count == 5, Array(frame.prefix(3)) == Handshake.magic, frame[3] == 0xFF {
            return .fail(.version(peer: frame[4]))
        }
        guard frame.count == 32 + Handshake.identityLength + AEAD.overhead else {
            return .fail(.malformedHandshake("message 2 has \(frame.count) bytes"))
        }
        let responder = Array(frame.prefix(32))
        guard let shared = ephemeral.sharedSecret(with: responder) else { return .fail(.malformedHandshake("bad ephemeral key")) }
        let keys = Handshake.keys(hk: hk, shared: shared, initiator: ephemeral.publicKey, responder: responder)
        guard
            let block = AEAD.open(
                Array(frame.dropFirst(32)), key: keys.message2, nonce: AEAD.nonce(0),
                associated: ephemeral.publicKey + responder)
        else {
            return .fail(.notAMember)
        }
        let peer: PeerIdentity
        do {
            peer = try PeerIdentity.verify(block) { _ in
                Handshake.responderSignatureMessage(space: space, initiator: ephemeral.publicKey, responder: responder)
            }
        } catch {
            return .fail(error)
        }
        let identity = credentials.identityBlock(
            signing: Handshake.initiatorSignatureMessage(
                space: space, initiator: ephemeral.publicKey, responder: responder, responderDevice: peer.device))
        let message3 = AEAD.seal(
            identity, key: keys.message3, nonce: AEAD.nonce(0),
            associated: ephemeral.publicKey + responder)
        return .established(
            send: message3,
            EstablishedSession(
                space: space, peer: peer,
                cipher: SessionCipher(send: keys.initiatorToResponder, receive: keys.responderToInitiator), version: version))
    }
}

/// The responder's side: it finds which of its spaces message 1 was made for, or answers with a decoy.
public struct HandshakeResponder: Sendable {
    /// What the driver does next.
    public enum Action: Sendable {
        /// Send this frame and wait for the next.
        case send([UInt8])
        /// Send this frame (a version refusal) and close.
        case sendAndClose([UInt8], WireError)
        /// The session is established.
        case established(EstablishedSession)
        /// Close without a word: the peer proved nothing.
        case fail(WireError)
    }

    /// The newest version this side answers.
    private let newest: UInt8
    private enum State {
        case awaitingMessage1
        /// Answered a message 1 made for no space held here; whatever comes next fails.
        case decoy
        case awaitingMessage3(
            space: SpaceID, invite: [UInt8]?, check: [UInt8]?, keys: Handshake.Keys, initiator: [UInt8],
            responder: [UInt8], version: UInt8)
        case done
    }

    /// An invite this device made and still honours: its id, its space and its secret.
    public struct OpenInvite: Sendable {
        /// The invite's id.
        public let id: [UInt8]
        /// The space it admits to.
        public let space: SpaceID
        /// The secret its code carries.
        public let secret: [UInt8]

        /// Describes an open invite.
        public init(id: [UInt8], space: SpaceID, secret: [UInt8]) {
            self.id = id
            self.space = space
            self.secret = secret
        }
    }

    /// Each handshake key answered for: its space, the invite it belongs to (nil: a space key), and the space
    /// key's check.
    private let spaces: [(SpaceID, [UInt8], [UInt8]?, [UInt8]?)]
    private let credentials: DeviceCredentials
    private let ephemeral: EphemeralKey
    private var state = State.awaitingMessage1

    /// Prepares to answer for any of `spaces` (id and key), and for the redemption of any of `invites`.
    /// `newest`: the newest version this side answers (a node of an older version answers only its own).
    public init(
        spaces: [(SpaceID, [UInt8])], invites: [OpenInvite] = [], credentials: DeviceCredentials,
        newest: UInt8 = Handshake.version, ephemeral: EphemeralKey = .generate()
    ) {
        self.newest = newest
        self.spaces =
            spaces.map { ($0.0, Handshake.handshakeKey(space: $0.0, spaceKey: $0.1), nil, Membership.keyCheck($0.1)) }
            + invites.map { ($0.space, Handshake.inviteKey(space: $0.space, secret: $0.secret), $0.id, nil) }
        self.credentials = credentials
        self.ephemeral = ephemeral
    }

    /// Handles the initiator's next handshake frame.
    public mutating func receive(_ frame: [UInt8]) -> Action {
        switch state {
        case .awaitingMessage1:
            state = .done
            guard frame.count >= 4, Array(frame.prefix(3)) == Handshake.magic else {
                return .fail(.malformedHandshake("not a caddie handshake"))
            }
            guard (Handshake.oldest...newest).contains(frame[3]) else {
                return .sendAndClose(Handshake.magic + [0xFF, newest], .version(peer: frame[3]))
            }
            guard frame.count == Handshake.message1Length else { return .fail(.malformedHandshake("message 1 length")) }
            let initiator = Array(frame[4..<36])
            let tag = Array(frame[36..<68])
            guard
                let (space, hk, invite, check) = spaces.first(where: {
                    MessageAuthentication.constantTimeEqual(Handshake.tag1($0.1, version: frame[3], ephemeral: initiator), tag)
                })
            else {
                // Not a space held here: answer anyway, with a message 2 nobody can open, made with the same work
                // (a key agreement and a signature) as a real one. A stranger replaying a captured message 1 then
                // cannot tell whether this device belongs to that space; the handshake fails at message 3.
                _ = ephemeral.sharedSecret(with: initiator)
                let decoy = credentials.identityBlock(signing: SecureRandom.bytes(32))
                state = .decoy
                return .send(
                    ephemeral.publicKey
                        + AEAD.seal(
                            decoy, key: SecureRandom.bytes(32), nonce: AEAD.nonce(0),
                            associated: initiator + ephemeral.publicKey))
            }
            guard let shared = ephemeral.sharedSecret(with: initiator) else {
                return .fail(.malformedHandshake("bad ephemeral key"))
            }
            let keys = Handshake.keys(hk: hk, shared: shared, initiator: initiator, responder: ephemeral.publicKey)
            let identity = credentials.identityBlock(
                signing: Handshake.responderSignatureMessage(
                    space: space, initiator: initiator, responder: ephemeral.publicKey))
            state = .awaitingMessage3(
                space: space, invite: invite, check: check, keys: keys, initiator: initiator,
                responder: ephemeral.publicKey, version: frame[3])
            return .send(
                ephemeral.publicKey
                    + AEAD.seal(
                        identity, key: keys.message2, nonce: AEAD.nonce(0),
                        associated: initiator + ephemeral.publicKey))
        case .decoy:
            state = .done
            return .fail(.notAMember)
        case .awaitingMessage3(let space, let invite, let check, let keys, let initiator, let responder, let version):
            state = .done
            guard let block = AEAD.open(frame, key: keys.message3, nonce: AEAD.nonce(0), associated: initiator + responder)
            else { return .fail(.badFrame) }
            do {
                let peer = try PeerIdentity.verify(block) { device in
                    Handshake.initiatorSignatureMessage(
                        space: space, initiator: initiator, responder: responder,
                        responderDevice: credentials.device.publicKey)
                }
                return .established(
                    EstablishedSession(
                        space: space, peer: peer,
                        cipher: SessionCipher(send: keys.responderToInitiator, receive: keys.initiatorToResponder),
                        invite: invite, keyCheck: check, version: version))
            } catch {
                return .fail(error)
            }
        case .done:
            return .fail(.unexpected("handshake message after the handshake"))
        }
    }
}
