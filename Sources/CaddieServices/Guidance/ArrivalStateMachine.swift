/// Arrival at a target with hysteresis, as Soundscape's geofence (`isLocationWithinGeofence`, BEACON.md section 2):
/// inside the target's area counts as arrived; otherwise the player arrives at or within the enter radius, leaves
/// at or beyond the leave radius, and between the two keeps the previous state.
///
/// Distances are to the nearest edge of the area when there is one (a green's outline), else to the target point.
/// Feed events with `receive(_:)`; the returned action says what the driver should do.
public struct ArrivalStateMachine: Sendable, Equatable {
    /// Whether the player is at the target.
    public enum State: Sendable, Hashable {
        /// Not at the target: guidance and beacon run.
        case away
        /// At the target: distance callouts stop and the beacon is muted until the player leaves.
        case arrived
    }

    /// Something that happened.
    public enum Event: Sendable, Hashable {
        /// A new position fix.
        case position(GeoPoint)
        /// Start over as away (for a new hole or target), with no announcement.
        case reset
    }

    /// What the driver should do after an event.
    public enum Action: Sendable, Hashable {
        /// Nothing changed.
        case none
        /// The player has just arrived: announce it and mute the beacon (Soundscape mutes it on arrival).
        case announceArrival
        /// The player has just left the vicinity: guidance may resume.
        case announceDeparture
    }

    /// The target point.
    public let target: GeoPoint
    /// The target's area, such as the green's outline; being inside it counts as arrived.
    public let area: GeoPolygon?
    /// The enter and leave radii.
    public let settings: ArrivalSettings
    /// The current state; it starts as `.away`.
    public private(set) var state: State = .away

    /// Makes a machine for `target`, optionally with its `area`, starting away.
    public init(target: GeoPoint, area: GeoPolygon? = nil, settings: ArrivalSettings = .standard) {
        self.target = target
        self.area = area
        self.settings = settings
    }

    /// The distance in metres from `position` to the target: to the area's nearest edge (0 inside) when there is an
    /// area, else to the target point.
    public func distance(from position: GeoPoint) -> Double {
        if let area {
            return area.distance(from: position)
        }
        return Geodesy.distance(from: position, to: target)
    }

    /// Applies `event` and returns what to do.
    public mutating func receive(_ event: Event) -> Action {
        switch event {
        case .reset:
            state = .away
            return .none
        case .position(let position):
            let inside = area?.contains(position) ?? false
            let distance = inside ? 0 : self.distance(from: position)
            switch state {
            case .away where inside || distance <= settings.enterRadius:
                state = .arrived
                return .announceArrival
            case .arrived where !inside && distance >= settings.leaveRadius:
                state = .away
                return .announceDeparture
            case .away, .arrived:
                return .none
            }
        }
    }
}
