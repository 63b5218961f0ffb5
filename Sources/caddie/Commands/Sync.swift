import ArgumentParser
import CaddieCore
import CaddieNode
import CaddieStore
import CaddieSync
import Foundation
import Logging

/// Logs to standard error, at the level given by CADDIE_LOG (default info).
func makeLogger(_ label: String) -> Logger {
    var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
    let level = ProcessInfo.processInfo.environment["CADDIE_LOG"].flatMap { Logger.Level(rawValue: $0) }
    logger.logLevel = level ?? .info
    return logger
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the node: accept peers, keep sessions with static peers, push every edit at once.")
    @OptionGroup var options: HomeOptions
    @Option(help: "Address and port to listen on.") var listen = "0.0.0.0:7400"
    @Option(name: .customLong("peer"), help: "A peer to keep in sync with, HOST:PORT (repeatable).") var peers: [String] = []
    @Flag(help: "Do not publish or browse mDNS (static peers only).") var noMdns = false
    @Option(help: "Most connections at once from one address (raise it for a hub behind one NAT address).")
    var maxPerAddress = SyncNode.defaultMaxIncomingPerAddress

    func run() async throws {
        try await guardedAsync {
            let address = try HostPort(parsing: listen)
            let peerList = try peers.map { try HostPort(parsing: $0) }
            let home = try options.open()
            let keys = try home.unlock(passphrase: try Passphrase.obtain())
            let logger = makeLogger("caddie.serve")
            let node = try home.syncNode(keys: keys, logger: logger, maxIncomingPerAddress: maxPerAddress)
            var discovery: LocalDiscovery?
            if !noMdns {
                guard address.port != 0 else {
                    throw NodeError.invalid("mDNS advertises a fixed port: give --listen HOST:PORT with a port, or --no-mdns")
                }
                do {
                    discovery = try LocalDiscovery(node: node, port: address.port, logger: logger)
                } catch {
                    logger.warning("mDNS unavailable: \(error); static peers only")
                }
            }
            defer { discovery?.stop() }
            let sightings = discovery?.sightings
            try await withShutdownSignals {
                try await node.serve(host: address.host, port: address.port, peers: peerList.map { ($0.host, $0.port) },
                                     sightings: sightings) { port in
                    Console.print("listening on \(address.host):\(port)")
                }
            }
            logger.info("stopped")
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync with one peer once, both ways, and exit.")
    @OptionGroup var options: SpaceOptions
    @Option(help: "The peer, HOST:PORT.") var peer: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await guardedAsync {
            let address = try HostPort(parsing: peer)
            let (home, space) = try options.open()
            let keys = try home.unlock(passphrase: try Passphrase.obtain())
            var logger = makeLogger("caddie.sync")
            if ProcessInfo.processInfo.environment["CADDIE_LOG"] == nil { logger.logLevel = .warning }
            let node = try home.syncNode(keys: keys, logger: logger)
            let report = try await node.syncOnce(host: address.host, port: address.port, space: space)
            guard report.completed else {
                throw NodeError.invalid("sync with \(address) failed: \(report.failure ?? "the session ended early")")
            }
            let hash = try home.store.stateHash(space)
            if json {
                Console.json(.object([("sent", .int(report.sent)), ("received", .int(report.received)),
                                      ("stateHash", .string(hash.hex))]))
            } else {
                Console.print("Synced with \(address): sent \(report.sent) ops, received \(report.received); state \(hash.short)")
            }
        }
    }
}

struct Peers: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Peers this home has synced with.")
    @OptionGroup var options: HomeOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try guarded {
            let peers = try options.open().peers()
            if json {
                Console.json(.array(peers.map {
                    .object([("space", .string($0.space.hex)), ("device", .string($0.device.hex)),
                             ("user", .string($0.userName)), ("address", .string($0.address)),
                             ("foundBy", .string($0.foundBy)), ("lastSeen", .string(Log.time(HLC(milliseconds: $0.lastSeen, counter: 0)))),
                             ("lastSync", .optional($0.lastSync.map { Log.time(HLC(milliseconds: $0, counter: 0)) })),
                             ("vector", .string($0.vector)), ("sent", .int($0.sent)), ("received", .int($0.received))])
                }))
            } else if peers.isEmpty {
                Console.print("No peers yet.")
            } else {
                for peer in peers {
                    Console.print("\(peer.userName) \(peer.device.short) at \(peer.address) (\(peer.foundBy)), space \(peer.space.short), "
                                  + "last seen \(Log.time(HLC(milliseconds: peer.lastSeen, counter: 0)))"
                                  + (peer.lastSync.map { ", last sync \(Log.time(HLC(milliseconds: $0, counter: 0)))" } ?? "")
                                  + ", sent \(peer.sent), received \(peer.received)")
                }
            }
        }
    }
}

/// Runs `body` until it ends or SIGINT/SIGTERM arrives, then cancels it and waits for it to finish.
func withShutdownSignals(_ body: @escaping @Sendable () async throws -> Void) async throws {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let (signals, continuation) = AsyncStream<Int32>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { continuation.yield(number) }
        source.resume()
        return source
    }
    defer { sources.forEach { $0.cancel() } }
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await body() }
        group.addTask {
            for await _ in signals { return }
        }
        try await group.next()
        group.cancelAll()
    }
}

/// The async twin of ``guarded(_:)``.
func guardedAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as NodeError {
        Console.error(error.description)
        throw ExitCode(1)
    } catch let error as ExitCode {
        throw error
    } catch let error as SyncError {
        Console.error(error.description)
        throw ExitCode(1)
    } catch {
        Console.error("\(error)")
        throw ExitCode(1)
    }
}
