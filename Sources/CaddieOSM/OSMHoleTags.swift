import CaddieCore
import Foundation

/// What the tags of a `golf=hole` way say: number, name, par, stroke index (`handicap`) and the per-tee-colour
/// variants `par:<colour>`, `handicap:<colour>`, `dist:<colour>` (OSM wiki Tag:golf=hole, Key:dist).
struct OSMHoleTags: Sendable {
    var number: Int?
    var name: String?
    var par: Int?
    var strokeIndex: Int?
    /// Per tee colour (lowercase).
    var pars: [String: Int] = [:]
    var strokeIndexes: [String: Int] = [:]
    var yards: [String: Int] = [:]

    init(_ tags: [String: String]) {
        let nameTag = tags["name"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        number = tags["ref"].flatMap(Self.leadingInteger) ?? nameTag.flatMap(Self.numberName)
        if let nameTag, !nameTag.isEmpty, Self.numberName(nameTag) == nil, nameTag.utf8.count <= 64 { name = nameTag }
        par = tags["par"].flatMap(Self.leadingInteger).flatMap { (3...6).contains($0) ? $0 : nil }
        strokeIndex = tags["handicap"].flatMap(Self.leadingInteger).flatMap { (1...18).contains($0) ? $0 : nil }
        for (key, value) in tags {
            let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let colour = Self.colour(parts[1]) else { continue }
            switch parts[0] {
            case "par":
                if let par = Self.leadingInteger(value), (3...6).contains(par) { pars[colour] = par }
            case "handicap":
                if let si = Self.leadingInteger(value), (1...18).contains(si) { strokeIndexes[colour] = si }
            case "dist":
                if let length = Self.yards(value), (30...800).contains(length) { yards[colour] = length }
            default: break
            }
        }
    }

    /// Every tee colour the tags mention.
    var colours: Set<String> { Set(pars.keys).union(strokeIndexes.keys).union(yards.keys) }

    /// A tee colour usable as a tee name: lowercase, 1...24 bytes, no '/'.
    static func colour(_ text: String) -> String? {
        let colour = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !colour.isEmpty, colour.utf8.count <= 24, !colour.contains("/") else { return nil }
        return colour
    }

    /// The colours of a `golf=tee` feature's `tee` tag ("gold;white").
    static func colours(_ tag: String?) -> [String] {
        (tag ?? "").split(separator: ";").compactMap { colour(String($0)) }
    }

    /// The tee name for a colour: "white" → "White".
    static func teeName(_ colour: String) -> String {
        colour.prefix(1).uppercased() + colour.dropFirst()
    }

    /// Tee colours in the order cards usually list them (back to front), then alphabetically.
    static func ordered(_ colours: Set<String>) -> [String] {
        let usual = ["black", "gold", "blue", "white", "yellow", "green", "red", "orange", "silver"]
        return colours.sorted {
            (usual.firstIndex(of: $0) ?? usual.count, $0) < (usual.firstIndex(of: $1) ?? usual.count, $1)
        }
    }

    /// The whole number a text starts with ("7", "7a", " 12 "), if it is small.
    static func leadingInteger(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        return Int(digits)
    }

    /// The number of a name that only numbers the hole: "7", "11th", "Hole 7", "#7"; nil for a real name.
    static func numberName(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        for prefix in ["hole", "no.", "#"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count).drop { $0 == " " }
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 2, let number = Int(digits) else { return nil }
        let suffix = rest.dropFirst(digits.count)
        return ["", "st", "nd", "rd", "th"].contains(String(suffix)) ? number : nil
    }

    /// A distance tag in yards: metres unless it says yards (Key:dist is in metres).
    static func yards(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let number = trimmed.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        guard !number.isEmpty, number.count <= 8, let value = Double(number), value.isFinite else { return nil }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        switch unit {
        case "", "m", "metre", "metres", "meter", "meters": return Int((value / 0.9144).rounded())
        case "yd", "yds", "yard", "yards": return Int(value.rounded())
        default: return nil
        }
    }
}
