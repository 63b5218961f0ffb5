import Foundation

/// A competition's entry list as the committee exports it from a spreadsheet: CSV (RFC 4180) with a header row
/// naming `name`, `index` and `tee`, and optionally `division` and `club` (club id), in any order and any case. Read
/// whole or not at all: the first bad row is refused with its line number and what to write instead.
public struct EntryList: Sendable, Equatable, Codable {
    /// One entrant.
    public struct Entry: Sendable, Equatable, Codable {
        /// The player's name as the club spells it.
        public let name: String
        /// The Handicap Index to play off (frozen when the list is imported).
        public let index: Double
        /// The tee, as the course names it.
        public let tee: String
        /// The division named in the list, if any.
        public let division: String?
        /// The club's own id for the player, if any.
        public let club: String?

        public init(name: String, index: Double, tee: String, division: String? = nil, club: String? = nil) {
            self.name = name
            self.index = index
            self.tee = tee
            self.division = division
            self.club = club
        }
    }

    /// What was wrong, on which line (1 is the header).
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The entries, in the list's order.
    public let entries: [Entry]

    /// The most rows one list may hold: a field of 40 groups of four with room to spare, and what one op carries.
    public static let maximumEntries = 240

    /// Reads a list; throws the first bad row.
    public init(csv text: String) throws(Failure) {
        // Blank lines before the header are skipped, as a spreadsheet may leave them.
        let rows = Array(try Self.rows(text).drop { $0.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } })
        guard let header = rows.first else {
            throw Failure(line: 1, reason: "the file is empty: the first line names the columns (name,index,tee)")
        }
        var columns: [String: Int] = [:]
        for (position, title) in header.fields.enumerated() {
            let key = title.trimmingCharacters(in: .whitespaces).lowercased()
            guard ["name", "index", "tee", "division", "club"].contains(key) else {
                throw Failure(
                    line: header.line,
                    reason: "column '\(title)' is not one Caddie reads: name the columns name, index, tee, and "
                        + "optionally division and club")
            }
            guard columns[key] == nil else { throw Failure(line: header.line, reason: "column '\(key)' is named twice") }
            columns[key] = position
        }
        for needed in ["name", "index", "tee"] where columns[needed] == nil {
            throw Failure(line: header.line, reason: "the header has no '\(needed)' column: name,index,tee are needed")
        }
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for row in rows.dropFirst() {
            if row.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard row.fields.count == header.fields.count else {
                throw Failure(
                    line: row.line,
                    reason: "has \(row.fields.count) fields where the header has \(header.fields.count): a comma "
                        + "inside a name needs the name in double quotes")
            }
            func field(_ key: String) -> String? {
                columns[key].map { row.fields[$0].trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            }
            guard let name = field("name") else { throw Failure(line: row.line, reason: "the name is empty") }
            guard name.utf8.count <= 64 else {
                throw Failure(line: row.line, reason: "the name is \(name.utf8.count) bytes: at most 64")
            }
            if let first = seen[name.lowercased()] {
                throw Failure(line: row.line, reason: "\(name) is entered twice (line \(first) too)")
            }
            seen[name.lowercased()] = row.line
            let indexText = field("index") ?? ""
            guard let index = Double(indexText.replacingOccurrences(of: "+", with: "-")), index.isFinite,
                (-10...54).contains(index)
            else {
                throw Failure(
                    line: row.line,
                    reason: "\(name)'s index '\(indexText)' is not a Handicap Index: write it like 12.4 (54 at most; "
                        + "a plus handicap as +2.1 or -2.1)")
            }
            guard let tee = field("tee") else { throw Failure(line: row.line, reason: "\(name)'s tee is empty") }
            let division = field("division"), club = field("club")
            for (what, value) in [("tee", tee), ("division", division ?? ""), ("club id", club ?? "")] {
                if value.utf8.count > 32 {
                    throw Failure(line: row.line, reason: "\(name)'s \(what) is \(value.utf8.count) bytes: at most 32")
                }
            }
            for (what, value) in [("name", name), ("tee", tee), ("division", division ?? ""), ("club id", club ?? "")]
            where value.contains(where: { $0.isNewline || $0 == "\t" }) {
                throw Failure(line: row.line, reason: "\(name)'s \(what) holds a tab or a line break")
            }
            entries.append(
                Entry(name: name, index: (index * 10).rounded() / 10, tee: tee, division: division, club: club))
        }
        guard !entries.isEmpty else {
            throw Failure(line: rows.count, reason: "the list has a header and no entries")
        }
        guard entries.count <= Self.maximumEntries else {
            throw Failure(
                line: rows.count,
                reason: "the list has \(entries.count) entries: at most \(Self.maximumEntries) (split the field into "
                    + "two competitions)")
        }
        self.entries = entries
    }

    /// The records of a CSV text, each with the line it starts on; quoted fields may hold commas, quotes ("") and
    /// line breaks.
    static func rows(_ text: String) throws(Failure) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var afterQuote = false
        var characters = Array(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        if characters.last != "\n" { characters.append("\n") }
        var position = 0
        while position < characters.count {
            let character = characters[position]
            position += 1
            if quoted {
                if character == "\"" {
                    if position < characters.count, characters[position] == "\"" {
                        field.append("\"")
                        position += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if character == "\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r\n", "\n", "\r":
                fields.append(field)
                rows.append((rowLine, fields))
                fields = []
                field = ""
                afterQuote = false
                line += 1
                rowLine = line
            default:
                if afterQuote {
                    throw Failure(line: line, reason: "text after a closing double quote: write \"\" for a quote inside")
                }
                field.append(character)
            }
        }
        if quoted { throw Failure(line: rowLine, reason: "a double quote is never closed") }
        return rows
    }
}

/// A competition's draw: the field split into groups of two to four, each with its start (a tee time from the 1st
/// or the 10th, or a shotgun's hole) and who marks whom.
public enum Draw {
    /// How the groups start.
    public enum Start: Sendable, Equatable, Codable {
        /// From the 1st tee (and the 10th too when `twoTees`), a group every `interval` minutes from `first`
        /// (minutes after midnight).
        case teeTimes(first: Int, interval: Int, twoTees: Bool)
        /// Every group at once, each from its own hole: the 1st, 2nd, ...; a field larger than the course puts a
        /// second group on the holes from the 1st on.
        case shotgun
    }

    /// One group.
    public struct Group: Sendable, Equatable {
        /// The entrants (indexes into the field), in the order they are listed.
        public let members: [Int]
        /// The hole it starts on.
        public let startHole: Int
        /// Its tee time, minutes after midnight; nil in a shotgun.
        public let teeTime: Int?
        /// The group's label on the sheet: "1", "2", ... or, in a shotgun, the hole and A or B: "5A".
        public let label: String
        /// Each member's marker (an index into the field): the next member, the last marked by the first.
        public var markers: [(player: Int, marker: Int)] {
            members.count < 2 ? [] : members.indices.map { (members[$0], members[($0 + 1) % members.count]) }
        }
    }

    /// The sizes of groups of at most `size` for `count` players, as even as can be: 10 in fours is 4, 3, 3.
    public static func sizes(count: Int, size: Int) -> [Int] {
        guard count > 0 else { return [] }
        let groups = (count + size - 1) / size
        return (0..<groups).map { count / groups + ($0 < count % groups ? 1 : 0) }
    }

    /// The groups for a field of `count` in the order given, on a course of `holes` holes.
    public static func groups(count: Int, size: Int, start: Start, holes: Int) -> [Group] {
        var groups: [Group] = []
        var next = 0
        for (number, members) in sizes(count: count, size: size).enumerated() {
            let range = Array(next..<next + members)
            next += members
            switch start {
            case .teeTimes(let first, let interval, let twoTees):
                // From the 10th too only on a course that has one.
                let both = twoTees && holes >= 18
                let tenth = both && number % 2 == 1
                let slot = both ? number / 2 : number
                groups.append(
                    Group(
                        members: range, startHole: tenth ? 10 : 1, teeTime: first + slot * interval,
                        label: String(number + 1)))
            case .shotgun:
                let hole = number % holes + 1
                let letter = number / holes == 0 ? "A" : number / holes == 1 ? "B" : "C"
                groups.append(Group(members: range, startHole: hole, teeTime: nil, label: "\(hole)\(letter)"))
            }
        }
        return groups
    }

    /// "08:10" for 490 minutes.
    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60 % 24, rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// Minutes after midnight for "8:10" or "08:10"; nil for anything else.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), parts[1].count == 2,
            (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }
}
