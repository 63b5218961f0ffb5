import Foundation

/// The harness this process fuzzes, from CADDIE_FUZZ (see `caddie-fuzz --help`).
nonisolated(unsafe) private var selected: Harness?

#if CADDIE_LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry point in the libFuzzer build (SwiftPM names an executable's entry `MODULE_main`):
/// hands the command line to libFuzzer's driver, which parses its flags and fuzzes ``fuzzOne(_:_:)``.
@_cdecl("caddie_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if argc == 2, let first = argv?[1], String(cString: first) == "--list" {
        Harness.printList()
        return 0
    }
    var count = argc
    var vector = argv
    return runDriver(&count, &vector) { data, size in fuzzOne(data, size) }
}

/// One input: the harness named by CADDIE_FUZZ.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if selected == nil {
        guard let name = ProcessInfo.processInfo.environment["CADDIE_FUZZ"], let harness = Harness(rawValue: name) else {
            FileHandle.standardError.write(
                Data("caddie-fuzz: set CADDIE_FUZZ to one of \(Harness.allCases.map(\.rawValue))\n".utf8))
            exit(2)
        }
        selected = harness
    }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?.run(bytes)
    return 0
}
#else
/// Without libFuzzer: replays a corpus (every file under the given folders) through one harness, so that the
/// ordinary build checks the committed seeds and every crash input found so far.
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--list"] {
            Harness.printList()
            return
        }
        if arguments.count == 2, arguments[0] == "--write-seeds" {
            Seeds.write(to: arguments[1])
            return
        }
        guard let name = arguments.first, let harness = Harness(rawValue: name) else {
            print(
                """
                usage: caddie-fuzz HARNESS FOLDER...   replay every file of the folders through a harness
                       caddie-fuzz --list              the harnesses, one a line (Deploy/fuzz.sh and the tests read it)
                       caddie-fuzz --write-seeds DIR   write the generated seed inputs (Fuzz/corpus)
                harnesses: \(Harness.allCases.map { $0.rawValue }.joined(separator: ", "))
                The libFuzzer build (Deploy/fuzz.sh) fuzzes instead; choose its harness with CADDIE_FUZZ.
                """)
            exit(arguments.isEmpty ? 0 : 2)
        }
        var count = 0
        for folder in arguments.dropFirst() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in files.sorted() {
                guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { continue }
                harness.run([UInt8](data))
                count += 1
            }
        }
        print("caddie-fuzz: \(harness.rawValue): replayed \(count) inputs")
    }
}
#endif
