import Foundation

/// The one rounding rule of the Rules of Handicapping: to the nearest tenth or whole number with .5 rounded upwards,
/// towards +infinity, negative numbers included (Rule 5.1 note: -1.55 becomes -1.5; Appendix C: a plus handicap
/// "moves up towards zero including rounding").
///
/// Swift's `.rounded()` rounds half away from zero (-1.55 to -1.6) and is not used. Inputs are tenths of a stroke
/// and whole Slope Ratings, so a true value is either exactly on a .5 boundary or at least 1/3100 away from one;
/// binary floating point can land a boundary value a few ulps low (10.549999999 for 10.55), which the tolerance
/// puts back on the boundary.
enum HandicapRounding {
    /// Values closer than this to a .5 boundary (after scaling) are taken to be on it.
    static let tolerance = 1e-9

    /// Rounds to the nearest tenth, .5 upwards.
    static func toTenth(_ value: Double) -> Double {
        toPlaces(value, 1)
    }

    /// Rounds to `places` decimal places, .5 upwards.
    static func toPlaces(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10.0, Double(places))
        // Adding 0.0 turns -0.0 into 0.0 so that a value like -0.04 prints as 0.0.
        return ((value * scale + 0.5 + tolerance).rounded(.down)) / scale + 0.0
    }

    /// Rounds to the nearest whole number, .5 upwards. Callers pass values already checked to be small.
    static func toWhole(_ value: Double) -> Int {
        let rounded = (value + 0.5 + tolerance).rounded(.down)
        guard rounded.isFinite, abs(rounded) < 1e9 else { return rounded < 0 ? -1_000_000_000 : 1_000_000_000 }
        return Int(rounded)
    }

    /// Whether `value` is at least `threshold`, allowing for floating point error in `value`.
    static func isAtLeast(_ value: Double, _ threshold: Double) -> Bool {
        value >= threshold - tolerance
    }

    /// Whether `value` is more than `threshold`, allowing for floating point error in `value`.
    static func exceeds(_ value: Double, _ threshold: Double) -> Bool {
        value > threshold + tolerance
    }
}
