import Foundation

/// A JSON value printed exactly as Caddie documents it: keys in a fixed order, numbers as numbers.
public enum JSON: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByFloatLiteral
{
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }

    public static func optional(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
    public static func optional(_ value: Int?) -> JSON { value.map { .int($0) } ?? .null }
    public static func optional(_ value: Double?) -> JSON { value.map { .double($0) } ?? .null }

    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .string(let value): out += Self.quote(value)
        case .int(let value): out += String(value)
        case .double(let value):
            if value.isFinite {
                // Round-trip text without binary noise: 30.72, 19.0, -2.4.
                let rounded = (value * 1e9).rounded() / 1e9
                out += rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(format: "%.1f", rounded) : "\(rounded)"
            } else {
                out += "null"
            }
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(into: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { out += ", " }
                out += Self.quote(key) + ": "
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
