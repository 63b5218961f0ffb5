import CaddieCore
import CaddieCrypto
import Foundation
import Testing

/// A phone that is a device of its own, as the web app makes one, played here by test code with the same bytes:
/// a user and a device key, the certificate, the node's membership proof, and ops signed off the node.
@Suite("a phone's own device: admitted by the node, its signed ops checked as a peer's", .serialized)
struct PhoneDeviceTests {
    struct Phone {
        var user = SigningKey.generate()
        let device = SigningKey.generate()
        let certifiedAt = UInt64(Date().timeIntervalSince1970 * 1000)
        var head: Digest32 = .zero
        var seq: UInt64 = 0

        var certificate: [UInt8] { Membership.certify(device: device.publicKey, by: user, at: certifiedAt) }

        /// Asks the node to admit this phone's device (`POST .../admissions`); the node's membership proof.
        func admitted(by api: HTTPClient, base: String) throws -> [UInt8] {
            let reply = try api.post(
                "\(base)/admissions",
                #"{"user":"\#(user.publicKey.hex)","device":"\#(device.publicKey.hex)","certifiedAt":\#(certifiedAt),"certificate":"\#(Hex.encode(certificate))"}"#
            )
            return try #require(Hex.decode(try reply.object()["proof"] as? String ?? ""), "no proof: \(reply.status)")
        }

        /// The phone's join op, with the node's membership proof, as the web app makes it.
        mutating func join(_ space: SpaceID, name: String, proof: [UInt8]) -> [UInt8] {
            op(
                space,
                [
                    .join(
                        .init(
                            user: user.publicKey, userName: name, certifiedAt: certifiedAt,
                            certificateSignature: certificate, membershipProof: proof))
                ])
        }

        /// The next op of the phone's log, as the web app's ops.js makes it.
        mutating func op(_ space: SpaceID, _ changes: [Change], pred: [OpID] = [], sign: SigningKey? = nil) -> [UInt8] {
            seq += 1
            let unsigned = SignedOp.encodeUnsigned(
                space: space, device: device.publicKey, seq: seq, prev: head,
                hlc: HLC(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000), counter: UInt16(seq)), pred: pred,
                payload: Payload.encode(changes))
            let bytes = unsigned + (sign ?? device).sign(unsigned, context: SignedOp.signingContext)
            head = Blake2b.hash(bytes)
            return bytes
        }
    }

    @Test("the node admits a certified device, takes its join and score, refuses a forged op with the peer's reason")
    func phoneSignsItsOwnEntries() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, game, api, spaceHex) = (served.homes[0], served.game, served.api, served.space)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        var phone = Phone()

        // A certificate that does not verify gets no proof.
        let wrong = Membership.certify(device: phone.device.publicKey, by: SigningKey.generate(), at: phone.certifiedAt)
        let refused = try api.post(
            "\(base)/admissions",
            #"{"user":"\#(phone.user.publicKey.hex)","device":"\#(phone.device.publicKey.hex)","certifiedAt":\#(phone.certifiedAt),"certificate":"\#(Hex.encode(wrong))"}"#
        )
        #expect(refused.status == 400)
        #expect((try refused.object()["message"] as? String)?.contains("certificate does not verify") == true)
        let admitted = try api.post(
            "\(base)/admissions",
            #"{"user":"\#(phone.user.publicKey.hex)","device":"\#(phone.device.publicKey.hex)","certifiedAt":\#(phone.certifiedAt),"certificate":"\#(Hex.encode(phone.certificate))"}"#
        )
        #expect(admitted.status == 201)
        let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))

        let join = phone.join(space, name: "Dee", proof: proof)
        let gameID = try #require(GameID(hex: game))
        let card = try api.get("\(base)/games/\(game)/card").object()
        let devPlayer = try #require(
            (card["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Dev" }?["player"] as? String)
        let score = phone.op(
            space,
            [.score(game: gameID, player: try #require(PlayerID(hex: devPlayer)), hole: 1, entry: try ScoreEntry(strokes: 6))])
        let body = #"{"ops":["\#(Hex.encode(join))","\#(Hex.encode(score))"]}"#
        let taken = try api.post("\(base)/ops", body)
        #expect(taken.status == 201)
        #expect((try taken.object()["applied"] as? [String])?.count == 2)
        // Sent again (the answer was lost): nothing new.
        let again = try api.post("\(base)/ops", body)
        #expect(again.status == 200)
        #expect(try again.object()["duplicates"] as? Int == 2)
        let log = try api.get("\(base)/log?game=\(game)").array()
        let entry = try #require(log.first { ($0["change"] as? String)?.contains("score Dev hole 1: 6") == true })
        #expect(entry["user"] as? String == "Dee")
        #expect(entry["device"] as? String == phone.device.publicKey.hex)
        #expect(entry["verified"] as? Bool == true)

        // An op signed by another key, and an op that skips a seq: refused with the receive check's words; the state
        // does not move.
        let before = try ana.stateHash()
        var forger = phone
        let forged = forger.op(
            space,
            [.score(game: gameID, player: try #require(PlayerID(hex: devPlayer)), hole: 2, entry: try ScoreEntry(strokes: 3))],
            sign: SigningKey.generate())
        let forgedReply = try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(forged))"]}"#)
        #expect(forgedReply.status == 400)
        #expect(try forgedReply.object()["code"] as? String == "op_refused")
        #expect((try forgedReply.object()["message"] as? String)?.contains("signature") == true)
        var skipper = phone
        skipper.seq += 1
        let gap = skipper.op(
            space,
            [.score(game: gameID, player: try #require(PlayerID(hex: devPlayer)), hole: 2, entry: try ScoreEntry(strokes: 3))])
        let gapReply = try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(gap))"]}"#)
        #expect(gapReply.status == 400)
        #expect(try gapReply.object()["code"] as? String == "op_refused")
        #expect(try api.post("\(base)/ops", #"{"ops":["zz"]}"#).status == 400)
        #expect(try api.post("\(base)/ops", #"{"ops":[]}"#).status == 400)
        #expect(try ana.stateHash() == before)
        let words = try api.get("/v1/recovery-words").json() as? [String]
        #expect(words?.count == 2048 && words?.first == "abandon" && words?.last == "zoo")
    }

    @Test(
        "in a full mesh of three nodes, a phone's score taken by one node is pushed at once to the other two (the node is its origin), not left for the next digest"
    )
    func hostedPhonePushedAtOnce() throws {
        let (homes, game, _) = try RoundTests.foursome()
        defer { homes.forEach { $0.remove() } }
        let (ana, ben, cleo) = (homes[0], homes[1], homes[2])
        let anaLog = ana.home.appendingPathComponent("node.log")
        let anaNode = try NodeProcess(ana, http: true, environment: ["CADDIE_LOG": "debug"], log: anaLog)
        defer { anaNode.stop() }
        let benNode = try NodeProcess(ben, peers: [anaNode.port], http: true)
        defer { benNode.stop() }
        let cleoNode = try NodeProcess(cleo, peers: [anaNode.port, benNode.port])
        defer { cleoNode.stop() }
        #expect(try eventually(within: 60) { try Set([ana, ben, cleo].map { try $0.stateHash() }).count == 1 })
        // Every node has two sessions: none asks another to relay everything (wantAll), so each pushes at once only
        // the ops it is the origin of. Settle past the relay memory of the opening exchange.
        #expect(
            try eventually(within: 60) { (try ana.ok(["peers", "--json"]).json() as? [[String: Any]])?.count == 2 },
            "Ana's node holds a session with Ben's and Cleo's")
        let api = HTTPClient(port: anaNode.httpPort, token: try APITests.token(ana))
        let spaceHex = try #require(try api.get("/v1/spaces").array().first?["space"] as? String)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        var phone = Phone()
        let proof = try phone.admitted(by: api, base: base)
        let card = try api.get("\(base)/games/\(game)/card").object()
        let dev = try #require(
            (card["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Dev" }?["player"] as? String)
        // The phone's join, then its score: its log's first two ops.
        let join = phone.join(space, name: "Dee", proof: proof)
        let score = phone.op(
            space,
            [
                .score(
                    game: try #require(GameID(hex: game)), player: try #require(PlayerID(hex: dev)), hole: 7,
                    entry: try ScoreEntry(strokes: 5))
            ])
        // Ben's open page: his node's live events.
        let benEvents = try EventStream(port: benNode.httpPort, token: try APITests.token(ben))
        // And a page open on Ana's node, which hosts the phone.
        let anaEvents = try EventStream(port: anaNode.httpPort, token: try APITests.token(ana))
        let sent = Date()
        let taken = try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(join))","\#(Hex.encode(score))"]}"#)
        #expect(taken.status == 201)
        let shown = try benEvents.next(within: 30) { $0.type == "score" && $0.data["hole"] as? Int == 7 }
        #expect(shown != nil, "Ben's open page never heard of the phone's score")
        print("a hosted phone's score on another node's live events after \(Int(Date().timeIntervalSince(sent) * 1000)) ms")
        #expect(shown?["origin"] as? String == "peer", "on Ben's node the phone's score came from a peer")
        let hosted = try anaEvents.next(within: 30) { $0.type == "score" && $0.data["hole"] as? Int == 7 }
        #expect(hosted?["origin"] as? String == "phone", "on Ana's node the score came from a phone it hosts")
        let target = try ana.stateHash()
        #expect(try eventually(within: 60) { try ben.stateHash() == target && cleo.stateHash() == target })
        let log = (try? String(contentsOf: anaLog, encoding: .utf8)) ?? ""
        #expect(log.contains("pushing at once the ops of a phone this node hosts"), "Ana's node never pushed the phone's ops")
    }

    @Test("a new player and a new game are drafted by the node, which signs nothing, and signed by the phone's device")
    func phoneSignsNewPlayersAndGames() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, api, spaceHex) = (served.homes[0], served.api, served.space)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        var phone = Phone()
        let proof = try phone.admitted(by: api, base: base)
        #expect(
            try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(phone.join(space, name: "Dee", proof: proof)))"]}"#).status
                == 201)

        // Drafts the node refuses, each saying why; a draft that passes changes nothing either: the node signs nothing.
        let before = try ana.stateHash()
        let taken = try api.post("\(base)/player-drafts", #"{"name":"dev"}"#)
        #expect(taken.status == 400 && taken.text.contains("is taken"), "\(taken.text)")
        let stranger = try api.post("\(base)/player-drafts", #"{"name":"Dee","user":"\#(SigningKey.generate().publicKey.hex)"}"#)
        #expect(stranger.status == 400 && stranger.text.contains("not a member"), "\(stranger.text)")
        #expect(try api.post("\(base)/player-drafts", #"{"name":"Dee","user":"xyz"}"#).status == 400)
        #expect(try api.post("\(base)/player-drafts", #"{"name":"Dee","index":99}"#).status == 400)
        let drafted = try api.post(
            "\(base)/player-drafts", #"{"name":" Dee ","index":20.5,"user":"\#(phone.user.publicKey.hex)"}"#)
        #expect(drafted.status == 200)
        #expect(try ana.stateHash() == before)
        let playerHex = try #require(try drafted.object()["player"] as? String)
        // An id the phone chose is used as given; one a record has already, or one that is not 16 hex digits, is refused.
        let chosen = "c0ffee00c0ffee00"
        #expect(
            try api.post("\(base)/player-drafts", #"{"name":"Dee","player":"\#(chosen)"}"#).object()["player"] as? String
                == chosen)
        let devID = try #require(
            try api.get("\(base)/players").array().first { $0["name"] as? String == "Dev" }?["player"] as? String)
        #expect(try api.post("\(base)/player-drafts", #"{"name":"Dee","player":"\#(devID)"}"#).status == 409)
        #expect(try api.post("\(base)/player-drafts", #"{"name":"Dee","player":"c0ffee"}"#).status == 400)
        let player = try #require(PlayerID(hex: playerHex))
        let playerChanges = try Payload.decode(try #require(Hex.decode(try drafted.object()["payload"] as? String ?? "")))
        #expect(
            playerChanges == [
                .set(player, fields: PlayerRecord.fields(name: "Dee", user: phone.user.publicKey, handicapIndex: 20.5))
            ])
        #expect(try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(phone.op(space, playerChanges)))"]}"#).status == 201)
        let listed = try api.get("\(base)/players").array().first { $0["player"] as? String == playerHex }
        #expect(listed?["name"] as? String == "Dee")

        // The game: Dee and Dev on the served game's course and tee.
        let shownGame = try api.get("\(base)/games/\(served.game)").object()
        let (course, tee) = (try #require(shownGame["course"] as? String), try #require(shownGame["tee"] as? String))
        let card = try api.get("\(base)/games/\(served.game)/card").object()
        let dev = try #require(
            (card["players"] as? [[String: Any]])?.first { $0["name"] as? String == "Dev" }?["player"] as? String)
        let wrongTee = try api.post(
            "\(base)/game-drafts", #"{"course":"\#(course)","tee":"Purple","players":["\#(playerHex)","\#(dev)"]}"#)
        #expect(wrongTee.status == 400 || wrongTee.status == 404, "\(String(decoding: wrongTee.body, as: UTF8.self))")
        let beforeGame = try ana.stateHash()
        let gameDraft = try api.post(
            "\(base)/game-drafts",
            #"{"course":"\#(course)","tee":"\#(tee)","players":["\#(playerHex)","\#(dev)"],"formats":["stroke","skins"]}"#)
        #expect(gameDraft.status == 200, "\(String(decoding: gameDraft.body, as: UTF8.self))")
        #expect(try ana.stateHash() == beforeGame)
        let gameHex = try #require(try gameDraft.object()["game"] as? String)
        let existing = try api.post(
            "\(base)/game-drafts",
            #"{"course":"\#(course)","tee":"\#(tee)","players":["\#(dev)"],"game":"\#(served.game)"}"#)
        #expect(existing.status == 409 && existing.text.contains("a game has the id"), "\(existing.text)")
        let gameChanges = try Payload.decode(try #require(Hex.decode(try gameDraft.object()["payload"] as? String ?? "")))
        #expect(gameChanges.count == 3)
        guard case .set(let kind, let entity, let fields)? = gameChanges.first else {
            Issue.record("the game draft starts with \(String(describing: gameChanges.first))")
            return
        }
        #expect(
            kind == .game && entity.hex == gameHex && fields["tee"] == .text(tee) && fields["formats"] == .text("stroke,skins"))
        #expect(try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(phone.op(space, gameChanges)))"]}"#).status == 201)
        let made = try api.get("\(base)/games/\(gameHex)/card").object()
        #expect(Set((made["players"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []) == ["Dee", "Dev"])
        let log = try api.get("\(base)/log").array()
        for words in ["player \(playerHex.prefix(8))", "new game \(gameHex.prefix(8))"] {
            let entry = try #require(log.first { ($0["change"] as? String)?.hasPrefix(words) == true }, "\(words)")
            #expect(entry["user"] as? String == "Dee" && entry["device"] as? String == phone.device.publicKey.hex)
            #expect(entry["verified"] as? Bool == true)
        }
    }

    @Test("`caddie device approve CODE` on the laptop that runs the node makes a phone another device of its user")
    func laptopApprovesAPhone() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, ben, api, spaceHex) = (served.homes[0], served.homes[1], served.api, served.space)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        let phone = Phone()  // its own user key goes unused: it joins with Ana's certificate
        let asked = try api.post("\(base)/device-requests", #"{"device":"\#(phone.device.publicKey.hex)"}"#)
        let code = try #require(try asked.object()["code"] as? String)

        // Refused, and nothing recorded: no answer to the question (no terminal), a code that names nothing, a home
        // with no running node (Ben's: the code lives in the node the phone asked).
        let unanswered = try ana.fails(["device", "approve", code], saying: "nothing added")
        #expect(unanswered.stdout.contains(phone.device.publicKey.short), "\(unanswered.stdout)")
        try ana.fails(["device", "approve", "ZZZZ-ZZZZ", "--yes"], saying: "no device asks with that code")
        try ana.fails(["device", "approve", "K7QM", "--yes"], saying: "8 letters and digits")
        try ben.fails(["device", "approve", code, "--yes"], saying: "no `caddie serve` runs on this home")
        #expect(try api.get("\(base)/device-requests/\(code)").object()["approved"] as? Bool == false)

        // Approved by the running node with Ana's user key; no passphrase asked.
        let done = try ana.run(["device", "approve", code.lowercased(), "--yes"], passphrase: .some(nil))
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("Added device \(phone.device.publicKey.short) as Ana's"), "\(done.stdout)")
        try ana.fails(["device", "approve", code, "--yes"], saying: "has answered that code already")
        let approval = try api.get("\(base)/device-requests/\(code)").object()
        let user = try #require(PublicKey(hex: approval["user"] as? String ?? ""))
        #expect(user.hex == (try api.get("/v1/whoami").object()["user"] as? String))
        let certifiedAt = try #require(approval["certifiedAt"] as? Int)
        let certificate = try #require(Hex.decode(approval["certificate"] as? String ?? ""))
        #expect(
            Membership.verifyCertificate(
                user: user, device: phone.device.publicKey, certifiedAt: UInt64(certifiedAt), signature: certificate))

        // The phone joins as Ana's device: one Ana, two devices.
        let admitted = try api.post(
            "\(base)/admissions",
            #"{"user":"\#(user.hex)","device":"\#(phone.device.publicKey.hex)","certifiedAt":\#(certifiedAt),"certificate":"\#(Hex.encode(certificate))"}"#
        )
        #expect(admitted.status == 201, "\(admitted.text)")
        let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))
        let join = SignedOp.encodeUnsigned(
            space: space, device: phone.device.publicKey, seq: 1, prev: .zero,
            hlc: HLC(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000), counter: 0), pred: [],
            payload: Payload.encode([
                .join(
                    .init(
                        user: user, userName: "Ana", certifiedAt: UInt64(certifiedAt), certificateSignature: certificate,
                        membershipProof: proof))
            ]))
        let signed = join + phone.device.sign(join, context: SignedOp.signingContext)
        #expect(try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(signed))"]}"#).status == 201)
        let members = try api.get("\(base)/members").array().filter { $0["name"] as? String == "Ana" }
        #expect(members.count == 1 && members.first?["devices"] as? Int == 2, "\(members)")
    }

    @Test(
        "a second phone becomes another device of the same user from the first phone, by the code it shows: one golfer, one user"
    )
    func anotherDeviceByCode() throws {
        let served = try APITests.Served()
        defer { served.close() }
        let (ana, api, spaceHex) = (served.homes[0], served.api, served.space)
        let space = try #require(SpaceID(hex: spaceHex))
        let base = "/v1/spaces/\(spaceHex)"
        func admit(_ phone: inout Phone, name: String) throws {
            let admitted = try api.post(
                "\(base)/admissions",
                #"{"user":"\#(phone.user.publicKey.hex)","device":"\#(phone.device.publicKey.hex)","certifiedAt":\#(phone.certifiedAt),"certificate":"\#(Hex.encode(phone.certificate))"}"#
            )
            #expect(admitted.status == 201, "\(String(decoding: admitted.body, as: UTF8.self))")
            let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))
            let join = phone.join(space, name: name, proof: proof)
            #expect(try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(join))"]}"#).status == 201)
        }
        // Bo's first phone: a user of his own.
        var first = Phone()
        try admit(&first, name: "Bo")

        // The new phone asks with its device key and shows the code; asking again shows the same code.
        var second = Phone()  // its own user key goes unused: the certificate it joins with is Bo's
        let ask = #"{"device":"\#(second.device.publicKey.hex)"}"#
        let asked = try api.post("\(base)/device-requests", ask)
        #expect(asked.status == 201)
        let code = try #require(try asked.object()["code"] as? String)
        #expect(code.count == 9 && code.contains("-"), "\(code)")
        #expect(try api.post("\(base)/device-requests", ask).object()["code"] as? String == code)
        #expect(try api.post("\(base)/device-requests", #"{"device":"abc"}"#).status == 400)
        let shown = try api.get("\(base)/device-requests/\(code.lowercased())").object()
        #expect(shown["device"] as? String == second.device.publicKey.hex && shown["approved"] as? Bool == false)

        // Refused, each with its reason, and nothing recorded: a certificate by another key, a user who is not in the
        // space, a code that names nothing or is not a code.
        let certifiedAt = UInt64(Date().timeIntervalSince1970 * 1000)
        func approval(_ user: SigningKey, signer: SigningKey? = nil, code: String = code) throws -> HTTPClient.Reply {
            let certificate = Membership.certify(device: second.device.publicKey, by: signer ?? user, at: certifiedAt)
            return try api.post(
                "\(base)/device-requests/\(code)/approval",
                #"{"user":"\#(user.publicKey.hex)","certifiedAt":\#(certifiedAt),"certificate":"\#(Hex.encode(certificate))"}"#)
        }
        let forged = try approval(first.user, signer: SigningKey.generate())
        #expect(forged.status == 400)
        #expect((try forged.object()["message"] as? String)?.contains("does not verify") == true)
        let stranger = try approval(SigningKey.generate())
        #expect(stranger.status == 403)
        #expect((try stranger.object()["message"] as? String)?.contains("has no device in this space") == true)
        #expect(try approval(first.user, code: "ZZZZ-ZZZZ").status == 404)
        #expect(try approval(first.user, code: "12").status == 400)
        #expect(try api.get("\(base)/device-requests/\(code)").object()["approved"] as? Bool == false)

        // Bo's first phone signs the certificate; the first answer stands.
        let approved = try approval(first.user)
        #expect(approved.status == 200)
        #expect(try approved.object()["name"] as? String == "Bo")
        #expect(try approval(first.user).status == 409)

        // The new phone reads the certificate, checks it, and joins as Bo's device: the node admits it as Bo's.
        let answer = try api.get("\(base)/device-requests/\(code)").object()
        #expect(answer["user"] as? String == first.user.publicKey.hex && answer["name"] as? String == "Bo")
        let certificate = try #require(Hex.decode(answer["certificate"] as? String ?? ""))
        let at = UInt64(try #require(answer["certifiedAt"] as? Int))
        #expect(
            Membership.verifyCertificate(
                user: first.user.publicKey, device: second.device.publicKey, certifiedAt: at, signature: certificate))
        let admitted = try api.post(
            "\(base)/admissions",
            #"{"user":"\#(first.user.publicKey.hex)","device":"\#(second.device.publicKey.hex)","certifiedAt":\#(at),"certificate":"\#(Hex.encode(certificate))"}"#
        )
        #expect(admitted.status == 201)
        let proof = try #require(Hex.decode(try admitted.object()["proof"] as? String ?? ""))
        let join = second.op(
            space,
            [
                .join(
                    .init(
                        user: first.user.publicKey, userName: "Bo", certifiedAt: at, certificateSignature: certificate,
                        membershipProof: proof))
            ])
        #expect(try api.post("\(base)/ops", #"{"ops":["\#(Hex.encode(join))"]}"#).status == 201)
        // One golfer: both joins are Bo's, named plainly (a second user of the name would carry a fingerprint).
        let joins = try api.get("\(base)/log").array().filter { ($0["change"] as? String)?.contains("joined") == true }
        let bo = joins.filter { ($0["user"] as? String)?.hasPrefix("Bo") == true }
        #expect(bo.count == 2 && bo.allSatisfy { $0["user"] as? String == "Bo" }, "\(joins)")
        let members = try api.get("\(base)/members").array()
        let boMember = members.first { $0["user"] as? String == first.user.publicKey.hex }
        #expect(boMember?["name"] as? String == "Bo" && boMember?["devices"] as? Int == 2, "\(members)")
        #expect(members.filter { ($0["name"] as? String) == "Bo" }.count == 1, "one Bo: \(members)")
        try ana.ok(["verify"])
    }
}
