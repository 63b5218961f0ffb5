import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A node's home directory: its identity, sealed keys and database.
///
///     HOME/identity.json   public identity (name, user key, device key, certificate)
///     HOME/keys.sealed     secret keys and space keys, sealed with the passphrase (Argon2id + secretbox)
///     HOME/caddie.sqlite   the op log and materialised state (WAL mode)
public final class Home: Sendable {
    /// The directory.
    public let directory: URL
    /// The database. Only the node layer reads and writes it: the CLI and the API go through Home's methods
    /// (`Deploy/layers.sh` checks). Package access is for this package's tests and benchmarks, which fill and
    /// inspect a home's store directly.
    package let store: OpStore
    /// Whether this is the running node's home object, which writes its ops itself and answers commands' writes
    /// (`takeWrites`); a command's home hands its ops to that node while one runs.
    let servesWrites = Mutex(false)
    /// Phones asking to become another device of a user, by a code (only the running node's home is asked).
    public let deviceRequests = DeviceRequests()
    /// The phones whose signed ops this home's node took over HTTP: its sync sessions push their ops at once.
    let hosted = HostedDevices()
    /// Where a test acts between a score's checks and its append (a commit landing there must not break the rules
    /// checked: `NodeCommandTests`); nil outside tests.
    let afterChecks = Mutex<(@Sendable () -> Void)?>(nil)

    var identityURL: URL { directory.appendingPathComponent("identity.json") }
    var keysURL: URL { directory.appendingPathComponent("keys.sealed") }

    /// The default home: `$CADDIE_HOME`, else `~/.caddie`.
    public static func defaultPath() -> String {
        if let env = ProcessInfo.processInfo.environment["CADDIE_HOME"], !env.isEmpty { return env }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".caddie").path
    }

    /// Opens a home, creating its directory (owner-only) and database if needed.
    public init(path: String) throws(NodeError) {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .file("cannot create home \(path): \(error.localizedDescription)")
        }
        // A home that existed before keeps whatever mode it had: the keys and the database are the owner's
        // alone, so a directory of ours that others can enter is closed to them.
        var info = stat()
        if stat(directory.path, &info) == 0, info.st_uid == getuid(), info.st_mode & 0o077 != 0 {
            chmod(directory.path, 0o700)
        }
        let database = directory.appendingPathComponent("caddie.sqlite").path
        do {
            store = try OpStore(path: database)
        } catch {
            throw .store(error)
        }
        // SQLite creates the database with the process's umask (often 0644), and its -wal and -shm files after
        // the database's mode: make it owner-only before they exist.
        chmod(database, 0o600)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: database + suffix) {
            chmod(database + suffix, 0o600)
        }
    }

    /// The shortest passphrase a new home accepts: it is all that protects the keys of a lost phone.
    public static let minimumPassphraseLength = 8

    /// Refuses a passphrase too short to protect the keys (homes made before keep theirs).
    static func checkNewPassphrase(_ passphrase: String) throws(NodeError) {
        guard passphrase.count >= minimumPassphraseLength else {
            throw .badInput(
                .passphrase,
                "is too short to protect this device's keys if it is lost or stolen: use at least "
                    + "\(minimumPassphraseLength) characters (a few words is easy to type and hard to guess)")
        }
    }

    /// Milliseconds since 1970 by the wall clock.
    public static func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }

    // MARK: Identity

    /// The identity, or an error telling the user to log in.
    public func identity() throws(NodeError) -> Identity {
        guard let data = FileManager.default.contents(atPath: identityURL.path) else {
            throw .notLoggedIn(home: directory.path)
        }
        do {
            return try JSONDecoder().decode(Identity.self, from: data)
        } catch {
            throw .file("\(identityURL.path) is damaged (\(error.localizedDescription)); restore it from a backup")
        }
    }

    /// Whether the home has an identity.
    public var isLoggedIn: Bool { FileManager.default.fileExists(atPath: identityURL.path) }

    /// Fails if the home already has an identity (checked before asking for a passphrase).
    public func requireNoIdentity() throws(NodeError) {
        if let existing = try? identity() { throw .alreadyLoggedIn(name: existing.name, home: directory.path) }
    }

    /// Creates the user identity and this device's key and certificate.
    public func login(name: String, passphrase: String) throws(NodeError) -> Identity {
        try login(name: name, user: SigningKey.generate(), recovered: false, passphrase: passphrase)
    }

    /// Creates an identity for `user` with a new device key certified by it.
    func login(name: String, user: SigningKey, recovered: Bool, passphrase: String) throws(NodeError) -> Identity {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else {
            throw .badInput(.userName, "must be 1...64 characters")
        }
        try requireNoIdentity()
        try Self.checkNewPassphrase(passphrase)
        let device = SigningKey.generate()
        let now = Self.now()
        let certificate = Membership.certify(device: device.publicKey, by: user, at: now)
        let identity = Identity(
            name: trimmed, user: user.publicKey.hex, device: device.publicKey.hex,
            certifiedAt: now, certificate: Hex.encode(certificate), recoveredAt: recovered ? now : nil)
        let ring = KeyRing(userSeed: Hex.encode(user.seed), deviceSeed: Hex.encode(device.seed), spaces: [:])
        try seal(ring, passphrase: passphrase)
        try write(identity)
        return identity
    }

    /// Opens the sealed keys.
    public func unlock(passphrase: String) throws(NodeError) -> UnlockedKeys {
        _ = try identity()
        guard let sealed = FileManager.default.contents(atPath: keysURL.path) else {
            throw .file("\(keysURL.path) is missing: restore it from a backup, or log in again in a new home")
        }
        let opened: (plain: [UInt8], key: SealedBox.SealingKey)
        do {
            opened = try SealedBox.openKeeping([UInt8](sealed), passphrase: passphrase)
        } catch {
            throw .crypto(error)
        }
        do {
            return try UnlockedKeys(
                ring: JSONDecoder().decode(KeyRing.self, from: Data(opened.plain)), sealing: opened.key)
        } catch let error as NodeError {
            throw error
        } catch {
            throw .file("the sealed keys decoded to something unexpected: \(error)")
        }
    }

    /// Seals a new home's key ring with the passphrase, at the interactive level. Keys sealed again later keep
    /// the salt and cost of this sealing (``seal(_:with:)``).
    func seal(_ ring: KeyRing, passphrase: String) throws(NodeError) {
        do {
            let plain = try JSONEncoder().encode(ring)
            let sealed = try SealedBox.seal([UInt8](plain), passphrase: passphrase, cost: .interactive)
            try atomicWrite(Data(sealed), to: keysURL, permissions: 0o600)
        } catch let error as NodeError {
            throw error
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .file("cannot encode keys: \(error)")
        }
    }

    /// Seals the key ring again with the key an unlock kept (the same salt and cost, no passphrase asked).
    func seal(_ ring: KeyRing, with key: SealedBox.SealingKey) throws(NodeError) {
        let plain: Data
        do { plain = try JSONEncoder().encode(ring) } catch { throw .file("cannot encode keys: \(error)") }
        try atomicWrite(Data(SealedBox.seal([UInt8](plain), with: key)), to: keysURL, permissions: 0o600)
    }

    func write(_ identity: Identity) throws(NodeError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try atomicWrite(try encoder.encode(identity), to: identityURL, permissions: 0o644)
        } catch let error as NodeError {
            throw error
        } catch {
            throw .file("cannot encode identity: \(error)")
        }
    }

    /// Writes a file by writing and syncing a temporary sibling, renaming it over the old one and syncing
    /// the directory, so a crash or power loss leaves either the old or the new file, never a torn one.
    func atomicWrite(_ data: Data, to url: URL, permissions: Int) throws(NodeError) {
        let temporary = url.appendingPathExtension("tmp-\(ProcessInfo.processInfo.processIdentifier)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, mode_t(permissions))
        guard fd >= 0 else { throw .file("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary.path)
                throw .file("cannot write \(temporary.path): \(reason) (is the disk full?)")
            }
            offset += written
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .file("cannot replace \(url.path): \(reason)")
        }
        let directory = open(self.directory.path, O_RDONLY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
