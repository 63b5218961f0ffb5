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
    /// Runs `body` on a thread of its own (the exchange blocks its caller) and hands back its result.
    static func detached<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> () throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<T, any Error>?>(nil)
        Thread.detachNewThread {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        return {
            done.wait()
            return try result.withLock { $0! }.get()
        }
    }

    @Test("requests are taken in arrival order and answered; a half request and a non-frame are failed arrivals")
    func arrivals() throws {
        let listener = try FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 2)
        defer { listener.close() }
        #expect(listener.port > 0)
        let answer = Self.detached {
            try FrameExchange.request(
                .tcp(host: "127.0.0.1", port: listener.port), Array("hello".utf8), connectTimeout: 5, replyTimeout: 5)
        }
        let first = try #require(listener.next(timeout: 5))
        #expect(first.frame == Array("hello".utf8))
        #expect(first.problem == nil)
        first.reply(Array("hi".utf8))
        #expect(try answer() == Array("hi".utf8))

        // Half a frame, then silence: failed once the read timeout passes, not before.
        let half = try TCPClient(port: listener.port)
        half.send([0, 0, 0, 9, 1, 2])
        #expect(listener.next(timeout: 0.5) == nil)
        let timedOut = try #require(listener.next(timeout: 5))
        #expect(timedOut.frame == nil)
        #expect(timedOut.problem?.contains("no whole request within 2 s") == true)

        // A length of zero is no frame.
        let bad = try TCPClient(port: listener.port)
        bad.send([0, 0, 0, 0])
        let refused = try #require(listener.next(timeout: 5))
        #expect(refused.frame == nil)
        #expect(refused.problem?.contains("not a frame") == true)
    }

    @Test("at most 32 connections are open at once: more are closed unread, and the 32 stay")
    func openCap() throws {
        let listener = try FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 30)
        defer { listener.close() }
        let clients = try (0..<(FrameListener.maxOpen + 8)).map { _ in try TCPClient(port: listener.port) }
        let deadline = Date().addingTimeInterval(5)
        while clients.filter({ !$0.channel.isActive }).count < 8, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(clients.filter { !$0.channel.isActive }.count == 8)
    }

    @Test("a closed port is unreachable; a listener that never answers is no reply, within the reply timeout")
    func failures() throws {
        let listener = try FrameListener.listen(host: "127.0.0.1", port: 0, readTimeout: 10)
        let port = listener.port
        let silent = Self.detached {
            try FrameExchange.request(.tcp(host: "127.0.0.1", port: port), [1], connectTimeout: 5, replyTimeout: 1)
        }
        #expect(throws: FrameExchange.Failure.noReply("no reply within 1 s")) { try silent() }
        listener.close()
        #expect {
            try FrameExchange.request(.tcp(host: "127.0.0.1", port: port), [1], connectTimeout: 5, replyTimeout: 1)
        } throws: { error in
            guard case .unreachable(let why) = error as? FrameExchange.Failure else { return false }
            return why.lowercased().contains("refused")
        }
    }
}

/// A client that sends raw bytes, whatever they are.
struct TCPClient {
    let channel: any Channel

    init(port: Int) throws {
        channel = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port)
            .wait()
    }

    func send(_ bytes: [UInt8]) {
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }
}
