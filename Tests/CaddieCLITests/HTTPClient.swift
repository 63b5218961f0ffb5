import Foundation

/// A small HTTP/1.1 client over a real TCP socket, for talking to `caddie serve --http` as any program would.
struct HTTPClient {
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
        func object() throws -> [String: Any] {
            guard let object = try json() as? [String: Any] else { throw CLI.CLIError("not a JSON object: \(text)") }
            return object
        }
        func array() throws -> [[String: Any]] {
            guard let array = try json() as? [[String: Any]] else { throw CLI.CLIError("not a JSON array: \(text)") }
            return array
        }
    }

    let port: Int
    var token: String?

    /// Opens a TCP connection to 127.0.0.1:port with a receive timeout; `source` is the local address it comes from
    /// (any of 127.0.0.0/8 on Linux), to play several devices from one machine.
    static func connect(port: Int, timeout: Double = 10, from source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLI.CLIError("socket: \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw CLI.CLIError("cannot bind to \(source): \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw CLI.CLIError("cannot connect to 127.0.0.1:\(port)")
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw CLI.CLIError("write failed") }
            offset += written
        }
    }

    func head(_ method: String, _ path: String, length: Int?, extra: [String: String] = [:]) -> String {
        var text =
            "\(method) \(path) HTTP/1.1\r\n" + (extra["Host"] == nil ? "Host: 127.0.0.1:\(port)\r\n" : "")
            + "Connection: close\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if let length { text += "Content-Type: application/json\r\nContent-Length: \(length)\r\n" }
        for (key, value) in extra { text += "\(key): \(value)\r\n" }
        return text + "\r\n"
    }

    /// Sends one request and reads the whole reply.
    func request(_ method: String, _ path: String, body: String? = nil, extra: [String: String] = [:]) throws -> Reply {
        let fd = try Self.connect(port: port)
        defer { close(fd) }
        let bodyBytes = body.map { Array($0.utf8) }
        try Self.send(fd, Array(head(method, path, length: bodyBytes?.count, extra: extra).utf8) + (bodyBytes ?? []))
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw CLI.CLIError("no HTTP reply: \(data.count) bytes") }
        let lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusText = lines.first?.split(separator: " ").dropFirst().first, let status = Int(statusText) else {
            throw CLI.CLIError("bad status line: \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: Data(data[split.upperBound...]))
    }

    func get(_ path: String) throws -> Reply { try request("GET", path) }
    func post(_ path: String, _ body: String) throws -> Reply { try request("POST", path, body: body) }
}

/// A live-events subscriber: reads the server-sent events stream as it arrives.
final class EventStream {
    private let fd: Int32
    private var buffer = ""
    /// Events read so far, as (type, data).
    private(set) var events: [(type: String, data: [String: Any])] = []

    init(port: Int, token: String) throws {
        fd = try HTTPClient.connect(port: port, timeout: 0.2)
        let client = HTTPClient(port: port, token: token)
        try HTTPClient.send(fd, Array(client.head("GET", "/v1/events", length: nil).utf8))
        // The reply head, then the opening comment: once it arrives, the node has subscribed this stream.
        let deadline = Date().addingTimeInterval(10)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !buffer.contains(": caddie live events\nretry: 1000\n\n"), Date() < deadline {
            let count = read(fd, &chunk, chunk.count)
            if count == 0 { break }
            if count > 0 { buffer += String(decoding: chunk[0..<count], as: UTF8.self) }
        }
        guard let opened = buffer.range(of: ": caddie live events\nretry: 1000\n\n") else {
            close(fd)
            throw CLI.CLIError("no event stream: \(buffer)")
        }
        status = Int(buffer.split(separator: " ").dropFirst().first ?? "") ?? 0
        buffer.removeSubrange(..<opened.upperBound)
    }

    /// The HTTP status of the stream's reply.
    private(set) var status = 0

    deinit { close(fd) }

    /// Reads until an event matching `predicate` arrives; nil if none within `seconds`.
    @discardableResult
    func next(within seconds: Double, where predicate: ((type: String, data: [String: Any])) -> Bool) throws -> [String: Any]? {
        if let found = events.first(where: predicate) { return found.data }
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 16384)
        while Date() < deadline {
            let count = read(fd, &chunk, chunk.count)
            if count == 0 { throw CLI.CLIError("the event stream ended") }
            if count < 0 { continue }  // receive timeout: look again until the deadline
            buffer += String(decoding: chunk[0..<count], as: UTF8.self)
            while let end = buffer.range(of: "\n\n") {
                let record = String(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                var type: String?
                var data: String?
                for line in record.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("event: ") { type = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                guard let type, let data,
                    let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
                else { continue }
                events.append((type, object))
                if predicate((type, object)) { return object }
            }
        }
        return nil
    }
}
