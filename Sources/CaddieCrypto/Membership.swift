import CaddieCore

/// The signed statements that tie devices to users and users to spaces.
///
/// - A device certificate: the user key signs `caddie-cert-v1 ‖ user ‖ device ‖ certifiedAt`.
/// - A membership proof: HMAC-SHA-512-256 under the space key over `caddie-join-v1 ‖ space ‖ device ‖ user`;
///   only a holder of the space key can make one, and every holder can check it.
/// - A revocation: the user key signs `caddie-revoke-v1 ‖ space ‖ device ‖ lastValidSeq`.
public enum Membership {
    /// The bytes a user signs to certify a device.
    public static func certificateMessage(user: PublicKey, device: PublicKey, certifiedAt: UInt64) -> [UInt8] {
        message("caddie-cert-v1", user.bytes, device.bytes, certifiedAt)
    }

    /// A signed message of the form `tag ‖ first ‖ second ‖ number` (big-endian), the layout of the certificate and
    /// the revocation (Protocol/op-format.md).
    static func message(_ tag: String, _ first: [UInt8], _ second: [UInt8], _ number: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: tag.utf8.count + first.count + second.count + 8)
        writer.raw(Array(tag.utf8))
        writer.raw(first)
        writer.raw(second)
        writer.u64(number)
        return writer.bytes
    }

    /// The user's signature certifying `device`.
    public static func certify(device: PublicKey, by user: SigningKey, at certifiedAt: UInt64) -> [UInt8] {
        user.sign(certificateMessage(user: user.publicKey, device: device, certifiedAt: certifiedAt))
    }

    /// Whether `signature` certifies `device` for `user`.
    public static func verifyCertificate(
        user: PublicKey, device: PublicKey, certifiedAt: UInt64, signature: [UInt8]
    ) -> Bool {
        Ed25519.verify(
            signature, message: certificateMessage(user: user, device: device, certifiedAt: certifiedAt),
            key: user)
    }

    private static func proofMessage(space: SpaceID, device: PublicKey, user: PublicKey) -> [UInt8] {
        Array("caddie-join-v1".utf8) + space.bytes + device.bytes + user.bytes
    }

    /// The proof that the joining device holds `spaceKey`.
    public static func membershipProof(
        space: SpaceID, spaceKey: [UInt8], device: PublicKey, user: PublicKey
    )
        -> [UInt8]
    {
        MessageAuthentication.tag(proofMessage(space: space, device: device, user: user), key: spaceKey)
    }

    /// Whether `proof` was made with `spaceKey`.
    public static func verifyMembershipProof(
        _ proof: [UInt8], space: SpaceID, spaceKey: [UInt8], device: PublicKey, user: PublicKey
    ) -> Bool {
        MessageAuthentication.verify(
            proof, message: proofMessage(space: space, device: device, user: user),
            key: spaceKey)
    }

    /// The bytes a user signs to revoke a device in a space.
    public static func revocationMessage(space: SpaceID, device: PublicKey, lastValidSeq: UInt64) -> [UInt8] {
        message("caddie-revoke-v1", space.bytes, device.bytes, lastValidSeq)
    }

    /// The id of a space owned by `owner`: the first 16 bytes of BLAKE2b-256 keyed with the salt over
    /// `caddie-space-owner-v1 ‖ owner`. Whoever shows a salt that hashes the signer's user key to the space id
    /// owns the space; finding another user key with the same id means a 128-bit second preimage.
    public static func ownedSpaceID(owner: PublicKey, salt: [UInt8]) -> SpaceID {
        SpaceID(unchecked: Array(Blake2b.keyed(salt, [Array("caddie-space-owner-v1".utf8), owner.bytes]).prefix(16)))
    }

    /// The id of a competition created by `owner` (8 bytes, as every record's): the first 8 bytes of BLAKE2b-256
    /// keyed with the salt over `caddie-competition-owner-v1 ‖ owner`. Its record's `owner` and `ownerSalt` prove
    /// who created it on every node; another user key with the same id means a 64-bit second preimage.
    public static func ownedCompetitionID(owner: PublicKey, salt: [UInt8]) -> EntityID {
        EntityID(unchecked: Array(Blake2b.keyed(salt, [Array("caddie-competition-owner-v1".utf8), owner.bytes]).prefix(8)))
    }

    /// The public check of an epoch's key (8 bytes): names the epoch a key belongs to without revealing it.
    public static func keyCheck(_ key: [UInt8]) -> [UInt8] {
        Array(Blake2b.keyed(key, [Array("caddie-epoch-check".utf8)]).prefix(8))
    }
}
