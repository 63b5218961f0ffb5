import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync

/// What went wrong in a command: a kind, a reason, and what to do about it as a value (``Remedy``) that each edge
/// words for its own users (``NodeErrorWords``). Commands that throw change nothing.
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
    /// or 18` at the CLI, `holesPlayed must be 9 or 18` over HTTP: ``NodeErrorWords``).
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

    /// One line for a log or a test: what was wrong, with an input by its own name and no remedy. A person reads an
    /// error through an edge's words (``worded(by:)``): the CLI's, the HTTP API's.
    public var description: String { reason(naming: \.rawValue) }

    /// What was wrong, the input (for a bad one) named by `name`.
    public func reason(naming name: (Input) -> String) -> String {
        switch self {
        case .notLoggedIn(let home): "no identity in \(home)"
        case .alreadyLoggedIn(let name, let home): "\(home) already holds the identity of \(name)"
        case .passphraseRequired: "a passphrase is needed to unlock this home's keys"
        case .noSpace: "this home holds no space yet"
        case .spaceAmbiguous(let names): "this home holds several spaces (\(names.joined(separator: ", ")))"
        case .ambiguous(let text), .invalid(let text), .malformed(_, let text), .file(let text), .unreachable(let text):
            text
        case .badInput(let input, let text): "\(name(input)) \(text)"
        case .notFound(let text, _), .conflict(let text, _), .refused(let text, _): text
        case .store(let error): error.description
        case .crypto(let error): error.description
        case .core(let error): error.description
        }
    }

    /// What to do about it, as a value each edge words; nil when the reason says all there is.
    public var remedy: Remedy? {
        switch self {
        case .notLoggedIn: .logIn
        case .alreadyLoggedIn: .anotherHome
        case .passphraseRequired: .givePassphrase
        case .noSpace: .createOrJoinSpace
        case .spaceAmbiguous: .chooseSpace
        case .notFound(_, let remedy), .conflict(_, let remedy), .refused(_, let remedy): remedy
        default: nil
        }
    }

    /// The error in one line of an edge's words: the reason, its input named as the edge names it, then the remedy
    /// as the edge says it ("game 1a2b3c4d is finished: reopen it with `caddie game reopen 1a2b3c4d` to change a
    /// score" at the CLI, "...: reopen the game to change a score" over HTTP).
    public func worded(by words: some NodeErrorWords) -> String {
        let reason = reason(naming: words.name(of:))
        return remedy.map { "\(reason): \(words.say($0))" } ?? reason
    }

    /// What to do about a refusal, said by each edge in its own words: the node names the remedy, never the
    /// command to type or the request to send.
    public enum Remedy: Sendable, Equatable, Codable {
        /// Where the records of a kind are listed.
        case list(Listing)
        /// A deleted game brought back.
        case restore(GameID)
        /// A finished game reopened, then the change made again.
        case reopen(GameID, then: Reopening)
        /// A player added to the game before the change.
        case addToGame(GameID, player: PlayerID)
        /// Another tee set for a player in a game's setup.
        case anotherTee(GameID, player: String)
        /// A card's disputed holes settled before it is signed.
        case settleDisputes
        /// A locked card corrected by the competition's committee, with a reason.
        case committeeCorrects(CompetitionID, player: PlayerID, hole: Int)
        /// A game with scores deleted only when asked for by force (its ops stay; it can be restored).
        case deleteByForce
        /// An identity made first.
        case logIn
        /// Another person's identity kept in another home.
        case anotherHome
        /// A passphrase given to unlock the keys.
        case givePassphrase
        /// A space created or joined first.
        case createOrJoinSpace
        /// One of several spaces chosen.
        case chooseSpace

        /// The lists a ``list(_:)`` remedy points at.
        public enum Listing: String, Sendable, Codable, CaseIterable {
            case games, players, courses, competitions, invites, spaces
            /// The players of every space of the home (a player looked for across spaces).
            case playersOfEachSpace
        }

        /// Why a finished game is reopened.
        public enum Reopening: String, Sendable, Codable {
            /// To change a score.
            case toScore
            /// Before any other change.
            case first
        }
    }

    /// An input by its name: each edge says it in its own terms (`--holes` at the CLI, `holesPlayed` over HTTP).
    public struct Input: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ name: String) { self.rawValue = name }

        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public static let holes = Input("holes")
        public static let start = Input("start")
        public static let formats = Input("formats")
        public static let skins = Input("skins")
        public static let stake = Input("stake")
        public static let teams = Input("teams")
        public static let entries = Input("entries")
        public static let players = Input("players")
        public static let clearIndex = Input("clearIndex")
        public static let uses = Input("uses")
        public static let expires = Input("expires")
        /// A player's name.
        public static let name = Input("name")
        public static let index = Input("index")
        public static let tee = Input("tee")
        public static let playerTees = Input("playerTees")
        public static let hole = Input("hole")
        public static let strokes = Input("strokes")
        public static let seen = Input("seen")
        public static let device = Input("device")
        public static let listen = Input("listen")
        public static let address = Input("address")
        /// A person's name at login.
        public static let userName = Input("userName")
        public static let spaceName = Input("spaceName")
        public static let passphrase = Input("passphrase")
        public static let certificate = Input("certificate")
        public static let ops = Input("ops")
        public static let query = Input("query")
        public static let latitude = Input("latitude")
        public static let longitude = Input("longitude")
        public static let radius = Input("radius")
        /// A `HOST:PORT` whose option the caller does not name.
        public static let hostPort = Input("hostPort")
        public static let peer = Input("peer")
        public static let port = Input("port")
        public static let nodeID = Input("nodeID")
        public static let http = Input("http")
        public static let https = Input("https")
        public static let httpsName = Input("httpsName")
        public static let trustPage = Input("trustPage")
        public static let host = Input("host")
        public static let space = Input("space")
        public static let wait = Input("wait")
        public static let home = Input("home")
        public static let user = Input("user")
        public static let fairway = Input("fairway")
        /// `PLAYER:MARKER` pairs as typed.
        public static let markers = Input("markers")
        /// Who marks whom, however it was given (`--markers`, `caddie game marker`, a new game's `markers`).
        public static let markerPairs = Input("markerPairs")
        public static let format = Input("format")
        public static let differentials = Input("differentials")
        public static let from = Input("from")
        public static let to = Input("to")
        public static let heading = Input("heading")
        public static let headingSource = Input("headingSource")
        public static let gpx = Input("gpx")
        public static let recoveryPhrase = Input("recoveryPhrase")
        /// A competition's name.
        public static let competitionName = Input("competitionName")
        /// A competition's games.
        public static let games = Input("games")
        /// A competition's mark of a player (no return, disqualified).
        public static let mark = Input("mark")
        /// A competition's start order.
        public static let order = Input("order")
        public static let twoTees = Input("twoTees")
        /// A competition's first start time.
        public static let first = Input("first")
        public static let allowance = Input("allowance")
        public static let checkIn = Input("checkIn")
        public static let countback = Input("countback")
        public static let divisions = Input("divisions")
        public static let hideLast = Input("hideLast")
        public static let interval = Input("interval")
        /// The reason a committee gives for a correction.
        public static let reason = Input("reason")
        public static let scoring = Input("scoring")
        public static let size = Input("size")
        /// The web app's HTTPS address printed on a check-in sheet.
        public static let url = Input("url")
        /// Whether a competition's board is public.
        public static let access = Input("access")
        /// What a committee does to a member.
        public static let committeeAction = Input("committeeAction")
        /// A report's file format.
        public static let reportFormat = Input("reportFormat")
        /// Where guidance leads, when none of its ways was given.
        public static let destination = Input("destination")
        /// A game's setup change, when none was given.
        public static let setupChange = Input("setupChange")
        /// A player's change, when none was given.
        public static let playerChange = Input("playerChange")

        /// Every input named here: each edge words them all (its tests check it).
        public static let named: [Input] = [
            holes, start, formats, skins, stake, teams, entries, players, clearIndex, uses, expires, name, index, tee,
            playerTees, hole, strokes, seen, device, listen, address, userName, spaceName, passphrase, certificate, ops,
            query, latitude, longitude, radius, hostPort, peer, port, nodeID, http, https, httpsName, trustPage, host,
            space, wait, home, user, fairway, markers, markerPairs, format, differentials, from, to, heading,
            headingSource, gpx, recoveryPhrase, competitionName, games, mark, order, twoTees, first, committeeAction,
            reportFormat, allowance, checkIn, countback, divisions, hideLast, interval, reason, scoring, size, url, access,
            destination, setupChange, playerChange,
        ]
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

/// How an edge words an error for its users: the CLI names an input by its option and a remedy by the command to
/// type; the HTTP API by its field and the request to send. The node never writes either.
public protocol NodeErrorWords {
    /// An input as this edge's user gives it: "--holes" at the CLI, "holesPlayed" over HTTP.
    func name(of input: NodeError.Input) -> String
    /// A remedy in this edge's terms: "reopen it with `caddie game reopen 1a2b3c4d` to change a score" at the CLI,
    /// "reopen the game to change a score" over HTTP.
    func say(_ remedy: NodeError.Remedy) -> String
}
