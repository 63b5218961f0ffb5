import Foundation
import Testing

/// Invites as tickets, end to end: real homes, a real `caddie serve` for the inviting device, real TCP on loopback.
@Suite(
    "caddie CLI: invites that are tickets (single use, expiring, revocable, redeemed at the inviting device)",
    .serialized)
struct InviteTests {
    /// Ana's home with a space, a player and a game with a score, and her node serving it.
    static func group() throws -> (ana: CLI, node: NodeProcess, space: String) {
        let ana = try CLI(name: "Ana")
        try ana.ok(["login", "--name", "Ana"])
        let space = try ana.ok(["space", "create", "Saturday", "--json"]).field("space")
        let player = try ana.ok(["player", "add", "Ana", "--index", "12", "--json"]).field("player")
        let course = try ana.ok(["course", "import", RoundTests.course, "--json"]).field("course")
        let game = try ana.ok(["game", "new", "--course", course, "--tee", "1", "--players", player, "--json"])
            .field("game")
        try ana.ok(["score", game, "Ana", "1", "5"])
        return (ana, try NodeProcess(ana), space)
    }

    static func newcomer(_ name: String) throws -> CLI {
        let cli = try CLI(name: name)
        try cli.ok(["login", "--name", name])
        return cli
    }

    static func spaces(_ cli: CLI) throws -> Int { (try cli.ok(["space", "list", "--json"]).json() as? [Any])?.count ?? -1 }

    @Test("a ticket admits one device at the inviting node, which records whom; a second use is refused and writes nothing")
    func singleUse() throws {
        let (ana, node, space) = try Self.group()
        let ben = try Self.newcomer("Ben")
        let cy = try Self.newcomer("Cy")
        defer {
            node.stop()
            [ana, ben, cy].forEach { $0.remove() }
        }
        let invite = try ana.ok(["space", "invite", "--json"])
        let code = try invite.field("invite")
        #expect(code.hasPrefix("CADDIE2"))

        let joined = try ben.ok(["space", "join", code, "--peer", "127.0.0.1:\(node.port)", "--json"])
        #expect(try joined.field("space") == space)
        #expect(try joined.field("invitedBy") == "Ana")
        // The first sync brought Ana's player, course, game and score.
        #expect(try ben.stateHash() == (try ana.stateHash()))

        try cy.fails(
            ["space", "join", code, "--peer", "127.0.0.1:\(node.port)"],
            saying: "Ana's device refused the invite: this invite was already used (it admits one device)")
        #expect(try Self.spaces(cy) == 0)

        // Ana's list shows it used, by Ben; the log on Ben's home says Ana's device admitted Ben's.
        let list = try #require(try ana.ok(["space", "invite", "list", "--json"]).json() as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["state"] as? String == "used")
        #expect(list.first?["admitted"] as? [String] == ["Ben"])
        let benDevice = try ben.ok(["whoami", "--json"]).field("device")
        let audit = try #require(try ben.ok(["log", "--json"]).json() as? [[String: Any]])
        let admission = audit.first {
            ($0["change"] as? String)?.hasPrefix("admitted Ben's device \(benDevice.prefix(8))") == true
        }
        #expect(admission?["user"] as? String == "Ana", "audit: \(audit.map { $0["change"] ?? "" })")
        #expect(admission?["verified"] as? Bool == true)
    }

    @Test("--uses 2 admits two devices and then no more; an expired and a revoked invite are refused, saying so")
    func usesExpiryRevocation() throws {
        let (ana, node, _) = try Self.group()
        let (ben, cy, dee) = (try Self.newcomer("Ben"), try Self.newcomer("Cy"), try Self.newcomer("Dee"))
        defer {
            node.stop()
            [ana, ben, cy, dee].forEach { $0.remove() }
        }
        let peer = "127.0.0.1:\(node.port)"
        let two = try ana.ok(["space", "invite", "--uses", "2", "--json"]).field("invite")
        try ben.ok(["space", "join", two, "--peer", peer])
        try cy.ok(["space", "join", two, "--peer", peer])
        try dee.fails(["space", "join", two, "--peer", peer], saying: "already used by all 2 devices it admits")

        let brief = try ana.ok(["space", "invite", "--expires", "1s", "--json"]).field("invite")
        Thread.sleep(forTimeInterval: 1.5)
        try dee.fails(["space", "join", brief, "--peer", peer], saying: "this invite expired at")

        let revoked = try ana.ok(["space", "invite", "--json"])
        try ana.ok(["space", "invite", "revoke", String(try revoked.field("id").prefix(6))])
        try dee.fails(
            ["space", "join", try revoked.field("invite"), "--peer", peer],
            saying: "this invite was revoked by the member who made it")
        #expect(try Self.spaces(dee) == 0)

        let states = try #require(try ana.ok(["space", "invite", "list", "--json"]).json() as? [[String: Any]])
            .compactMap { $0["state"] as? String }.sorted()
        #expect(states == ["expired", "revoked", "used"])
        // A fresh invite still works after all those refusals.
        try dee.ok(["space", "join", try ana.ok(["space", "invite", "--json"]).field("invite"), "--peer", peer])
        #expect(try dee.stateHash() == (try ana.stateHash()))
    }

    @Test("a ticket works only at the device that made it; a mistyped code and a silent address are refused cleanly")
    func onlyAtTheInviter() throws {
        let (ana, node, _) = try Self.group()
        let (ben, cy) = (try Self.newcomer("Ben"), try Self.newcomer("Cy"))
        defer {
            node.stop()
            [ana, ben, cy].forEach { $0.remove() }
        }
        try ben.ok([
            "space", "join", try ana.ok(["space", "invite", "--json"]).field("invite"),
            "--peer", "127.0.0.1:\(node.port)",
        ])
        let benNode = try NodeProcess(ben)
        defer { benNode.stop() }
        let code = try ana.ok(["space", "invite", "--json"]).field("invite")
        // Ben is a member, but Ana made the invite: Ben's node cannot tell the invite from noise.
        try cy.fails(["space", "join", code, "--peer", "127.0.0.1:\(benNode.port)"], saying: "does not know this invite")
        // No --peer, and no mDNS here (the lab test finds the device over mDNS): the error says what to do.
        try cy.fails(
            ["space", "join", code, "--wait", "1"],
            saying: "did not find Ana's device on this network within 1 s")
        // One changed character: refused by the check digits, before any connection.
        let index = code.index(code.startIndex, offsetBy: 30)
        let mistyped = code.replacingCharacters(in: index...index, with: code[index] == "A" ? "B" : "A")
        try cy.fails(["space", "join", mistyped, "--peer", "127.0.0.1:\(node.port)"], saying: "mistyped or incomplete")
        // Nothing listens there.
        try cy.fails(["space", "join", code, "--peer", "127.0.0.1:1"], saying: "cannot reach Ana's device")
        #expect(try Self.spaces(cy) == 0)
        // The invite was not used by any of that: it still admits Cy at Ana's node.
        try cy.ok(["space", "join", code, "--peer", "127.0.0.1:\(node.port)"])
    }
}
