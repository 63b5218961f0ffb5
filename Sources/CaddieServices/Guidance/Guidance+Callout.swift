extension Guidance {
    /// Words spoken in place of a direction when no heading is known.
    public static let noHeadingPhrase = "No heading: direction unknown."

    /// The callout to speak, in whole yards or metres by the settings, for example
    /// "Green, 152 yards, ahead to the left. Front 141, back 165." or, without a heading,
    /// "Green, 152 yards. Front 141, back 165. No heading: direction unknown."
    ///
    /// Front and back follow only a green-centre target whose front or back is known. Outside competition mode a
    /// known elevation change adds "Plays like 158." after the first sentence.
    public var callout: String {
        let unit = settings.unit
        var text = "\(target.name), \(unit.spoken(Self.wholeUnits(distance, in: unit)))"
        if let relativeAngle {
            switch settings.directionStyle {
            case .eightWay:
                text += ", \(RelativeDirection(relativeAngle: relativeAngle).phrase)."
            case .clockFace:
                text += ", \(RelativeDirection.clockHour(relativeAngle: relativeAngle)) o'clock."
            }
        } else {
            text += "."
        }
        if let playsLikeDistance {
            text += " Plays like \(Self.wholeUnits(playsLikeDistance, in: unit))."
        }
        switch (frontDistance, backDistance) {
        case (let front?, let back?):
            text += " Front \(Self.wholeUnits(front, in: unit)), back \(Self.wholeUnits(back, in: unit))."
        case (let front?, nil):
            text += " Front \(Self.wholeUnits(front, in: unit))."
        case (nil, let back?):
            text += " Back \(Self.wholeUnits(back, in: unit))."
        case (nil, nil):
            break
        }
        if relativeAngle == nil {
            text += " " + Self.noHeadingPhrase
        }
        return text
    }

    /// The callout spoken on arrival: "Green, arrived."
    public var arrivalCallout: String {
        "\(target.name), arrived."
    }

    /// A distance in metres as a whole number of `unit`, rounded half away from zero.
    static func wholeUnits(_ metres: Double, in unit: DistanceUnit) -> Int {
        let value = unit.value(fromMetres: metres).rounded()
        guard value.isFinite else { return 0 }
        return Int(min(max(value, -1e15), 1e15))
    }
}
