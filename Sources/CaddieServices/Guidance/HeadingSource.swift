/// Where a heading comes from. When several are available, guidance uses the first in `preferenceOrder`: the
/// order Soundscape uses for its beacon (head, then device, then course; `destinationCollection` in its
/// `AppContext.swift`, see BEACON.md section 4).
public enum HeadingSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The direction the player's head faces, from a head-tracking IMU such as headphones.
    case headTracking
    /// The direction the phone or watch points, from its compass.
    case compass
    /// The direction of travel computed from successive GPS fixes; absent while the player stands still.
    case courseOverGround

    /// The names a person or a client may give a source, case aside: `head` (or `headtracking`, `head-tracking`),
    /// `compass`, `course` (or `cog`, `course-over-ground`). The CLI's `--heading-source` and the API's
    /// `headingSource` both read them here.
    public init?(name: String) {
        switch name.lowercased() {
        case "head", "headtracking", "head-tracking": self = .headTracking
        case "compass": self = .compass
        case "course", "cog", "course-over-ground": self = .courseOverGround
        default: return nil
        }
    }

    /// The order in which guidance prefers heading sources, best first.
    public static let preferenceOrder: [HeadingSource] = [.headTracking, .compass, .courseOverGround]

    /// The position in `preferenceOrder`; lower is preferred.
    var rank: Int {
        switch self {
        case .headTracking: 0
        case .compass: 1
        case .courseOverGround: 2
        }
    }
}
