import CaddieCore
import CaddieServices
import Foundation

/// Course search and nearby over generated courses, timed per query.
struct CourseBench {
    let courses: Int
    let queries: Int

    func run() throws -> [(String, Double, String)] {
        var rng = SystemRandomNumberGenerator()
        let syllables = ["ka", "lo", "mer", "ven", "tor", "ri", "zou", "bel", "san", "dor", "hai", "gue", "lin", "wes", "pa"]
        func word() -> String {
            (0..<Int.random(in: 2...3, using: &rng)).map { _ in syllables.randomElement(using: &rng) ?? "ka" }.joined()
                .capitalized
        }
        let summaries = (0..<courses).map { index in
            CourseSummary(
                id: CourseID(unchecked: withUnsafeBytes(of: UInt64(index).bigEndian, Array.init)),
                name: "\(word()) \(["Links", "Golf Club", "Country Club", "Golf"].randomElement(using: &rng) ?? "Golf")",
                club: "\(word()) Golf", city: word(), country: ["BE", "NL", "PT", "US", "GB"].randomElement(using: &rng),
                latitude: Double.random(in: 35...60, using: &rng), longitude: Double.random(in: -10...20, using: &rng))
        }
        var index: CourseSearchIndex?
        let build = Double(measure { index = CourseSearchIndex(summaries) }) / 1e6
        guard let index else { return [] }
        var search: [Double] = []
        var nearby: [Double] = []
        for _ in 0..<queries {
            // A real name with a typo: a letter dropped from its first word.
            var name = summaries.randomElement(using: &rng)?.name ?? "Kalo Links"
            name.remove(at: name.index(name.startIndex, offsetBy: 2))
            search.append(Double(measure { _ = try? index.search(name, limit: 20) }) / 1e6)
            let lat = Double.random(in: 35...60, using: &rng)
            let lon = Double.random(in: -10...20, using: &rng)
            nearby.append(
                Double(
                    measure {
                        _ = try? CourseNearby.nearby(
                            latitude: lat, longitude: lon, in: summaries, radiusKilometres: 25, limit: 20)
                    }) / 1e6)
        }
        search.sort()
        nearby.sort()
        return [
            ("courseIndexBuildMs\(courses)", build, "ms"), ("courseSearchMedianMs", search[search.count / 2], "ms"),
            ("courseNearbyMedianMs", nearby[nearby.count / 2], "ms"),
        ]
    }

    private func measure(_ body: () -> Void) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return DispatchTime.now().uptimeNanoseconds - start
    }
}
