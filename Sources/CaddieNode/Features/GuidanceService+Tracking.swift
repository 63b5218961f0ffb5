import CaddieCore
import CaddieCrypto
import CaddieServices
import Foundation

/// One recorded position of a player in a game.
public struct TrackMark: Sendable, Equatable {
    /// A shot (where the ball was played from) or a plain position fix.
    public enum Kind: UInt8, Sendable { case fix = 0, shot = 1 }
    /// Where.
    public let point: GeoPoint
    /// When (ms since 1970).
    public let time: UInt64
    /// The hole the player was on.
    public let hole: Int
    /// Shot or fix.
    public let kind: Kind
}

/// A player's round as the marks show it.
public struct PlayerTrack: Sendable {
    /// The player.
    public let player: PlayerRecord
    /// Marks in time order.
    public let marks: [TrackMark]
    /// Metres walked between consecutive marks.
    public let walked: Double
    /// Seconds on each hole: from the first mark on it to the first mark on the next hole played.
    public let secondsPerHole: [Int: Double]
    /// Each shot's length in metres, with its hole: from one shot mark to the next on the same hole.
    public let shots: [(hole: Int, metres: Double)]
    /// Seconds from the first mark to the last.
    public let elapsed: Double
    /// The target time for the holes played, by par (par 3: 11 min, par 4: 14, par 5: 17).
    public let targetSeconds: Double?
}

extension GuidanceService {
    /// Records a position (a shot or a fix) for a player in a game, on the hole they are on. Marks are fields
    /// of the game with unique names, so they merge and sync like every other edit and never overwrite.
    func mark(
        space: SpaceID, keys: UnlockedKeys, game: GameID, player: PlayerID, point: GeoPoint,
        kind: TrackMark.Kind
    ) throws(NodeError) -> TrackMark {
        let current = try currentHole(space: space, game: game, player: player)
        let now = Home.now()
        var writer = ByteWriter(capacity: 26)
        writer.u64(point.latitude.bitPattern)
        writer.u64(point.longitude.bitPattern)
        writer.u64(now)
        writer.u8(UInt8(clamping: current.hole))
        writer.u8(kind.rawValue)
        let key = "track/\(player.hex)/\(Hex.encode(SecureRandom.entityID().bytes))"
        try append(space: space, keys: keys, changes: [.set(game, fields: [key: .bytes(writer.bytes)])])
        return TrackMark(point: point, time: now, hole: current.hole, kind: kind)
    }

    /// Every player's track in a game: distance walked, time per hole, pace against par, shot lengths.
    public func trackSummary(space: SpaceID, game: GameID) throws(NodeError) -> [PlayerTrack] {
        let card = try rounds.card(space: space, game: game)
        let fields = try run { try store.record(space, card.game.id) } ?? [:]
        var marks: [PlayerID: [TrackMark]] = [:]
        for (key, value) in fields where key.hasPrefix("track/") {
            let parts = key.split(separator: "/")
            guard parts.count == 3, let player = PlayerID(hex: String(parts[1])), case .bytes(let bytes) = value,
                bytes.count == 26
            else { continue }
            var reader = ByteReader(bytes)
            guard let lat = try? reader.u64("lat"), let lon = try? reader.u64("lon"), let time = try? reader.u64("time"),
                let hole = try? reader.u8("hole"), let kind = try? reader.u8("kind"),
                let point = try? GeoPoint(latitude: Double(bitPattern: lat), longitude: Double(bitPattern: lon))
            else { continue }
            marks[player, default: []].append(
                TrackMark(
                    point: point, time: time, hole: Int(hole),
                    kind: TrackMark.Kind(rawValue: kind) ?? .fix))
        }
        return card.players.compactMap { player in
            guard let list = marks[player.id]?.sorted(by: { $0.time < $1.time }), !list.isEmpty else { return nil }
            var walked = 0.0
            var perHole: [Int: Double] = [:]
            var shots: [(hole: Int, metres: Double)] = []
            var holeStart: (hole: Int, time: UInt64)?
            var lastShot: TrackMark?
            for (index, mark) in list.enumerated() {
                if index > 0 { walked += Geodesy.distance(from: list[index - 1].point, to: mark.point) }
                if holeStart?.hole != mark.hole {
                    if let start = holeStart { perHole[start.hole] = Double(mark.time - start.time) / 1000 }
                    holeStart = (mark.hole, mark.time)
                }
                if mark.kind == .shot {
                    if let previous = lastShot, previous.hole == mark.hole {
                        shots.append((previous.hole, Geodesy.distance(from: previous.point, to: mark.point)))
                    }
                    lastShot = mark
                }
            }
            let holes = Set(list.map(\.hole))
            let pars = holes.compactMap { card.course?.hole($0)?.par(tee: card.game.tee) }
            let target = pars.count == holes.count ? pars.reduce(0.0) { $0 + Double(5 + 3 * $1) * 60 } : nil
            return PlayerTrack(
                player: player, marks: list, walked: walked, secondsPerHole: perHole, shots: shots,
                elapsed: Double((list.last?.time ?? 0) - (list.first?.time ?? 0)) / 1000,
                targetSeconds: target)
        }
    }

    /// The next hole's tee from where a player stands on a green: what to say on arrival.
    public func nextTee(
        space: SpaceID, course: CourseRecord, after hole: Int, from point: GeoPoint,
        settings: GuidanceSettings
    ) -> String? {
        guard let next = course.hole(hole + 1),
            let tee = next.teePositions.first ?? next.teePositionsByTee.values.first?.first ?? next.line?.points.first,
            let target = Self.geo(tee)
        else { return nil }
        let guidance = Guidance(
            from: GuidanceInput(position: point, headings: []),
            to: GuidanceTarget(name: "Hole \(hole + 1) tee", kind: .tee, point: target), settings: settings)
        let unit = settings.unit == .metres ? "metres" : "yards"
        let amount = Int((settings.unit == .metres ? guidance.distance : guidance.distanceInYards).rounded())
        return "Next: hole \(hole + 1) tee, \(amount) \(unit), bearing \(Int(guidance.bearing.rounded())) degrees."
    }
}
