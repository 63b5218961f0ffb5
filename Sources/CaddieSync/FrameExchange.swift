import CaddieWire
import NIOCore
import NIOPosix
import Synchronization

/// Where a one-request exchange goes: a TCP address (device pairing on the LAN) or a Unix domain socket (the
/// node's control socket).
public enum FrameEndpoint: Sendable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    public var description: String {
        switch self {
        case .tcp(let host, let port): "\(host):\(port)"
        case .unix(let path): path
        }
    }
}

/// One request frame answered by one reply frame, framed as on the sync wire (``FrameCodec`` in the pipeline) and
/// carried by the node's one NIO event loop group, as an `NIOAsyncChannel` like every connection of the node. Device
/// pairing and the control socket use it.
public enum FrameExchange {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No connection could be made; nothing was sent.
        case unreachable(String)
        /// The request went out, but no whole reply frame came back.
        case noReply(String)

        public var description: String {
            switch self {
            case .unreachable(let why), .noReply(let why): why
            }
        }
    }

    /// Sends `body` as one frame to `endpoint` and returns the first whole frame that answers it. Connecting may
    /// take `connectTimeout` seconds, the reply `replyTimeout` seconds more.
    public static func request(
        _ endpoint: FrameEndpoint, _ body: [UInt8], connectTimeout: Int64, replyTimeout: Int64
    ) async throws(Failure) -> [UInt8] {
        guard !body.isEmpty, body.count <= FrameDecoder.maxFrame else {
            throw .unreachable("a request of \(body.count) bytes is no frame (1 byte to 1 MiB): nothing was sent")
        }
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(connectTimeout))
        let framed: @Sendable (any Channel) -> EventLoopFuture<NIOAsyncChannel<[UInt8], [UInt8]>> = { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.framedChannel(channel) }
        }
        let connection: NIOAsyncChannel<[UInt8], [UInt8]>
        do {
            switch endpoint {
            case .tcp(let host, let port):
                connection = try await bootstrap.connect(host: host, port: port, channelInitializer: framed)
            case .unix(let path):
                connection = try await bootstrap.connect(unixDomainSocketPath: path, channelInitializer: framed)
            }
        } catch {
            throw .unreachable(Self.reason(error))
        }
        // One deadline for writing the request and reading the reply: a peer that stops reading cannot hold the
        // write either, since closing the channel fails it.
        let timedOut = Mutex(false)
        let channel = connection.channel
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(replyTimeout)) {
            timedOut.withLock { $0 = true }
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        do {
            return try await connection.executeThenClose { inbound, outbound in
                try await outbound.write(body)
                for try await frame in inbound { return frame }
                throw Failure.noReply("the other side closed the connection")
            }
        } catch {
            if timedOut.withLock({ $0 }) { throw .noReply("no reply within \(replyTimeout) s") }
            if let failure = error as? Failure { throw failure }
            if error is FrameCodec.ClosedInsideFrame { throw .noReply("the other side closed the connection inside its reply") }
            if error is WireError { throw .noReply("the reply is not a frame (\(error))") }
            throw .noReply(Self.reason(error))
        }
    }

    /// An error's text for a person: NIO's connection errors name the cause inside.
    static func reason(_ error: any Error) -> String { DialFailure.reason(error) }
}

/// A TCP listener for one-request exchanges (device pairing). Connections are taken concurrently on the event
/// loop; each is to send one frame, which waits in a queue until ``next(timeout:)`` takes it and the caller
/// answers. A connection that sends no whole frame within `readTimeout` seconds, closes first, or sends bytes
/// that are not a frame is queued as a failed arrival (and closed when it is answered), so a silent peer holds
/// up nobody else. Nothing blocks a thread: waiting for an arrival suspends the caller's task.
public final class FrameListener: Sendable {
    /// One connection's request, or why it sent none.
    public struct Arrival: Sendable {
        /// The request frame; nil when none came whole.
        public let frame: [UInt8]?
        /// Why no frame came, for a failed arrival.
        public let problem: String?
        let channel: any Channel

        /// Sends `body` as one frame (when the connection is still open), then closes the connection. Returns once
        /// the bytes are written, so a command that ends right after does not cut them off, but never later than
        /// ``FrameListener/replyTimeout``: a peer that does not read is cut off.
        public func reply(_ body: [UInt8]) async {
            let deadline = channel.eventLoop.scheduleTask(in: FrameListener.replyTimeout) { [channel] in
                channel.close(promise: nil)
            }
            if channel.isActive { try? await channel.writeAndFlush(ByteBuffer(bytes: FrameDecoder.frame(body))) }
            deadline.cancel()
            try? await channel.close()
        }
    }

    /// The port bound.
    public let port: Int
    /// Connections waiting beyond this many are closed unanswered.
    static let maxWaiting = 16
    /// Connections open at once (reading their request, or waiting for an answer) beyond this many are closed at once.
    static let maxOpen = 32
    /// How long an answer may take to be written.
    static let replyTimeout = TimeAmount.seconds(10)
    private let server: any Channel
    private let queue: Queue

    private init(server: any Channel, queue: Queue, port: Int) {
        self.server = server
        self.queue = queue
        self.port = port
    }

    /// Listens on `host:port` (port 0 picks a free one).
    public static func listen(
        host: String, port: Int, readTimeout: Int64
    ) async throws(FrameExchange.Failure) -> FrameListener {
        let queue = Queue()
        do {
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(
                            ByteToMessageHandler(FrameCodec()), FirstFrame(queue: queue, timeout: .seconds(readTimeout)))
                    }
                }
                .bind(host: host, port: port).get()
            return FrameListener(server: server, queue: queue, port: server.localAddress?.port ?? port)
        } catch {
            throw .unreachable(FrameExchange.reason(error))
        }
    }

    /// The next arrival, waiting up to `timeout` seconds; nil when none came in that time, or when the listener
    /// closed. One caller waits at a time: a second one takes the first's place, and the first gets nil.
    public func next(timeout: Double) async -> Arrival? {
        let nanoseconds = Int64(max(0, min(timeout, 86_400)) * 1e9)
        return await queue.next(within: .nanoseconds(nanoseconds), on: server.eventLoop)
    }

    /// Stops listening and closes every connection still waiting.
    public func close() async {
        try? await server.close()
        for arrival in queue.shut() { arrival.channel.close(promise: nil) }
    }

    deinit { server.close(promise: nil) }

    /// The arrivals not yet taken, and the one caller waiting for the next.
    final class Queue: Sendable {
        private struct State {
            /// Nil once the listener is closed: what arrives later (a connection's read timeout) is closed at once.
            var items: [Arrival]? = []
            var waiter: (id: UInt64, continuation: CheckedContinuation<Arrival?, Never>)?
            var nextWaiter: UInt64 = 0
            /// Connections open now.
            var open = 0
        }

        private let state = Mutex(State())

        /// Counts a new connection in; false when too many are open already.
        func opened() -> Bool {
            state.withLock { state in
                guard state.open < FrameListener.maxOpen else { return false }
                state.open += 1
                return true
            }
        }

        func closed() { state.withLock { $0.open -= 1 } }

        /// Hands `arrival` to the waiting caller, or queues it; closes it when the queue is full or shut.
        func add(_ arrival: Arrival) {
            enum Outcome {
                case handed(CheckedContinuation<Arrival?, Never>)
                case queued
                case refused
            }
            let outcome = state.withLock { state -> Outcome in
                guard let waiting = state.items else { return .refused }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return .handed(waiter.continuation)
                }
                guard waiting.count < FrameListener.maxWaiting else { return .refused }
                state.items?.append(arrival)
                return .queued
            }
            switch outcome {
            case .handed(let continuation): continuation.resume(returning: arrival)
            case .queued: break
            case .refused: arrival.channel.close(promise: nil)
            }
        }

        /// The first arrival queued, or the next to come within `timeout`; nil after it, or once shut.
        func next(within timeout: TimeAmount, on loop: any EventLoop) async -> Arrival? {
            await withCheckedContinuation { (continuation: CheckedContinuation<Arrival?, Never>) in
                enum Outcome {
                    case now(Arrival?)
                    case waiting(UInt64, displaced: CheckedContinuation<Arrival?, Never>?)
                }
                let outcome = state.withLock { state -> Outcome in
                    guard var items = state.items else { return .now(nil) }
                    if !items.isEmpty {
                        let first = items.removeFirst()
                        state.items = items
                        return .now(first)
                    }
                    let displaced = state.waiter?.continuation
                    state.nextWaiter += 1
                    state.waiter = (state.nextWaiter, continuation)
                    return .waiting(state.nextWaiter, displaced: displaced)
                }
                switch outcome {
                case .now(let arrival):
                    continuation.resume(returning: arrival)
                case .waiting(let id, let displaced):
                    displaced?.resume(returning: nil)
                    loop.scheduleTask(in: timeout) { [self] in
                        let expired = state.withLock { state -> CheckedContinuation<Arrival?, Never>? in
                            guard let waiter = state.waiter, waiter.id == id else { return nil }
                            state.waiter = nil
                            return waiter.continuation
                        }
                        expired?.resume(returning: nil)
                    }
                }
            }
        }

        /// Closes the queue: returns what waited in it, and wakes a waiting caller with nil.
        func shut() -> [Arrival] {
            let (waiting, waiter) = state.withLock { state in
                defer {
                    state.items = nil
                    state.waiter = nil
                }
                return (state.items ?? [], state.waiter?.continuation)
            }
            waiter?.resume(returning: nil)
            return waiting
        }
    }

    /// Reads one connection's first frame and queues it (or why none came). Used on its channel's event loop only.
    private final class FirstFrame: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = [UInt8]
        private let queue: Queue
        private let timeout: TimeAmount
        private var queued = false
        private var counted = false
        private var timer: Scheduled<Void>?

        init(queue: Queue, timeout: TimeAmount) {
            self.queue = queue
            self.timeout = timeout
        }

        func channelActive(context: ChannelHandlerContext) {
            guard queue.opened() else {
                queued = true  // never queued: a flood of connections is not worth an answer
                context.close(promise: nil)
                return
            }
            counted = true
            let channel = context.channel
            let seconds = timeout.nanoseconds / 1_000_000_000
            timer = context.eventLoop.scheduleTask(in: timeout) { [self] in
                queue(nil, "it sent no whole request within \(seconds) s", channel)
            }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            queue(unwrapInboundIn(data), nil, context.channel)
        }

        func channelInactive(context: ChannelHandlerContext) {
            queue(nil, "it closed the connection before its request was whole", context.channel)
            if counted {
                counted = false
                queue.closed()
            }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let problem =
                switch error {
                case is FrameCodec.ClosedInsideFrame: "it closed the connection before its request was whole"
                case is WireError: "what it sent is not a frame (\(error))"
                default: "\(error)"
                }
            queue(nil, problem, context.channel)
            context.close(promise: nil)
        }

        private func queue(_ frame: [UInt8]?, _ problem: String?, _ channel: any Channel) {
            guard !queued else { return }
            queued = true
            timer?.cancel()
            queue.add(Arrival(frame: frame, problem: problem, channel: channel))
        }
    }
}
