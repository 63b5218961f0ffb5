import Foundation

/// Renders results as the one-line JSON the `caddie` CLI prints, e.g. `{"differential": 19.0}`.
///
/// Written by hand rather than with `JSONEncoder` because the encoder prints 19.0 as `19` and orders keys by hash,
/// and the CLI's output is a fixed, documented format.
enum HandicapJSON {
    /// A JSON value already rendered as text.
    struct Value {
        /// The JSON text.
        let text: String

        /// A whole number.
        static func int(_ value: Int) -> Value {
            Value(text: String(value))
        }

        /// A number printed with exactly `places` decimals (the value is rounded .5 upwards first).
        static func number(_ value: Double, places: Int) -> Value {
            Value(text: fixed(value, places: places))
        }

        /// A number or `null`.
        static func number(_ value: Double?, places: Int) -> Value {
            value.map { number($0, places: places) } ?? Value(text: "null")
        }

        /// A string (only plain ASCII identifiers are passed here, so no escaping is needed beyond quotes).
        static func string(_ value: String) -> Value {
            Value(text: "\"\(value.replacingOccurrences(of: "\"", with: "\\\""))\"")
        }

        /// An array of values.
        static func array(_ values: [Value]) -> Value {
            Value(text: "[" + values.map(\.text).joined(separator: ", ") + "]")
        }
    }

    /// An object with keys in the order given.
    static func object(_ fields: KeyValuePairs<String, Value>) -> String {
        "{" + fields.map { "\"\($0.key)\": \($0.value.text)" }.joined(separator: ", ") + "}"
    }

    /// `value` with exactly `places` decimals, without locale or `String(format:)`.
    static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "null" }
        let scale = Int(pow(10.0, Double(places)))
        let scaled = Int((HandicapRounding.toPlaces(value, places) * Double(scale)).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        guard places > 0 else { return sign + String(magnitude) }
        let fraction = String(magnitude % scale)
        let padding = String(repeating: "0", count: places - fraction.count)
        return sign + String(magnitude / scale) + "." + padding + fraction
    }
}
