import Foundation

/// A `caddie` process whose write transactions are traced (CADDIE_TRACE_WRITES=1), so that a test can kill it
/// inside one and tell afterwards whether the kill landed there.
final class TracedProcess {
    static let began = "caddie-write: began"
    /// What the transaction that began last is (`receive`, `append`, `peer`, ...: OpStore's `write` names them), or
    /// nil when none has begun.
    var lastBegun: String? {
        trace.last { $0.hasPrefix(Self.began) }.map {
            String($0.dropFirst(Self.began.count)).trimmingCharacters(in: .whitespaces)
        }
    }
    let process = Process()
    private let errors = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []
    /// The trace lines read from standard error so far.
    private(set) var trace: [String] = []
    /// Standard output, read once the process has ended.
    private(set) var printed = ""

    init(_ home: CLI, _ arguments: [String]) throws {
        process.executableURL = CLI.binary
        process.arguments = arguments + ["--home", home.home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CADDIE_PASSPHRASE"] = home.passphrase
        environment["CADDIE_TRACE_WRITES"] = "1"
        environment["CADDIE_LOG"] = "warning"
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// How many write transactions have begun, as far as read: all of them, or those of one kind (`receive`).
    func begun(_ what: String? = nil) -> Int {
        trace.filter { line in what.map { line == "\(Self.began) \($0)" } ?? line.hasPrefix(Self.began) }.count
    }

    /// Reads the trace until `count` transactions (of the kind `what`, or of any) have begun. False when the process
    /// ended first or the deadline passed: the deadline only turns a hang into a failure.
    func waitUntilBegun(_ count: Int, _ what: String? = nil, deadline seconds: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while begun(what) < count {
            guard readOnce(until: deadline) else { return false }
        }
        return true
    }

    /// Kills it (SIGKILL), then reads what it wrote before it died. True when the kill landed inside a write
    /// transaction: the last trace line is a begin without its commit.
    func kill() -> Bool {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        while readOnce(until: Date().addingTimeInterval(5)) {}
        printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return trace.last?.hasPrefix(Self.began) == true
    }

    /// One read of standard error, waiting with poll(2) at most until the deadline; false at the end of the
    /// stream or at the deadline.
    private func readOnce(until deadline: Date) -> Bool {
        guard let chunk = readChunk(errors.fileHandleForReading, until: deadline) else { return false }
        pending += chunk
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            if line.hasPrefix("caddie-write: ") { trace.append(line) }
        }
        return true
    }
}

/// A seeded random number generator (SplitMix64), so that a failing run's kill times can be replayed with
/// CADDIE_CRASH_SEED.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The seed from CADDIE_CRASH_SEED, else a new one; the test prints it.
    static func seedFromEnvironment() -> UInt64 {
        UInt64(ProcessInfo.processInfo.environment["CADDIE_CRASH_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
