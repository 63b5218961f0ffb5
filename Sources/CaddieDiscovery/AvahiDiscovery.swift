import CAvahi
import Foundation
import Synchronization

/// Publishes and browses `_caddie._tcp` through the Avahi daemon (libavahi-client), on Avahi's own
/// threaded poll. Every callback runs on that thread and hands its result to the `onEvent` closure.
///
/// The client is created with AVAHI_CLIENT_NO_FAIL: with no daemon it waits for one, and when the daemon
/// restarts it reconnects, publishes again and browses again. Name collisions pick an alternative name.
public final class AvahiDiscovery: @unchecked Sendable {
    // Touched only on the poll thread (callbacks) or under the poll lock.
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var browser: OpaquePointer?
    /// A resolver per service seen (by interface, protocol and name), kept until the service goes there: it reports
    /// the service again when its TXT records change (a node that took up a new space advertises its hint). At most
    /// ``maxKeptResolvers``; past that a sighting is resolved once, as every one was before.
    private var resolvers: [String: OpaquePointer] = [:]
    /// Where each service name is seen (interface and protocol keys): it is lost when the last one goes.
    private var instances: [String: Set<String>] = [:]
    /// Most resolvers kept open at once (a flood of forged adverts pins no more).
    static let maxKeptResolvers = 256
    private var name: String
    private var advert: ServiceAdvert?
    private let onEvent: @Sendable (DiscoveryEvent) -> Void
    private var unavailableReported = false

    /// Prepares discovery for `advert` (nil: browse only, publish nothing); call ``start()`` to begin.
    /// `onEvent` runs on Avahi's thread and must return quickly.
    public init(advert: ServiceAdvert?, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) {
        self.advert = advert
        name = advert?.name ?? ""
        self.onEvent = onEvent
    }

    /// Starts Avahi's poll thread and the client. Fails only if the poll thread cannot start.
    public func start() throws {
        guard let poll = avahi_threaded_poll_new() else { throw DiscoveryError.pollFailed }
        self.poll = poll
        avahi_threaded_poll_lock(poll)
        createClient()
        avahi_threaded_poll_unlock(poll)
        guard avahi_threaded_poll_start(poll) >= 0 else { throw DiscoveryError.pollFailed }
    }

    /// Stops publishing and browsing, and frees everything.
    public func stop() {
        guard let poll else { return }
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }  // frees the group, browser and resolvers with it
        client = nil
        resolvers = [:]
        instances = [:]
        group = nil
        browser = nil
        avahi_threaded_poll_free(poll)
        self.poll = nil
    }

    deinit { stop() }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> AvahiDiscovery? {
        userdata.map { Unmanaged<AvahiDiscovery>.fromOpaque($0).takeUnretainedValue() }
    }

    private func createClient() {
        guard let poll else { return }
        var error: Int32 = 0
        client = avahi_client_new(
            avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL,
            { client, state, userdata in
                AvahiDiscovery.from(userdata)?.clientChanged(client, state)
            }, userdata, &error)
        if client == nil {
            reportUnavailable("cannot create the Avahi client: \(Self.text(error))")
            // No system bus yet (or it went away): try again later, the daemon may come up.
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.retrySeconds) { [weak self] in self?.retry() }
        }
    }

    /// Seconds between attempts to reach a missing daemon or system bus.
    static let retrySeconds = 5.0

    private func retry() {
        guard let poll else { return }
        avahi_threaded_poll_lock(poll)
        if client == nil { createClient() }
        avahi_threaded_poll_unlock(poll)
    }

    private static func text(_ error: Int32) -> String { String(cString: avahi_strerror(error)) }

    private func reportUnavailable(_ reason: String) {
        guard !unavailableReported else { return }
        unavailableReported = true
        onEvent(.unavailable(reason))
    }

    private func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        guard let client else { return }
        self.client = client
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            if unavailableReported { onEvent(.available) }
            unavailableReported = false
            publish(client)
            browse(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            reportUnavailable("the Avahi daemon is not running or D-Bus is missing")
        case AVAHI_CLIENT_FAILURE:
            let reason = Self.text(avahi_client_errno(client))
            reportUnavailable("the Avahi client failed: \(reason)")
            // The client is dead (the daemon went away): drop it and start a new one that waits for the daemon.
            group = nil
            browser = nil
            resolvers = [:]
            instances = [:]
            avahi_client_free(client)
            self.client = nil
            createClient()
        default:
            break
        }
    }

    private func publish(_ client: OpaquePointer) {
        guard let advert else { return }
        if group == nil {
            group = avahi_entry_group_new(
                client,
                { group, state, userdata in
                    AvahiDiscovery.from(userdata)?.groupChanged(group, state)
                }, userdata)
        }
        guard let group, avahi_entry_group_is_empty(group) != 0 else { return }
        var list: UnsafeMutablePointer<AvahiStringList>?
        for entry in advert.txt.reversed() { list = avahi_string_list_add(list, entry) }
        defer { avahi_string_list_free(list) }
        let result = avahi_entry_group_add_service_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET), AvahiPublishFlags(0), name, ServiceAdvert.type,
            nil, nil,
            UInt16(clamping: advert.port), list)
        if result == AVAHI_ERR_COLLISION {
            renameAfterCollision()
            publish(client)
            return
        }
        guard result >= 0 else {
            onEvent(.unavailable("cannot publish the service: \(Self.text(result))"))
            return
        }
        avahi_entry_group_commit(group)
    }

    /// Publishes new TXT records for the advert (a space added while the node runs): at once when the advert is
    /// up, else with the next publication.
    public func update(txt: [String]) {
        guard let poll else { return }
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        guard let old = advert else { return }
        advert = ServiceAdvert(name: old.name, port: old.port, txt: txt)
        guard let group, avahi_entry_group_is_empty(group) == 0 else { return }
        var list: UnsafeMutablePointer<AvahiStringList>?
        for entry in txt.reversed() { list = avahi_string_list_add(list, entry) }
        defer { avahi_string_list_free(list) }
        let result = avahi_entry_group_update_service_txt_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET), AvahiPublishFlags(0), name,
            ServiceAdvert.type, nil, list)
        if result < 0 { onEvent(.unavailable("cannot update the service's TXT records: \(Self.text(result))")) }
    }

    private func renameAfterCollision() {
        if let alternative = avahi_alternative_service_name(name) {
            name = String(cString: alternative)
            avahi_free(alternative)
        }
        if let group { avahi_entry_group_reset(group) }
    }

    private func groupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState) {
        if state == AVAHI_ENTRY_GROUP_COLLISION, let client {
            renameAfterCollision()
            publish(client)
        }
    }

    private func browse(_ client: OpaquePointer) {
        guard browser == nil else { return }
        browser = avahi_service_browser_new(
            client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET), ServiceAdvert.type, nil, AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, _, userdata in
                AvahiDiscovery.from(userdata)?.browsed(interface, proto, event, name, type, domain)
            }, userdata)
    }

    private func browsed(
        _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
        _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?
    ) {
        guard let client, let name else { return }
        let service = String(cString: name)
        switch event {
        case AVAHI_BROWSER_NEW:
            guard service != self.name else { return }  // ourselves
            let key = "\(interface)/\(proto)/\(service)"
            instances[service, default: []].insert(key)
            guard resolvers[key] == nil else { return }  // followed already
            guard resolvers.count < Self.maxKeptResolvers else {
                // Resolved once: the resolver frees itself in its callback.
                _ = avahi_service_resolver_new(
                    client, interface, proto, name, type, domain, AvahiProtocol(AVAHI_PROTO_INET), AvahiLookupFlags(0),
                    { resolver, _, _, event, name, _, _, _, address, port, txt, _, userdata in
                        AvahiDiscovery.from(userdata)?.resolved(event, name, address, port, txt)
                        if let resolver { avahi_service_resolver_free(resolver) }
                    }, userdata)
                return
            }
            // The resolver stays until the service goes, and reports it again when its records change.
            resolvers[key] = avahi_service_resolver_new(
                client, interface, proto, name, type, domain, AvahiProtocol(AVAHI_PROTO_INET), AvahiLookupFlags(0),
                { resolver, _, _, event, name, _, _, _, address, port, txt, _, userdata in
                    AvahiDiscovery.from(userdata)?.keptResolved(resolver, event, name, address, port, txt)
                }, userdata)
        case AVAHI_BROWSER_REMOVE:
            let key = "\(interface)/\(proto)/\(service)"
            if let resolver = resolvers.removeValue(forKey: key) { avahi_service_resolver_free(resolver) }
            instances[service]?.remove(key)
            // Lost when it is seen nowhere any more (not when it leaves one of two interfaces).
            guard instances[service]?.isEmpty ?? true else { return }
            instances[service] = nil
            onEvent(.lost(name: service))
        case AVAHI_BROWSER_FAILURE:
            reportUnavailable("browsing failed: \(Self.text(avahi_client_errno(client)))")
        default:
            break
        }
    }

    /// A kept resolver's report: a failed one is freed (a later sighting makes a new one), a found one handed on.
    private func keptResolved(
        _ resolver: OpaquePointer?, _ event: AvahiResolverEvent, _ name: UnsafePointer<CChar>?,
        _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16, _ txt: UnsafeMutablePointer<AvahiStringList>?
    ) {
        if event == AVAHI_RESOLVER_FAILURE, let resolver {
            if let key = resolvers.first(where: { $0.value == resolver })?.key { resolvers[key] = nil }
            avahi_service_resolver_free(resolver)
            return
        }
        resolved(event, name, address, port, txt)
    }

    private func resolved(
        _ event: AvahiResolverEvent, _ name: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?,
        _ port: UInt16, _ txt: UnsafeMutablePointer<AvahiStringList>?
    ) {
        guard event == AVAHI_RESOLVER_FOUND, let name, let address else { return }
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&buffer, buffer.count, address)
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var pairs: [String: String] = [:]
        var cursor = txt
        while let entry = cursor {
            let size = avahi_string_list_get_size(entry)
            if let text = avahi_string_list_get_text(entry) {
                let bytes = Array(UnsafeBufferPointer(start: text, count: size))
                let string = String(decoding: bytes, as: UTF8.self)
                if let equals = string.firstIndex(of: "=") {
                    pairs[String(string[..<equals])] = String(string[string.index(after: equals)...])
                }
            }
            cursor = avahi_string_list_get_next(entry)
        }
        onEvent(.found(DiscoveredService(name: String(cString: name), host: host, port: Int(port), txt: pairs)))
    }
}

/// Why discovery could not start.
public enum DiscoveryError: Error, Sendable, CustomStringConvertible {
    /// Avahi's poll thread could not be created or started.
    case pollFailed

    /// One line for a person.
    public var description: String { "the Avahi poll thread could not start" }
}
