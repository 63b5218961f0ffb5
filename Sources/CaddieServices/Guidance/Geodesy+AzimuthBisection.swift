#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

extension Geodesy {
    /// The inverse problem solved by bisection on the starting azimuth; used when Vincenty's iteration fails, which
    /// happens for nearly antipodal points.
    ///
    /// The points are first put in Karney's canonical arrangement (2013, section 4): swap them so that
    /// |phi1| >= |phi2|, mirror the latitudes so that phi1 <= 0, and mirror the longitudes so that the longitude
    /// difference is in 0...pi. The shortest geodesic then arrives with cos(alpha2) >= 0, and the longitude it
    /// reaches at the second latitude grows monotonically as the starting azimuth goes from 0 to pi, so halving
    /// that interval always closes in on the answer. Each trial azimuth is evaluated with Vincenty's closed forms
    /// for the longitude and the arc length. The transformations are then undone on the azimuths.
    static func bisectionInverse(_ problem: InverseProblem) -> GeodesicSolution? {
        let (a, f, b) = problem.axes

        var phi1 = problem.latitude1
        var phi2 = problem.latitude2
        var target = problem.longitudeDifference
        let swapped = abs(phi1) < abs(phi2)
        if swapped {
            swap(&phi1, &phi2)
            target = -target
        }
        let latitudesMirrored = phi1 > 0
        if latitudesMirrored {
            phi1 = -phi1
            phi2 = -phi2
        }
        let longitudesMirrored = target < 0
        if longitudesMirrored {
            target = -target
        }

        let (sinBeta1, cosBeta1) = reducedLatitude(phi1, flattening: f)
        let (sinBeta2, cosBeta2) = reducedLatitude(phi2, flattening: f)
        // Both points at a pole: Vincenty's iteration always converges there, so this path is never needed.
        guard cosBeta2 > 0 else { return nil }

        let onEquator = sinBeta1 == 0 && sinBeta2 == 0
        var alpha1: Double
        var alpha2: Double
        var distance: Double
        if onEquator && target <= (1 - f) * Double.pi {
            // Along the equator, which is the shortest path up to (1 - f) pi of longitude.
            alpha1 = Double.pi / 2
            alpha2 = Double.pi / 2
            distance = a * target
        } else {
            let trial = AzimuthTrial(
                sinBeta1: sinBeta1,
                cosBeta1: cosBeta1,
                sinBeta2: sinBeta2,
                cosBeta2: cosBeta2,
                flattening: f,
                crossesEquatorFromEquator: onEquator
            )
            // Past (1 - f) pi two points on the equator are joined over a pole: start north (azimuth 0...pi/2)
            // and arrive heading south; there the longitude reached falls as the azimuth grows.
            var low = 0.0
            var high = onEquator ? Double.pi / 2 : Double.pi
            for _ in 0..<maximumBisectionSteps {
                let middle = (low + high) / 2
                guard middle > low, middle < high else { break }
                let reached = trial.longitude(alpha1: middle)
                let tooWest = onEquator ? reached > target : reached < target
                if tooWest {
                    low = middle
                } else {
                    high = middle
                }
            }
            alpha1 = (low + high) / 2
            let result = trial.evaluate(alpha1: alpha1)
            alpha2 = atan2(result.sinAlpha2, result.cosAlpha2)
            let (bigA, bigB) = seriesCoefficients(cosSqAlpha: result.cosSqAlpha0, a: a, b: b)
            let sigma12 = result.sigma2 - result.sigma1
            let cos2SigmaM = cos(result.sigma1 + result.sigma2)
            distance =
                b * bigA
                * (sigma12
                    - deltaSigma(bigB: bigB, sinSigma: sin(sigma12), cosSigma: cos(sigma12), cos2SigmaM: cos2SigmaM))
        }

        if longitudesMirrored {
            alpha1 = -alpha1
            alpha2 = -alpha2
        }
        if latitudesMirrored {
            alpha1 = Double.pi - alpha1
            alpha2 = Double.pi - alpha2
        }
        if swapped {
            (alpha1, alpha2) = (alpha2 + Double.pi, alpha1 + Double.pi)
        }
        guard distance.isFinite, distance >= 0, alpha1.isFinite, alpha2.isFinite else { return nil }
        return GeodesicSolution(
            distance: distance,
            initialBearing: Degrees.fromRadians(alpha1),
            finalBearing: Degrees.fromRadians(alpha2)
        )
    }
}

/// One trial starting azimuth of the bisection: where the geodesic from the first (canonical) point meets the
/// second point's latitude, in auxiliary-sphere terms (Karney 2013, equations 5 to 12 and 45).
private struct AzimuthTrial {
    let sinBeta1: Double
    let cosBeta1: Double
    let sinBeta2: Double
    let cosBeta2: Double
    let flattening: Double
    /// Both points on the equator and the path leaves it: arrive heading south (cos alpha2 <= 0).
    let crossesEquatorFromEquator: Bool

    struct Result {
        var sigma1: Double
        var sigma2: Double
        var omega1: Double
        var omega2: Double
        var sinAlpha0: Double
        var cosSqAlpha0: Double
        var sinAlpha2: Double
        var cosAlpha2: Double
    }

    func evaluate(alpha1: Double) -> Result {
        let sinAlpha1 = sin(alpha1)
        let cosAlpha1 = cos(alpha1)
        let sinAlpha0 = sinAlpha1 * cosBeta1
        let cosSqAlpha0 = cosAlpha1 * cosAlpha1 + sinAlpha1 * sinAlpha1 * sinBeta1 * sinBeta1
        // cos^2(alpha2) cos^2(beta2) = cos^2(alpha1) cos^2(beta1) + cos^2(beta2) - cos^2(beta1), with the last
        // difference written the way that keeps its precision.
        let difference =
            cosBeta1 < -sinBeta1
            ? (cosBeta2 - cosBeta1) * (cosBeta1 + cosBeta2)
            : (sinBeta1 - sinBeta2) * (sinBeta1 + sinBeta2)
        let magnitude = max(0, cosAlpha1 * cosBeta1 * cosAlpha1 * cosBeta1 + difference).squareRoot() / cosBeta2
        let cosAlpha2 = crossesEquatorFromEquator ? -magnitude : magnitude
        let sinAlpha2 = sinAlpha0 / cosBeta2
        let sigma1 = atan2(sinBeta1, cosAlpha1 * cosBeta1)
        let sigma2 = atan2(sinBeta2, cosAlpha2 * cosBeta2)
        let omega1 = atan2(sinAlpha0 * sinBeta1, cosAlpha1 * cosBeta1)
        let omega2 = atan2(sinAlpha0 * sinBeta2, cosAlpha2 * cosBeta2)
        return Result(
            sigma1: sigma1,
            sigma2: sigma2,
            omega1: omega1,
            omega2: omega2,
            sinAlpha0: sinAlpha0,
            cosSqAlpha0: cosSqAlpha0,
            sinAlpha2: sinAlpha2,
            cosAlpha2: cosAlpha2
        )
    }

    /// The ellipsoidal longitude difference reached: the auxiliary-sphere longitude omega12 less Vincenty's
    /// correction (his equation 11 solved for L).
    func longitude(alpha1: Double) -> Double {
        let result = evaluate(alpha1: alpha1)
        let f = flattening
        let sigma = result.sigma2 - result.sigma1
        let sinSigma = sin(sigma)
        let cosSigma = cos(sigma)
        let cos2SigmaM = cos(result.sigma1 + result.sigma2)
        let c = f / 16 * result.cosSqAlpha0 * (4 + f * (4 - 3 * result.cosSqAlpha0))
        let omega12 = result.omega2 - result.omega1
        return omega12 - (1 - c) * f * result.sinAlpha0
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
    }
}
