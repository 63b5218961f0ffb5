import Foundation

extension Handicap {
    /// One hole of an adjusted gross score.
    public struct AdjustedHole: Sendable, Equatable {
        /// The hole as entered.
        public let score: HoleScore
        /// The hole's stroke index ranked within the round (1...9 for a 9-hole round).
        public let rankedStrokeIndex: Int
        /// The maximum hole score that applied.
        public let maximum: MaximumHoleScore
        /// The score counted for handicap: the lower of the strokes and the maximum (the maximum for a pick-up); net
        /// par for a hole not played
        /// when net par was asked for; nil for a hole not played otherwise.
        public let adjusted: Int?
        /// Whether `adjusted` is a net par standing in for a hole not played (Rule 3.2, when authorised).
        public let isNetPar: Bool
    }

    /// A round's adjusted gross score (Rule 3.1) with each hole's adjustment.
    public struct AdjustedGrossScore: Sendable, Equatable {
        /// Each hole in the order given.
        public let holes: [AdjustedHole]
        /// The sum of the adjusted hole scores, net pars included.
        public let total: Int
        /// How many holes were played.
        public let holesPlayed: Int
        /// How many holes were not played and have no score in `total`.
        public var holesWithoutScore: Int { holes.count(where: { $0.adjusted == nil }) }
        /// How many strokes the adjustment took off the gross score.
        public let strokesRemoved: Int
    }

    /// The adjusted gross score of a 9- or 18-hole round (Rule 3.1): each hole counts at most its maximum hole score.
    /// - Parameters:
    ///   - holes: the round's holes in playing order, 9 or 18.
    ///   - courseHandicap: the player's full Course Handicap for these holes (9-hole for 9 holes); nil for a player
    ///     without a Handicap Index, whose holes are capped at par + 5.
    ///   - netParForHolesNotPlayed: record net par (par + strokes received) for holes not played; the Rules allow it
    ///     only where the Authorized Association approves it, the expected score being the default (Rule 3.2).
    public static func adjustedGrossScore(
        holes: [HoleScore],
        courseHandicap: Int?,
        netParForHolesNotPlayed: Bool = false
    ) throws(HandicapError) -> AdjustedGrossScore {
        let ranked = try validatedStrokeIndexes(holes)
        if netParForHolesNotPlayed, courseHandicap == nil, holes.contains(where: { !$0.played }) {
            throw .netParWithoutCourseHandicap
        }
        var adjustedHoles: [AdjustedHole] = []
        var total = 0
        var removed = 0
        for (hole, strokeIndex) in zip(holes, ranked) {
            let maximum = try maximumHoleScore(
                courseHandicap: courseHandicap, par: hole.par, strokeIndex: strokeIndex, holes: holes.count
            )
            var adjusted: Int? = nil
            var isNetPar = false
            if let strokes = hole.strokes {
                adjusted = min(strokes, maximum.value)
                removed += strokes - min(strokes, maximum.value)
            } else if hole.pickedUp {
                adjusted = maximum.value
            } else if netParForHolesNotPlayed, let received = maximum.strokesReceived {
                adjusted = hole.par + received
                isNetPar = true
            }
            total += adjusted ?? 0
            adjustedHoles.append(
                AdjustedHole(
                    score: hole, rankedStrokeIndex: strokeIndex, maximum: maximum, adjusted: adjusted,
                    isNetPar: isNetPar
                )
            )
        }
        return AdjustedGrossScore(
            holes: adjustedHoles,
            total: total,
            holesPlayed: holes.count(where: \.played),
            strokesRemoved: removed
        )
    }
}
