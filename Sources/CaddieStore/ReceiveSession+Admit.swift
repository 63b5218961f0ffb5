import CaddieCore
import CaddieCrypto
import Foundation
import GRDB

/// What an op must pass once its link and signature hold: its clock, its payload, the join, its author's cutoff, and
/// the rules of revocations and removals (OpStore+Receive.swift runs the batch; this is the judgement of one op).
extension ReceiveSession {
    /// The checks every op passes after its link and signature, on a device's log and on a fork branch alike: its
    /// clock, its payload, the join (only as a device's first op, with a valid certificate and proof of the space
    /// key), the author's cutoff, and the rules of revocations and removals. Nil (after refusing it): the op and
    /// the ops after it on its line do not apply. `cutoff`: the author's, once looked up (nil: look it up).
    mutating func admit(
        _ op: SignedOp, author known: PublicKey?, cutoff: inout UInt64?
    ) throws -> (changes: [Change], author: PublicKey?)? {
        // A clock far ahead would win every last-writer-wins comparison for ever: honest devices never stamp one,
        // so it is refused until this device's clock comes within a day of it.
        guard op.hlc <= HLC.ceiling(now: now) else {
            try refuse(
                .invalidOp(
                    op: op.id,
                    reason: "its clock (\(op.hlc.milliseconds) ms) is more than a day ahead of "
                        + "this device's (\(now) ms): check the clock of the device that made it"))
            return nil
        }
        let changes: [Change]
        do {
            changes = try Payload.decode(op.payloadBytes)
        } catch {
            try refuse(.invalidOp(op: op.id, reason: "its payload is malformed: \(error)"))
            return nil
        }
        var author = known
        if op.seq == 1 {
            guard case .join(let join)? = changes.first, changes.count == 1 else {
                try refuse(.invalidOp(op: op.id, reason: "a device's first op must be its join"))
                return nil
            }
            guard
                Membership.verifyCertificate(
                    user: join.user, device: op.device, certifiedAt: join.certifiedAt, signature: join.certificateSignature)
            else {
                try refuse(.invalidOp(op: op.id, reason: "its device certificate does not verify"))
                return nil
            }
            guard
                spaceKeys.contains(where: {
                    Membership.verifyMembershipProof(
                        join.membershipProof, space: space, spaceKey: $0, device: op.device, user: join.user)
                })
            else {
                try refuse(.invalidOp(op: op.id, reason: "its device does not hold the space key (not a member)"))
                return nil
            }
            author = join.user
            cutoff = nil
        } else if author == nil {
            try refuse(.invalidOp(op: op.id, reason: "its device has not joined the space"))
            return nil
        } else if changes.contains(where: { if case .join = $0 { true } else { false } }) {
            try refuse(.invalidOp(op: op.id, reason: "a join may only be a device's first op"))
            return nil
        }
        let last = try cutoff ?? self.cutoff(of: op.device, user: author)
        cutoff = last
        if op.seq > last {
            try refuse(.revoked(op: op.id, lastValidSeq: last))
            return nil
        }
        if let reason = revocationProblem(changes, author: author, op: op) ?? removalProblem(changes, author: author) {
            try refuse(.invalidOp(op: op.id, reason: reason))
            return nil
        }
        if changes.contains(where: {
            switch $0 {
            case .revoke, .remove: true
            default: false
            }
        }) {
            cutoffsChanged = true
        }
        return (changes, author)
    }

    /// Only the space's owner removes (never themselves) and changes the space's key.
    func removalProblem(_ changes: [Change], author: PublicKey?) -> String? {
        for change in changes {
            switch change {
            case .remove(let removal):
                guard let author, Membership.ownedSpaceID(owner: author, salt: removal.ownerSalt) == space else {
                    return "only the space's owner may remove a member"
                }
                if removal.user == author { return "the space's owner cannot remove themselves" }
            case .rotate(let rotation):
                guard let author, Membership.ownedSpaceID(owner: author, salt: rotation.ownerSalt) == space else {
                    return "only the space's owner may change the space's key"
                }
            default:
                continue
            }
        }
        return nil
    }

    func revocationProblem(_ changes: [Change], author: PublicKey?, op: SignedOp) -> String? {
        for case .revoke(let revocation) in changes {
            guard let author else { return "a revocation from a device with no user" }
            if revocation.device == op.device, revocation.lastValidSeq < op.seq {
                return "a device may not revoke itself before the op that carries the revocation"
            }
            let message = Membership.revocationMessage(
                space: space, device: revocation.device,
                lastValidSeq: revocation.lastValidSeq)
            guard Ed25519.verify(revocation.userSignature, message: message, key: author) else {
                return "its revocation is not signed by the device owner's user key"
            }
        }
        return nil
    }
}
