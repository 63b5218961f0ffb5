import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Every route of the API by path pattern and method, so that a request with a known path and an unknown method is
/// answered 405 with `Allow`, not 404. Filled while the router is built, read-only after that.
final class RouteTable: Sendable {
    private let entries = NIOLockedValueBox<[(pattern: [Substring], method: HTTPRequest.Method)]>([])

    func add(_ path: String, _ method: HTTPRequest.Method) {
        entries.withLockedValue { $0.append((Self.components(path), method)) }
    }

    /// The methods routed for `path`, in a stable order; empty when no route has that path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let components = Self.components(path)
        let matching = entries.withLockedValue { entries in
            entries.filter { entry in
                entry.pattern.count == components.count
                    && zip(entry.pattern, components).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
            }.map(\.method)
        }
        var seen: [HTTPRequest.Method] = []
        for method in matching where !seen.contains(method) { seen.append(method) }
        return seen.sorted { $0.rawValue < $1.rawValue }
    }

    static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}

/// A router group that records each route it adds in a `RouteTable`.
struct RecordingGroup {
    let inner: RouterGroup<BasicRequestContext>
    let prefix: String
    let table: RouteTable

    func group(_ path: String) -> RecordingGroup {
        RecordingGroup(inner: inner.group(RouterPath(path)), prefix: prefix + "/" + path, table: table)
    }

    /// Routes `method` on `path` below this group, and records the pair for the 405 answers.
    @discardableResult
    func on<Output: ResponseGenerator>(
        _ path: String, method: HTTPRequest.Method,
        use handler: @Sendable @escaping (Request, BasicRequestContext) async throws -> Output
    ) -> RecordingGroup {
        table.add(prefix + "/" + path, method)
        inner.on(RouterPath(path), method: method, use: handler)
        return self
    }

    /// Adds every route of `resource` below this group (behind the group's middleware), and records each for the
    /// 405 answers.
    func mount(_ resource: Resource) {
        for (path, method) in resource.routes { table.add(prefix + "/" + path, method) }
        inner.addRoutes(resource.collection)
    }
}

/// One resource's routes under a space (players, courses, games, ...): a Hummingbird `RouteCollection` with the
/// path and method of each route it holds, so that the router that mounts it can answer 405 for it. Built once
/// by its function on `NodeAPI` (`playerRoutes()`, ...), mounted by `router()` at `/v1/spaces/:space`, and
/// mounted alone by the tests that drive one resource.
final class Resource {
    /// What the resource is, as the API's documentation names it ("players", "games", ...).
    let name: String
    let collection = RouteCollection(context: BasicRequestContext.self)
    /// Each route's path below the space, and its method, in the order they were added.
    private(set) var routes: [(path: String, method: HTTPRequest.Method)] = []

    init(_ name: String) { self.name = name }

    /// Routes `method` on `path` (below the space) to `handler`.
    @discardableResult
    func on<Output: ResponseGenerator>(
        _ path: String, method: HTTPRequest.Method,
        use handler: @Sendable @escaping (Request, BasicRequestContext) async throws -> Output
    ) -> Resource {
        routes.append((path, method))
        collection.on(RouterPath(path), method: method, use: handler)
        return self
    }
}
