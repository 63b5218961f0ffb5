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
}
