import CaddieCore
import CaddieServices
import CaddieStore
import Foundation

/// The JSON shapes of Caddie's records, shared by `caddie ... --json` and the HTTP API so that both speak
/// the same document (Protocol/openapi.yaml names each shape).
public enum Views {
    /// `DEVICEHEX:SEQ`, how an op is named everywhere.
    public static func opName(_ op: OpID) -> String { "\(op.device.hex):\(op.seq)" }

    /// The op named `DEVICEHEX:SEQ`, or nil when `name` is not such a name.
    public static func opID(named name: String) -> OpID? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = PublicKey(hex: String(parts[0])),
            parts[1].allSatisfy(\.isASCII), let seq = UInt64(parts[1]), (1...SignedOp.maxSeq).contains(seq)
        else { return nil }
        return OpID(device: device, seq: seq)
    }

    /// An HLC's wall time as ISO 8601 with milliseconds.
    public static func time(_ hlc: HLC) -> String { time(milliseconds: hlc.milliseconds) }

    /// Milliseconds since 1970 as ISO 8601.
    public static func time(milliseconds: UInt64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Text made safe inside HTML, in an element or a quoted attribute: `&`, `<`, `>`, `"` and `'` as entities. The
    /// one escaping of every page the node writes (the printable card, the results, the draw sheet, the trust page).
    public static func escapedHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// One field of a CSV file (RFC 4180): quoted when it holds a comma, a quote or a line break; a text that starts
    /// with `=`, `+`, `-` or `@` and is not a whole number gets a leading `'`, so that a spreadsheet never runs it as
    /// a formula. The one quoting of every CSV the node writes (the card, the results).
    public static func csvField(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first), Int(value) == nil { value = "'" + value }
        return value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }

    /// A calendar day, `YYYY-MM-DD`.
    public static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    // MARK: Identity, spaces, players

    public static func whoami(_ identity: Identity) -> JSON {
        .object([("name", .string(identity.name)), ("user", .string(identity.user)), ("device", .string(identity.device))])
    }

    public static func space(_ space: SpaceSummary) -> JSON {
        .object([
            ("space", .string(space.id.hex)), ("name", .string(space.name)), ("ops", .int(space.ops)),
            ("members", .int(space.members)), ("keyEpoch", .int(Int(space.keyEpoch))),
            ("keyCheck", space.keyCheck.map { .string(Hex.encode($0)) } ?? .null),
        ])
    }

    /// A user of a space (GET .../members).
    public static func member(_ member: SpaceMember) -> JSON {
        .object([
            ("user", .string(member.user.hex)), ("name", .string(member.name)), ("shown", .string(member.shown)),
            ("devices", .int(member.devices)),
        ])
    }

    public static func player(_ player: PlayerRecord) -> JSON {
        .object([
            ("player", .string(player.id.hex)), ("name", .string(player.name)),
            ("user", .optional(player.user?.hex)), ("index", .optional(player.handicapIndex)),
        ])
    }

    // MARK: Courses

    public static func course(_ course: CourseRecord) -> JSON {
        .object([
            ("course", .string(course.id.hex)), ("name", .string(course.name)),
            ("club", .optional(course.club)), ("holes", .int(course.holes.count)),
            ("tees", .array(course.tees.map { .string($0.name) })),
        ])
    }

    public static func searchResult(_ result: CourseSearchResult) -> JSON {
        .object([
            ("course", .string(result.course.id.hex)), ("name", .string(result.course.name)),
            ("club", .optional(result.course.club)), ("city", .optional(result.course.city)),
            ("score", .double(result.score)),
        ])
    }

    public static func nearby(_ result: CourseDistance) -> JSON {
        .object([
            ("course", .string(result.course.id.hex)), ("name", .string(result.course.name)),
            ("km", .double((result.kilometres * 1000).rounded() / 1000)), ("bearing", .double(result.bearing.rounded())),
        ])
    }

    public static func courseCard(_ card: CourseCard) -> JSON {
        .object([
            ("course", .string(card.id.hex)), ("name", .string(card.name)), ("club", .optional(card.club)),
            ("source", .optional(card.source)), ("attribution", .optional(card.attribution)),
            (
                "tees",
                .array(
                    card.tees.map { teeCard in
                        .object([
                            ("tee", .optional(teeCard.tee?.name)), ("rating", .optional(teeCard.tee?.rating)),
                            ("slope", .optional(teeCard.tee?.slope)),
                            (
                                "holes",
                                .array(
                                    teeCard.rows.map {
                                        .object([
                                            ("hole", .int($0.hole)), ("par", .optional($0.par)),
                                            ("strokeIndex", .optional($0.strokeIndex)), ("yards", .optional($0.yards)),
                                        ])
                                    })
                            ),
                            ("par", .optional(teeCard.total.par)), ("yards", .optional(teeCard.total.yards)),
                        ])
                    })
            ),
        ])
    }

    // MARK: Games and cards

    public static func game(_ game: GameRecord) -> JSON {
        .object(
            [
                ("game", .string(game.id.hex)), ("course", .optional(game.course?.hex)),
                ("tee", .string(game.tee)), ("created", .int(Int(game.createdAt))),
                ("finished", .bool(game.finished)), ("markers", markers(game)),
            ] + setup(game))
    }

    /// Who marks whom, by player id, ordered by player.
    public static func markers(_ game: GameRecord) -> JSON {
        .array(
            game.markers.sorted { $0.key < $1.key }.map {
                .object([("player", .string($0.key.hex)), ("marker", .string($0.value.hex))])
            })
    }

    public static func scoreValue(_ value: ScoreValue) -> JSON {
        .object([
            ("op", .string(opName(value.op))), ("strokes", .optional(value.entry.holed)),
            ("pickUp", .bool(value.entry.pickedUp)),
            ("putts", .optional(value.entry.putts)), ("penalties", .optional(value.entry.penalties)),
            ("fairway", .optional(value.entry.fairway?.name)),
            ("gir", value.entry.greenInRegulation.map { .bool($0) } ?? .null),
            ("author", .string(value.author)), ("hlc", .string(value.hlc.description)),
        ])
    }

    public static func net(_ net: NetCard) -> JSON {
        func holes(_ values: [Int: Int]) -> JSON {
            .array(values.sorted { $0.key < $1.key }.map { .object([("hole", .int($0.key)), ("value", .int($0.value))]) })
        }
        return .object([
            ("index", .double(net.indexUsed)), ("indexSource", .string(net.indexSource.rawValue)),
            ("courseHandicap", .int(net.courseHandicap)), ("allowance", .int(net.allowancePercent)),
            ("playingHandicap", .int(net.playingHandicap)), ("net", holes(net.net)),
            ("points", holes(net.points)), ("netTotal", .int(net.netTotal)),
            ("pointsTotal", .int(net.pointsTotal)),
        ])
    }

    public static func card(_ card: Scorecard, net: [PlayerID: NetCard] = [:]) -> JSON {
        let players: [JSON] = card.players.map { player in
            let cells: [JSON] = (1...card.holeCount).compactMap { hole in
                guard let cell = card.cell(player.id, hole), let winner = cell.winner else { return nil }
                return .object([
                    ("hole", .int(hole)), ("strokes", .optional(winner.entry.holed)),
                    ("pickUp", .bool(winner.entry.pickedUp)),
                    ("winner", scoreValue(winner)), ("values", .array(cell.values.map(scoreValue))),
                    ("conflict", .bool(cell.isConflict)),
                ])
            }
            return .object([
                ("player", .string(player.id.hex)), ("name", .string(player.name)), ("user", .optional(player.user?.hex)),
                ("out", .optional(card.total(player.id, holes: 1...min(9, card.holeCount)))),
                ("in", .optional(card.holeCount > 9 ? card.total(player.id, holes: 10...card.holeCount) : nil)),
                ("total", .optional(card.total(player.id, holes: 1...card.holeCount))),
                ("noReturn", .bool(card.pickedUp(player.id, holes: 1...card.holeCount))),
                ("handicap", net[player.id].map(Self.net) ?? .null),
                ("cells", .array(cells)),
                ("locked", card.lock(player.id).map { lock in lockJSON(lock, card: card) } ?? .null),
            ])
        }
        return .object([
            ("game", .string(card.game.id.hex)), ("course", .optional(card.course?.id.hex)),
            ("courseName", .optional(card.course?.name)), ("tee", .string(card.game.tee)),
            ("finished", .bool(card.game.finished)), ("holes", .int(card.holeCount)), ("markers", markers(card.game)),
            ("competition", .optional(card.game.competition?.hex)),
            ("par", .array((1...card.holeCount).map { .optional(card.course?.hole($0)?.par(tee: card.game.tee)) })),
            ("players", .array(players)),
            (
                "conflicts",
                .array(
                    card.conflicts.map { cell in
                        .object([
                            ("player", .string(cell.player.hex)), ("name", .string(card.name(cell.player))),
                            ("hole", .int(cell.hole)), ("values", .array(cell.values.map(scoreValue))),
                        ])
                    })
            ),
            (
                "attestations",
                .array(
                    card.attestations.map {
                        .object([
                            ("player", .string($0.player.hex)), ("marker", .string($0.marker)),
                            ("user", .optional($0.user?.hex)), ("cardHash", .string($0.cardHash.hex)),
                            ("current", .bool(RoundService.cardHash(card, player: $0.player) == $0.cardHash)),
                        ])
                    })
            ),
        ])
    }

    /// A locked card (``CardLock``): who signed it, when, and the entries it refused after.
    static func lockJSON(_ lock: CardLock, card: Scorecard) -> JSON {
        .object([
            ("signedBy", .array(card.signers(lock).map { .string($0) })), ("at", .string(time(lock.at))),
            (
                "refused",
                .array(
                    lock.refused.map { refused in
                        .object([
                            ("hole", .int(refused.hole)), ("op", .string(opName(refused.value.op))),
                            ("author", .string(refused.value.author)), ("time", .string(time(refused.value.hlc))),
                            ("strokes", .int(refused.value.entry.strokes)), ("pickedUp", .bool(refused.value.entry.pickedUp)),
                        ])
                    })
            ),
        ])
    }

    // MARK: Audit

    public static func audit(_ entry: AuditEntry) -> JSON {
        .object([
            ("op", .string(opName(entry.op))), ("time", .string(time(entry.hlc))),
            ("hlc", .string(entry.hlc.description)), ("user", .string(entry.userName)),
            ("device", .string(entry.op.device.hex)), ("change", .string(entry.summary)),
            ("verified", .bool(entry.verified)), ("coveredBy", .optional(entry.coveredBy.map(opName))),
            ("readable", .bool(entry.readable)),
            ("removed", .optional(entry.removed)), ("forkBranch", .bool(entry.forkBranch)),
        ])
    }

    public static func history(_ entry: ScoreHistoryEntry) -> JSON {
        func ids(_ ops: [OpID]) -> JSON { .array(ops.map { .string(opName($0)) }) }
        return .object([
            ("op", .string(opName(entry.value.op))),
            ("time", .string(time(entry.value.hlc))), ("author", .string(entry.value.author)),
            ("strokes", .optional(entry.value.entry.holed)), ("pickUp", .bool(entry.value.entry.pickedUp)),
            ("putts", .optional(entry.value.entry.putts)),
            ("penalties", .optional(entry.value.entry.penalties)),
            ("fairway", .optional(entry.value.entry.fairway?.name)),
            ("gir", entry.value.entry.greenInRegulation.map { .bool($0) } ?? .null),
            ("supersedes", ids(entry.supersedes)),
            ("supersededBy", ids(entry.supersededBy)), ("standing", .bool(entry.supersededBy.isEmpty)),
        ])
    }

    // MARK: Handicap

    public static func handicap(_ record: HandicapService.HandicapRecord) -> JSON {
        let calculation = record.calculation.calculation
        let rounds: [JSON] = record.calculation.rounds.map { round in
            let game = record.game(of: round)
            var fields: [(String, JSON)] = [
                ("game", .optional(game?.game.hex)),
                ("space", .optional(game?.space.hex)),
                ("spaceName", .optional(game?.spaceName)),
                ("player", .optional(game?.player.hex)),
                ("date", .string(Views.day(round.date))),
                ("created", .optional(game.map { Int($0.createdAt) })),
                ("course", .optional(game?.course)),
                ("tee", .optional(game?.tee)),
            ]
            fields += [
                ("holes", .int(round.holes)),
                ("holesPlayed", .int(round.holesPlayed)),
                ("adjustedGrossScore", .int(round.adjustedGrossScore)),
                ("indexWhenPlayed", .optional(round.indexWhenPlayed)),
                ("courseHandicapWhenPlayed", .optional(round.courseHandicapWhenPlayed)),
                ("treatment", .string(round.treatment.rawValue)),
                ("differential", .optional(round.differential?.value)),
            ]
            fields += [
                ("exceptionalReduction", .double(round.exceptionalReductionTriggered)),
                ("reductionCarried", .double(round.exceptionalReductionCarried)),
                ("counts", .bool(round.counts)),
                ("indexAfter", .optional(round.indexAfter)),
                ("notAcceptable", .optional(round.notAcceptableBecause?.description)),
            ]
            return JSON.object(fields)
        }
        let skipped: [JSON] = record.skipped.map {
            .object([
                ("game", .string($0.game.hex)), ("space", .string($0.space.hex)),
                ("spaceName", .string($0.spaceName)), ("created", .int(Int($0.createdAt))),
                ("reason", .string($0.reason)),
            ])
        }
        var fields: [(String, JSON)] = [
            ("player", .string(record.player.id.hex)),
            ("name", .string(record.player.name)),
            ("user", .optional(record.player.user?.hex)),
            ("index", .optional(record.index)),
            ("enteredIndex", .optional(record.player.handicapIndex)),
            ("differentials", .int(calculation.considered.count)),
            ("used", .array(calculation.used.map { .double($0) })),
            ("averageOfUsed", .optional(calculation.averageOfUsed)),
        ]
        fields += [
            ("adjustment", .int(calculation.adjustment)),
            ("cap", .string(calculation.cap.rawValue)),
            ("lowHandicapIndex", .optional(record.calculation.lowHandicapIndex)),
            ("exceptionalScoreReduction", .bool(calculation.exceptionalScoreReductionApplied)),
            ("limitedToMaximum", .bool(calculation.limitedToMaximum)),
            ("expectedScoreModel", .optional(record.calculation.expectedScoreModel)),
            ("rounds", .array(rounds)),
            ("skipped", .array(skipped)),
        ]
        return .object(fields)
    }

    // MARK: Sync

    public static func peer(_ peer: PeerRecord) -> JSON {
        .object([
            ("space", .string(peer.space.hex)), ("device", .string(peer.device.hex)),
            ("user", .string(peer.userName)), ("address", .string(peer.address)),
            ("foundBy", .string(peer.foundBy)), ("lastSeen", .string(time(milliseconds: peer.lastSeen))),
            ("lastSync", .optional(peer.lastSync.map { time(milliseconds: $0) })),
            ("vector", .string(peer.vector)), ("sent", .int(peer.sent)), ("received", .int(peer.received)),
        ])
    }

    // MARK: Guidance

    public static func guidance(_ guidance: Guidance, hole: Int?) -> JSON {
        .object([
            ("hole", .optional(hole)), ("target", .string(guidance.target.name)),
            ("distanceMeters", .double(tenth(guidance.distance))),
            ("distanceYards", .double(tenth(guidance.distanceInYards))),
            ("bearing", .double(tenth(guidance.bearing))),
            ("relativeAngle", .optional(guidance.relativeAngle.map(tenth))),
            ("band", .string("\(guidance.band)")), ("inBounds", guidance.isInBounds.map { .bool($0) } ?? .null),
            ("callout", .string(guidance.callout)),
        ])
    }
}
