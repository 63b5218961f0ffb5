import Foundation

/// For one space, the highest contiguous seq held from each device.
///
/// Printed as `devicehex:seq,devicehex:seq`, the form `caddie export --since` accepts.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    /// Highest contiguous seq per device; devices with nothing are absent.
    public var entries: [PublicKey: UInt64]

    /// Creates a vector.
    public init(_ entries: [PublicKey: UInt64] = [:]) { self.entries = entries }

    /// The highest contiguous seq held from `device`, 0 if none.
    public subscript(device: PublicKey) -> UInt64 { entries[device] ?? 0 }

    /// Whether an op is already covered by this vector.
    public func covers(_ id: OpID) -> Bool { self[id.device] >= id.seq }

    /// The text form, devices in byte order.
    public var description: String {
        entries.sorted { $0.key < $1.key }.map { "\($0.key.hex):\($0.value)" }.joined(separator: ",")
    }

    /// Parses the text form; an empty string is the empty vector.
    public init(parsing text: String) throws(CoreError) {
        var entries: [PublicKey: UInt64] = [:]
        for part in text.split(separator: ",") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
            let pieces = part.trimmingCharacters(in: .whitespaces).split(separator: ":")
            guard pieces.count == 2, let key = PublicKey(hex: String(pieces[0])), let seq = UInt64(pieces[1]) else {
                throw CoreError.invalidArgument(
                    "version vector entry '\(part)' is not DEVICEHEX:SEQ (64 hex digits, a colon, a number); "
                        + "copy it from `caddie vector` on the receiving home"
                )
            }
            entries[key] = seq
        }
        self.entries = entries
    }
}
