import CaddieCore
import CaddieCrypto
import CaddieStore

/// What went wrong in a command, in words a user can act on. Commands that throw change nothing.
public enum NodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The home has no identity yet.
    case notLoggedIn(home: String)
    /// The home already has an identity.
    case alreadyLoggedIn(name: String, home: String)
    /// No passphrase was given and none can be asked for.
    case passphraseRequired
    /// The home holds no space.
    case noSpace
    /// More than one space could be meant.
    case spaceAmbiguous([String])
    /// A named record does not exist.
    case notFound(String)
    /// What was typed names more than one record; the text lists them.
    case ambiguous(String)
    /// An argument or file is wrong; the text says how.
    case invalid(String)
    /// The store refused.
    case store(StoreError)
    /// A cryptographic step failed.
    case crypto(CryptoError)
    /// The domain layer refused.
    case core(CoreError)
    /// A file could not be read or written.
    case file(String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .notLoggedIn(let home): "no identity in \(home): run `caddie login --name NAME` first"
        case .alreadyLoggedIn(let name, let home):
            "\(home) already holds the identity of \(name); use another --home for another person"
        case .passphraseRequired:
            "a passphrase is needed to unlock this home's keys: set CADDIE_PASSPHRASE or run in a terminal"
        case .noSpace:
            "this home holds no space yet: create one with `caddie space create NAME` or join with `caddie space join INVITE`"
        case .spaceAmbiguous(let names):
            "this home holds several spaces (\(names.joined(separator: ", "))): choose one with --space ID"
        case .notFound(let text): text
        case .ambiguous(let text): text
        case .invalid(let text): text
        case .store(let error): error.description
        case .crypto(let error): error.description
        case .core(let error): error.description
        case .file(let text): text
        }
    }

    public static func wrap(_ error: any Error) -> NodeError {
        switch error {
        case let error as NodeError: error
        case let error as StoreError: .store(error)
        case let error as CryptoError: .crypto(error)
        case let error as CoreError: .core(error)
        default: .invalid("\(error)")
        }
    }
}
