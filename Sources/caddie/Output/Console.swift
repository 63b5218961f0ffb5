import ArgumentParser
import CaddieNode
import Foundation

/// Where commands print: results to standard output, problems to standard error.
enum Console {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func json(_ value: JSON) { print(value.text) }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("caddie: error: " + text + "\n").utf8))
    }
}

/// Runs a command body; a Caddie error becomes one line on standard error and exit status 1.
func guarded(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as NodeError {
        Console.error(error.description)
        throw ExitCode(1)
    } catch let error as ExitCode {
        throw error
    } catch {
        Console.error("\(error)")
        throw ExitCode(1)
    }
}
