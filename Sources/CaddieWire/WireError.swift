/// Why a connection ended, in words for the log and for `caddie sync`.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A frame length was zero or over the maximum.
    case frameSize(Int)
    /// A handshake message had the wrong shape.
    case malformedHandshake(String)
    /// The peer speaks another protocol version.
    case version(peer: UInt8)
    /// The peer proved no key of the space (or is not a Caddie node).
    case notAMember
    /// The peer's device certificate or handshake signature does not verify.
    case badIdentity(String)
    /// A transport frame failed authentication: altered, replayed, reordered or truncated.
    case badFrame
    /// A message inside a valid frame does not decode.
    case malformedMessage(String)
    /// A message arrived that the current state does not allow.
    case unexpected(String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .frameSize(let length): "frame of \(length) bytes is outside 1...\(FrameDecoder.maxFrame)"
        case .malformedHandshake(let text): "malformed handshake: \(text)"
        case .version(let peer):
            "the peer speaks protocol version \(peer); this caddie speaks versions \(Handshake.oldest) to \(Handshake.version): "
                + "upgrade the older one"
        case .notAMember: "the peer does not hold this space's key (not a member, or not a caddie node)"
        case .badIdentity(let text): "the peer's identity does not verify: \(text)"
        case .badFrame: "a frame failed authentication (altered, replayed, reordered or truncated)"
        case .malformedMessage(let text): "malformed message: \(text)"
        case .unexpected(let text): "unexpected message: \(text)"
        }
    }
}
