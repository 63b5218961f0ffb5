import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation

// A home's commands, one service per concern. Each is a small value over the home: it reads the store through
// `run` (store errors become `NodeError`), signs its ops through `Home.append` (Home+Log.swift), and reaches the
// identity and keys through the home (docs/architecture.md, "The node's inside", lists the home's own side
// effects a service asks for). The CLI and the API call them as `home.rounds.score(...)`; nothing outside the node
// sees the store (`Deploy/layers.sh` checks).

/// What every feature service shares: the home it works on, and the few calls of the home it may make.
protocol HomeService: Sendable {
    var home: Home { get }
}

extension HomeService {

    func run<T>(_ body: () throws -> T) throws(NodeError) -> T { try home.run(body) }

    func identity() throws(NodeError) -> Identity { try home.identity() }

    func unlock(passphrase: String) throws(NodeError) -> UnlockedKeys { try home.unlock(passphrase: passphrase) }

    @discardableResult
    func append(space: SpaceID, keys: UnlockedKeys, changes: [Change], pred: [OpID] = []) throws(NodeError) -> SignedOp {
        try home.append(space: space, keys: keys, changes: changes, pred: pred)
    }

    var rounds: RoundService { home.rounds }
    var courses: CourseService { home.courses }
    var handicaps: HandicapService { home.handicaps }
    var spaces: SpaceService { home.spaces }
    var devices: DeviceService { home.devices }

    /// The record meant by `text`: its full id, its name (any case), a prefix of its id of at least four hex
    /// digits, or, when the records have names, a unique part of a name ("Zoute" for "Royal Zoute Golf Club").
    /// An id matches by prefix only, never by digits in its middle. When several records match, the error lists
    /// them so the person can type more.
    func resolve<R, ID: FixedBytes>(
        _ text: String, in records: [R], what: String, list: NodeError.Remedy.Listing, id: (R) -> ID,
        name: ((R) -> String)?, describe: ((R) -> String)? = nil
    ) throws(NodeError) -> R {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        let input = NodeError.Input(what)
        guard !lowered.isEmpty else {
            throw .badInput(input, "is blank: say which \(what): an id, an id prefix or a name")
        }
        if let exact = records.first(where: { id($0).hex == lowered }) { return exact }
        var matches = name.map { name in records.filter { name($0).caseInsensitiveCompare(lowered) == .orderedSame } } ?? []
        let isHex = lowered.allSatisfy(\.isHexDigit)
        if matches.isEmpty, isHex, lowered.count >= Home.minimumPrefix {
            matches = records.filter { id($0).hex.hasPrefix(lowered) }
        }
        if matches.isEmpty, let name, lowered.count >= 3 { matches = records.filter { name($0).lowercased().contains(lowered) } }
        guard matches.count == 1 else {
            if matches.isEmpty {
                if name == nil, isHex, lowered.count < Home.minimumPrefix {
                    throw .badInput(
                        input,
                        "'\(text)' is too short: give at least \(Home.minimumPrefix) hex digits of its id")
                }
                throw .notFound("no \(what) '\(text)' in this space", .list(list))
            }
            let shown = matches.prefix(6).map { record in
                let label = describe?(record) ?? name?(record) ?? ""
                return label.isEmpty || label == id(record).hex ? id(record).hex : "\(id(record).hex) (\(label))"
            }
            let more = matches.count > 6 ? ", and \(matches.count - 6) more" : ""
            throw .ambiguous(
                "'\(text)' matches \(matches.count) \(what)s: \(shown.joined(separator: ", "))\(more); "
                    + "give more of the id")
        }
        return matches[0]
    }
}

extension Home {
    /// The shortest id prefix a person may type; shorter text matches too many records to be safe.
    static let minimumPrefix = 4

    /// Players, games, scores and cards.
    public var rounds: RoundService { RoundService(home: self) }
    /// Courses.
    public var courses: CourseService { CourseService(home: self) }
    /// Handicaps, standings and statistics.
    public var handicaps: HandicapService { HandicapService(home: self) }
    /// Club competitions and their boards.
    public var competitions: CompetitionService { CompetitionService(home: self) }
    /// Guidance and tracking.
    public var guidance: GuidanceService { GuidanceService(home: self) }
    /// Spaces, members and invites.
    public var spaces: SpaceService { SpaceService(home: self) }
    /// Devices and recovery.
    public var devices: DeviceService { DeviceService(home: self) }
    /// The audit trail.
    public var audit: AuditService { AuditService(home: self) }
}
