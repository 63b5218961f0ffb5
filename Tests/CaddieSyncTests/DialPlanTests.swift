import Testing

@testable import CaddieSync

/// The mDNS dial plan: pure logic, so tested without a network; LabTests run discovery for real.
@Suite("Which adverts a node dials")
struct DialPlanTests {
    @Test("finding 'mDNS spoofing': a replayed advert sent from many addresses starts at most two dial loops")
    func replayedAdvertIsBounded() {
        var plan = DialPlan()
        var started = 0
        var refused = 0
        for port in 1000..<1500 {
            let result = plan.sighted(
                name: "caddie-fake-\(port)", node: "a1b2c3d4e5f60718", host: "10.0.0.\(port % 200)",
                port: port, spaces: ["space1"])
            started += result.start.count
            refused += result.refused
        }
        #expect(started == DialPlan.maxAddressesPerNode)
        #expect(refused == 500 - DialPlan.maxAddressesPerNode)
    }

    @Test("adverts of many node ids start at most 32 loops in all; a lost advert frees its loops")
    func manyNodesAreBounded() {
        var plan = DialPlan()
        var loops: [DialPlan.Loop] = []
        for index in 0..<100 {
            loops +=
                plan.sighted(
                    name: "n\(index)", node: "node\(index)", host: "10.0.1.\(index)", port: 7400,
                    spaces: ["space1"]
                ).start
        }
        #expect(loops.count == DialPlan.maxLoops)
        #expect(plan.lost(name: "n0").count == 1)
        #expect(plan.sighted(name: "n99", node: "node99", host: "10.0.1.99", port: 7400, spaces: ["space1"]).start.count == 1)
    }

    @Test("a real node seen again, or on two spaces, is dialled once per space")
    func repeatedSightings() {
        var plan = DialPlan()
        #expect(plan.sighted(name: "n", node: "id", host: "10.0.0.2", port: 7400, spaces: ["s1", "s2"]).start.count == 2)
        let again = plan.sighted(name: "n", node: "id", host: "10.0.0.2", port: 7400, spaces: ["s1", "s2"])
        #expect(again.start.isEmpty && again.refused == 0)
        // It moves to another network: the second address is allowed.
        #expect(plan.sighted(name: "n2", node: "id", host: "192.168.1.5", port: 7400, spaces: ["s1"]).start.count == 1)
    }

    @Test("finding 'mDNS lock-out': dead adverts in every place give way to members, which keep their places")
    func deadAdvertsGiveWay() {
        var plan = DialPlan()
        // 32 forged adverts at dead addresses take every place.
        var dead: [DialPlan.Loop] = []
        for index in 0..<DialPlan.maxLoops {
            dead +=
                plan.sighted(name: "f\(index)", node: "fake\(index)", host: "10.9.0.\(index)", port: 7400, spaces: ["s"]).start
        }
        #expect(dead.count == DialPlan.maxLoops)
        // Before any of them has failed, a member's advert must wait (none has shown itself dead yet)...
        let early = plan.sighted(name: "m", node: "member", host: "10.9.1.1", port: 7400, spaces: ["s"])
        #expect(early.start.isEmpty && early.refused == 1)
        // ...once they fail (their loops keep dialling: a real peer may just be starting), the member takes the place
        // of the oldest failing one, and that loop is told to stop.
        for loop in dead {
            let running = plan.dialFailed(loop)
            #expect(running, "a failed dial alone ends no loop")
        }
        let member = plan.sighted(name: "m", node: "member", host: "10.9.1.1", port: 7400, spaces: ["s"])
        #expect(member.start.count == 1 && member.stop == [dead[0]], "\(member)")
        let evicted = plan.dialFailed(dead[0])
        #expect(!evicted, "the loop that gave its place away ends at its next dial")
        // The member's loop completes a handshake: no later sighting takes its place, however its dials go.
        plan.handshook(member.start[0])
        _ = plan.dialFailed(member.start[0])
        for index in 0..<64 {
            let next = plan.sighted(name: "g\(index)", node: "more\(index)", host: "10.9.2.\(index)", port: 7400, spaces: ["s"])
            #expect(!next.stop.contains(member.start[0]), "a proven member lost its place")
            for loop in next.start { _ = plan.dialFailed(loop) }
        }
        #expect(plan.count == DialPlan.maxLoops)
        #expect(plan.progress[member.start[0]] != nil)
    }
}
