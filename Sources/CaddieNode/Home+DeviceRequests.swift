import CaddieCore
import CaddieCrypto

/// Another device of an existing user, by a code (``DeviceRequests``): the checks both the API (a phone of the user
/// answers) and `caddie device approve` (the user's laptop answers, through the running node) make.
extension Home {
    /// The open request a code names in `space`.
    public func deviceRequest(space: SpaceID, code: String) throws(NodeError) -> DeviceRequests.Request {
        try Self.answering { () throws(DeviceRequests.Refusal) in try deviceRequests.read(code, space: space, now: Home.now()) }
    }

    /// Records `user`'s certificate of the device a code names: it must verify, and the user must have a device in
    /// the space. The node only carries it to the asking phone, which checks it again and joins as that user's device.
    public func approveDeviceRequest(
        space: SpaceID, code: String, user: PublicKey, certifiedAt: UInt64, certificate: [UInt8]
    ) throws(NodeError) -> DeviceRequests.Request {
        let asked = try deviceRequest(space: space, code: code)
        guard Membership.verifyCertificate(user: user, device: asked.device, certifiedAt: certifiedAt, signature: certificate)
        else {
            throw .invalid(
                "'certificate' does not verify: it must be the user key's Ed25519 signature over caddie-cert-v1, the user "
                    + "key, the asking device's key and 'certifiedAt' (Protocol/op-format.md)")
        }
        guard let name = try rounds.memberName(space: space, user: user) else {
            throw .refused("user \(user.short) has no device in this space: only a member's phone adds a device of theirs")
        }
        return try Self.answering { () throws(DeviceRequests.Refusal) in
            try deviceRequests.approve(
                code, space: space,
                approval: .init(user: user, name: name, certifiedAt: certifiedAt, certificate: certificate), now: Home.now())
        }
    }

    /// A step of ``DeviceRequests``, its refusal in words (a full table is the asking side's, see the API).
    static func answering<T>(_ step: () throws(DeviceRequests.Refusal) -> T) throws(NodeError) -> T {
        do { return try step() } catch {
            switch error {
            case .malformed: throw .invalid(error.words)
            case .unknown: throw .notFound(error.words)
            case .approved, .full: throw .conflict(error.words)
            }
        }
    }
}
