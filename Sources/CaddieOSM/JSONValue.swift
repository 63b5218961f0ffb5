import CaddieCore

/// Any JSON value, for reading GeoJSON and Overpass JSON whose shape varies (coordinates nest to different depths,
/// tag values may be strings or numbers).
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    var object: [String: JSONValue]? { if case .object(let object) = self { object } else { nil } }
    var array: [JSONValue]? { if case .array(let array) = self { array } else { nil } }
    var number: Double? { if case .number(let number) = self { number } else { nil } }

    /// The value as tag text: strings as they are, numbers without a needless ".0", booleans as yes/no.
    var text: String? {
        switch self {
        case .string(let text): text
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let value): value ? "yes" : "no"
        default: nil
        }
    }
}
