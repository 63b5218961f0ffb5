import CaddieCore
import CaddieCrypto
import Synchronization

/// Phones that asked to become another device of a user who has Caddie on another phone already (one golfer, one
/// user, without the recovery words at hand): the new phone asks with its device key and shows the code it gets;
/// the user's other phone, given that code, signs the device's certificate with the user key; the new phone takes
/// the certificate and joins as that user's device. The node only carries the certificate: it cannot make one.
/// Kept in memory for ten minutes (a restart forgets them: the new phone asks again), at most 64 at a time.
public final class DeviceRequests: Sendable {
    /// A device's request in one space, and the certificate once a device of its user has signed it.
    public struct Request: Sendable, Equatable {
        public let code: String
        public let space: SpaceID
        public let device: PublicKey
        /// When the code stops working, ms since 1970.
        public let expires: UInt64
        public internal(set) var approval: Approval?
    }

    /// A user's certificate of the asking device, with the name the user's devices joined the space under.
    public struct Approval: Sendable, Equatable {
        public let user: PublicKey
        public let name: String
        public let certifiedAt: UInt64
        public let certificate: [UInt8]

        public init(user: PublicKey, name: String, certifiedAt: UInt64, certificate: [UInt8]) {
            self.user = user
            self.name = name
            self.certifiedAt = certifiedAt
            self.certificate = certificate
        }
    }

    /// What a request for a code could not do.
    public enum Refusal: Error, Equatable {
        /// The code is not 8 letters and digits of the code alphabet.
        case malformed
        /// No open request has that code in that space (never made, or expired).
        case unknown
        /// A device of a user has signed this request already.
        case approved
        /// As many requests are open as the node keeps.
        case full

        /// What went wrong, in words for the person who typed or asked.
        public var words: String {
            switch self {
            case .malformed: "a device code is 8 letters and digits, as the new phone shows it (ABCD-EFGH)"
            case .unknown:
                "no device asks with that code in this space: a code lasts 10 minutes; read the one the new phone shows now"
            case .approved: "a phone of its user has answered that code already"
            case .full: "\(DeviceRequests.limit) devices are waiting to be added at this node: try again in a few minutes"
            }
        }
    }

    public static let lifetimeMilliseconds: UInt64 = 600_000
    public static let limit = 64
    /// 32 letters and digits without the ones read as others (0 and O, 1 and I): 40 bits in 8 of them.
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    private let open = Mutex<[String: Request]>([:])
    /// Told of each approval as it is recorded (the API's live events tell the asking phone), whoever recorded it.
    private let listeners = Mutex<[@Sendable (Request) -> Void]>([])

    public init() {}

    /// Calls `listener` with every request approved from now on, in this process.
    public func onApproval(_ listener: @escaping @Sendable (Request) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// The request of `device` in `space`: its open one, or a new one with a new code.
    public func ask(space: SpaceID, device: PublicKey, now: UInt64) throws(Refusal) -> Request {
        let made: Request? = open.withLock { open in
            open = open.filter { $0.value.expires > now }
            if let known = open.values.first(where: { $0.space == space && $0.device == device && $0.approval == nil }) {
                return known
            }
            guard open.count < Self.limit else { return nil }
            var code: String
            repeat {
                code = String(SecureRandom.bytes(8).map { Self.alphabet[Int($0 & 31)] })
            } while open[code] != nil
            let request = Request(code: code, space: space, device: device, expires: now + Self.lifetimeMilliseconds)
            open[code] = request
            return request
        }
        guard let made else { throw .full }
        return made
    }

    /// The open request a code names in `space`.
    public func read(_ typed: String, space: SpaceID, now: UInt64) throws(Refusal) -> Request {
        let code = try Self.normalized(typed)
        let found = open.withLock { open in open[code].flatMap { $0.space == space && $0.expires > now ? $0 : nil } }
        guard let found else { throw .unknown }
        return found
    }

    /// Records a user's certificate of the device a code names; the first one stands.
    public func approve(_ typed: String, space: SpaceID, approval: Approval, now: UInt64) throws(Refusal) -> Request {
        let code = try Self.normalized(typed)
        let result: Result<Request, Refusal> = open.withLock { open in
            guard var request = open[code], request.space == space, request.expires > now else { return .failure(.unknown) }
            guard request.approval == nil else { return .failure(.approved) }
            request.approval = approval
            open[code] = request
            return .success(request)
        }
        let approved = try result.get()
        for listener in listeners.withLock({ $0 }) { listener(approved) }
        return approved
    }

    /// A code as a person types it ("abcd efgh", "ABCD-EFGH"): capitals, separators left out.
    public static func normalized(_ typed: String) throws(Refusal) -> String {
        let code = String(typed.uppercased().filter { $0 != "-" && $0 != " " })
        guard code.count == 8, code.allSatisfy({ alphabet.contains($0) }) else { throw .malformed }
        return code
    }

    /// A code as a phone shows it: two groups of four.
    public static func shown(_ code: String) -> String { "\(code.prefix(4))-\(code.dropFirst(4))" }
}
