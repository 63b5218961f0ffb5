import CaddieCrypto
import Foundation
import Testing

/// Runs the built `caddie` binary, as a user would, against temporary homes.
struct CLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        func field(_ key: String) throws -> String {
            guard let object = try json() as? [String: Any], let value = object[key] else {
                throw CLIError("no \(key) in \(stdout)")
            }
            return "\(value)"
        }
    }

    struct CLIError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `CADDIE_BIN`, else the debug build in this checkout.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["CADDIE_BIN"] { return URL(fileURLWithPath: path) }
        return repository.appendingPathComponent(".build/debug/caddie")
    }

    let home: URL
    var passphrase: String? = "correct horse battery"
    /// Whether the home's keys are sealed again at the least Argon2id cost once `caddie` has made them (see
    /// ``cheapenKeys(_:)``); a test of the cost itself turns it off.
    var cheapKeys = true

    /// How long one command may run before the test kills it: generous, only to turn a hang into a failure.
    static let commandDeadline: Double = 300

    /// A new empty home in a temporary directory.
    init(name: String = "home") throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw CLIError("caddie is not built at \(Self.binary.path): run `swift build` first (or set CADDIE_BIN)")
        }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("caddie-test-\(name)-\(UUID().uuidString)")
    }

    @discardableResult
    func run(_ arguments: [String], passphrase override: String?? = nil, homeFirst: Bool = false) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = homeFirst ? ["--home", home.path] + arguments : arguments + ["--home", home.path]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CADDIE_HOME")
        environment.removeValue(forKey: "CADDIE_PASSPHRASE")
        if let secret = override ?? passphrase { environment["CADDIE_PASSPHRASE"] = secret }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.killAfter(Self.commandDeadline)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        try? out.fileHandleForReading.close()
        try? err.fileHandleForReading.close()
        process.waitUntilExit()
        if cheapKeys { cheapenKeys(override ?? passphrase) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Seals the home's keys again at the least Argon2id cost when `caddie` has just sealed them at the interactive
    /// level (a login, a device join, a recovery): every later command's unlock then costs microseconds instead of
    /// about 0.1 s of a core, over some two thousand commands a run. The binary under test is the shipped one: a
    /// sealed file records its cost, and `caddie` keeps a home's cost when it seals its keys again
    /// (`KeyCostTests`).
    private func cheapenKeys(_ passphrase: String?) {
        let url = home.appendingPathComponent("keys.sealed")
        guard let passphrase, let data = FileManager.default.contents(atPath: url.path),
            SealedBox.cost(of: [UInt8](data)) == .interactive,
            let plain = try? SealedBox.open([UInt8](data), passphrase: passphrase),
            let sealed = try? SealedBox.seal(plain, passphrase: passphrase, cost: .least)
        else { return }
        let temporary = url.path + ".cheap"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(sealed), attributes: [.posixPermissions: 0o600])
        else { return }
        _ = rename(temporary, url.path)
    }

    /// Runs a command that must succeed, returning its result.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let result = try run(arguments)
        #expect(
            result.status == 0, "caddie \(arguments.joined(separator: " ")) failed: \(result.stderr)",
            sourceLocation: sourceLocation)
        if result.status != 0 { throw CLIError(result.stderr) }
        return result
    }

    /// Runs a command that must fail with one clear line on stderr and no output.
    @discardableResult
    func fails(
        _ arguments: [String], passphrase override: String?? = nil, saying text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        let result = try run(arguments, passphrase: override)
        #expect(result.status != 0, "caddie \(arguments.joined(separator: " ")) should fail", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "stderr was: \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// A home at a given path (which need not exist yet).
    init(at home: URL, passphrase: String?) {
        self.home = home
        self.passphrase = passphrase
    }

    /// A space made by `caddie space create`, with its shared-key code (CADDIE1, joins offline) for tests that
    /// need a second member without a running node; the ticket invites have tests of their own (InviteTests).
    struct CreatedSpace {
        let space: String
        let invite: String

        func field(_ key: String) throws -> String {
            switch key {
            case "space": space
            case "invite": invite
            default: throw CLIError("no field \(key) in a created space")
            }
        }
    }

    /// Creates a space and returns its id and shared-key code.
    func createSpace(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> CreatedSpace {
        let space = try ok(["space", "create", name, "--json"], sourceLocation: sourceLocation).field("space")
        let invite = try ok(["space", "invite", "--shared-key", "--space", space, "--json"], sourceLocation: sourceLocation)
            .field("invite")
        return CreatedSpace(space: space, invite: invite)
    }

    func stateHash() throws -> String { try ok(["state-hash", "--json"]).field("stateHash") }

    func remove() { try? FileManager.default.removeItem(at: home) }
}
