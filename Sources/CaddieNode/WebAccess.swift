import CaddieCore
import CaddieCrypto
import Foundation
import Synchronization

/// Who may use the web app of a home's node: one-time sign-in links and the browser sessions they turn into.
///
/// Every session is a person. An owner's link (`caddie web link`) signs in the node's owner on a browser of their
/// own: it acts as this home's user. A partner's link (`caddie web link --partner`, or the Devices screen's code)
/// signs in someone else's phone: a guest that may read, for `guestLifetime`, until the phone becomes a device of
/// its own user (an admission with the device's proof that it holds this session); from then on the session is
/// that user's and that device's, may write only ops that device signed, and ends when the user is removed from a
/// space of this node or the device is revoked (docs/security.md).
///
/// A link is made by `caddie web link` (a separate process from the node) and redeemed by the node when a browser
/// opens it, so both live in one file in the home, `web-access.json` (owner-only), changed under an exclusive lock
/// on `web-access.lock` and replaced atomically. Only BLAKE2b digests of the secrets are stored: a copy of the file
/// lets nobody sign in.
public struct WebAccess: Sendable {
    /// How long a sign-in link works.
    public static let linkLifetime: TimeInterval = 10 * 60
    /// How long a browser session lasts without being used.
    public static let sessionIdleLifetime: TimeInterval = 30 * 24 * 3600
    /// Most sessions kept; the least recently used go first. A club's day signs in a phone for each of its 160
    /// players (check-in), with room to spare.
    public static let maxSessions = 400
    /// How long a partner's session may read before its phone becomes a device of its own.
    public static let guestLifetime: TimeInterval = 3600
    /// Most sign-in links waiting at once: a new one beyond it replaces the oldest.
    public static let maxLinks = 16
    /// How long a group's check-in code works: the competition's day.
    public static let checkInLifetime: TimeInterval = 18 * 3600
    /// Most check-in codes waiting at once (a field of 40 groups, printed more than once).
    public static let maxCheckIns = 200

    let home: Home
    var url: URL { home.directory.appendingPathComponent("web-access.json") }
    var lockURL: URL { home.directory.appendingPathComponent("web-access.lock") }

    public init(home: Home) { self.home = home }

    /// A browser session as listed by `caddie web sessions`.
    public struct Session: Codable, Sendable, Equatable {
        /// The short id a person types to revoke it.
        public let id: String
        /// BLAKE2b of the cookie secret, hex.
        let secretHash: String
        /// When the link was redeemed (seconds since 1970).
        public let created: Double
        /// When the session was last used, to the minute.
        public var lastSeen: Double
        /// The browser's User-Agent, cut to 120 characters, so a person can tell sessions apart.
        public let agent: String
        /// "owner" or "partner"; absent in sessions made before sessions had a person, which are refused.
        public var kind: String?
        /// A partner's session once its phone became a device: that device's user and device keys, hex.
        public var user: String?
        public var device: String?
        /// The space a partner's session was signed in for (hex): it reads and writes that space only.
        public var space: String?
        /// The game a group's check-in code opened (hex): the app asks which of its players this phone is.
        public var game: String?

        /// Whether it is the node's owner's own browser.
        public var isOwner: Bool { kind == Kind.owner.rawValue }

        /// The phone's user and device, once a partner's session is bound to them.
        public var person: (user: PublicKey, device: PublicKey)? {
            guard let user = user.flatMap(PublicKey.init(hex:)), let device = device.flatMap(PublicKey.init(hex:)) else {
                return nil
            }
            return (user, device)
        }

        /// Who it is, as `caddie web sessions` says: "owner", "partner (guest)" or "partner DEVICE".
        public var who: String {
            if isOwner { return "owner" }
            return device.map { "partner, device \($0.prefix(8))" } ?? "partner (guest)"
        }
    }

    /// Whose browser a sign-in link is for.
    public enum Kind: String, Sendable {
        /// The node's owner, on a browser of their own: acts as this home's user.
        case owner
        /// Someone else's phone: a guest until it becomes a device of its own user, then that user.
        case partner
    }

    struct Link: Codable, Sendable {
        let hash: String
        let expires: Double
        /// "partner" for a partner's link; absent for the owner's.
        var kind: String?
        /// The space a partner's link is for (hex).
        var space: String?
        /// A group's check-in code: its game (hex), and how many phones may still open it (one per player).
        var game: String?
        var uses: Int?
    }

    struct State: Codable, Sendable {
        var links: [Link] = []
        var sessions: [Session] = []
    }

    /// What opening a link gave.
    public enum Redeemed: Sendable, Equatable {
        /// A new session; `cookie` is the value to set; `game`, the group a check-in code opened.
        case session(id: String, cookie: String, game: String?)
        /// The link is unknown, already used or expired.
        case refused
    }

    // MARK: Links

    /// A new sign-in link secret for `kind` (a partner's for one `space`), valid for `linkLifetime`. At most
    /// `maxLinks` wait at once.
    public func newLink(_ kind: Kind, space: SpaceID? = nil, now: Date = Date()) throws(NodeError) -> String {
        guard kind == .owner || space != nil else {
            throw .badInput(.space, "names the space a partner's sign-in link is for: give it")
        }
        return try add(now: now) { hash in
            Link(
                hash: hash, expires: now.timeIntervalSince1970 + Self.linkLifetime,
                kind: kind == .partner ? kind.rawValue : nil, space: kind == .partner ? space?.hex : nil)
        }
    }

    /// A group's check-in code (`caddie competition show --format html` prints one per group): a partner's sign-in
    /// link for `space` that each of the group's `uses` phones may open once during the day, and that opens the
    /// group's `game`, where each phone says which player it is and becomes that player's device. The printed sheet
    /// is the key: whoever holds it may sign a phone in as a guest of the group, who reads, and writes only once
    /// the phone is a device of a player nobody has claimed yet (docs/competitions.md, "Check-in").
    public func newCheckIn(space: SpaceID, game: GameID, uses: Int, now: Date = Date()) throws(NodeError) -> String {
        guard (1...8).contains(uses) else { throw .badInput(.players, "a group checks in 1 to 8 phones, got \(uses)") }
        return try add(now: now) { hash in
            Link(
                hash: hash, expires: now.timeIntervalSince1970 + Self.checkInLifetime, kind: Kind.partner.rawValue,
                space: space.hex, game: game.hex, uses: uses)
        }
    }

    /// Keeps a new link and answers its secret: expired links go, and the oldest beyond the caps, sign-in links and
    /// check-in codes counted apart (a sheet of 40 codes does not push out the link just made, nor the other way).
    func add(now: Date, _ link: (String) -> Link) throws(NodeError) -> String {
        let secret = Base32.encode(SecureRandom.bytes(20)).lowercased()
        try change { state in
            state.links.removeAll { $0.expires < now.timeIntervalSince1970 }
            state.links.append(link(Self.digest(secret)))
            let checkIns = state.links.filter { $0.game != nil }.suffix(Self.maxCheckIns)
            state.links = Array(state.links.filter { $0.game == nil }.suffix(Self.maxLinks)) + checkIns
        }
        return secret
    }

    /// Exchanges a link secret for a session. A one-time link is gone afterwards, whatever the outcome; a check-in
    /// code has one use fewer.
    public func redeem(_ secret: String, agent: String, now: Date = Date()) throws(NodeError) -> Redeemed {
        let hash = Self.digest(secret)
        // A wrong link is refused from a read: only a live link is worth a write (and its two fsyncs).
        func matches(_ link: Link) -> Bool {
            link.expires >= now.timeIntervalSince1970
                && MessageAuthentication.constantTimeEqual(Array(link.hash.utf8), Array(hash.utf8))
        }
        guard try read().links.contains(where: matches) else { return .refused }
        var result = Redeemed.refused
        try change { state in
            let live = state.links.filter { $0.expires >= now.timeIntervalSince1970 }
            let found = live.first { MessageAuthentication.constantTimeEqual(Array($0.hash.utf8), Array(hash.utf8)) }
            state.links = live.compactMap { link in
                guard link.hash == hash else { return link }
                var left = link
                left.uses = (link.uses ?? 1) - 1
                return left.uses ?? 0 > 0 ? left : nil
            }
            guard let found else { return }
            let id = Hex.encode(SecureRandom.bytes(4))
            let cookieSecret = Hex.encode(SecureRandom.bytes(32))
            state.sessions.append(
                Session(
                    id: id, secretHash: Self.digest(cookieSecret), created: now.timeIntervalSince1970,
                    lastSeen: now.timeIntervalSince1970, agent: String(agent.prefix(120)),
                    kind: found.kind ?? Kind.owner.rawValue, space: found.space, game: found.game))
            if state.sessions.count > Self.maxSessions {
                state.sessions = Array(state.sessions.sorted { $0.lastSeen > $1.lastSeen }.prefix(Self.maxSessions))
            }
            result = .session(id: id, cookie: "\(id).\(cookieSecret)", game: found.game)
        }
        return result
    }

    // MARK: Sessions

    /// The live sessions, newest first: not those from before sessions had a person, nor a partner's guest session
    /// past `guestLifetime` (they open nothing).
    public func sessions(now: Date = Date()) throws(NodeError) -> [Session] {
        try read().sessions.filter { Self.isLive($0, now: now) }.sorted { $0.created > $1.created }
    }

    /// Whether a session still opens the app at `now`.
    static func isLive(_ session: Session, now: Date) -> Bool {
        let time = now.timeIntervalSince1970
        return session.lastSeen + sessionIdleLifetime >= time && session.kind != nil
            && (session.isOwner || session.device != nil || session.created + guestLifetime >= time)
    }

    /// Binds a partner's guest session to the device its phone became, and that device's user. A session bound
    /// already stays with its device: false when it names another.
    public func bind(_ id: String, user: PublicKey, device: PublicKey) throws(NodeError) -> Bool {
        var bound = false
        try change { state in
            guard let index = state.sessions.firstIndex(where: { $0.id == id }), !state.sessions[index].isOwner else { return }
            let session = state.sessions[index]
            if session.device == nil || (session.device == device.hex && session.user == user.hex) {
                state.sessions[index].user = user.hex
                state.sessions[index].device = device.hex
                bound = true
            }
        }
        return bound
    }

    /// Ends every session `ended` says should end (a removal's or a revocation's), returning how many.
    @discardableResult
    public func end(where ended: (Session) -> Bool) throws(NodeError) -> Int {
        var count = 0
        try change { state in
            count = state.sessions.filter(ended).count
            state.sessions.removeAll(where: ended)
        }
        return count
    }

    /// The session a cookie value names, if it is live; notes its use at most once a minute. A session from before
    /// sessions had a person, and a partner's guest session past `guestLifetime`, are not live.
    public func session(cookie: String, now: Date = Date()) throws(NodeError) -> Session? {
        let parts = cookie.split(separator: ".", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let (id, hash) = (String(parts[0]), Self.digest(String(parts[1])))
        guard var session = try read().sessions.first(where: { $0.id == id }),
            MessageAuthentication.constantTimeEqual(Array(session.secretHash.utf8), Array(hash.utf8)),
            Self.isLive(session, now: now)
        else { return nil }
        if now.timeIntervalSince1970 - session.lastSeen >= 60 {
            session.lastSeen = now.timeIntervalSince1970
            let seen = session
            try change { state in
                if let index = state.sessions.firstIndex(where: { $0.id == id }) {
                    state.sessions[index].lastSeen = seen.lastSeen
                }
            }
        }
        return session
    }

    /// Ends the session a browser's cookie names, only when the cookie's secret is that session's: an id, or a
    /// prefix of one, ends nothing. False when the cookie names no live session.
    public func end(cookie: String) throws(NodeError) -> Bool {
        guard let session = try session(cookie: cookie) else { return false }
        try change { state in state.sessions.removeAll { $0.id == session.id } }
        return true
    }

    /// Ends a session by its id (or a unique prefix of it): for the node's owner at the terminal.
    public func revoke(_ text: String) throws(NodeError) -> Session {
        var revoked: Session?
        var matches = 0
        try change { state in
            let found = state.sessions.filter { $0.id.hasPrefix(text.lowercased()) }
            matches = found.count
            guard found.count == 1, !text.isEmpty else { return }
            revoked = found[0]
            state.sessions.removeAll { $0.id == found[0].id }
        }
        guard let revoked else {
            if matches > 1 {
                throw .ambiguous("'\(text)' matches \(matches) sessions: give the whole id (see `caddie web sessions`)")
            }
            throw .notFound("no browser session '\(text)': see `caddie web sessions`")
        }
        return revoked
    }

    /// Whether a partner's session bound to a device is over: its user was removed from a space of this home, or
    /// its device revoked, here or on any node whose ops reached this one.
    public func personEnded(_ session: Session) throws(NodeError) -> Bool {
        guard let person = session.person else { return false }
        return try home.run { try home.store.personEnded(user: person.user, device: person.device) }
    }

    /// The space a path names (an id, an id prefix or a name), as the API resolves it; nil when none.
    public func resolveSpace(_ text: String) -> SpaceID? { try? home.spaces.resolveSpace(text) }

    /// The spaces of this home, as GET /v1/spaces lists them.
    public func spaces() throws(NodeError) -> [SpaceSummary] { try home.spaces.list() }

    /// Whether a browser's session cookie still opens the app (a live event stream asks at each keep-alive): a
    /// session ended, revoked, past its lifetime, or a partner's whose person was removed or revoked, does not.
    public func stillOpens(cookie: String) -> Bool {
        guard let session = (try? session(cookie: cookie)) ?? nil else { return false }
        return session.isOwner || ((try? personEnded(session)) ?? false) == false
    }

    // MARK: The file

    static func digest(_ secret: String) -> String { Blake2b.hash(Array("caddie-web|\(secret)".utf8)).hex }

    /// The file as last read, by its path, with the stamp it had (inode, size, modification time): every request
    /// of a signed-in browser reads the sessions, and a clubhouse's 160 phones' are tens of kilobytes of JSON. A
    /// write by this process or another (`caddie web link`) replaces the file, so its stamp changes and it is read
    /// again.
    private static let parsed = Mutex<[String: (stamp: [Int], state: State)]>([:])

    func read() throws(NodeError) -> State {
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else { return State() }
        let stamp = [
            Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec),
        ]
        if let kept = Self.parsed.withLock({ $0[path] }), kept.stamp == stamp { return kept.state }
        guard let data = FileManager.default.contents(atPath: path) else { return State() }
        let state: State
        do { state = try JSONDecoder().decode(State.self, from: data) } catch {
            throw .file("\(path) is damaged: delete it to end every browser session, then make a new link")
        }
        Self.parsed.withLock { $0[path] = (stamp, state) }
        return state
    }

    /// Reads, changes and writes the file under the lock, so the node and a `caddie web` command never lose
    /// each other's changes.
    func change(_ body: (inout State) -> Void) throws(NodeError) {
        let fd = open(lockURL.path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw .file("cannot open \(lockURL.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw .file("cannot lock \(lockURL.path): \(String(cString: strerror(errno)))") }
        defer { flock(fd, LOCK_UN) }
        var state = try read()
        body(&state)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(state) } catch { throw .file("cannot encode \(url.path): \(error)") }
        try home.atomicWrite(data, to: url, permissions: 0o600)
    }
}

/// Where a running node serves HTTP, written by `caddie serve --http` so that `caddie web link` can name it.
public struct HTTPEndpoint: Codable, Sendable, Equatable {
    /// The address the server listens on (may be 0.0.0.0 with --http-any-address).
    public let host: String
    public let port: Int
    /// The process that serves it.
    public let pid: Int32
    /// Whether it serves HTTPS (`caddie serve --https`); absent in files from before HTTPS.
    public var https: Bool?
    /// The port of the plain-HTTP trust page (`caddie serve --trust-page`), if any.
    public var trustPort: Int?

    public init(host: String, port: Int, pid: Int32, https: Bool = false, trustPort: Int? = nil) {
        self.host = host
        self.port = port
        self.pid = pid
        self.https = https ? true : nil
        self.trustPort = trustPort
    }

    /// `https` or `http`.
    public var scheme: String { https == true ? "https" : "http" }

    static func url(_ home: Home) -> URL { home.directory.appendingPathComponent("http-endpoint.json") }

    /// Records the endpoint of this process.
    public func write(to home: Home) throws(NodeError) {
        let data: Data
        do { data = try JSONEncoder().encode(self) } catch { throw .file("cannot encode the HTTP endpoint: \(error)") }
        try home.atomicWrite(data, to: Self.url(home), permissions: 0o600)
    }

    /// Forgets the endpoint when this process stops serving.
    public static func remove(from home: Home, pid: Int32) {
        if (try? read(home))?.pid == pid { unlink(url(home).path) }
    }

    /// The endpoint of the node running on this home, if one is running.
    public static func read(_ home: Home) throws(NodeError) -> HTTPEndpoint? {
        guard let data = FileManager.default.contents(atPath: url(home).path),
            let endpoint = try? JSONDecoder().decode(HTTPEndpoint.self, from: data)
        else { return nil }
        // A node that died without cleaning up leaves a stale file: check its process is there.
        guard kill(endpoint.pid, 0) == 0 || errno == EPERM else { return nil }
        return endpoint
    }
}
