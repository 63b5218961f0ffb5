/// How a callout words the direction of the target relative to the player's heading.
public enum DirectionStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Eight sectors as Soundscape speaks them: "ahead", "ahead to the left", "to the right", "behind", ...
    case eightWay
    /// A clock face with 12 straight ahead: "11 o'clock".
    case clockFace
}
