import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// One HTTP server of the node (the API and web app, over HTTP or HTTPS, or the trust page): Hummingbird's server
/// and router, run as a service of `caddie serve`'s group. It writes each response's `Date` header from
/// ``HTTPDate``, worked out when a request needs it; Hummingbird's `Application` keeps that header ready with a
/// timer that fires every second, for each server, which woke an idle node with nothing to answer.
struct HTTPServer<Responder: HTTPResponder>: Service where Responder.Context == BasicRequestContext {
    let responder: Responder
    let server: HTTPServerBuilder
    let address: BindAddress
    let logger: Logger
    let running: @Sendable (any Channel) async -> Void

    func run() async throws {
        let (responder, logger) = (responder, logger)
        let service = try server.buildServer(
            configuration: ServerConfiguration(address: address, serverName: "caddie"),
            eventLoopGroup: EventLoopGroupProvider.singleton.eventLoopGroup, logger: logger
        ) { request, writer, channel in
            var logger = logger
            logger[metadataKey: "hb.request.id"] = "\(RequestID())"
            let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                logger.debug("unhandled error answering a request", metadata: ["error": "\(error)"])
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = HTTPDate.now()
            response.headers[.server] = "caddie"
            do {
                try await writer.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // The request's body turned out malformed while the answer was being written: end the connection
                // rather than let the server write a second answer after part of this one.
                throw ParseErrorWhileWriting()
            }
        } onServerRunning: {
            await running($0)
        }
        try await service.run()
    }
}

/// A request that stopped parsing while its answer was being written.
private struct ParseErrorWhileWriting: Error {}

/// The `Date` header's text for now (RFC 9110's IMF-fixdate, "Fri, 27 Nov 2026 08:30:00 GMT"), made at most once a
/// second, when a response asks for it: nothing runs between requests.
enum HTTPDate {
    private static let last = Mutex<(second: Int, text: String)>((-1, ""))
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func now() -> String {
        let second = Int(Date().timeIntervalSince1970)
        if let cached = last.withLock({ $0.second == second ? $0.text : nil }) { return cached }
        let text = format(second)
        last.withLock { $0 = (second, text) }
        return text
    }

    /// The header's text for a time in whole seconds since 1970 (UTC).
    static func format(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        // The civil date of a day count (proleptic Gregorian), by eras of 400 years.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = Self.days[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) GMT"
    }
}
