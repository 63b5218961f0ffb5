import CaddieCrypto
import Foundation
import Testing

@testable import CaddieNode

/// What one unlock of a home's keys costs: a new home's keys are sealed at libsodium's interactive level, and keys
/// sealed again (a new authority for `--https`, a new space) keep the cost the file records. The CLI tests rely on
/// the second: they seal each test home once at the least cost and every later command keeps it.
@Suite("a home's keys: sealed at the interactive level, sealed again at the cost they have")
struct KeyCostTests {
    static func cost(_ home: Home) throws -> SealedBox.Cost? {
        SealedBox.cost(of: [UInt8](try Data(contentsOf: home.keysURL)))
    }

    @Test("login seals at the interactive level; a home sealed at another cost keeps it when its keys are sealed again")
    func keptWhenSealedAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-cost-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = try Home(path: directory.path)
        _ = try home.login(name: "Ana", passphrase: "correct horse battery")
        #expect(try Self.cost(home) == .interactive)

        let plain = try SealedBox.open([UInt8](try Data(contentsOf: home.keysURL)), passphrase: "correct horse battery")
        try Data(try SealedBox.seal(plain, passphrase: "correct horse battery", cost: .least)).write(to: home.keysURL)
        let keys = try home.unlock(passphrase: "correct horse battery")
        try home.keepAuthority(certificate: [1, 2, 3], key: [4, 5, 6], keys: keys)
        #expect(try Self.cost(home) == .least)
        #expect(try home.unlock(passphrase: "correct horse battery").ring.authorityKey == "040506")
        #expect(keys.ring.authorityKey == "040506", "every copy of the unlocked keys holds the new key")
        #expect(throws: NodeError.self) { try home.unlock(passphrase: "wrong horse battery") }
    }

    @Test("a cost outside what Argon2id allows is no cost, and a file that is not sealed has none")
    func bounds() {
        #expect(SealedBox.Cost(opsLimit: 0, memLimit: 8192) == nil)
        #expect(SealedBox.Cost(opsLimit: 1, memLimit: 4096) == nil)
        #expect(SealedBox.Cost(opsLimit: 65, memLimit: 1 << 20) == nil)
        #expect(SealedBox.cost(of: Array("not sealed".utf8)) == nil)
        let sealed = try? SealedBox.seal([1, 2, 3], passphrase: "p", cost: .least)
        #expect(sealed.flatMap { SealedBox.cost(of: $0) } == .least)
    }
}
