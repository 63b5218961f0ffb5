import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieWire
import Foundation
import Logging
import Testing

@testable import CaddieSync

/// Tests that run two sync nodes inside the test process and time their sessions: they need the process to
/// themselves. Among the whole suite's hundreds of parallel tests on two cores, a handshake waited 40 s for a thread
/// and timed out, so they run in a `swift test` of their own after the suite (Deploy/test.sh, step "sync sessions
/// alone"), with `CADDIE_SESSIONS_ALONE=1`; the other nodes of the suite run as processes of their own.
enum SessionsAlone {
    static let enabled = ProcessInfo.processInfo.environment["CADDIE_SESSIONS_ALONE"] == "1"
    static let why: Comment =
        "runs alone, after the suite: CADDIE_SESSIONS_ALONE=1 swift test --filter 'LiveRevocationTests|SyncDurabilityTests|PeerTableTests'"
}

/// A space, its key and a folder of homes on disk, for the tests that run sync nodes in the test process.
struct SessionSpace {
    let folder: URL
    let space = SecureRandom.spaceID()
    let key = SecureRandom.bytes(32)
    let label: String

    init(_ label: String) throws {
        self.label = label
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A home on disk that holds the space, with the join of `device` (certified by `user`) when one is named.
    func home(_ name: String, joining member: (user: SigningKey, device: SigningKey)? = nil) throws -> OpStore {
        let directory = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try OpStore(path: directory.appendingPathComponent("caddie.sqlite").path)
        try store.addSpace(space, name: label, now: 0)
        if let member {
            try store.append(
                space: space, signer: member.device,
                changes: [HeadsTests.join(space, key, user: member.user, device: member.device)], now: 1)
        }
        return store
    }

    /// A sync node of `device` (certified by `user`) over `store`, holding the space's key.
    func node(_ store: OpStore, user: SigningKey, device: SigningKey) throws -> SyncNode {
        try SyncNode(
            store: store,
            credentials: DeviceCredentials(
                device: device, user: user.publicKey, certifiedAt: 1,
                certificate: Membership.certify(device: device.publicKey, by: user, at: 1)),
            spaceKeys: [space: key], logger: Logger(label: label))
    }
}

extension SessionSpace {
    /// Runs `body` with `listener` serving on a loopback port, given to it, and `dialler` (if any) serving and
    /// dialling that port; both stop when `body` returns.
    func serving(
        _ listener: SyncNode, dialledBy dialler: SyncNode? = nil, _ body: (_ port: Int) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            let (ports, found) = AsyncStream<Int>.makeStream()
            group.addTask { try await listener.serve(host: "127.0.0.1", port: 0, peers: []) { found.yield($0) } }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            if let dialler {
                group.addTask { [port] in
                    try await dialler.serve(host: "127.0.0.1", port: 0, peers: [("127.0.0.1", port)]) { _ in }
                }
            }
            defer { group.cancelAll() }
            try await body(port)
        }
    }

    /// Polls `condition` every 20 ms for up to `seconds`: how long it took to hold, or nil if it never did.
    static func within(_ seconds: Double, _ condition: () throws -> Bool) async throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try condition() { return Date().timeIntervalSince(start) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
