import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A device of this user, as the spaces this home holds know it.
public struct DeviceSummary: Sendable, Equatable {
    /// The device key.
    public let device: PublicKey
    /// Spaces it has joined.
    public let spaces: [String]
    /// Whether it is this home's device.
    public let isThisDevice: Bool
    /// The last valid seq, if revoked in any space.
    public let revokedAfter: UInt64?
}

/// This user's devices: pairing, the device list, revocation and recovery.
public struct DeviceService: HomeService {
    let home: Home
    /// The store as this service may use it (ServiceStores.swift).
    var store: any DeviceStore { home.store }
}

extension DeviceService {
    /// The devices of this home's user across the spaces it holds.
    public func list() throws(NodeError) -> [DeviceSummary] {
        let identity = try identity()
        var found: [PublicKey: (spaces: [String], revoked: UInt64?)] = [:]
        for space in try spaces.list() {
            for member in try run({ try store.members(space.id) }) where member.user.hex == identity.user {
                var entry = found[member.device] ?? ([], nil)
                entry.spaces.append(space.name)
                if let revoked = member.revokedAfter { entry.revoked = min(entry.revoked ?? revoked, revoked) }
                found[member.device] = entry
            }
        }
        return found.sorted { $0.key < $1.key }.map {
            DeviceSummary(
                device: $0.key, spaces: $0.value.spaces, isThisDevice: $0.key.hex == identity.device,
                revokedAfter: $0.value.revoked)
        }
    }

    /// Revokes a device of this user in every space where it is a member: its ops after the last one this
    /// home has seen are rejected everywhere the revocation reaches. Needs the user key (the first device).
    func revokeDevice(_ device: PublicKey, keys: UnlockedKeys) throws(NodeError) -> [String] {
        guard device != keys.device.publicKey else {
            throw .refused("a device cannot revoke itself; revoke it from another device")
        }
        guard let user = keys.user else {
            throw .refused("this device does not hold the user key: revoke from the device you first logged in on")
        }
        var revoked: [String] = []
        let all = try spaces.list()
        var known: [SpaceSummary] = []
        for space in all where try run({ try store.members(space.id) }).contains(where: { $0.device == device }) {
            known.append(space)
        }
        for space in known {
            if let member = try run({ try store.members(space.id) }).first(where: { $0.device == device }),
                member.user != user.publicKey
            {
                throw .refused("device \(device.short) belongs to another user (\(member.userName)); only they can revoke it")
            }
        }
        // Revoked in every space this home holds, not only those where the device was seen: in a space it never
        // reached (paired, then lost before it synced there) it is revoked before its first op, so none of its ops
        // will count there either. Spaces this home joins later get the revocation with their join.
        for space in all {
            try home.appendRevocation(of: device, in: space.id, user: user, keys: keys)
            revoked.append(space.name)
        }
        guard !revoked.isEmpty else { throw .noSpace }
        return revoked
    }

    /// Waits on the LAN for a new device to pair with `code`, certifies its key, and gives it the keys of
    /// every space this home holds. Calls `ready` with the code to show once listening.
    public func addDevice(
        listen host: String, port: UInt16, advertise: String?, timeout: Double, passphrase: String,
        ready: (PairingCode) -> Void
    ) async throws(NodeError) -> PublicKey {
        // The code carries an IPv4 address, four bytes: a name or an IPv6 address would not fit in it.
        guard PairingCode.ipv4(host) != nil else {
            throw .badInput(
                .listen, "takes an IPv4 address and a port, e.g. 0.0.0.0:7401 or 192.168.1.20:7401; got '\(host)'")
        }
        if let advertise, PairingCode.ipv4(advertise) == nil {
            throw .badInput(
                .address, "takes this machine's IPv4 address on the LAN, e.g. 192.168.1.20; got '\(advertise)'")
        }
        let identity = try identity()
        let keys = try unlock(passphrase: passphrase)
        guard let user = keys.user else {
            throw .refused("this device does not hold the user key: add devices from the device you first logged in on")
        }
        let listener: FrameListener
        do {
            listener = try await FrameListener.listen(
                host: host, port: Int(port), readTimeout: PairingMessage.readTimeout)
        } catch {
            throw .conflict("cannot listen on \(host):\(port): \(error); choose another --listen address")
        }
        let code = PairingCode(
            host: advertise ?? (host == "0.0.0.0" ? Self.lanAddress() : host), port: UInt16(listener.port),
            secret: SecureRandom.bytes(16))
        ready(code)
        // Closed whatever the outcome, so no connection that waits is left open.
        let outcome: Result<PublicKey, NodeError>
        do {
            outcome = .success(
                try await grantFirstRequest(
                    listener, code: code, timeout: timeout, identity: identity, keys: keys, user: user))
        } catch {
            outcome = .failure(error)
        }
        await listener.close()
        return try outcome.get()
    }

    /// Answers the listener's arrivals until one asks with the code's secret, and grants it the user's certificate
    /// and the keys of every space: at most five failed arrivals, and `timeout` seconds in all.
    private func grantFirstRequest(
        _ listener: FrameListener, code: PairingCode, timeout: Double, identity: Identity, keys: UnlockedKeys,
        user: SigningKey
    ) async throws(NodeError) -> PublicKey {
        let deadline = Date().addingTimeInterval(timeout)
        var failures: [String] = []
        while failures.count < 5 {
            guard let arrival = await listener.next(timeout: deadline.timeIntervalSinceNow) else {
                throw .unreachable("no device paired within \(Int(timeout)) s; run `caddie device add` again")
            }
            guard let request = arrival.frame, let device = PairingMessage.parseRequest(request, code: code) else {
                let reason = arrival.problem ?? "the device code does not match"
                await arrival.reply(PairingMessage.refusal(reason))
                failures.append(reason)
                continue
            }
            let sealed: [UInt8]
            do {
                sealed = try sealedGrant(for: device, code: code, identity: identity, keys: keys, user: user)
            } catch {
                // The new device is told, not left waiting for a reply that will not come.
                await arrival.reply(PairingMessage.refusal("the first device could not make the grant: \(error)"))
                throw error
            }
            await arrival.reply(PairingMessage.granted + sealed)
            return device
        }
        throw .conflict(
            "five connections failed to pair (the last: \(failures.last ?? "")); run `caddie device add` again for a "
                + "fresh code")
    }

    /// The grant for a new device, sealed under the pairing code's key: the user's certificate of the device, and
    /// the current key of each space (not the one it was joined with: after a removal only the new key admits a
    /// device the owner never sealed it to).
    private func sealedGrant(
        for device: PublicKey, code: PairingCode, identity: Identity, keys: UnlockedKeys, user: SigningKey
    ) throws(NodeError) -> [UInt8] {
        let now = Home.now()
        let spaces = try spaces.list().map { space throws(NodeError) in
            var ring = home.keyring(space.id, keys: keys)?.keys ?? []
            if ring.isEmpty { ring = [try keys.key(for: space.id)] }
            return PairingMessage.GrantedSpace(
                id: space.id.hex, key: Hex.encode(ring[0]), name: space.name, earlier: ring.dropFirst().map(Hex.encode))
        }
        let grant = PairingMessage.Grant(
            name: identity.name, user: user.publicKey.hex, certifiedAt: now,
            certificate: Hex.encode(Membership.certify(device: device, by: user, at: now)), spaces: spaces)
        do {
            return try SecretBox.seal([UInt8](JSONEncoder().encode(grant)), key: code.boxKey)
        } catch {
            throw .malformed(what: "grant", "cannot seal the grant: \(error)")
        }
    }

    /// Logs in as an existing user on this new device: pairs over the LAN with the first device.
    public func login(deviceCode text: String, passphrase: String) async throws(NodeError) -> Identity {
        try home.requireNoIdentity()
        try Home.checkNewPassphrase(passphrase)
        let code = try NodeError.reading { () throws(CodeError) in try PairingCode(parsing: text) }
        let device = SigningKey.generate()
        let reply: [UInt8]
        do {
            reply = try await FrameExchange.request(
                .tcp(host: code.host, port: Int(code.port)), PairingMessage.request(device: device.publicKey, code: code),
                connectTimeout: PairingMessage.readTimeout, replyTimeout: PairingMessage.readTimeout)
        } catch {
            switch error {
            case .unreachable(let why):
                throw .unreachable(
                    "cannot reach the first device at \(code.host):\(code.port) (\(why)): is `caddie device add` "
                        + "still waiting there, on the same network?")
            case .noReply(let why):
                throw .unreachable(
                    "the first device did not answer (\(why)): run `caddie device add` there again and use its new "
                        + "code (both devices need this version of caddie or later)")
            }
        }
        let kind = Array(reply.prefix(4))
        if kind == PairingMessage.refused {
            throw .refused("the first device refused: \(String(decoding: reply.dropFirst(4), as: UTF8.self))")
        }
        guard kind == PairingMessage.granted else {
            throw .malformed(what: "reply", "the other side is not a caddie waiting in `caddie device add`")
        }
        let sealed = Array(reply.dropFirst(4))
        guard let plain = SecretBox.open(sealed, key: code.boxKey),
            let grant = try? JSONDecoder().decode(PairingMessage.Grant.self, from: Data(plain)),
            let user = PublicKey(hex: grant.user), let certificate = Hex.decode(grant.certificate),
            Membership.verifyCertificate(
                user: user, device: device.publicKey, certifiedAt: grant.certifiedAt,
                signature: certificate)
        else {
            throw .malformed(
                what: "grant", "the grant from the first device did not verify; pair again with a fresh code")
        }
        var spaces: [String: String] = [:]
        var earlier: [String: [String]] = [:]
        for space in grant.spaces {
            spaces[space.id] = space.key
            if let keys = space.earlier, !keys.isEmpty { earlier[space.id] = keys }
        }
        var ring = KeyRing(userSeed: nil, deviceSeed: Hex.encode(device.seed), spaces: spaces)
        if !earlier.isEmpty { ring.earlierSpaceKeys = earlier }
        try home.seal(ring, passphrase: passphrase)
        let identity = Identity(
            name: grant.name, user: grant.user, device: device.publicKey.hex,
            certifiedAt: grant.certifiedAt, certificate: grant.certificate)
        try home.write(identity)
        let keys = try UnlockedKeys(ring: ring)
        for space in grant.spaces {
            guard let id = SpaceID(hex: space.id) else { continue }
            try run { try store.addSpace(id, name: space.name, now: Home.now()) }
            try home.ensureJoined(id, keys: keys)
        }
        return identity
    }

    /// The first IPv4 address of an interface that is up and not loopback, else 127.0.0.1.
    static func lanAddress() -> String {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return "127.0.0.1" }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet4 in
                var raw = inet4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN))
            }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return "127.0.0.1"
    }
}
