import ArgumentParser
import CaddieNode
import Foundation

/// Where commands print: results to standard output, problems to standard error.
enum Console {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((printable(text) + "\n").utf8))
    }

    /// Text as a terminal may show it: names and other text that came from peers could carry escape sequences
    /// (recolouring the screen, moving the cursor, setting the window title), so control characters other than
    /// newline and tab are shown as `?`. JSON output is escaped by its encoder instead.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    static func json(_ value: JSON) { print(value.text) }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("caddie: error: " + printable(text) + "\n").utf8))
    }
}

/// Runs a command body; a Caddie error becomes one line on standard error and exit status 1.
func guarded(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw exitCode(for: error)
    }
}

/// ``guarded(_:)`` for work that gives a value (checking options before the home is opened).
func guardedValue<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw exitCode(for: error)
    }
}

/// The async twin of ``guarded(_:)``.
func guardedAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw exitCode(for: error)
    }
}

/// How every command ends on an error: its one line on standard error and exit status 1. Every Caddie error type
/// (NodeError, SyncError, StoreError, ...) describes itself with what was wrong and what to do. An `ExitCode` a
/// command chose passes through.
func exitCode(for error: any Error) -> ExitCode {
    if let code = error as? ExitCode { return code }
    Console.error("\(error)")
    return ExitCode(1)
}
