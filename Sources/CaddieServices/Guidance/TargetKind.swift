/// What a guidance target is on the hole; it picks the spoken name when the target has none and decides whether
/// front and back distances are read out.
public enum TargetKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The middle of the green (golf apps' "middle" or "centre" number).
    case greenCentre
    /// The front edge of the green on the line of play.
    case greenFront
    /// The back edge of the green on the line of play.
    case greenBack
    /// A layup point, such as a 100-yard marker.
    case layup
    /// A hazard or penalty area: bunker, water, out of bounds.
    case hazard
    /// A teeing area.
    case tee
    /// Any other point.
    case other

    /// The name spoken for a target of this kind that has no name of its own.
    public var spokenName: String {
        switch self {
        case .greenCentre: "Green"
        case .greenFront: "Green front"
        case .greenBack: "Green back"
        case .layup: "Layup"
        case .hazard: "Hazard"
        case .tee: "Tee"
        case .other: "Target"
        }
    }
}
