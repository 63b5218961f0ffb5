import CaddieCore

extension NodeError {
    /// An error as the control socket carries it from the node to the command that asked: the reason, its input
    /// and its remedy as values, so that the CLI words it as it words its own errors. The store's, the crypto
    /// layer's and the domain's errors cross as their one line, in their kind.
    enum Carried: Codable, Equatable {
        case notLoggedIn(home: String)
        case alreadyLoggedIn(name: String, home: String)
        case passphraseRequired
        case noSpace
        case spaceAmbiguous([String])
        case notFound(String, Remedy?)
        case ambiguous(String)
        case invalid(String)
        case malformed(what: String, String)
        case badInput(Input, String)
        case conflict(String, Remedy?)
        case refused(String, Remedy?)
        case file(String)
        case unreachable(String)
    }

    /// This error as the control socket carries it.
    var carried: Carried {
        switch self {
        case .notLoggedIn(let home): .notLoggedIn(home: home)
        case .alreadyLoggedIn(let name, let home): .alreadyLoggedIn(name: name, home: home)
        case .passphraseRequired: .passphraseRequired
        case .noSpace: .noSpace
        case .spaceAmbiguous(let names): .spaceAmbiguous(names)
        case .notFound(let text, let remedy): .notFound(text, remedy)
        case .ambiguous(let text): .ambiguous(text)
        case .invalid(let text): .invalid(text)
        case .malformed(let what, let text): .malformed(what: what, text)
        case .badInput(let input, let text): .badInput(input, text)
        case .conflict(let text, let remedy): .conflict(text, remedy)
        case .refused(let text, let remedy): .refused(text, remedy)
        case .file(let text): .file(text)
        case .unreachable(let text): .unreachable(text)
        case .store: .file(description)
        case .crypto, .core: .invalid(description)
        }
    }

    /// The error the node sent.
    init(_ carried: Carried) {
        switch carried {
        case .notLoggedIn(let home): self = .notLoggedIn(home: home)
        case .alreadyLoggedIn(let name, let home): self = .alreadyLoggedIn(name: name, home: home)
        case .passphraseRequired: self = .passphraseRequired
        case .noSpace: self = .noSpace
        case .spaceAmbiguous(let names): self = .spaceAmbiguous(names)
        case .notFound(let text, let remedy): self = .notFound(text, remedy)
        case .ambiguous(let text): self = .ambiguous(text)
        case .invalid(let text): self = .invalid(text)
        case .malformed(let what, let text): self = .malformed(what: what, text)
        case .badInput(let input, let text): self = .badInput(input, text)
        case .conflict(let text, let remedy): self = .conflict(text, remedy)
        case .refused(let text, let remedy): self = .refused(text, remedy)
        case .file(let text): self = .file(text)
        case .unreachable(let text): self = .unreachable(text)
        }
    }

    /// An error of an older node's reply, which carries a kind and the node's one line.
    init(kind: Kind, text: String) {
        switch kind {
        case .notFound: self = .notFound(text)
        case .ambiguous: self = .ambiguous(text)
        case .conflict: self = .conflict(text)
        case .refused: self = .refused(text)
        case .storage: self = .file(text)
        case .unreachable: self = .unreachable(text)
        case .invalid, .notLoggedIn: self = .invalid(text)
        }
    }
}
