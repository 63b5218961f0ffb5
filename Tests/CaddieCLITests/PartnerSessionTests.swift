import CaddieCore
import CaddieCrypto
import Foundation
import Testing

/// The third security review's H1, replayed against a real node: a partner's browser session acted as the node's
/// owner (it made invites, games and attestations signed by the owner) and outlived `space remove`. Now every
/// session is a person: a partner's phone reads, becomes a device of its own user by proving it holds this
/// session, sends only what that device signed, and its session ends when its user is removed.
@Suite("a browser session is a person: a partner's phone signs its own, and a removal ends its session", .serialized)
struct PartnerSessionTests {
    /// A browser signed in with one link: every request carries its cookie and the app's own Origin.
    struct Browser {
        let client: HTTPClient
        let cookie: String

        init(port: Int, link: String) throws {
            client = HTTPClient(port: port, token: nil)
            let path = String(link.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
            let redeemed = try client.get(path)
            #expect(redeemed.status == 303, "\(redeemed.status) \(redeemed.text)")
            cookie = try #require(redeemed.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        }

        func send(_ method: String, _ path: String, _ body: String? = nil) throws -> HTTPClient.Reply {
            try client.request(
                method, path, body: body, extra: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(client.port)"])
        }
    }

    @Test("a partner's session: no write in the owner's name, only its own device's ops, ended by a removal")
    func partnerIsAPerson() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, game, api, spaceHex) = (served.homes[0], served.game, served.api, served.space)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        let port = served.node.httpPort
        func stateHash() throws -> String {
            try ana.ok(["state-hash", "--space", spaceHex, "--json"]).field("stateHash")
        }

        // The owner's own browser is the owner.
        let owner = try Browser(port: port, link: try ana.ok(["web", "link", "--json"]).field("url"))
        #expect(try owner.send("GET", "/v1/whoami").object()["name"] as? String == "Ana")

        // A partner's link is for one space: with two, it must be named.
        try ana.ok(["space", "create", "Solo"])
        try ana.fails(["web", "link", "--partner"], saying: "--space")
        let link = try ana.ok(["web", "link", "--partner", "--space", spaceHex, "--json"])
        #expect(try link.field("kind") == "partner")
        let cy = try Browser(port: port, link: try link.field("url"))
        let guest = try cy.send("GET", "/v1/whoami").object()
        #expect(guest["kind"] as? String == "partner" && guest["user"] is NSNull, "\(guest)")
        let session = try #require(guest["session"] as? String)
        #expect(try cy.send("GET", "\(base)/games/\(game)/card").status == 200, "a partner's phone reads the round")
        // Its own space only: the other is neither listed nor read nor joined.
        let listed = try cy.send("GET", "/v1/spaces").array().compactMap { $0["name"] as? String }
        #expect(listed == ["Saturday foursome"], "\(listed)")
        #expect(try cy.send("GET", "/v1/spaces/Solo/games").status == 403)
        // Guidance only reads: a partner's phone may ask it (refused for its body here, not for who asks).
        #expect(try cy.send("POST", "\(base)/guidance", #"{}"#).status == 400)

        // What the review's partner session did in Ana's name, each refused; the state does not move.
        let card = try api.get("\(base)/games/\(game)/card").object()
        let dev = try #require(
            (card["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Dev" }?["player"] as? String)
        let before = try stateHash()
        for (method, path, body) in [
            ("POST", "\(base)/invites", #"{"uses": 100, "seconds": 2592000}"#),
            ("POST", "/v1/signin-links", nil),
            ("POST", "\(base)/games", #"{"course": "x", "players": ["Ana"]}"#),
            ("POST", "\(base)/games/\(game)/attestations", #"{"player": "Dev"}"#),
            ("POST", "\(base)/games/\(game)/scores", #"{"player": "Dev", "hole": 1, "strokes": 4}"#),
            ("PATCH", "\(base)/games/\(game)", #"{"formats": ["stroke"]}"#),
            ("POST", "\(base)/players", #"{"name": "Zed"}"#),
            // Drafts sign nothing, but only a phone that is a device of its own has a use for them.
            ("POST", "\(base)/player-drafts", #"{"name": "Zed"}"#),
            ("POST", "\(base)/game-drafts", #"{"course": "x", "tee": "1", "players": ["Ana"]}"#),
        ] {
            let reply = try cy.send(method, path, body)
            #expect(reply.status == 403, "\(method) \(path): \(reply.status) \(reply.text)")
            #expect(try reply.object()["code"] as? String == "partner_phone", "\(reply.text)")
        }
        #expect(try stateHash() == before, "nothing was written in Ana's name")

        // The phone becomes Dee's device: the admission must carry the device's signature over this session.
        var phone = PhoneDeviceTests.Phone()
        func admission(_ phone: PhoneDeviceTests.Phone, proof: [UInt8]?) -> String {
            #"{"user":"\#(phone.user.publicKey.hex)","device":"\#(phone.device.publicKey.hex)","certifiedAt":\#(phone.certifiedAt),"certificate":"\#(Hex.encode(phone.certificate))""#
                + (proof.map { #","sessionProof":"\#(Hex.encode($0))""# } ?? "") + "}"
        }
        func message(_ session: String, _ phone: PhoneDeviceTests.Phone) -> [UInt8] {
            Array("caddie-web-session-v1".utf8) + Array(session.utf8) + phone.user.publicKey.bytes
                + phone.device.publicKey.bytes
        }
        #expect(try cy.send("POST", "\(base)/admissions", admission(phone, proof: nil)).status == 403)
        // A wrong type in a UInt64 field is named as a whole number (the third review's L6).
        let typed = try api.post("\(base)/admissions", #"{"user":"aa","device":"bb","certifiedAt":"soon","certificate":"cc"}"#)
        #expect(typed.status == 400 && typed.text.contains("'certifiedAt' should be a whole number"), "\(typed.text)")
        let otherSession = phone.device.sign(message("deadbeef", phone))
        #expect(try cy.send("POST", "\(base)/admissions", admission(phone, proof: otherSession)).status == 403)
        let admitted = try cy.send(
            "POST", "\(base)/admissions", admission(phone, proof: phone.device.sign(message(session, phone))))
        #expect(admitted.status == 201, "\(admitted.text)")
        let bound = try cy.send("GET", "/v1/whoami").object()
        #expect(bound["user"] as? String == phone.user.publicKey.hex && bound["device"] as? String == phone.device.publicKey.hex)
        // Bound, it admits no other device: Zed, a fresh identity, is refused.
        var zed = PhoneDeviceTests.Phone()
        #expect(
            try cy.send("POST", "\(base)/admissions", admission(zed, proof: zed.device.sign(message(session, zed)))).status == 403
        )

        // It sends its own ops; another device's ops through this session are refused.
        let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))
        let join = phone.join(space, name: "Dee", proof: proof)
        let gameID = try #require(GameID(hex: game))
        let score = phone.op(
            space, [.score(game: gameID, player: try #require(PlayerID(hex: dev)), hole: 1, entry: try ScoreEntry(strokes: 6))])
        let taken = try cy.send("POST", "\(base)/ops", #"{"ops":["\#(Hex.encode(join))","\#(Hex.encode(score))"]}"#)
        #expect(taken.status == 201, "\(taken.text)")
        let foreign = zed.op(
            space, [.score(game: gameID, player: try #require(PlayerID(hex: dev)), hole: 2, entry: try ScoreEntry(strokes: 3))])
        let refused = try cy.send("POST", "\(base)/ops", #"{"ops":["\#(Hex.encode(foreign))"]}"#)
        #expect(refused.status == 403 && refused.text.contains("not this phone's"), "\(refused.text)")
        let log = try api.get("\(base)/log?game=\(game)").array()
        let entry = try #require(log.first { ($0["change"] as? String)?.contains("score Dev hole 1: 6") == true })
        #expect(entry["user"] as? String == "Dee" && entry["device"] as? String == phone.device.publicKey.hex)
        #expect(try ana.ok(["web", "sessions"]).stdout.contains("partner, device \(phone.device.publicKey.hex.prefix(8))"))
        // Bound, it drafts a player, linked to its own user only.
        let ownDraft = try cy.send("POST", "\(base)/player-drafts", #"{"name":"Dee","user":"\#(phone.user.publicKey.hex)"}"#)
        #expect(ownDraft.status == 200, "\(ownDraft.text)")
        let othersDraft = try cy.send("POST", "\(base)/player-drafts", #"{"name":"Ann B.","user":"\#(zed.user.publicKey.hex)"}"#)
        #expect(othersDraft.status == 403 && othersDraft.text.contains("its own user"), "\(othersDraft.text)")

        // A new phone of Dee's asks for a device code; Dee's phone answers it for Dee only: a certificate by another
        // user through Dee's session is refused before anything checks it, Dee's own passes.
        let newcomer = PhoneDeviceTests.Phone()
        let asked = try cy.send("POST", "\(base)/device-requests", #"{"device":"\#(newcomer.device.publicKey.hex)"}"#)
        #expect(asked.status == 201, "\(asked.text)")
        let code = try #require(try asked.object()["code"] as? String)
        let certifiedAt = UInt64(Date().timeIntervalSince1970 * 1000)
        func approval(by user: SigningKey) -> String {
            let certificate = Membership.certify(device: newcomer.device.publicKey, by: user, at: certifiedAt)
            return #"{"user":"\#(user.publicKey.hex)","certifiedAt":\#(certifiedAt),"certificate":"\#(Hex.encode(certificate))"}"#
        }
        let stranger = try cy.send("POST", "\(base)/device-requests/\(code)/approval", approval(by: SigningKey.generate()))
        #expect(stranger.status == 403 && stranger.text.contains("adds devices of that user only"), "\(stranger.text)")
        let own = try cy.send("POST", "\(base)/device-requests/\(code)/approval", approval(by: phone.user))
        #expect(own.status == 200, "\(own.text)")
        #expect(try own.object()["name"] as? String == "Dee", "\(own.text)")

        // Ana removes Dee: the session ends at its next request, and no new device of Dee's is admitted.
        let other = try Browser(
            port: port, link: try ana.ok(["web", "link", "--partner", "--space", spaceHex, "--json"]).field("url"))
        #expect(try other.send("POST", "/v1/spaces/Solo/admissions", admission(zed, proof: nil)).status == 403)
        try ana.ok(["space", "remove", "Dee", "--space", spaceHex])
        let after = try cy.send("GET", "\(base)/games/\(game)/card")
        let afterCode = try after.object()["code"] as? String
        #expect(after.status == 401 && afterCode == "session_ended", "\(after.text)")
        #expect(try cy.send("POST", "\(base)/invites", #"{"uses": 1}"#).status == 401)
        #expect(try other.send("GET", "/v1/whoami").status == 401, "a guest session not yet anyone's ends with a removal")
        #expect(!(try ana.ok(["web", "sessions"]).stdout.contains("partner")))
        let second = PhoneDeviceTests.Phone(user: phone.user)
        let readmit = try api.post("\(base)/admissions", admission(second, proof: nil))
        #expect(readmit.status == 403 || readmit.status == 409, "\(readmit.status) \(readmit.text)")
        #expect(readmit.text.contains("was removed from this space"), "\(readmit.text)")
        #expect(try owner.send("GET", "/v1/whoami").status == 200, "the owner's own browser stays signed in")
    }

    @Test("a group's check-in code: a use per player, opens the group; a phone claims one player nobody has, once")
    func checkInByGroupCode() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, game, api, spaceHex) = (served.homes[0], served.game, served.api, served.space)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        let port = served.node.httpPort
        try ana.ok(["competition", "new", "Medal"])
        try ana.ok(["competition", "add", "Medal", game])
        try ana.fails(["competition", "show", "Medal", "--check-in"], saying: "give --format html too")
        let sheet = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-sheet-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: sheet) }
        try ana.ok([
            "competition", "show", "Medal", "--format", "html", "--url", "https://clubhouse.local:7443", "--check-in",
            "--out", sheet.path,
        ])
        let page = try String(contentsOf: sheet, encoding: .utf8)
        #expect(page.contains("check in, 4 phones") && page.contains("keep it with the starter"))
        let found = try #require(page.range(of: #"/signin\?t=[a-z0-9]+"#, options: .regularExpression), "\(page)")
        let path = String(page[found])
        // Each of the group's four phones signs in with it and is sent to the group; a fifth is refused.
        var cookies: [String] = []
        for _ in 0..<4 {
            let redeemed = try HTTPClient(port: port, token: nil).get(path)
            #expect(redeemed.status == 303 && redeemed.headers["location"] == "/#/checkin/\(game)", "\(redeemed.headers)")
            cookies.append(try #require(redeemed.headers["set-cookie"]?.split(separator: ";").first.map(String.init)))
        }
        #expect(try HTTPClient(port: port, token: nil).get(path).status == 401, "a use per player of the group")
        // A sheet's codes and the sign-in links are kept apart: 20 links made after it push out none of its codes.
        for _ in 0..<20 { try ana.ok(["web", "link"]) }
        try ana.ok([
            "competition", "show", "Medal", "--format", "html", "--url", "https://clubhouse.local:7443", "--check-in",
            "--out", sheet.path,
        ])
        let reprinted = try String(contentsOf: sheet, encoding: .utf8)
        let code = try #require(reprinted.range(of: #"/signin\?t=[a-z0-9]+"#, options: .regularExpression))
        for _ in 0..<20 { try ana.ok(["web", "link"]) }
        #expect(try HTTPClient(port: port, token: nil).get(String(reprinted[code])).status == 303, "the code still signs in")
        func send(_ cookie: String, _ method: String, _ path: String, _ body: String? = nil) throws -> HTTPClient.Reply {
            try HTTPClient(port: port, token: nil).request(
                method, path, body: body, extra: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(port)"])
        }
        let card = try api.get("\(base)/games/\(game)/card").object()
        func player(_ name: String) throws -> String {
            try #require((card["players"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["player"] as? String)
        }
        let (cleo, dev) = (try player("Cleo"), try player("Dev"))
        // A guest claims nothing: the phone becomes a device of its own first.
        var phone = PhoneDeviceTests.Phone()
        let guest = try send(
            cookies[0], "POST", "\(base)/player-claims", #"{"player":"\#(dev)","user":"\#(phone.user.publicKey.hex)"}"#)
        #expect(guest.status == 403 && guest.text.contains("before it checks in for its player"), "\(guest.text)")
        // Dev's phone: admitted through its session, joined, then it claims Dev and signs the claim itself.
        func admit(_ phone: inout PhoneDeviceTests.Phone, _ cookie: String, name: String) throws {
            let session = try #require(try send(cookie, "GET", "/v1/whoami").object()["session"] as? String)
            let message =
                Array("caddie-web-session-v1".utf8) + Array(session.utf8) + phone.user.publicKey.bytes
                + phone.device.publicKey.bytes
            let admitted = try send(
                cookie, "POST", "\(base)/admissions",
                #"{"user":"\#(phone.user.publicKey.hex)","device":"\#(phone.device.publicKey.hex)","certifiedAt":\#(phone.certifiedAt),"certificate":"\#(Hex.encode(phone.certificate))","sessionProof":"\#(Hex.encode(phone.device.sign(message)))"}"#
            )
            #expect(admitted.status == 201, "\(admitted.text)")
            let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))
            let join = phone.join(space, name: name, proof: proof)
            #expect(try send(cookie, "POST", "\(base)/ops", #"{"ops":["\#(Hex.encode(join))"]}"#).status == 201)
        }
        try admit(&phone, cookies[0], name: "Dev")
        let claim = try send(
            cookies[0], "POST", "\(base)/player-claims", #"{"player":"\#(dev)","user":"\#(phone.user.publicKey.hex)"}"#)
        #expect(claim.status == 200, "\(claim.text)")
        let payload = try #require(Hex.decode(try claim.object()["payload"] as? String ?? ""))
        let claimed = phone.op(space, try Payload.decode(payload))
        #expect(try send(cookies[0], "POST", "\(base)/ops", #"{"ops":["\#(Hex.encode(claimed))"]}"#).status == 201)
        let after = try api.get("\(base)/games/\(game)/card").object()
        let devRow = (after["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Dev" }
        #expect(devRow?["user"] as? String == phone.user.publicKey.hex, "Dev is the phone's user now")
        // The committee sees who has checked in.
        let shown = try #require(try ana.ok(["competition", "show", "Medal", "--json"]).json() as? [String: Any])
        let group = try #require((shown["groups"] as? [[String: Any]])?.first?["players"] as? [[String: Any]])
        #expect(group.filter { $0["checkedIn"] as? Bool == true }.map { $0["name"] as? String } == ["Dev"])
        let starter = try ana.ok(["competition", "show", "Medal"]).stdout
        let lines = starter.split(separator: "\n")
        #expect(starter.contains("1 of 4 checked in"), "\(starter)")
        #expect(lines.filter { $0.hasSuffix(", checked in") }.map { $0.contains("Dev") } == [true], "\(starter)")
        // Claimed again by the same phone: nothing to sign. Another player by the same phone, or Dev by another
        // phone: refused, with nothing written.
        let again = try send(
            cookies[0], "POST", "\(base)/player-claims", #"{"player":"\#(dev)","user":"\#(phone.user.publicKey.hex)"}"#)
        let nothing = try again.object()["payload"]
        #expect(again.status == 200 && nothing is NSNull, "\(again.text)")
        var other = PhoneDeviceTests.Phone()
        try admit(&other, cookies[1], name: "Eve")
        let before = try ana.ok(["state-hash", "--space", spaceHex, "--json"]).field("stateHash")
        let second = try send(
            cookies[0], "POST", "\(base)/player-claims", #"{"player":"\#(cleo)","user":"\#(phone.user.publicKey.hex)"}"#)
        #expect(second.status == 403 && second.text.contains("this phone is Dev's already"), "\(second.text)")
        let taken = try send(
            cookies[1], "POST", "\(base)/player-claims", #"{"player":"\#(dev)","user":"\#(other.user.publicKey.hex)"}"#)
        #expect(taken.status == 403 && taken.text.contains("Dev has checked in already"), "\(taken.text)")
        let forOther = try send(
            cookies[1], "POST", "\(base)/player-claims", #"{"player":"\#(cleo)","user":"\#(phone.user.publicKey.hex)"}"#)
        #expect(forOther.status == 403 && forOther.text.contains("its own user"), "\(forOther.text)")
        #expect(try ana.ok(["state-hash", "--space", spaceHex, "--json"]).field("stateHash") == before)
    }

    @Test("the third review's L5: an invite revoked through another space's address is not found there and stays as it is")
    func inviteRevokedOnlyInItsSpace() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, api, spaceHex) = (served.homes[0], served.api, served.space)
        try ana.ok(["space", "create", "Solo"])
        let spaces = try api.get("/v1/spaces").array()
        let other = try #require(spaces.first { $0["name"] as? String == "Solo" }?["space"] as? String)
        let made = try api.post("/v1/spaces/\(spaceHex)/invites", #"{"uses": 1}"#)
        #expect(made.status == 201, "\(made.text)")
        let invite = try #require(try made.object()["id"] as? String)
        let elsewhere = try api.post("/v1/spaces/\(other)/invites/\(invite)/revoke", "")
        #expect(elsewhere.status == 404, "\(elsewhere.status) \(elsewhere.text)")
        let listed = try api.get("/v1/spaces/\(spaceHex)/invites").array().first { $0["id"] as? String == invite }
        #expect(listed?["state"] as? String != "revoked", "\(String(describing: listed))")
        let here = try api.post("/v1/spaces/\(spaceHex)/invites/\(invite)/revoke", "")
        let state = try here.object()["state"] as? String
        #expect(here.status == 200 && state == "revoked", "\(here.text)")
    }

    @Test(
        "a live-events stream ends with its session: revoked at the terminal, the browser's stream closes at the next keep-alive"
    )
    func streamEndsWithItsSession() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let ana = served.homes[0]
        let port = served.node.httpPort
        let owner = try Browser(port: port, link: try ana.ok(["web", "link", "--json"]).field("url"))
        let fd = try HTTPClient.connect(port: port, timeout: 30)
        defer { close(fd) }
        try HTTPClient.send(
            fd, Array("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(owner.cookie)\r\n\r\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(read(fd, &buffer, buffer.count) > 0, "the stream opens")
        let sessions = try #require(try ana.ok(["web", "sessions", "--json"]).json() as? [[String: Any]])
        let id = try #require(sessions.first?["id"] as? String)
        try ana.ok(["web", "revoke", id])
        // Keep-alives every 15 s: the one after the revocation ends the stream (read gives 0 at its close).
        let deadline = Date().addingTimeInterval(25)
        var closed = false
        while Date() < deadline {
            let count = read(fd, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                closed = true
                break
            }
            if count < 0 { continue }
            if String(decoding: buffer[..<count], as: UTF8.self).contains("0\r\n\r\n") {
                closed = true
                break
            }
        }
        #expect(closed, "the revoked session's stream was still open 25 s after the revocation")
    }
}
