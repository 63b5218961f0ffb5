import Foundation
import Testing

/// Removing a member with a new space key, end to end: real homes, real `caddie serve` nodes, real TCP on loopback.
@Suite("caddie CLI: removing a member (its owner only) and rotating the space key", .serialized)
struct RemovalTests {
    static func home(_ name: String) throws -> CLI {
        let cli = try CLI(name: name)
        try cli.ok(["login", "--name", name])
        return cli
    }

    static func players(_ cli: CLI) throws -> [String] {
        (try cli.ok(["player", "list", "--json"]).json() as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }.sorted()
    }

    static func space(_ cli: CLI) throws -> [String: Any] {
        try #require((try cli.ok(["space", "list", "--json"]).json() as? [[String: Any]])?.first)
    }

    @Test(
        "the owner removes a member: refused everywhere the removal reaches, later ops cut, earlier ops kept; an old key admits no newcomer"
    )
    func removeAMember() throws {
        let (ana, ben, cy, dee, eve) = (
            try Self.home("Ana"), try Self.home("Ben"), try Self.home("Cy"), try Self.home("Dee"),
            try Self.home("Eve")
        )
        defer { [ana, ben, cy, dee, eve].forEach { $0.remove() } }
        let created = try ana.createSpace("Saturday")
        try ana.ok(["player", "add", "Ana"])
        try ben.ok(["space", "join", created.invite])
        try cy.ok(["space", "join", created.invite])
        try ben.ok(["player", "add", "Bena"])
        let anaNode = try NodeProcess(ana)
        let cyNode = try NodeProcess(cy)
        defer {
            anaNode.stop()
            cyNode.stop()
        }
        try ben.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])
        try cy.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])

        // Before his removal, Ben makes an invite at his own device (any member may).
        let bensInvite = try ben.ok(["space", "invite", "--json"]).field("invite")

        // Only the owner removes, and not themselves.
        try ben.fails(["space", "remove", "Ana"], saying: "only the space's owner, Ana, can remove members")
        try ana.fails(["space", "remove", "Ana"], saying: "the space's owner cannot remove themselves")
        try ana.fails(["space", "remove", "Zed"], saying: "no member of this space is called 'Zed'")
        // Refused before the passphrase is asked for (here there is neither CADDIE_PASSPHRASE nor a terminal).
        try ben.fails(["space", "remove", "Ana"], passphrase: .some(nil), saying: "only the space's owner, Ana")
        try ana.fails(["space", "remove", "Zed"], passphrase: .some(nil), saying: "no member of this space is called 'Zed'")
        let removal = try #require(try ana.ok(["space", "remove", "Ben", "--json"]).json() as? [String: Any])
        #expect(
            removal["devices"] as? Int == 1 && removal["sealedTo"] as? Int == 2 && removal["epoch"] as? Int == 1,
            "\(removal)")
        #expect(try Self.space(ana)["keyEpoch"] as? Int == 1)
        // The removed member's device no longer counts as a member, and the text shows the key's epoch.
        #expect(try Self.space(ana)["members"] as? Int == 2, "Ana's and Cy's devices")
        #expect(try ana.ok(["space", "list"]).stdout.contains("(2 devices, "), "removed devices are not counted")
        #expect(try ana.ok(["space", "list"]).stdout.contains("key epoch 1"))

        // Ben is refused by the owner's node at once.
        try ben.fails(["sync", "--peer", "127.0.0.1:\(anaNode.port)"], saying: "you were removed from this space by its owner")
        // Offline, Ben adds a player and reaches Cy, who has not heard yet: Cy takes it for now.
        try ben.ok(["player", "add", "Benny"])
        try ben.ok(["sync", "--peer", "127.0.0.1:\(cyNode.port)"])
        #expect(try Self.players(cy) == ["Ana", "Bena", "Benny"])

        // Dee joins with a ticket after the removal (she gets the current key and the earlier one) and brings
        // the removal to Cy: Ben's later op leaves Cy's log, his earlier one stays.
        try dee.ok([
            "space", "join", try ana.ok(["space", "invite", "--json"]).field("invite"), "--peer",
            "127.0.0.1:\(anaNode.port)",
        ])
        try dee.ok(["sync", "--peer", "127.0.0.1:\(cyNode.port)"])
        #expect(try Self.players(cy) == ["Ana", "Bena"])
        try ben.fails(["sync", "--peer", "127.0.0.1:\(cyNode.port)"], saying: "you were removed from this space by its owner")

        // A newcomer with the old shared-key code (what a removed member holds) is refused after the rotation.
        try eve.ok(["space", "join", created.invite])
        try eve.fails(
            ["sync", "--peer", "127.0.0.1:\(cyNode.port)"],
            saying: "this space's key changed when a member was removed")
        try eve.fails(
            ["sync", "--peer", "127.0.0.1:\(anaNode.port)"],
            saying: "this space's key changed when a member was removed")

        // Ben's invite, redeemed at his node after his removal, hands out only the old key: the newcomer it admits
        // is refused by every node that has the removal.
        let fay = try Self.home("Fay")
        defer { fay.remove() }
        let benNode = try NodeProcess(ben)
        try fay.ok(["space", "join", bensInvite, "--peer", "127.0.0.1:\(benNode.port)"])
        benNode.stop()
        try fay.fails(
            ["sync", "--peer", "127.0.0.1:\(anaNode.port)"], saying: "this space's key changed when a member was removed")

        // Everyone who remains converges on one state and one key; Cy's log shows the removal, signed by Ana.
        try cy.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])
        try dee.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])
        let hash = try ana.stateHash()
        #expect(try cy.stateHash() == hash && (try dee.stateHash()) == hash)
        // Every device the new key was sealed to has now been seen with it, at Ana's node and at Cy's: neither
        // answers the old key any longer, so Ben learns no more than a stranger would (second review, low).
        for port in [anaNode.port, cyNode.port] {
            let refused = try ben.run(["sync", "--peer", "127.0.0.1:\(port)"])
            #expect(refused.status != 0)
            #expect(!refused.stderr.contains("removed"), "\(refused.stderr)")
            #expect(refused.stderr.contains("the peer does not hold this space's key"), "\(refused.stderr)")
        }
        let checks = try [ana, cy, dee].map { try Self.space($0)["keyCheck"] as? String }
        #expect(Set(checks).count == 1 && checks[0] != nil, "\(checks)")
        #expect(try Self.players(dee) == ["Ana", "Bena"])
        // `caddie verify` (second review) checks each join's proof under the key of its own epoch: the joins from
        // before the removal on every home, and Dee's, made after it, on the homes of members from before.
        for home in [ana, cy, dee] {
            let verified = try home.run(["verify"])
            #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        }
        let log = try #require(try cy.ok(["log", "--json"]).json() as? [[String: Any]])
        let entry = log.first { ($0["change"] as? String)?.hasPrefix("removed Ben") == true }
        #expect(entry?["user"] as? String == "Ana" && entry?["verified"] as? Bool == true, "\(log.map { $0["change"] ?? "" })")
    }

    @Test(
        "two removals made offline on two of the owner's devices converge to one membership and one key, renewed so that neither removed member holds it"
    )
    func concurrentRemovals() throws {
        let (phone, ben, cy, dee) = (try Self.home("Ana"), try Self.home("Ben"), try Self.home("Cy"), try Self.home("Dee"))
        var tablet = try CLI(name: "Ana-tablet")
        tablet.passphrase = "tablet passphrase"
        defer { [phone, tablet, ben, cy, dee].forEach { $0.remove() } }
        let created = try phone.createSpace("Saturday")
        for member in [ben, cy, dee] { try member.ok(["space", "join", created.invite]) }
        _ = try DeviceTests.pair(first: phone, second: tablet)
        var node = try NodeProcess(phone)
        for member in [ben, cy, dee, tablet, tablet] { try member.ok(["sync", "--peer", "127.0.0.1:\(node.port)"]) }
        node.stop()

        // Offline: the phone removes Ben, the tablet removes Cy. Each new key reached the member the other removed.
        try phone.ok(["space", "remove", "Ben"])
        try tablet.ok(["space", "remove", "Cy"])
        node = try NodeProcess(phone)
        defer { node.stop() }
        // The tablet's sync merges both removals and, the current key having reached a removed member, renews it.
        try tablet.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        try dee.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        for space in try [phone, tablet, dee].map(Self.space) {
            #expect(space["keyEpoch"] as? Int == 2, "\(space)")
        }
        let checks = try [phone, tablet, dee].map { try Self.space($0)["keyCheck"] as? String }
        #expect(Set(checks).count == 1 && checks[0] != nil, "\(checks)")
        let hash = try phone.stateHash()
        #expect(try tablet.stateHash() == hash && (try dee.stateHash()) == hash)
        try ben.fails(["sync", "--peer", "127.0.0.1:\(node.port)"], saying: "you were removed from this space by its owner")
        try cy.fails(["sync", "--peer", "127.0.0.1:\(node.port)"], saying: "you were removed from this space by its owner")
    }

    @Test("a new key after a stolen phone: the owner revokes it and rotates; the stolen key admits no newcomer, members carry on")
    func rotateAfterTheft() throws {
        let (ana, ben, eve) = (try Self.home("Ana"), try Self.home("Ben"), try Self.home("Eve"))
        var tablet = try CLI(name: "Ana-tablet")
        tablet.passphrase = "tablet passphrase"
        defer { [ana, ben, eve, tablet].forEach { $0.remove() } }
        let created = try ana.createSpace("Saturday")
        try ben.ok(["space", "join", created.invite])
        let tabletDevice = try DeviceTests.pair(first: ana, second: tablet)
        let node = try NodeProcess(ana)
        defer { node.stop() }
        try ben.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        try tablet.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        try ben.fails(["space", "rotate"], saying: "only the space's owner can give it a new key")
        try ben.fails(["space", "rotate"], passphrase: .some(nil), saying: "only the space's owner can give it a new key")
        // The tablet is stolen: Ana revokes it and gives the space a new key, sealed to her phone and Ben's.
        try ana.ok(["device", "revoke", tabletDevice])
        let rotated = try #require(try ana.ok(["space", "rotate", "--json"]).json() as? [String: Any])
        #expect(rotated["epoch"] as? Int == 1 && rotated["sealedTo"] as? Int == 2, "\(rotated)")
        try ben.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        #expect(try Self.space(ben)["keyEpoch"] as? Int == 1)
        try tablet.fails(["sync", "--peer", "127.0.0.1:\(node.port)"], saying: "was revoked")
        // The thief, holding the old key, comes back as a newcomer: refused.
        try eve.ok(["space", "join", created.invite])
        try eve.fails(["sync", "--peer", "127.0.0.1:\(node.port)"], saying: "this space's key changed")
        // Ben, who has the new key, and a ticket newcomer carry on with Ana.
        try ben.ok(["player", "add", "Ben"])
        try ben.ok(["sync", "--peer", "127.0.0.1:\(node.port)"])
        #expect(try ben.stateHash() == (try ana.stateHash()))
    }

    @Test("after a rotation, a member's new device carries every epoch's key and gets in; a shared-key code is refused")
    func currentKeyHandedOn() throws {
        let (ana, ben) = (try Self.home("Ana"), try Self.home("Ben"))
        let tablet = try CLI(name: "ana-tablet")
        defer { [ana, ben, tablet].forEach { $0.remove() } }
        let created = try ana.createSpace("Saturday")
        try ben.ok(["space", "join", created.invite])
        let anaNode = try NodeProcess(ana)
        defer { anaNode.stop() }
        try ben.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])
        try ana.ok(["space", "rotate"])
        // Second review: both used to hand out the key the space began with, which the owner's node then refused.
        try ana.fails(["space", "invite", "--shared-key"], saying: "make an invite with `caddie space invite`")
        _ = try DeviceTests.pair(first: ana, second: tablet)
        try tablet.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])
        try ben.ok(["sync", "--peer", "127.0.0.1:\(anaNode.port)"])
        #expect(try tablet.stateHash() == (try ana.stateHash()))
        // The new device holds every epoch's key, so it checks the joins made before the rotation too.
        try tablet.ok(["verify"])
    }
}
