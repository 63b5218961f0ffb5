import CaddieCore

/// The checks of one op on its own, written once: the receive pipeline, `caddie verify` and the audit log all
/// use these, so they cannot drift apart.
extension SignedOp {
    /// Whether the op's own signature verifies under its device key (Ed25519 with the op signing context).
    public var signatureVerifies: Bool {
        Ed25519.verify(signature, message: signedPortion, context: Self.signingContext, key: device)
    }

    /// Whether the op's chain link names `previous`, the hash of its device's op before it: the first op of a
    /// device links to 32 zero bytes; a later op with no known predecessor (nil) does not link.
    public func links(to previous: Digest32?) -> Bool {
        seq == 1 ? prev == .zero : previous == prev
    }

    /// One op of a log as ``covers(_:ownFirst:)`` reads it: its id (from where it is stored), the op decoded from its bytes
    /// (nil when they do not decode) and the hash of those bytes.
    public typealias Stored = (id: OpID, op: SignedOp?, hash: Digest32)

    /// Which signature covers each op of a log (Protocol/op-format.md, "Which signature covers an op"): the op's own
    /// when it verifies, or the cover of the next op of its device (seq + 1) when that op links to it hash by hash;
    /// nil when neither does. `log` is ordered by device, then seq; the answer is index for index.
    /// Walked newest first, so an honest log costs one signature check per device (`caddie verify`). With
    /// `ownFirst` every op's own signature is checked first, so an op names itself whenever it can (the audit,
    /// which shows an op covered only by a later one). The receive pipeline applies the same rule to a linked run
    /// (`ReceiveSession.coveredPrefix`).
    public static func covers(_ log: [Stored], ownFirst: Bool = false) -> [OpID?] {
        var covers = [OpID?](repeating: nil, count: log.count)
        var index = log.count
        while index > 0 {
            index -= 1
            let entry = log[index]
            if ownFirst, entry.op?.signatureVerifies == true {
                covers[index] = entry.id
            } else if index + 1 < log.count, let cover = covers[index + 1], case let next = log[index + 1],
                next.id.device == entry.id.device, next.id.seq == entry.id.seq + 1,
                next.op?.links(to: entry.hash) == true
            {
                covers[index] = cover
            } else if !ownFirst, entry.op?.signatureVerifies == true {
                covers[index] = entry.id
            }
        }
        return covers
    }
}
