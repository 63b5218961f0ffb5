import CaddieCore
import CaddieNode
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CaddieAPI

/// Each resource under `/v1/spaces/{space}` is a route collection of its own (`Resource`): mounted alone in the
/// node's router and driven with Hummingbird's test client (`app.test(.router)`), it answers its own routes, reads
/// what its list shows, and leaves every other resource's paths unrouted.
@Suite("Each resource's routes, mounted alone", .timeLimit(.minutes(5)))
struct ResourceRouteTests {
    /// A round's home with a medal named "Medal", its API, and the bearer header.
    static func setUp() throws -> (EventHubTests.Round, NodeAPI, HTTPFields) {
        let round = try EventHubTests.Round(at: try EventHubTests.directory())
        _ = try round.medal(games: [round.games[0]])
        let (api, auth) = try RouteTests.api(round)
        return (round, api, auth)
    }

    /// Every operation Protocol/openapi.yaml documents below `/v1/spaces/{space}/`, as "METHOD path" with the
    /// router's `:parameter` for each `{parameter}`.
    static func documented() throws -> Set<String> {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/openapi.yaml")
        let prefix = "  /v1/spaces/{space}/"
        var path: String?
        var operations: Set<String> = []
        for line in try String(contentsOf: spec, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /") {
                path = line.hasPrefix(prefix) && line.hasSuffix(":") ? String(line.dropFirst(prefix.count).dropLast()) : nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "),
                let method = ["get", "post", "patch", "put", "delete"].first(where: { line == "    \($0):" })
            {
                let routed = path.replacingOccurrences(of: "{", with: ":").replacingOccurrences(of: "}", with: "")
                operations.insert("\(method.uppercased()) \(routed)")
            }
        }
        return operations
    }

    /// `path` (a route's pattern below the space) with each parameter given a value that names something in `round`.
    static func uri(_ round: EventHubTests.Round, _ path: String) -> String {
        let values = [
            ":player": "Ann", ":game": round.games[1].hex, ":course": "Haagsche", ":competition": "Medal",
            ":code": "no-such-code", ":invite": "no-such-invite",
        ]
        let filled = path.split(separator: "/").map { values[String($0)] ?? String($0) }.joined(separator: "/")
        return "/v1/spaces/\(round.space.hex)/\(filled)"
    }

    /// The `code` of a JSON error answer, or nil for any other answer.
    static func code(_ response: TestResponse) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return object?["code"] as? String
    }

    @Test(
        "no two resources route the same path and method, and together they route every operation openapi.yaml documents under a space"
    )
    func disjoint() throws {
        let (_, api, _) = try Self.setUp()
        let resources = api.resources()
        let pairs = resources.flatMap { resource in resource.routes.map { "\($0.method) \($0.path)" } }
        #expect(Set(pairs).count == pairs.count, "a route in two resources: \(pairs)")
        #expect(Set(resources.map(\.name)).count == resources.count)
        // Every documented operation is some resource's; beyond them only the refusals that name the read-only alias.
        let documented = try Self.documented()
        #expect(documented.count > 40, "openapi.yaml read: \(documented.count) operations under a space")
        #expect(documented.subtracting(pairs).sorted() == [], "documented, not routed")
        #expect(Set(pairs).subtracting(documented).sorted() == ["DELETE games/current", "PATCH games/current"])
    }

    @Test(
        "each resource alone: every route of it answers (no 404 for want of a route, no 405), another resource's GET is not routed, an unrouted method on its path is 405 naming its own"
    )
    func eachAlone() async throws {
        let (round, api, auth) = try Self.setUp()
        let everything = api.resources()
        for resource in api.resources() {
            let app = Application(
                router: api.router(boundHost: "localhost", names: [], secure: false, resources: [resource]),
                logger: Logger(label: "caddie-resource-test"))
            let (name, routes) = (resource.name, resource.routes)
            let own = Set(routes.map(\.path))
            let others = everything.filter { $0.name != name }.flatMap(\.routes).filter {
                $0.method == .get && !own.contains($0.path)
            }
            try await app.test(.router) { client in
                for (path, method) in routes {
                    let response = try await client.execute(uri: Self.uri(round, path), method: method, headers: auth)
                    #expect(
                        !["no_such_resource", "method_not_allowed"].contains(Self.code(response)),
                        "\(name): \(method) \(path) is not routed (\(response.status))")
                }
                for (path, method) in others {
                    let response = try await client.execute(uri: Self.uri(round, path), method: method, headers: auth)
                    #expect(
                        response.status == .notFound && Self.code(response) == "no_such_resource",
                        "\(name) alone routes \(method) \(path)")
                }
                let first = try #require(routes.first)
                let methods = routes.filter { $0.path == first.path }.map(\.method.rawValue).sorted()
                let response = try await client.execute(uri: Self.uri(round, first.path), method: .put, headers: auth)
                #expect(response.status == .methodNotAllowed, "\(name): PUT \(first.path)")
                #expect(response.headers[.allow] == methods.joined(separator: ", "), "\(name): \(first.path)")
            }
        }
    }

    @Test("the players, courses, games and competitions lists, each read through its resource mounted alone")
    func lists() async throws {
        let (round, api, auth) = try Self.setUp()
        let expected: [(resource: String, path: String, names: [String])] = [
            ("players", "players", ["Ann", "Bob", "Cat", "Dan"]),
            ("courses", "courses", try round.home.courses.list(round.space).map(\.name)),
            ("competitions", "competitions", ["Medal"]),
        ]
        for resource in api.resources() {
            let app = Application(
                router: api.router(boundHost: "localhost", names: [], secure: false, resources: [resource]),
                logger: Logger(label: "caddie-resource-test"))
            let name = resource.name
            try await app.test(.router) { client in
                for item in expected where item.resource == name {
                    let response = try await client.execute(uri: Self.uri(round, item.path), method: .get, headers: auth)
                    let list = try #require(
                        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                    #expect(list.compactMap { $0["name"] as? String }.sorted() == item.names.sorted(), "\(item.path)")
                }
                if name == "games" {
                    let response = try await client.execute(uri: Self.uri(round, "games"), method: .get, headers: auth)
                    let list = try #require(
                        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                    #expect(Set(list.compactMap { $0["game"] as? String }) == Set(round.games.map(\.hex)))
                }
            }
        }
    }
}
