/// What went wrong in the domain layer, in words a user can act on.
public enum CoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value given by a user or a file is out of range or malformed; the text says which and what to do.
    case invalidArgument(String)
    /// Bytes that should hold an op, payload or bundle do not decode.
    case malformed(String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .invalidArgument(let text): text
        case .malformed(let text): text
        }
    }
}
