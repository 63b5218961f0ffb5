import ArgumentParser
import CaddieNode
import Foundation

/// Where commands print: results to standard output, problems to standard error.
enum Console {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((printable(text) + "\n").utf8))
    }

    /// Text as a terminal may show it: names and other text that came from peers could carry escape sequences
    /// (recolouring the screen, moving the cursor, setting the window title) or bidirectional controls (which
    /// reorder what follows them on the line), so control characters other than newline and tab are shown as
    /// `?`. JSON output is escaped by its encoder instead.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t"
            && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar))
    }

    /// The bidirectional formatting characters: embeddings, overrides, isolates and the marks.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || [0x200E, 0x200F, 0x061C].contains(scalar.value)
    }

    /// One item of a list as one line: a newline or carriage return inside it (a name from a peer may hold one)
    /// is shown as `\n` or `\r`, so that no name can add a line that looks like another item.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\\r\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r")
    }

    static func json(_ value: JSON) { print(value.text) }

    /// A command's one result: its JSON document with `--json`, else its text.
    static func show(json: Bool, _ value: @autoclosure () -> JSON, text: @autoclosure () -> String) {
        if json { self.json(value()) } else { print(text()) }
    }

    /// A list command's result: a JSON array with `--json`; else a line an item, or `empty` when there are none.
    static func list<Item>(
        _ items: [Item], json: Bool, empty: String? = nil, item: (Item) -> JSON, line: (Item) -> String
    ) {
        if json {
            self.json(.array(items.map(item)))
        } else if items.isEmpty, let empty {
            print(empty)
        } else {
            for entry in items { print(oneLine(line(entry))) }
        }
    }

    /// Writes what a command made to the file the person named, whole or not at all.
    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw NodeError.file("cannot write \(path): \(error.localizedDescription)")
        }
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("caddie: error: " + printable(text) + "\n").utf8))
    }
}

/// Runs a command body; a Caddie error becomes one line on standard error and exit status 1.
func guarded(_ body: () async throws -> Void) async throws {
    do {
        try await body()
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

/// How every command ends on an error: its one line on standard error and exit status 1. Every Caddie error type
/// (NodeError, SyncError, StoreError, ...) describes itself with what was wrong and what to do. An `ExitCode` a
/// command chose passes through.
func exitCode(for error: any Error) -> ExitCode {
    if let code = error as? ExitCode { return code }
    Console.error(Console.words(error))
    return ExitCode(1)
}
