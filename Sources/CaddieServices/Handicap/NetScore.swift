import Foundation

extension Handicap {
    /// One hole scored net of Playing Handicap strokes, with its Stableford points.
    public struct NetHole: Sendable, Equatable {
        /// The hole as entered.
        public let score: HoleScore
        /// The stroke index ranked within the round (1...9 for a 9-hole round).
        public let rankedStrokeIndex: Int
        /// The Playing Handicap strokes received on the hole (negative: given back).
        public let strokesReceived: Int
        /// Gross strokes minus strokes received; nil for a hole with no score.
        public let net: Int?
        /// Stableford points: `max(0, 2 + par - net)`; 0 for a hole with no score (Rules of Golf 21.1).
        public let points: Int

        /// The CLI's output: `{"points": 3}`.
        public var json: String {
            HandicapJSON.object(["points": .int(points)])
        }
    }

    /// A round scored net, hole by hole.
    public struct NetRound: Sendable, Equatable {
        /// Each hole in the order given.
        public let holes: [NetHole]
        /// The gross strokes of the holes with a score.
        public let grossTotal: Int
        /// The net strokes of the holes with a score.
        public let netTotal: Int
        /// The Stableford points of the round.
        public let points: Int
    }

    /// One hole's net score and Stableford points for a Playing Handicap.
    ///
    /// Net par scores 2 points, net birdie 3, net bogey 1, net double bogey or worse 0 (Rules of Golf 21.1).
    /// - Parameters:
    ///   - playingHandicap: the player's Playing Handicap (after the format's allowance).
    ///   - par: the par of the hole.
    ///   - strokeIndex: the hole's stroke index ranked within the round (1...holes).
    ///   - gross: the strokes taken, or nil when the hole has no score.
    ///   - holes: 9 or 18.
    public static func netHole(
        playingHandicap: Int,
        par: Int,
        strokeIndex: Int,
        gross: Int?,
        holes: Int = 18
    ) throws(HandicapError) -> NetHole {
        try validateHolePar(par)
        if let gross, !holeStrokesRange.contains(gross) { throw .holeStrokesOutOfRange(gross) }
        let received = try strokesReceived(handicap: playingHandicap, strokeIndex: strokeIndex, holes: holes)
        let net = gross.map { $0 - received }
        return NetHole(
            score: HoleScore(par: par, strokeIndex: strokeIndex, strokes: gross),
            rankedStrokeIndex: strokeIndex,
            strokesReceived: received,
            net: net,
            points: net.map { max(0, 2 + par - $0) } ?? 0
        )
    }

    /// A 9- or 18-hole round scored net of a Playing Handicap, with Stableford points. For 9 holes the stroke
    /// indexes are ranked within the nine first.
    public static func netRound(holes: [HoleScore], playingHandicap: Int) throws(HandicapError) -> NetRound {
        let ranked = try validatedStrokeIndexes(holes)
        var netHoles: [NetHole] = []
        for (hole, strokeIndex) in zip(holes, ranked) {
            let scored = try netHole(
                playingHandicap: playingHandicap, par: hole.par, strokeIndex: strokeIndex, gross: hole.strokes,
                holes: holes.count
            )
            netHoles.append(
                NetHole(
                    score: hole, rankedStrokeIndex: strokeIndex, strokesReceived: scored.strokesReceived,
                    net: scored.net, points: scored.points
                )
            )
        }
        return NetRound(
            holes: netHoles,
            grossTotal: holes.compactMap(\.strokes).reduce(0, +),
            netTotal: netHoles.compactMap(\.net).reduce(0, +),
            points: netHoles.map(\.points).reduce(0, +)
        )
    }
}
