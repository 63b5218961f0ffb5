extension CalloutThrottle {
    /// Replays a recorded track against `target` and returns the callouts in order, as a player walking it would
    /// hear them (see `CalloutThrottle` for the rules).
    public static func replay(
        _ track: [TrackPoint],
        to target: GuidanceTarget,
        settings: GuidanceSettings = GuidanceSettings(),
        arrivalSettings: ArrivalSettings = .standard,
        area: GeoPolygon? = nil
    ) -> [Callout] {
        var throttle = CalloutThrottle(target: target, settings: settings, arrivalSettings: arrivalSettings, area: area)
        return track.compactMap { throttle.receive($0) }
    }
}
