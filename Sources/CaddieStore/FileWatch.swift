import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Calls back when the database file changes, whoever changed it (this process, a `caddie score` run in another,
/// a peer's batch): the kernel reports writes to the database and its write-ahead log through inotify, and a
/// thread that sleeps in `poll` until then checks SQLite's data_version. Nothing wakes while nothing is written.
public final class FileWatch: Sendable {
    private let wake: (read: Int32, write: Int32)
    private let stopped = Mutex(false)

    /// Starts watching the directory of `path` for writes to the files whose names start with its name.
    /// `changed` runs on the watch thread after each write that moved `version` (coalesced).
    init(path: String, version: @escaping @Sendable () -> Int64?, changed: @escaping @Sendable () -> Void) throws(StoreError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { throw .database("cannot watch \(directory): \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(inotify, directory, mask) >= 0 else {
            close(inotify)
            throw .database("cannot watch \(directory): \(String(cString: strerror(errno)))")
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(inotify)
            throw .database("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (pipeEnds[0], pipeEnds[1])
        let stopRead = pipeEnds[0]
        let thread = Thread {
            var last = version() ?? 0
            var buffer = [UInt8](repeating: 0, count: 4096)
            var fds = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                fds[0].revents = 0
                fds[1].revents = 0
                let ready = poll(&fds, 2, -1)
                if ready < 0 { if errno == EINTR { continue } else { break } }
                if fds[1].revents != 0 { break }
                let count = read(inotify, &buffer, buffer.count)
                guard count > 0 else { continue }
                // Only writes to the database's own files count.
                var offset = 0
                var relevant = false
                while offset + 16 <= count {
                    let length =
                        Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16
                        | Int(buffer[offset + 15]) << 24
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    if String(decoding: nameBytes, as: UTF8.self).hasPrefix(name) { relevant = true }
                    offset += 16 + length
                }
                guard relevant, let now = version(), now != last else { continue }
                last = now
                changed()
            }
            close(inotify)
            close(stopRead)
        }
        thread.name = "caddie-file-watch"
        thread.start()
    }

    /// Stops the watch thread.
    public func stop() {
        let already = stopped.withLock { state in
            defer { state = true }
            return state
        }
        guard !already else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        close(wake.write)
    }

    deinit { stop() }
}

extension ChangeMonitor {
    /// Watches the database for commits by any connection; `changed` runs after each (coalesced).
    public func watch(_ changed: @escaping @Sendable () -> Void) throws(StoreError) -> FileWatch {
        try FileWatch(path: path, version: { [self] in try? self.version() }, changed: changed)
    }
}
