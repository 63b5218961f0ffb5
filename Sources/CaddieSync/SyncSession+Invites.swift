import CaddieCore
import CaddieWire
import Foundation
import NIOCore

/// A session opened with an invite's key: one welcome (or the reason it was refused), then the end.
extension SyncSession {
    /// The redeeming side: the inviting device's one message, a welcome or the reason it refused.
    mutating func awaitWelcome(
        _ events: inout AsyncStream<Event>.Iterator, _ budget: FrameBudget
    )
        async throws -> Welcome
    {
        guard let frame = try await nextFrame(&events, budget) else { throw SyncError.closedEarly }
        guard var cipher = session?.cipher else { throw WireError.unexpected("no session") }
        let plain = try cipher.open(frame)
        session?.cipher = cipher
        switch try WireMessage(decoding: plain) {
        case .welcome(let key, let name, let earlier): return Welcome(spaceKey: key, name: name, earlierKeys: earlier)
        case .close(_, let text): throw SyncError.refused(text)
        default: throw WireError.unexpected("the inviting device sent something other than its welcome")
        }
    }

    /// The inviting side: a session opened with an invite's key may redeem that invite and nothing else. A revoked
    /// device is refused as on any session; the invite itself is checked (used, expired, revoked) and its use
    /// recorded in one transaction before the space key leaves this device.
    mutating func redeem(
        _ invite: [UInt8], _ established: EstablishedSession,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        if let refusal = try await node.refusal(of: established.peer, in: established.space) {
            try await send(.close(.revoked, refusal), outbound)
            throw SyncError.refused(refusal)
        }
        do {
            let welcome = try await node.redeem(invite, space: established.space, peer: established.peer)
            try await send(.welcome(spaceKey: welcome.spaceKey, name: welcome.name, earlierKeys: welcome.earlierKeys), outbound)
            logger.info("invite redeemed", metadata: ["invite": "\(Hex.encode(invite))"])
        } catch SyncError.refused(let text) {
            try await send(.close(.inviteRefused, text), outbound)
            logger.info("invite refused", metadata: ["invite": "\(Hex.encode(invite))", "reason": "\(text)"])
            throw SyncError.refused(text)
        }
    }
}
