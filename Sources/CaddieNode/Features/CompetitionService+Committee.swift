import CaddieCore
import Foundation

/// A competition's committee: the user who created it and the members they name to it (docs/competitions.md, "The
/// committee"), and the check of the committee's commands.
extension CompetitionService {
    /// Refuses a committee's command (the list, the draw, the groups, a mark, the close) from anyone but the user
    /// who created the competition and the members they named to its committee. This is this node's check of its own commands, as for a finished game: a node
    /// does not refuse such a change from a peer, and the audit names whoever made one.
    func requireCommittee(_ record: CompetitionRecord, space: SpaceID) throws(NodeError) {
        let creator = try self.creator(of: record, space: space)
        let me = try identity().userKey
        guard let creator, creator != me, !(me.map(record.committee.contains) ?? false) else { return }
        let name = (try? run { try store.members(space) })?.first { $0.user == creator }?.displayName ?? "the user who created it"
        throw .refused(
            "only \(name), who created \(record.name), and the members they name to its committee run its committee's "
                + "commands (the entry list, the draw, the groups and their markers, NR and DQ, corrections, the close): ask them, or run it "
                + "on their device")
    }

    /// The user who created a competition: the one its id names, or for a competition an earlier version made, the
    /// writer of its `created` field.
    func creator(of record: CompetitionRecord, space: SpaceID) throws(NodeError) -> PublicKey? {
        if let owner = record.owner { return owner }
        return try run { try store.fieldWriter(space, kind: .competition, id: record.id.entity, field: "created") }
    }

    /// The member `text` names: their name (any case) or the start of their user key (4 hex digits or more).
    public func resolveMember(_ space: SpaceID, _ text: String) throws(NodeError) -> SpaceMember {
        let lowered = text.lowercased()
        let found = try rounds.members(space: space).filter {
            $0.name.caseInsensitiveCompare(text) == .orderedSame || $0.shown.caseInsensitiveCompare(text) == .orderedSame
                || (lowered.count >= 4 && $0.user.hex.hasPrefix(lowered))
        }
        guard found.count == 1 else {
            if found.isEmpty {
                throw .notFound("no member of this space is called '\(text)' (a name, or the start of a user key)")
            }
            throw .ambiguous(
                "'\(text)' names \(found.count) members (\(found.map(\.shown).joined(separator: ", "))): give the start of "
                    + "their user key")
        }
        return found[0]
    }

    /// The creator names a member of the space to the competition's committee, or takes them off (`on` false): they
    /// then run its committee's commands, and their corrections count on a locked card. One op.
    func setCommittee(
        space: SpaceID, keys: UnlockedKeys, competition: CompetitionID, user: PublicKey, on: Bool
    ) throws(NodeError) -> OpID {
        let record = try self.competition(space, competition)
        let creator = try self.creator(of: record, space: space)
        let members = try rounds.members(space: space)
        let name = members.first { $0.user == user }?.shown ?? user.short
        guard let creator, creator == (try identity().userKey) else {
            let who = members.first { $0.user == creator }?.shown ?? "the user who created it"
            throw .refused("only \(who), who created \(record.name), names its committee: ask them")
        }
        guard user != creator else {
            throw .conflict("\(name) created \(record.name): they are its committee already, and stay on it")
        }
        guard !on || members.contains(where: { $0.user == user }) else {
            throw .badInput(.user, "\(user.short) is not a member of this space: name a member (see `caddie space members`)")
        }
        guard record.committee.contains(user) != on else {
            throw .conflict("\(name) is \(on ? "on" : "not on") the committee of \(record.name) already")
        }
        return try append(
            space: space, keys: keys,
            changes: [.set(competition, fields: [CompetitionRecord.committeeField(user): .bytes(on ? user.bytes : [])])]
        ).id
    }
}
