/// A code that does not read: what kind of code it was meant to be, and what is wrong with it and what to do, in
/// words a person can act on ("the invite code is incomplete: 3 characters are missing at its end; copy all of it
/// again").
public enum CodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The code is mistyped, incomplete, of another kind or of another version.
    case malformed(what: String, String)

    public var description: String {
        switch self {
        case .malformed(_, let text): text
        }
    }
}
