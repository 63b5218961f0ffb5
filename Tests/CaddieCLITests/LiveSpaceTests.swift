import Foundation
import Testing

/// Spaces created and joined while `caddie serve` runs: the node runs the command with its own keys, seals the new
/// key into the home's ring with the key its unlock kept, and serves the space at once, with no restart.
@Suite("caddie CLI: a space created or joined while the node runs is served at once", .serialized)
struct LiveSpaceTests {
    @Test(
        "Ana's node creates a space and Ben's node joins it by a ticket, neither asking a passphrase; Ben's node then syncs it live with its static peer, and his sealed keys hold it"
    )
    func createAndJoinWhileServing() throws {
        let (ana, ben) = (try InviteTests.newcomer("Ana"), try InviteTests.newcomer("Ben"))
        defer { [ana, ben].forEach { $0.remove() } }
        _ = try ana.createSpace("Saturday")
        let anaNode = try NodeProcess(ana)
        defer { anaNode.stop() }
        let benNode = try NodeProcess(ben, peers: [anaNode.port])
        defer { benNode.stop() }
        // No passphrase from here on: a command that ran in its own process would have to unlock the keys and fail.
        var (anaNoKeys, benNoKeys) = (ana, ben)
        (anaNoKeys.passphrase, benNoKeys.passphrase) = (nil, nil)

        let space = try anaNoKeys.ok(["space", "create", "Sunday", "--json"]).field("space")
        #expect(try Self.spaces(ana) == ["Saturday", "Sunday"])
        let code = try anaNoKeys.ok(["space", "invite", "--space", "Sunday", "--json"]).field("invite")
        #expect(code.hasPrefix("CADDIE2"))

        let joined = try benNoKeys.ok(["space", "join", code, "--peer", "127.0.0.1:\(anaNode.port)", "--json"])
        #expect(try joined.field("space") == space)
        #expect(try joined.field("invitedBy") == "Ana")
        #expect(try Self.spaces(ben) == ["Sunday"])

        // A player Ana's node adds now reaches Ben's running node by itself: it took up the space and dials its
        // static peer for it.
        try anaNoKeys.ok(["player", "add", "Cy", "--space", "Sunday"])
        let anaHash = try ana.ok(["state-hash", "--space", "Sunday", "--json"]).field("stateHash")
        #expect(
            try eventually(within: 30) {
                try ben.ok(["state-hash", "--space", "Sunday", "--json"]).field("stateHash") == anaHash
            }, "Ben's running node did not sync the space it joined")
        let names = try #require(try ben.ok(["player", "list", "--json"]).json() as? [[String: Any]])
        #expect(names.contains { $0["name"] as? String == "Cy" })

        // The rings on disk hold the new keys and still open with the passphrase: with the nodes stopped, Ben syncs
        // Sunday once with Ana's new node by himself.
        benNode.stop()
        anaNode.stop()
        let again = try NodeProcess(ana)
        defer { again.stop() }
        try ana.ok(["player", "add", "Dee", "--space", "Sunday"])
        try ben.ok(["sync", "--peer", "127.0.0.1:\(again.port)", "--space", "Sunday"])
        #expect(
            try ben.ok(["state-hash", "--space", "Sunday", "--json"]).field("stateHash")
                == (try ana.ok(["state-hash", "--space", "Sunday", "--json"]).field("stateHash")))
    }

    @Test("a space name the node refuses changes nothing: no key sealed, no space, the node serves on")
    func refusedCreate() throws {
        let ana = try InviteTests.newcomer("Ana")
        defer { ana.remove() }
        _ = try ana.createSpace("Saturday")
        let node = try NodeProcess(ana)
        defer { node.stop() }
        let keys = try Data(contentsOf: ana.home.appendingPathComponent("keys.sealed"))
        var noKeys = ana
        noKeys.passphrase = nil
        try noKeys.fails(["space", "create", String(repeating: "x", count: 101)], saying: "must be 1...100 characters")
        #expect(try Data(contentsOf: ana.home.appendingPathComponent("keys.sealed")) == keys)
        #expect(try Self.spaces(ana) == ["Saturday"])
        try noKeys.ok(["space", "create", "Sunday"])
        #expect(try Self.spaces(ana) == ["Saturday", "Sunday"])
    }

    static func spaces(_ cli: CLI) throws -> [String] {
        let list = try #require(try cli.ok(["space", "list", "--json"]).json() as? [[String: Any]])
        return list.compactMap { $0["name"] as? String }.sorted()
    }
}
