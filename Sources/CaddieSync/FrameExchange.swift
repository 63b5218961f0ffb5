import CaddieWire
import Dispatch
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

/// One request frame answered by one reply frame, framed as on the sync wire (``FrameDecoder``: a u32 length,
/// at most 1 MiB) and carried by the node's one NIO event loop group. Device pairing and the control socket
/// use it; the calls block their caller (a command), never an event loop.
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
    ) throws(Failure) -> [UInt8] {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let reader = ReplyReader(loop.makePromise(of: [UInt8].self))
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(reader) }
            }
        let channel: any Channel
        do {
            switch endpoint {
            case .tcp(let host, let port): channel = try bootstrap.connect(host: host, port: port).wait()
            case .unix(let path): channel = try bootstrap.connect(unixDomainSocketPath: path).wait()
            }
        } catch {
            loop.execute { reader.finish(.failure(Failure.unreachable("\(error)"))) }
            throw .unreachable(Self.reason(error))
        }
        defer { channel.close(promise: nil) }
        // One deadline for writing the request and reading the reply: a peer that stops reading cannot hold the
        // write either, since closing the channel fails it.
        let timeout = loop.scheduleTask(in: .seconds(replyTimeout)) {
            reader.finish(.failure(Failure.noReply("no reply within \(replyTimeout) s")))
            channel.close(promise: nil)
        }
        defer { timeout.cancel() }
        do {
            try channel.writeAndFlush(ByteBuffer(bytes: FrameDecoder.frame(body))).wait()
            return try reader.promise.futureResult.wait()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .noReply(Self.reason(error))
        }
    }

    /// An error's text for a person: NIO's connection errors name the cause inside.
    static func reason(_ error: any Error) -> String { DialFailure.reason(error) }

    /// Completes its promise once: with the first whole frame, or with why none came. Used on its channel's event
    /// loop only.
    private final class ReplyReader: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<[UInt8]>
        private var decoder = FrameDecoder()
        private var done = false

        init(_ promise: EventLoopPromise<[UInt8]>) { self.promise = promise }

        func finish(_ result: Result<[UInt8], any Error>) {
            guard !done else { return }
            done = true
            promise.completeWith(result)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            decoder.append(Array(unwrapInboundIn(data).readableBytesView))
            do {
                if let frame = try decoder.next() { finish(.success(frame)) }
            } catch {
                finish(.failure(Failure.noReply("the reply is not a frame (\(error))")))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failure(Failure.noReply("the other side closed the connection")))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            finish(.failure(Failure.noReply("\(error)")))
            context.close(promise: nil)
        }
    }
}

/// A TCP listener for one-request exchanges (device pairing). Connections are taken concurrently on the event
/// loop; each is to send one frame, which waits in a queue until ``next(timeout:)`` takes it and the caller
/// answers. A connection that sends no whole frame within `readTimeout` seconds, closes first, or sends bytes
/// that are not a frame is queued as a failed arrival (and closed when it is answered), so a silent peer holds
/// up nobody else.
public final class FrameListener: Sendable {
    /// One connection's request, or why it sent none.
    public struct Arrival: Sendable {
        /// The request frame; nil when none came whole.
        public let frame: [UInt8]?
        /// Why no frame came, for a failed arrival.
        public let problem: String?
        let channel: any Channel

        /// Sends `body` as one frame (when the connection is still open), then closes the connection. Waits until
        /// the bytes are written, so a command that ends right after does not cut them off, but never longer than
        /// ``FrameListener/replyTimeout``: a peer that does not read is cut off.
        public func reply(_ body: [UInt8]) {
            let deadline = channel.eventLoop.scheduleTask(in: FrameListener.replyTimeout) { [channel] in
                channel.close(promise: nil)
            }
            if channel.isActive { try? channel.writeAndFlush(ByteBuffer(bytes: FrameDecoder.frame(body))).wait() }
            deadline.cancel()
            try? channel.close().wait()
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
    public static func listen(host: String, port: Int, readTimeout: Int64) throws(FrameExchange.Failure) -> FrameListener {
        let queue = Queue()
        do {
            let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            FirstFrame(queue: queue, timeout: .seconds(readTimeout)))
                    }
                }
                .bind(host: host, port: port).wait()
            return FrameListener(server: server, queue: queue, port: server.localAddress?.port ?? port)
        } catch {
            throw .unreachable(FrameExchange.reason(error))
        }
    }

    /// The next arrival, waiting up to `timeout` seconds; nil when none came in that time.
    public func next(timeout: Double) -> Arrival? {
        let nanoseconds = Int(max(0, min(timeout, 86_400)) * 1e9)
        guard queue.signal.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return queue.items.withLock { items in items?.isEmpty == false ? items?.removeFirst() : nil }
    }

    /// Stops listening and closes every connection still waiting.
    public func close() {
        try? server.close().wait()
        let waiting = queue.items.withLock { items in
            defer { items = nil }
            return items ?? []
        }
        for arrival in waiting { arrival.channel.close(promise: nil) }
    }

    deinit { server.close(promise: nil) }

    final class Queue: Sendable {
        /// Nil once the listener is closed: what arrives later (a connection's read timeout) is closed at once.
        let items = Mutex<[Arrival]?>([])
        let signal = DispatchSemaphore(value: 0)
        /// Connections open now.
        let open = Mutex(0)

        /// Counts a new connection in; false when too many are open already.
        func opened() -> Bool {
            open.withLock { count in
                guard count < FrameListener.maxOpen else { return false }
                count += 1
                return true
            }
        }

        func closed() { open.withLock { $0 -= 1 } }

        func add(_ arrival: Arrival) {
            let taken = items.withLock { items in
                guard let waiting = items, waiting.count < FrameListener.maxWaiting else { return false }
                items?.append(arrival)
                return true
            }
            if taken { signal.signal() } else { arrival.channel.close(promise: nil) }
        }
    }

    /// Reads one connection's first frame and queues it (or why none came). Used on its channel's event loop only.
    private final class FirstFrame: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        private let queue: Queue
        private let timeout: TimeAmount
        private var decoder = FrameDecoder()
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
            guard !queued else { return }
            decoder.append(Array(unwrapInboundIn(data).readableBytesView))
            do {
                if let frame = try decoder.next() { queue(frame, nil, context.channel) }
            } catch {
                queue(nil, "what it sent is not a frame (\(error))", context.channel)
            }
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
            queue(nil, "\(error)", context.channel)
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
