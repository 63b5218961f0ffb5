#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// Angle helpers shared by the geodesy and guidance code. Angles in the public API are degrees; the maths is in
/// radians.
enum Degrees {
    /// Radians in one degree.
    static let radiansPerDegree = Double.pi / 180

    /// Converts degrees to radians.
    static func toRadians(_ degrees: Double) -> Double {
        degrees * radiansPerDegree
    }

    /// Converts radians to degrees.
    static func fromRadians(_ radians: Double) -> Double {
        radians / radiansPerDegree
    }

    /// The same direction as `degrees`, in `0..<360`. Non-finite input gives 0 so that callers never see NaN.
    static func normalized(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        var result = fmod(degrees, 360)
        if result < 0 { result += 360 }
        // A tiny negative input rounds to exactly 360 after the addition above.
        if result >= 360 { result = 0 }
        return result
    }

    /// The same angle as `degrees`, in `-180...180` with -180 mapped to 180 (so exactly behind is +180).
    static func signed(_ degrees: Double) -> Double {
        let result = normalized(degrees)
        return result > 180 ? result - 360 : result
    }

    /// A longitude in `-180..<180`.
    static func longitude(_ degrees: Double) -> Double {
        let result = normalized(degrees + 180) - 180
        return result
    }

    /// An angle in radians wrapped to `-pi...pi`.
    static func wrappedRadians(_ radians: Double) -> Double {
        guard radians.isFinite else { return 0 }
        var result = fmod(radians, 2 * Double.pi)
        if result > Double.pi {
            result -= 2 * Double.pi
        } else if result < -Double.pi {
            result += 2 * Double.pi
        }
        return result
    }
}
