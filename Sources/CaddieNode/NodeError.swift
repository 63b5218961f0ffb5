import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync

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
    /// A named record does not exist; the remedy says where to look, at each edge in its own words.
    case notFound(String, Remedy? = nil)
    /// What was typed names more than one record; the text lists them.
    case ambiguous(String)
    /// Something is wrong and its kind is not known more closely (another process's error, by its text alone; an
    /// error of a type Caddie does not know); the text says how.
    case invalid(String)
    /// Data that does not read: a code, a file's contents or a request; the text says what is wrong and what to do.
    case malformed(what: String, String)
    /// One input is wrong: the text says how, after the input's name as each edge spells it (`--holes must be 9
    /// or 18` at the CLI, `holesPlayed must be 9 or 18` over HTTP).
    case badInput(Input, String)
    /// The request is sound but the state refuses it now (a finished game, a player not in the game): what to
    /// do about it is the remedy, said at each edge in its own words.
    case conflict(String, Remedy? = nil)
    /// Who asks may not do this (not the owner, a removed device).
    case refused(String, Remedy? = nil)
    /// The store refused.
    case store(StoreError)
    /// A cryptographic step failed.
    case crypto(CryptoError)
    /// The domain layer refused.
    case core(CoreError)
    /// A file could not be read or written.
    case file(String)
    /// Another device or process could not be reached, or did not answer in time; the text says which and what to do.
    case unreachable(String)

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
        case .ambiguous(let text): text
        case .invalid(let text): text
        case .malformed(_, let text): text
        case .badInput(let input, let text): "\(input.option) \(text)"
        case .notFound(let text, let remedy), .conflict(let text, let remedy), .refused(let text, let remedy):
            remedy.map { "\(text): \($0.command)" } ?? text
        case .store(let error): error.description
        case .crypto(let error): error.description
        case .core(let error): error.description
        case .file(let text): text
        case .unreachable(let text): text
        }
    }

    /// What to do about a conflict or a refusal, as a command to type and as a request to send: the CLI says the
    /// one, the HTTP API the other, so neither answers in the other's words.
    public struct Remedy: Sendable, Equatable {
        /// For a person at the CLI: "reopen it with `caddie game reopen 1a2b3c4d`".
        public let command: String
        /// For an API client (the web app shows it): "reopen the game first".
        public let request: String

        public init(command: String, request: String) {
            self.command = command
            self.request = request
        }

        /// Where the records of a kind are listed: "see `caddie game list`" at the CLI, "GET .../games lists them"
        /// over HTTP (`path`: the list's route when it is not the space's `kind`).
        public static func list(_ kind: String, command: String, path: String? = nil) -> Remedy {
            Remedy(
                command: "see `\(command)`",
                request: "GET \(path ?? "/v1/spaces/{space}/\(kind)") lists them")
        }

        /// A deleted game brought back: "`caddie game restore ID` brings it back".
        public static func restore(_ game: GameID) -> Remedy {
            Remedy(
                command: "`caddie game restore \(game.short)` brings it back",
                request: "POST /v1/spaces/{space}/games/\(game.hex)/restore brings it back")
        }

        /// A finished game reopened first: "reopen it with `caddie game reopen ID` to change a score".
        public static func reopen(_ game: GameID, then purpose: String) -> Remedy {
            Remedy(
                command: "reopen it with `caddie game reopen \(game.short)` \(purpose)",
                request: "reopen the game \(purpose)")
        }
    }

    /// An input by its name at each edge: the CLI's option and the HTTP API's field.
    public struct Input: Sendable, Equatable {
        /// As typed at the CLI: "--holes".
        public let option: String
        /// As sent to the HTTP API: "holesPlayed".
        public let field: String

        public init(option: String, field: String) {
            self.option = option
            self.field = field
        }

        public static let holes = Input(option: "--holes", field: "holesPlayed")
        public static let start = Input(option: "--start", field: "startHole")
        public static let formats = Input(option: "--formats", field: "formats")
        public static let skins = Input(option: "--skins", field: "skins")
        public static let stake = Input(option: "--stake", field: "stake")
        public static let teams = Input(option: "--teams", field: "teams")
        public static let entries = Input(option: "--entry", field: "entries")
        public static let players = Input(option: "--players", field: "players")
        public static let clearIndex = Input(option: "--clear-index", field: "clearIndex")
        public static let uses = Input(option: "--uses", field: "uses")
        public static let expires = Input(option: "--expires", field: "expiresInSeconds")
        public static let name = Input(option: "the player's name", field: "name")
        public static let index = Input(option: "--index", field: "index")
        public static let tee = Input(option: "--tee", field: "tee")
        public static let playerTees = Input(option: "--player-tee", field: "playerTees")
        public static let hole = Input(option: "the hole", field: "hole")
        public static let strokes = Input(option: "the strokes", field: "strokes")
        public static let seen = Input(option: "the values seen", field: "seen")
        public static let device = Input(option: "the device key", field: "device")
        public static let listen = Input(option: "--listen", field: "listen")
        public static let address = Input(option: "--address", field: "address")
        public static let userName = Input(option: "--name", field: "name")
        public static let spaceName = Input(option: "the space name", field: "name")
        public static let passphrase = Input(option: "the passphrase", field: "passphrase")
        public static let certificate = Input(option: "the certificate", field: "certificate")
        public static let ops = Input(option: "the op list", field: "ops")
        public static let query = Input(option: "the search text", field: "q")
        public static let latitude = Input(option: "--lat", field: "lat")
        public static let longitude = Input(option: "--lon", field: "lon")
        public static let radius = Input(option: "--radius-km", field: "radiusKm")
        /// A `HOST:PORT` whose option the caller does not name.
        public static let hostPort = Input(option: "the address", field: "address")
        public static let peer = Input(option: "--peer", field: "peer")
        public static let port = Input(option: "--port", field: "port")
        public static let nodeID = Input(option: "--node-id", field: "nodeId")
        public static let http = Input(option: "--http", field: "http")
        public static let https = Input(option: "--https", field: "https")
        public static let httpsName = Input(option: "--https-name", field: "httpsName")
        public static let trustPage = Input(option: "--trust-page", field: "trustPage")
        public static let host = Input(option: "--host", field: "host")
        public static let space = Input(option: "--space", field: "space")
        public static let wait = Input(option: "--wait", field: "wait")
        public static let home = Input(option: "--home", field: "home")
        public static let user = Input(option: "--user", field: "user")
        public static let fairway = Input(option: "--fairway", field: "fairway")
        /// `--markers` as typed, `PLAYER:MARKER` pairs.
        public static let markers = Input(option: "--markers", field: "markers")
        /// Who marks whom, however it was given (`--markers`, `caddie game marker`, a new game's `markers`).
        public static let markerPairs = Input(option: "the markers", field: "markers")
        public static let format = Input(option: "--format", field: "format")
        public static let differentials = Input(option: "--differentials", field: "differentials")
        public static let from = Input(option: "--from", field: "from")
        public static let to = Input(option: "--to", field: "to")
        public static let heading = Input(option: "--heading", field: "heading")
        public static let headingSource = Input(option: "--heading-source", field: "headingSource")
        public static let gpx = Input(option: "--gpx", field: "gpx")
        public static let recoveryPhrase = Input(option: "the recovery phrase", field: "phrase")
        /// Where guidance leads, when none of its ways was given.
        public static let destination = Input(
            option: "--course ID with --hole N, or --game ID with --player ID,",
            field: "course with hole, game with player, or to {latitude, longitude}")
        /// A game's setup change, when none was given.
        public static let setupChange = Input(
            option: "one of --tee, --player-tee, --start, --holes, --formats, --skins, --validate-skins, --teams, "
                + "--stake or --entry",
            field: "one of tee, playerTees, startHole, holesPlayed, formats, skins, skinsValidation, teams, stake or "
                + "entries")
        /// A player's change, when none was given.
        public static let playerChange = Input(
            option: "one of --name, --index or --clear-index", field: "one of name, index or clearIndex")
    }

    /// The error's kind, by which each edge chooses its answer (an HTTP status, a CLI hint) and which the control
    /// socket carries as one byte.
    public enum Kind: UInt8, Sendable {
        case invalid = 0
        case notFound = 1
        case ambiguous = 2
        case conflict = 3
        case refused = 4
        case notLoggedIn = 5
        case storage = 6
        /// Another device or process could not be reached, or did not answer in time.
        case unreachable = 7
    }

    /// This error's kind.
    public var kind: Kind {
        switch self {
        case .notFound, .noSpace: .notFound
        case .ambiguous, .spaceAmbiguous: .ambiguous
        case .conflict, .alreadyLoggedIn: .conflict
        case .refused, .passphraseRequired: .refused
        case .notLoggedIn: .notLoggedIn
        case .store, .file: .storage
        case .unreachable: .unreachable
        case .invalid, .malformed, .badInput, .crypto, .core: .invalid
        }
    }

    /// An error of a kind, with its text as the CLI words it (from the control socket's reply).
    public init(kind: Kind, text: String) {
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

    /// The text for an API client: a conflict's or refusal's remedy as a request, never as a command to type.
    public var requestDescription: String {
        switch self {
        case .notFound(let text, let remedy), .conflict(let text, let remedy), .refused(let text, let remedy):
            remedy.map { "\(text): \($0.request)" } ?? text
        case .badInput(let input, let text): "\(input.field) \(text)"
        case .malformed(_, let text): text
        case .unreachable(let text): text
        default: description
        }
    }

    /// What a store error means to a client, for an edge that answers by kind (the HTTP API), without naming the
    /// store's own error type: nil for an error that is not the store's.
    public var storeFailure: StoreFailure? {
        guard case .store(let error) = self else { return nil }
        switch error {
        case .diskFull: return .diskFull
        case .invalidOp, .malformedOp, .wrongSpace, .missingOps, .revoked: return .opRefused
        case .cannotSign: return .cannotSign
        default: return .storage
        }
    }

    /// The kinds of ``storeFailure``.
    public enum StoreFailure: Sendable, Equatable {
        /// The disk is full: nothing was written.
        case diskFull
        /// An op sent to the node (a phone's, a bundle's) fails a check: the sender's to fix.
        case opRefused
        /// This device cannot sign in the space.
        case cannotSign
        /// The database could not be read or written.
        case storage
    }

    public static func wrap(_ error: any Error) -> NodeError {
        switch error {
        case let error as NodeError: error
        case let error as StoreError: .store(error)
        case let error as CryptoError: .crypto(error)
        case let error as CoreError: .core(error)
        case SyncError.unreachable, SyncError.silent: .unreachable("\(error)")
        default: .invalid("\(error)")
        }
    }
}

extension NodeError {
    /// A code CaddieCodes could not read, as the node's refusal of it.
    public init(_ error: CodeError) {
        switch error {
        case .malformed(let what, let text): self = .malformed(what: what, text)
        }
    }

    /// Reads a code (an invite, a device code), its refusal as the node's.
    public static func reading<Code>(_ read: () throws(CodeError) -> Code) throws(NodeError) -> Code {
        do {
            return try read()
        } catch {
            throw NodeError(error)
        }
    }
}
