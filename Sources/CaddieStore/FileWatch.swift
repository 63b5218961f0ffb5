import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Calls back when another process commits to the database file (a `caddie` command that wrote it itself): the
/// kernel reports writes to the database and its write-ahead log through inotify, and a thread that sleeps in
/// `poll` until then checks `version` (the writer connection's data_version, which this process's own commits do
/// not move), once a burst of writes settles. Nothing wakes while nothing is written. Where the kernel cannot
/// watch the directory (no inotify, or its limit of watches reached), the thread checks `version` every 200 ms.
final class FileWatch: Sendable {
    /// How often the version is read when the kernel cannot report writes.
    static let fallbackMilliseconds: Int32 = 200
    /// How long a burst of writes must be quiet before the version is read.
    static let settleMilliseconds: Int32 = 20
    /// The longest a burst of writes holds the version's read back.
    static let longestWaitMilliseconds = 200

    private let wake: (read: Int32, write: Int32)
    private let stopped = Mutex(false)

    /// Starts watching the directory of `path` for writes to the files whose names start with its name.
    /// `changed` runs on the watch thread after each write that moved `version` (coalesced).
    init(path: String, version: @escaping @Sendable () -> Int64?, changed: @escaping @Sendable () -> Void) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var inotify = inotify_init1(Int32(IN_CLOEXEC))
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
        if inotify >= 0, inotify_add_watch(inotify, directory, mask) < 0 {
            close(inotify)
            inotify = -1
        }
        var pipeEnds: [Int32] = [-1, -1]
        if pipe(&pipeEnds) == 0 {
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        wake = (pipeEnds[0], pipeEnds[1])
        let stopRead = pipeEnds[0]
        // The version before anything else can happen: by the time the observer is registered, a commit by another
        // process from then on moves it, and none falls between the watch's start and its first look.
        let baseline = version() ?? 0
        let thread = Thread { [inotify] in
            var last = baseline
            var buffer = [UInt8](repeating: 0, count: 4096)
            var fds = [
                pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0), pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            ]
            let watched = inotify >= 0
            // When the first write of a burst was seen (monotonic ns): the version is read once the burst has been
            // quiet for ``settleMilliseconds``, or ``longestWaitMilliseconds`` after it began, not at every write (a
            // commit is many writes, and reading the version waits for this process's own writer).
            var burstSince: UInt64?
            // Reads every event queued now (without blocking): whether one was a write to the database's files.
            func drain() -> Bool {
                var relevant = false
                var queued = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                while poll(&queued, 1, 0) > 0, queued.revents != 0 {
                    queued.revents = 0
                    let count = read(inotify, &buffer, buffer.count)
                    guard count > 0 else { break }
                    var offset = 0
                    while offset + 16 <= count {
                        // The kernel's queue overflowed (IN_Q_OVERFLOW): events were lost, any of them may count.
                        let mask =
                            UInt32(buffer[offset + 4]) | UInt32(buffer[offset + 5]) << 8 | UInt32(buffer[offset + 6]) << 16
                            | UInt32(buffer[offset + 7]) << 24
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                        let length =
                            Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16
                            | Int(buffer[offset + 15]) << 24
                        let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                        // Only writes to the database's own files count.
                        if !relevant, String(decoding: nameBytes, as: UTF8.self).hasPrefix(name) { relevant = true }
                        offset += 16 + length
                    }
                }
                return relevant
            }
            while true {
                fds[0].revents = 0
                fds[1].revents = 0
                // Waiting for a burst: woken by its first write. Within a burst: asleep for ``settleMilliseconds``,
                // not woken at each write (a commit is many writes, and this process's own large commits thousands),
                // while the kernel merges the repeated events; then what queued is read at once.
                let timeout = !watched ? Self.fallbackMilliseconds : burstSince == nil ? -1 : Self.settleMilliseconds
                let ready = poll(&fds, watched && burstSince == nil ? 2 : 1, timeout)
                if ready < 0 { if errno == EINTR { continue } else { break } }
                if fds[0].revents != 0 { break }
                if watched {
                    let relevant = drain()
                    let now = DispatchTime.now().uptimeNanoseconds
                    if relevant, burstSince == nil {
                        burstSince = now
                        continue
                    }
                    guard let since = burstSince else { continue }
                    // Still writing: wait on, up to ``longestWaitMilliseconds`` after the burst began.
                    if relevant, now - since < UInt64(Self.longestWaitMilliseconds) * 1_000_000 { continue }
                    burstSince = nil
                }
                guard let now = version(), now != last else { continue }
                last = now
                changed()
            }
            if inotify >= 0 { close(inotify) }
            if stopRead >= 0 { close(stopRead) }
        }
        thread.name = "caddie-file-watch"
        thread.start()
    }

    /// Stops the watch thread.
    func stop() {
        let already = stopped.withLock { state in
            defer { state = true }
            return state
        }
        guard !already, wake.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        close(wake.write)
    }

    deinit { stop() }
}
