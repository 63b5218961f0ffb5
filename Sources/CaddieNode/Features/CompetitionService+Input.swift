import CaddieServices
import Foundation

/// The committee's choices as a person types them, read in one place for the CLI (`caddie competition new`,
/// `draw`, `mark`) and the HTTP API (`POST .../competitions`, `.../draw`, `.../marks`): each refusal names the
/// option or field that was wrong and what to give instead.
extension CompetitionService {
    /// A competition's settings from their typed words.
    public static func settings(
        scoring: String, countback: String, allowance: Int, divisions: [Int], twosByDivision: Bool
    ) throws(NodeError) -> Competition.Settings {
        guard let chosenScoring = Competition.Scoring(rawValue: scoring.lowercased()) else {
            throw .badInput(
                .scoring, "'\(scoring)' is not a scoring: give net, gross or stableford")
        }
        guard let chosenCountback = Competition.Countback(rawValue: countback.lowercased()) else {
            throw .badInput(
                .countback,
                "'\(countback)' is not a countback policy: give "
                    + Competition.Countback.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return Competition.Settings(
            scoring: chosenScoring, countback: chosenCountback, allowance: allowance, divisions: divisions,
            twosByDivision: twosByDivision)
    }

    /// The committee's mark from its word: `nr`, `dq`, or `clear` (nil).
    public static func mark(_ word: String) throws(NodeError) -> Competition.Status? {
        switch word.lowercased() {
        case "nr": return .noReturn
        case "dq": return .disqualified
        case "clear": return nil
        default:
            throw .badInput(.mark, "'\(word)' is not a mark: give nr, dq or clear")
        }
    }

    /// How a draw starts, and whether its groups are shuffled, from the typed words: tee times from `first`
    /// ("08:00") every `interval` minutes (from the 1st and the 10th with `twoTees`), or a shotgun; `order` is
    /// `random` or `entry` (the list's order).
    public static func drawStart(
        first: String, interval: Int, twoTees: Bool, shotgun: Bool, order: String
    ) throws(NodeError) -> (start: Draw.Start, shuffled: Bool) {
        guard ["random", "entry"].contains(order) else {
            throw .badInput(.order, "'\(order)' is not an order: give random or entry")
        }
        if shotgun {
            guard !twoTees else {
                throw .badInput(.twoTees, "cannot go with a shotgun: choose one")
            }
            return (.shotgun, order == "random")
        }
        guard let minutes = Draw.minutes(first) else {
            throw .badInput(.first, "'\(first)' is not a time: write it like 08:10")
        }
        return (.teeTimes(first: minutes, interval: interval, twoTees: twoTees), order == "random")
    }
}
