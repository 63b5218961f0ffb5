import CaddieCore

/// What went wrong in the store, in words a user can act on. Whenever one is thrown the store is unchanged.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// This home has no such space.
    case unknownSpace(String)
    /// An op belongs to another space than the one being imported.
    case wrongSpace(op: OpID, expected: SpaceID, found: SpaceID)
    /// An op failed a check; the reason names the check.
    case invalidOp(op: OpID, reason: String)
    /// Bytes that should be an op do not decode.
    case malformedOp(index: Int, reason: String)
    /// Ops of a device are missing between what is held and what was offered.
    case missingOps(device: PublicKey, from: UInt64, to: UInt64)
    /// An op was signed by a device after its revocation.
    case revoked(op: OpID, lastValidSeq: UInt64)
    /// This device may not sign in the space (it was revoked, or its log forked and none of its branches is
    /// held); the text says why and what to do.
    case cannotSign(String)
    /// A record that a command names does not exist.
    case notFound(String)
    /// The file system is full.
    case diskFull(String)
    /// The database failed in another way.
    case database(String)
    /// Another process is the database's one writer (``OpStore/claimWrites()``); the text says what to do.
    case otherWriter(String)

    /// One line for a person: what is wrong and what to do.
    public var description: String {
        switch self {
        case .unknownSpace(let space):
            "this home has no space \(space): join it with `caddie space join INVITE` first"
        case .wrongSpace(let op, let expected, let found):
            "op \(op) belongs to space \(found.short), not \(expected.short): import it into the home that holds that space"
        case .invalidOp(let op, let reason):
            "op \(op) is invalid: \(reason); nothing was imported"
        case .malformedOp(let index, let reason):
            "op #\(index + 1) is malformed: \(reason); nothing was imported"
        case .missingOps(let device, let from, let to):
            "ops \(from)...\(to) of device \(device.short) are missing: export again from a home that has them "
                + "(without --since, or with this home's `caddie vector`)"
        case .revoked(let op, let last):
            "op \(op) was signed by a device that its user revoked, or that the space's owner removed with its user, "
                + "after its op \(last): nothing was imported"
        case .cannotSign(let text): "this device cannot sign in this space: \(text); nothing was changed"
        case .notFound(let text): text
        case .diskFull(let text):
            "disk full: \(text); free some space and try again (nothing was changed)"
        case .database(let text): "database error: \(text)"
        case .otherWriter(let text): text
        }
    }
}
