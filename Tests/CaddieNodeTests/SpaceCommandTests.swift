import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieServices
import CaddieStore
import Foundation
import Testing

@testable import CaddieNode

/// The commands of a space's keeping, run against a real home (a SQLite file, sealed keys) with no process
/// launched: course import, invites, the key and its owner, device revocation, track marks and bundles. Each either
/// gives its result and the change it names, or refuses with its kind and changes nothing.
@Suite("node commands: courses, invites, keys, devices")
struct SpaceCommandTests {
    static func course(tees: [String]) -> Data {
        let tees = tees.map { #"{"name": "\#($0)", "rating": 35.0, "slope": 120, "par": 36}"# }.joined(separator: ",")
        return Data(
            """
            {"name": "Nine", "club": "Test Club", "source": "made up for a test", "asOf": "2026-11", "tees": [\(tees)],
             "holes": [\((1...9).map { #"{"number": \#($0), "par": 4, "strokeIndex": \#($0)}"# }.joined(separator: ","))]}
            """.utf8)
    }

    @Test("a course file read by the command is merged by the node: new, then replaced whole; a bad file reads nothing")
    func courseImport() throws {
        let (directory, home, space, keys) = try NodeCommandTests.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try home.execute(
            .importCourses(space: space, courses: try CourseService.read(Self.course(tees: ["Yellow", "Red"]))), keys: keys
        ).importedCourses()
        #expect(first.count == 1 && first[0].merged == false && first[0].name == "Nine")
        // The same course again without its red tee: merged into the one the space has, and the red tee is gone.
        let again = try home.execute(
            .importCourses(space: space, courses: try CourseService.read(Self.course(tees: ["Yellow"]))), keys: keys
        ).importedCourses()
        #expect(again.map(\.id) == first.map(\.id) && again[0].merged)
        #expect(try home.courses.list(space).map(\.name) == ["Nine"])
        #expect(try home.courses.course(space, first[0].id).tees.map(\.name) == ["Yellow"])
        // A file that does not read is refused before any command exists.
        #expect(throws: NodeError.self) { try CourseService.read(Data(#"{"name": "Nowhere", "holes": []}"#.utf8)) }
    }

    @Test("an invite made, listed and revoked by command; revoking it twice, or one not made here, is refused")
    func invites() throws {
        let (directory, home, space, keys) = try NodeCommandTests.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = Home.now()
        let text = try home.execute(.createInvite(space: space, uses: 2, seconds: 3600), keys: keys)
            .expect("an invite") { if case .invite(let text) = $0 { text } else { nil } }
        let ticket = try InviteTicket(parsing: text)
        #expect(ticket.space == space && ticket.inviter == keys.device.publicKey)
        #expect(ticket.expiresAt >= before + 3_600_000 && ticket.expiresAt <= Home.now() + 3_600_000)
        #expect(try home.spaces.invites(space: space).map(\.invite.id) == [ticket.id])
        let revoked = try home.execute(.revokeInvite(String(ticket.id.hex.prefix(6))), keys: keys)
        #expect(revoked == .inviteRevoked(ticket.id))
        #expect(try home.spaces.invites(space: space).first?.invite.revoked == true)
        #expect(throws: NodeError.self) { try home.execute(.revokeInvite(ticket.id.hex), keys: keys) }
        #expect(throws: NodeError.self) { try home.execute(.revokeInvite("ffffffff"), keys: keys) }
        // Out of range: refused naming the input, before anything is written.
        #expect {
            try home.execute(.createInvite(space: space, uses: 0, seconds: 3600), keys: keys)
        } throws: { error in
            guard case .badInput(let input, let text) = error as? NodeError else { return false }
            return input == .uses && text.hasPrefix("must be 1...100")
        }
        #expect(try home.spaces.invites(space: space).count == 1)
    }

    @Test("the owner rotates the key; a shared-key code is then refused as a conflict; the owner cannot remove herself")
    func keysAndOwner() throws {
        let (directory, home, space, keys) = try NodeCommandTests.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shared = try home.execute(.sharedKeyInvite(space: space), keys: keys)
            .expect("a code") { if case .invite(let text) = $0 { text } else { nil } }
        #expect(try InviteCode(parsing: shared).space == space)
        #expect {
            try home.execute(.removeMember(space: space, member: "Ana"), keys: keys)
        } throws: { ($0 as? NodeError)?.kind == .refused }
        #expect {
            try home.execute(.removeMember(space: space, member: "Zed"), keys: keys)
        } throws: { ($0 as? NodeError)?.description.contains("no member of this space is called 'Zed'") == true }
        let rotated = try home.execute(.rotateKey(space: space), keys: keys)
        #expect(rotated == .rotated(epoch: 1, sealedTo: 1), "sealed to Ana's one device")
        #expect(try home.spaces.list().first { $0.id == space }?.keyEpoch == 1)
        #expect {
            try home.execute(.sharedKeyInvite(space: space), keys: keys)
        } throws: { error in
            guard let error = error as? NodeError else { return false }
            return error.kind == .conflict && error.description.contains("a shared-key code cannot carry its earlier keys")
        }
    }

    @Test("a device revoked by command in every space; this device itself, or a bundle that is not there, is refused")
    func devicesAndBundles() throws {
        let (directory, home, space, keys) = try NodeCommandTests.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try home.execute(.revokeDevice(keys.device.publicKey), keys: keys)
        } throws: { ($0 as? NodeError)?.kind == .refused }
        // A device of Ana's that never reached this space is revoked there before its first op.
        let lost = SigningKey.generate().publicKey
        let revoked = try home.execute(.revokeDevice(lost), keys: keys).revocation()
        #expect(revoked.spaces == ["Saturday"] && revoked.devices == [lost])
        #expect(try home.store.deviceRevocation(lost, presentedUser: try #require(keys.user).publicKey) != nil)
        // Only a recovered home revokes "the lost devices".
        #expect {
            try home.execute(.revokeLostDevices, keys: keys)
        } throws: { ($0 as? NodeError)?.description.contains("--lost is for a home made with `caddie login --recover`") == true }
        #expect {
            try home.execute(.importBundle(path: directory.appendingPathComponent("none.bundle").path), keys: keys)
        } throws: { ($0 as? NodeError)?.kind == .storage }
        _ = space
    }

    @Test("a track mark lands on the player's current hole")
    func trackMark() throws {
        let (directory, home, space, keys) = try NodeCommandTests.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let course = try #require(
            try home.execute(
                .importCourses(space: space, courses: try CourseService.read(Self.course(tees: ["Yellow"]))), keys: keys
            ).importedCourses().first)
        let ana = try home.rounds.addPlayer(space: space, keys: keys, name: "Ana", user: nil, handicapIndex: 12)
        let game = try home.rounds.newGame(space: space, keys: keys, course: course.id, tee: "Yellow", players: [ana])
        _ = try home.execute(
            .score(space: space, game: game, player: ana, hole: 1, entry: try ScoreEntry(strokes: 4)), keys: keys)
        let point = try GeoPoint(latitude: 52.1, longitude: 4.3)
        #expect(
            try home.execute(.mark(space: space, game: game, player: ana, point: point, shot: true), keys: keys)
                == .marked(hole: 2))
        #expect(try home.guidance.trackSummary(space: space, game: game).isEmpty == false)
    }
}
