import CaddieCore
import Testing

@testable import CaddieNode

/// The codes a new phone shows to become another device of its user: pure bookkeeping, with the clock given.
@Suite("device requests: a code per asking device, ten minutes, 64 at most, the first certificate stands")
struct DeviceRequestsTests {
    let space = SpaceID(unchecked: Array(0..<16))
    func device(_ byte: UInt8) -> PublicKey { PublicKey(unchecked: [UInt8](repeating: byte, count: 32)) }
    func approval(_ byte: UInt8) -> DeviceRequests.Approval {
        .init(user: device(byte), name: "Bo", certifiedAt: 7, certificate: [UInt8](repeating: byte, count: 64))
    }

    @Test("a device asking again gets its open code; the code reads back typed in any case, with or without its dash")
    func askAndRead() throws {
        let requests = DeviceRequests()
        let made = try requests.ask(space: space, device: device(1), now: 1_000)
        #expect(made.code.count == 8 && made.code.allSatisfy { DeviceRequests.alphabet.contains($0) })
        #expect(made.expires == 1_000 + DeviceRequests.lifetimeMilliseconds)
        #expect(try requests.ask(space: space, device: device(1), now: 2_000) == made)
        #expect(try requests.ask(space: space, device: device(2), now: 2_000).code != made.code)
        let shown = DeviceRequests.shown(made.code)
        #expect(shown.count == 9 && shown.contains("-"))
        #expect(try requests.read(shown.lowercased(), space: space, now: 3_000) == made)
        #expect(try requests.read(made.code.prefix(4) + " " + made.code.dropFirst(4), space: space, now: 3_000) == made)
        #expect(throws: DeviceRequests.Refusal.malformed) { try requests.read("ABC", space: space, now: 3_000) }
        #expect(throws: DeviceRequests.Refusal.malformed) { try requests.read("ABCDEFG0", space: space, now: 3_000) }
        // Another space does not see it; after ten minutes nobody does.
        #expect(throws: DeviceRequests.Refusal.unknown) {
            try requests.read(made.code, space: SpaceID(unchecked: [UInt8](repeating: 9, count: 16)), now: 3_000)
        }
        #expect(throws: DeviceRequests.Refusal.unknown) { try requests.read(made.code, space: space, now: made.expires) }
    }

    @Test("the first certificate stands; a later one is refused, and an expired code takes none")
    func approve() throws {
        let requests = DeviceRequests()
        let made = try requests.ask(space: space, device: device(1), now: 0)
        let approved = try requests.approve(made.code, space: space, approval: approval(5), now: 10)
        #expect(approved.approval == approval(5))
        #expect(try requests.read(made.code, space: space, now: 20).approval == approval(5))
        #expect(throws: DeviceRequests.Refusal.approved) {
            try requests.approve(made.code, space: space, approval: approval(6), now: 30)
        }
        // An approved request is not handed out again: the device asking anew gets a new code.
        #expect(try requests.ask(space: space, device: device(1), now: 40).code != made.code)
        let late = try requests.ask(space: space, device: device(2), now: 0)
        #expect(throws: DeviceRequests.Refusal.unknown) {
            try requests.approve(late.code, space: space, approval: approval(5), now: DeviceRequests.lifetimeMilliseconds)
        }
    }

    @Test("64 open requests at most; expired ones make room")
    func limit() throws {
        let requests = DeviceRequests()
        for index in 0..<DeviceRequests.limit { _ = try requests.ask(space: space, device: device(UInt8(index)), now: 0) }
        #expect(throws: DeviceRequests.Refusal.full) { try requests.ask(space: space, device: device(200), now: 1) }
        _ = try requests.ask(space: space, device: device(200), now: DeviceRequests.lifetimeMilliseconds)
    }
}
