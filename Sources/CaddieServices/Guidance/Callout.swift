#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A callout chosen by `CalloutThrottle` to be spoken for one fix.
public struct Callout: Sendable, Equatable {
    /// Why the callout is spoken.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A distance and direction update.
        case distance
        /// The player has just arrived at the target.
        case arrival
        /// The player has just left the target's vicinity; guidance resumes.
        case departure
    }

    /// Why the callout is spoken.
    public let kind: Kind
    /// The words to speak.
    public let text: String
    /// The position in the fix sequence (0 for the first fix given to the throttle).
    public let fixIndex: Int
    /// The fix's time, if it had one.
    public let time: Date?
    /// The guidance computed for the fix.
    public let guidance: Guidance

    /// Makes a callout from its parts.
    public init(kind: Kind, text: String, fixIndex: Int, time: Date?, guidance: Guidance) {
        self.kind = kind
        self.text = text
        self.fixIndex = fixIndex
        self.time = time
        self.guidance = guidance
    }
}
