import CaddieCore
import CaddieCrypto
import Testing

@testable import CaddieWire

/// A user with one device and its credentials.
struct TestDevice {
    let user: SigningKey
    let device: SigningKey
    let credentials: DeviceCredentials

    init(userSeed: UInt8? = nil, deviceSeed: UInt8? = nil, forgedBy forger: SigningKey? = nil) throws {
        user = try userSeed.map { try SigningKey(seed: [UInt8](repeating: $0, count: 32)) } ?? .generate()
        device = try deviceSeed.map { try SigningKey(seed: [UInt8](repeating: $0, count: 32)) } ?? .generate()
        let signer = forger ?? user
        credentials = DeviceCredentials(
            device: device, user: user.publicKey, certifiedAt: 7,
            certificate: Membership.certify(device: device.publicKey, by: signer, at: 7))
    }
}

@Suite("Handshake state machines")
struct HandshakeTests {
    let space = SpaceID(unchecked: [UInt8](repeating: 1, count: 16))
    let key = [UInt8](repeating: 2, count: 32)

    func establish(
        initiator: TestDevice, responder: TestDevice, initiatorKey: [UInt8]? = nil,
        responderSpaces: [(SpaceID, [UInt8])]? = nil
    ) -> (EstablishedSession?, EstablishedSession?, WireError?) {
        var client = HandshakeInitiator(space: space, spaceKey: initiatorKey ?? key, credentials: initiator.credentials)
        var server = HandshakeResponder(spaces: responderSpaces ?? [(space, key)], credentials: responder.credentials)
        let message1 = client.start()
        guard case .send(let message2) = server.receive(message1) else {
            if case .fail(let error) = server.receive(message1) { return (nil, nil, error) }
            return (nil, nil, .notAMember)
        }
        switch client.receive(message2) {
        case .fail(let error): return (nil, nil, error)
        case .established(let message3, let clientSession):
            switch server.receive(message3) {
            case .established(let serverSession): return (clientSession, serverSession, nil)
            case .fail(let error): return (clientSession, nil, error)
            default: return (clientSession, nil, .unexpected("responder action"))
            }
        }
    }

    @Test("two members establish a session: each learns the other's device and user, and their ciphers interoperate")
    func happyPath() throws {
        let ana = try TestDevice()
        let ben = try TestDevice()
        let (client, server, error) = establish(initiator: ana, responder: ben)
        #expect(error == nil)
        var c = try #require(client)
        var s = try #require(server)
        #expect(c.peer.device == ben.device.publicKey && c.peer.user == ben.user.publicKey)
        #expect(s.peer.device == ana.device.publicKey && s.peer.user == ana.user.publicKey)
        #expect(c.space == space && s.space == space)
        for text in ["vector", "ops", "done"] {
            #expect(try s.cipher.open(c.cipher.seal(Array(text.utf8))) == Array(text.utf8))
            #expect(try c.cipher.open(s.cipher.seal(Array(text.utf8))) == Array(text.utf8))
        }
    }

    @Test("a peer with the wrong space key gets a decoy it cannot open, so it learns nothing, not even the space")
    func wrongKey() throws {
        var client = HandshakeInitiator(
            space: space, spaceKey: [UInt8](repeating: 9, count: 32), credentials: try TestDevice().credentials)
        var server = HandshakeResponder(spaces: [(space, key)], credentials: try TestDevice().credentials)
        guard case .send(let decoy) = server.receive(client.start()) else {
            Issue.record("the responder did not answer")
            return
        }
        #expect(decoy.count == 248)
        guard case .fail(.notAMember) = client.receive(decoy) else {
            Issue.record("the initiator opened a decoy")
            return
        }
        guard case .fail(.notAMember) = server.receive([UInt8](repeating: 0, count: 216)) else {
            Issue.record("the responder went on after a decoy")
            return
        }
    }

    @Test(
        "finding 'a membership oracle for strangers': a replayed message 1 gets the same kind of answer from a member and a non-member"
    )
    func replayedMessageOneRevealsNothing() throws {
        var original = HandshakeInitiator(space: space, spaceKey: key, credentials: try TestDevice().credentials)
        let message1 = original.start()
        // One device answers the replay twice, as a member of the space and as a member of another space only, with
        // the same credentials and the same ephemeral key: whatever differs between the two answers, beyond bytes
        // sealed under keys the replayer cannot make, is what the replay tells about membership.
        let device = try TestDevice()
        let ephemeral = EphemeralKey.generate()
        var member = HandshakeResponder(spaces: [(space, key)], credentials: device.credentials, ephemeral: ephemeral)
        var stranger = HandshakeResponder(
            spaces: [(SpaceID(unchecked: [UInt8](repeating: 8, count: 16)), key)], credentials: device.credentials,
            ephemeral: ephemeral)
        guard case .send(let fromMember) = member.receive(message1), case .send(let fromStranger) = stranger.receive(message1)
        else {
            Issue.record("one of the two stayed silent or closed: the replay tells them apart")
            return
        }
        // Protocol/wire.md, "Message 1", step 4: a decoy is a message 2 like a real one, 248 bytes, made of the
        // responder's ephemeral key in the clear and 216 sealed bytes.
        #expect(fromMember.count == 248 && fromStranger.count == 248)
        #expect(Array(fromMember.prefix(32)) == ephemeral.publicKey)
        #expect(Array(fromStranger.prefix(32)) == ephemeral.publicKey)
        // Nothing in the clear: no identity ("What a party without the space key sees"), nor the space.
        let identities: [(String, [UInt8])] = [
            ("device key", device.device.publicKey.bytes), ("user key", device.user.publicKey.bytes),
            ("certificate", device.credentials.certificate), ("space", space.bytes),
        ]
        let answers = [("member", Array(fromMember.dropFirst(32))), ("stranger", Array(fromStranger.dropFirst(32)))]
        for (answer, sealed) in answers {
            for (name, bytes) in identities {
                let found = (0...(sealed.count - bytes.count)).contains {
                    Array(sealed[$0..<($0 + bytes.count)]) == bytes
                }
                #expect(!found, "the \(answer)'s answer carries its \(name) in the clear")
            }
        }
        // What the replayer sends next, a message 3 it cannot make (it lacks the initiator's ephemeral secret), is
        // met alike: the connection closes without a word (the reasons stay on the responder's side).
        let forged = SecureRandom.bytes(216)
        guard case .fail = member.receive(forged), case .fail = stranger.receive(forged) else {
            Issue.record("one of the two answered a message 3 nobody could make")
            return
        }
        // The control: the member did recognise the space (two decoys would pass the checks above). Only the
        // original dialler, who holds the ephemeral secret, tells the answers apart: it opens the member's only.
        var dialler = original
        guard case .established = dialler.receive(fromMember) else {
            Issue.record("the member's answer is not a real message 2")
            return
        }
        var fooled = original
        guard case .fail(.notAMember) = fooled.receive(fromStranger) else {
            Issue.record("the stranger's decoy opened")
            return
        }
    }

    @Test("an invite's secret opens a session marked with that invite, and nothing else: not the space, not another invite")
    func inviteSessions() throws {
        let (ana, ben) = (try TestDevice(), try TestDevice())
        let secret = [UInt8](repeating: 7, count: 32)
        let invite = HandshakeResponder.OpenInvite(id: [1, 2, 3, 4, 5, 6, 7, 8], space: space, secret: secret)
        func run(
            _ client: inout HandshakeInitiator, _ invites: [HandshakeResponder.OpenInvite]
        )
            -> (EstablishedSession?, EstablishedSession?)
        {
            var server = HandshakeResponder(spaces: [(space, key)], invites: invites, credentials: ben.credentials)
            guard case .send(let message2) = server.receive(client.start()),
                case .established(let message3, let clientSession) = client.receive(message2),
                case .established(let serverSession) = server.receive(message3)
            else { return (nil, nil) }
            return (clientSession, serverSession)
        }
        var redeemer = HandshakeInitiator(space: space, inviteSecret: secret, credentials: ana.credentials)
        let (client, server) = run(&redeemer, [invite])
        #expect(client?.peer.device == ben.device.publicKey)
        #expect(server?.invite == invite.id, "the responder must know the session is the invite's")
        // The space key opens a member's session, never marked as an invite's, even where invites are open.
        var member = HandshakeInitiator(space: space, spaceKey: key, credentials: ana.credentials)
        let (_, memberSession) = run(&member, [invite])
        #expect(memberSession != nil && memberSession?.invite == nil)
        // The secret used as if it were the space key, or a secret of no open invite, opens nothing.
        var confused = HandshakeInitiator(space: space, spaceKey: secret, credentials: ana.credentials)
        #expect(run(&confused, [invite]).1 == nil)
        var stale = HandshakeInitiator(space: space, inviteSecret: [UInt8](repeating: 8, count: 32), credentials: ana.credentials)
        #expect(run(&stale, [invite]).1 == nil)
        // An invite to another space does not open this one's.
        var elsewhere = HandshakeInitiator(
            space: SpaceID(unchecked: [UInt8](repeating: 6, count: 16)), inviteSecret: secret,
            credentials: ana.credentials)
        #expect(run(&elsewhere, [invite]).1 == nil)
    }

    @Test("a responder holding several spaces answers for the one message 1 was made for")
    func severalSpaces() throws {
        let other = SpaceID(unchecked: [UInt8](repeating: 5, count: 16))
        let (client, server, error) = establish(
            initiator: try TestDevice(), responder: try TestDevice(),
            responderSpaces: [(other, [UInt8](repeating: 6, count: 32)), (space, key)])
        #expect(error == nil)
        #expect(client?.space == space && server?.space == space)
    }

    @Test("a certificate not signed by the named user is refused on either side")
    func forgedCertificate() throws {
        let forger = SigningKey.generate()
        let (_, _, asInitiator) = establish(initiator: try TestDevice(forgedBy: forger), responder: try TestDevice())
        #expect(asInitiator == .badIdentity("the device certificate is not signed by its user"))
        let (_, _, asResponder) = establish(initiator: try TestDevice(), responder: try TestDevice(forgedBy: forger))
        #expect(asResponder == .badIdentity("the device certificate is not signed by its user"))
    }

    @Test("an altered message 2 or 3 fails authentication")
    func alteredMessages() throws {
        let ana = try TestDevice()
        let ben = try TestDevice()
        var client = HandshakeInitiator(space: space, spaceKey: key, credentials: ana.credentials)
        var server = HandshakeResponder(spaces: [(space, key)], credentials: ben.credentials)
        guard case .send(var message2) = server.receive(client.start()) else {
            Issue.record("no message 2")
            return
        }
        message2[40] ^= 1
        guard case .fail = client.receive(message2) else {
            Issue.record("accepted an altered message 2")
            return
        }

        var client2 = HandshakeInitiator(space: space, spaceKey: key, credentials: ana.credentials)
        var server2 = HandshakeResponder(spaces: [(space, key)], credentials: ben.credentials)
        guard case .send(let good2) = server2.receive(client2.start()),
            case .established(var message3, _) = client2.receive(good2)
        else {
            Issue.record("no message 3")
            return
        }
        message3[3] ^= 0x80
        guard case .fail(.badFrame) = server2.receive(message3) else {
            Issue.record("accepted an altered message 3")
            return
        }
    }

    @Test("a peer of another protocol version is told which version this side speaks")
    func versionMismatch() throws {
        var server = HandshakeResponder(spaces: [(space, key)], credentials: try TestDevice().credentials)
        var client = HandshakeInitiator(space: space, spaceKey: key, credentials: try TestDevice().credentials)
        var message1 = client.start()
        message1[3] = 9
        guard case .sendAndClose(let refusal, .version(peer: 9)) = server.receive(message1) else {
            Issue.record("no version refusal")
            return
        }
        guard case .fail(.version(peer: Handshake.version)) = client.receive(refusal) else {
            Issue.record("the initiator did not report the version")
            return
        }
    }

    @Test("replayed, reordered and altered transport frames fail")
    func transportIntegrity() throws {
        let (client, server, _) = establish(initiator: try TestDevice(), responder: try TestDevice())
        var c = try #require(client)
        var s = try #require(server)
        let first = c.cipher.seal([1])
        let second = c.cipher.seal([2])
        #expect(throws: WireError.badFrame) { try s.cipher.open(second) }  // reordered
        #expect(try s.cipher.open(first) == [1])
        #expect(throws: WireError.badFrame) { try s.cipher.open(first) }  // replayed
        var altered = second
        altered[0] ^= 1
        #expect(throws: WireError.badFrame) { try s.cipher.open(altered) }
        #expect(throws: WireError.badFrame) { try s.cipher.open(Array(second.dropLast())) }  // truncated
        #expect(try s.cipher.open(second) == [2])
    }

    @Test("handshake messages after the end, or garbage first messages, fail without a reply")
    func garbage() throws {
        var server = HandshakeResponder(spaces: [(space, key)], credentials: try TestDevice().credentials)
        guard case .fail = server.receive(Array("GET / HTTP/1.1".utf8)) else {
            Issue.record("answered garbage")
            return
        }
        guard case .fail(.unexpected) = server.receive([1, 2, 3]) else {
            Issue.record("answered twice")
            return
        }
    }
}
