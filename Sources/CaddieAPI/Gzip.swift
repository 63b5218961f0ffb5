import CZlib
import Foundation

/// The web app's files as gzip (RFC 1952), made once with zlib at its highest level: a phone's first load is a
/// quarter of the bytes over the air. Nothing is compressed per request.
enum Gzip {
    /// `bytes` gzipped, or nil when zlib fails (the file is then served as it is).
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
        guard
            deflateInit2_(
                &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Whether an Accept-Encoding header takes gzip: named (or `*`) with no `q=0` (RFC 9110, 12.5.3).
    static func accepted(_ header: String?) -> Bool {
        guard let header else { return false }
        var star = false
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first else { continue }
            let weight =
                parts.dropFirst().compactMap { parameter -> Double? in
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    return pair.count == 2 && pair[0] == "q" ? Double(pair[1]) : nil
                }.first ?? 1
            if name == "gzip" || name == "x-gzip" { return weight > 0 }
            if name == "*" { star = weight > 0 }
        }
        return star
    }
}
