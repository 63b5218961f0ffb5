import CaddieWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import CaddieSync

/// The one-request exchange that device pairing uses, on real loopback TCP sockets.
@Suite("One request, one reply, over TCP")
struct FrameExchangeTests {
    @Test("requests are taken in arrival order and answered; a half request and a non-frame are failed arrivals")
    func arrivals() async throws {
        // On a thread of its own: the whole suite's blocking tests can hold the cooperative pool's threads for longer
        // than these timeouts.
        try await withTaskExecutorPreference(OwnThread()) {
            let listener = try await FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 2)
            #expect(listener.port > 0)
            let port = listener.port
            async let answer = FrameExchange.request(
                .tcp(host: "127.0.0.1", port: port), Array("hello".utf8), connectTimeout: 30, replyTimeout: 30)
            let first = try #require(await listener.next(timeout: 30))
            #expect(first.frame == Array("hello".utf8))
            #expect(first.problem == nil)
            await first.reply(Array("hi".utf8))
            #expect(try await answer == Array("hi".utf8))

            // Half a frame, then silence: failed once the read timeout passes, not before.
            let half = try await TCPClient(port: listener.port)
            half.send([0, 0, 0, 9, 1, 2])
            #expect(await listener.next(timeout: 0.5) == nil)
            let timedOut = try #require(await listener.next(timeout: 30))
            #expect(timedOut.frame == nil)
            #expect(timedOut.problem?.contains("no whole request within 2 s") == true)

            // A length of zero is no frame.
            let bad = try await TCPClient(port: listener.port)
            bad.send([0, 0, 0, 0])
            let refused = try #require(await listener.next(timeout: 30))
            #expect(refused.frame == nil)
            #expect(refused.problem?.contains("not a frame") == true)

            // Half a frame, then a close: a failed arrival that says so. On a listener of its own with a long read
            // timeout, so that a loaded machine (the whole suite beside it) cannot let the 2 s timeout above fire
            // before the close is read.
            let patient = try await FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 30)
            let closing = try await TCPClient(port: patient.port)
            closing.send([0, 0, 0, 9, 1, 2])
            try await Task.sleep(for: .milliseconds(100))
            try await closing.channel.close()
            let cut = try #require(await patient.next(timeout: 30))
            #expect(cut.frame == nil)
            #expect(cut.problem == "it closed the connection before its request was whole")
            await patient.close()

            // A caller waiting when the listener closes gets nil at once, not after its timeout.
            let started = ContinuousClock.now
            async let waiting = listener.next(timeout: 30)
            try await Task.sleep(for: .milliseconds(100))
            await listener.close()
            #expect(await waiting == nil)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("at most 32 connections are open at once: more are closed unread, and the 32 stay")
    func openCap() async throws {
        // On a thread of its own: the whole suite's blocking tests can hold the cooperative pool's threads for longer
        // than these timeouts.
        try await withTaskExecutorPreference(OwnThread()) {
            let listener = try await FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 30)
            var clients: [TCPClient] = []
            for _ in 0..<(FrameListener.maxOpen + 8) { clients.append(try await TCPClient(port: listener.port)) }
            let deadline = Date().addingTimeInterval(5)
            while clients.filter({ !$0.channel.isActive }).count < 8, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(clients.filter { !$0.channel.isActive }.count == 8)
            await listener.close()
        }
    }

    /// Whether a TCP connect to this loopback port is refused (nothing listens there).
    static func refuses(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result != 0 && errno == ECONNREFUSED
    }

    @Test("a closed port is unreachable; a listener that never answers is no reply, within the reply timeout")
    func failures() async throws {
        // On a thread of its own: the whole suite's blocking tests can hold the cooperative pool's threads for longer
        // than these timeouts.
        try await withTaskExecutorPreference(OwnThread()) {
            let listener = try await FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 10)
            let port = listener.port
            await #expect(throws: FrameExchange.Failure.noReply("no reply within 1 s")) {
                try await FrameExchange.request(.tcp(host: "127.0.0.1", port: port), [1], connectTimeout: 5, replyTimeout: 1)
            }
            await listener.close()
            // Closing the listener races a connection the kernel still queues for it (seen under a loaded CI: "reset"):
            // the port is closed once a plain connect to it is refused, which is waited for here, up to 5 s.
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, !Self.refuses(port: port) { try await Task.sleep(for: .milliseconds(20)) }
            await #expect {
                try await FrameExchange.request(.tcp(host: "127.0.0.1", port: port), [1], connectTimeout: 5, replyTimeout: 1)
            } throws: { error in
                guard case .unreachable(let why) = error as? FrameExchange.Failure else { return false }
                return why.lowercased().contains("refused")
            }
        }
    }
}

extension FrameExchangeTests {
    @Test("a request larger than a frame is refused before anything is sent, with what to do")
    func tooLarge() async throws {
        let body = [UInt8](repeating: 7, count: FrameDecoder.maxFrame + 1)
        await #expect(
            throws: FrameExchange.Failure.unreachable(
                "a request of \(body.count) bytes is no frame (1 byte to 1 MiB): nothing was sent")
        ) {
            try await FrameExchange.request(.tcp(host: "127.0.0.1", port: 9), body, connectTimeout: 1, replyTimeout: 1)
        }
        // The control socket says so before it dials: the command is not taken for one that no node answers.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-\(UUID().uuidString).sock").path
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(throws: ControlSocket.Failure.tooLarge(body.count)) {
            try await ControlSocket.request(path: path, body)
        }
    }
}

/// A client that sends raw bytes, whatever they are.
struct TCPClient {
    let channel: any Channel

    init(port: Int) async throws {
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
    }

    func send(_ bytes: [UInt8]) {
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }
}

/// Runs a task's jobs on a serial queue of its own, off the cooperative pool.
final class OwnThread: TaskExecutor {
    private let queue = DispatchQueue(label: "caddie.test.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
