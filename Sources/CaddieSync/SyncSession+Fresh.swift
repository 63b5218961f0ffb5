import CaddieCore
import CaddieCrypto

/// Which devices a received batch shows to be live now (see ``SessionMachine``'s relay rule).
extension SyncSession {
    /// How recent an op's clock must be for its device to count as live now.
    static let freshMilliseconds: UInt64 = 60_000

    /// The devices whose newest applied op in `ops` was made within ``freshMilliseconds`` of `now`.
    static func fresh(_ ops: [[UInt8]], applied: [OpID], now: UInt64) -> Set<PublicKey> {
        var newest: [PublicKey: UInt64] = [:]
        for id in applied where id.seq > newest[id.device, default: 0] { newest[id.device] = id.seq }
        var fresh = Set<PublicKey>()
        for bytes in ops.reversed() where newest.isEmpty == false {
            guard let op = try? SignedOp(bytes: bytes), newest[op.device] == op.seq else { continue }
            newest[op.device] = nil
            let made = op.hlc.milliseconds
            if made <= now ? now - made < freshMilliseconds : made - now < freshMilliseconds { fresh.insert(op.device) }
        }
        return fresh
    }
}
