/// The unit spoken in callouts.
public enum DistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// International yards, 0.9144 m exactly (the usual unit on golf courses in the UK and US).
    case yards
    /// Metres.
    case metres

    /// Metres in one unit: 0.9144 for a yard (international yard and pound agreement, 1959), 1 for a metre.
    public var metresPerUnit: Double {
        switch self {
        case .yards: 0.9144
        case .metres: 1
        }
    }

    /// Converts a distance in metres to this unit.
    public func value(fromMetres metres: Double) -> Double {
        metres / metresPerUnit
    }

    /// Converts a distance in this unit to metres.
    public func metres(from value: Double) -> Double {
        value * metresPerUnit
    }

    /// The spoken unit name for a whole number: "1 yard", "152 yards", "1 metre", "140 metres".
    func spoken(_ count: Int) -> String {
        switch self {
        case .yards: count == 1 ? "1 yard" : "\(count) yards"
        case .metres: count == 1 ? "1 metre" : "\(count) metres"
        }
    }
}
