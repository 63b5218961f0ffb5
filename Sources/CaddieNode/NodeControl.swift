import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation
import Logging
import Synchronization

/// What a command hands the running node over its control socket (``ControlSocket``): this device's new ops in
/// one space, as changes the node signs and appends in one transaction. The node is then the home's one writer
/// of ops, and tells its sessions and live events of them the moment they commit.
///
/// Request: `"CTL1"` ‖ device key (32) ‖ space (16) ‖ edit count (`u16`, at least 1) ‖ per edit: pred count
/// (`u16`, at most ``SignedOp/maxPred``) ‖ preds (device 32 ‖ seq `u64` in 1...``SignedOp/maxSeq`` each, as in an
/// op) ‖ payload length (`u32`) ‖ payload (Protocol/op-format.md).
/// Reply: `0` ‖ op count (`u16`) ‖ per op: length (`u32`) ‖ the signed op; or `1` ‖ UTF-8 text of the error.
public struct ControlRequest: Equatable, Sendable {
    static let magic: [UInt8] = Array("CTL1".utf8)

    /// The device the command acts as: the node refuses a request for another device.
    public let device: PublicKey
    /// The space.
    public let space: SpaceID
    /// The new ops: each its changes and the ops it supersedes.
    public let edits: [Edit]

    public struct Edit: Equatable, Sendable {
        public let changes: [Change]
        public let pred: [OpID]

        public init(changes: [Change], pred: [OpID] = []) {
            self.changes = changes
            self.pred = pred
        }
    }

    public var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.raw(Self.magic)
        writer.raw(device.bytes)
        writer.raw(space.bytes)
        writer.u16(UInt16(clamping: edits.count))
        for edit in edits {
            writer.opIDs(edit.pred)
            let payload = Payload.encode(edit.changes)
            writer.u32(UInt32(clamping: payload.count))
            writer.raw(payload)
        }
        return writer.bytes
    }

    public init(device: PublicKey, space: SpaceID, edits: [Edit]) {
        self.device = device
        self.space = space
        self.edits = edits
    }

    /// Decodes a request; the error says what was wrong with it.
    public init(decoding bytes: [UInt8]) throws(DecodeError) {
        var reader = ByteReader(bytes)
        guard try reader.raw(4, "control request magic") == Self.magic else {
            throw DecodeError(what: "control request", reason: "does not start with CTL1")
        }
        device = PublicKey(unchecked: try reader.raw(32, "device"))
        space = SpaceID(unchecked: try reader.raw(16, "space"))
        let count = Int(try reader.u16("edit count"))
        guard count >= 1 else { throw DecodeError(what: "control request", reason: "holds no edit") }
        var edits: [Edit] = []
        for _ in 0..<count {
            let pred = try reader.opIDs("pred", limit: SignedOp.maxPred)
            let length = Int(try reader.u32("payload length"))
            edits.append(Edit(changes: try Payload.decode(try reader.raw(length, "payload")), pred: pred))
        }
        try reader.expectEnd("control request")
        self.edits = edits
    }

    static func reply(_ result: Result<[SignedOp], NodeError>) -> [UInt8] {
        var writer = ByteWriter()
        switch result {
        case .success(let ops):
            writer.u8(0)
            writer.u16(UInt16(clamping: ops.count))
            for op in ops {
                writer.u32(UInt32(clamping: op.bytes.count))
                writer.raw(op.bytes)
            }
        case .failure(let error):
            writer.u8(1)
            writer.raw(Array(error.description.utf8))
        }
        return writer.bytes
    }

    static func ops(fromReply bytes: [UInt8]) throws(NodeError) -> [SignedOp] {
        var reader = ByteReader(bytes)
        do {
            switch try reader.u8("reply status") {
            case 0:
                let count = Int(try reader.u16("op count"))
                return try (0..<count).map { _ throws in
                    let length = Int(try reader.u32("op length"))
                    return try SignedOp(bytes: try reader.raw(length, "op"))
                }
            case 1:
                // The node refused the edits; this reply carries its text, not its kind.
                throw NodeError.conflict(String(decoding: try reader.raw(reader.remaining, "error"), as: UTF8.self))
            default:
                throw NodeError.malformed(
                    what: "reply", "the running node sent a reply this version does not read: update caddie")
            }
        } catch let error as NodeError {
            throw error
        } catch {
            throw .malformed(
                what: "reply",
                "the running node's reply was damaged (\(error)): check with `caddie card` before trying again")
        }
    }
}

extension Home {
    /// The control socket's path in this home.
    public var controlSocketPath: String { directory.appendingPathComponent(ControlSocket.fileName).path }

    /// Appends this device's new ops in one transaction: through the node running on this home when there is
    /// one (it signs them and tells its peers at once), else here, joining the space first if this device has not.
    func appendEdits(space: SpaceID, keys: UnlockedKeys, edits: [ControlRequest.Edit]) throws(NodeError) -> [SignedOp] {
        if !servesWrites.withLock({ $0 }) {
            let request = ControlRequest(device: keys.device.publicKey, space: space, edits: edits)
            let reply: [UInt8]?
            do {
                reply = try ControlSocket.request(path: controlSocketPath, request.encoded)
            } catch {
                // The node took the request and did not answer (ControlSocket.Failure.noAnswer).
                throw .unreachable("\(error)")
            }
            if let reply { return try ControlRequest.ops(fromReply: reply) }
        }
        try ensureJoined(space, keys: keys)
        do {
            return try store.appendBatch(
                space: space, signer: keys.device, edits: edits.map { ($0.changes, $0.pred) },
                now: Self.now())
        } catch {
            throw .store(error)
        }
    }

    /// Makes this home's node the one writer of its ops: from now on its own appends never go through the
    /// socket, and `serveControl` answers those of commands.
    public func takeWrites() { servesWrites.withLock { $0 = true } }

    /// Answers commands' writes on the control socket until cancelled. Each commit reaches the node's sessions and
    /// live events through the store's observers, as every write of this process does.
    public func serveControl(keys: UnlockedKeys, logger: Logger, ready: @Sendable () -> Void = {}) async throws {
        takeWrites()
        try await ControlSocket.serve(path: controlSocketPath, logger: logger, ready: ready) { [self] bytes in
            if bytes.starts(with: NodeCommand.magic) {
                return await runCommand(bytes, keys: keys, logger: logger)
            }
            let result: Result<[SignedOp], NodeError>
            do {
                let request = try ControlRequest(decoding: bytes)
                guard request.device == keys.device.publicKey else {
                    throw NodeError.conflict(
                        "the running node is device \(keys.device.publicKey.short), not "
                            + "\(request.device.short): this home's identity changed; restart `caddie serve`")
                }
                let ops = try await Task.detached {
                    try self.appendEdits(space: request.space, keys: keys, edits: request.edits)
                }.value
                logger.info(
                    "wrote for a command",
                    metadata: [
                        "space": "\(request.space.short)", "ops": "\(ops.count)",
                        "first": "\(ops.first.map { "\($0.id)" } ?? "")",
                    ])
                result = .success(ops)
            } catch let error as NodeError {
                result = .failure(error)
            } catch let error as DecodeError {
                result = .failure(.malformed(what: "request", "the command's request was damaged: \(error)"))
            } catch {
                result = .failure(.wrap(error))
            }
            return ControlRequest.reply(result)
        }
    }

    /// Runs a command a CLI process sent (``NodeCommand``) with the node's own keys: its checks and its append here.
    func runCommand(_ bytes: [UInt8], keys: UnlockedKeys, logger: Logger) async -> [UInt8] {
        let result: Result<NodeCommandResult, NodeError>
        do {
            let (command, device) = try NodeCommand.decode(bytes)
            guard device == keys.device.publicKey else {
                throw NodeError.conflict(
                    "the running node is device \(keys.device.publicKey.short), not \(device.short): this home's "
                        + "identity changed; restart `caddie serve`")
            }
            let done = try await executeAsync(command, keys: keys, logger: logger)
            logger.info("wrote for a command", metadata: ["op": "\(done.op.map { "\($0)" } ?? "none")"])
            result = .success(done)
        } catch let error as NodeError {
            result = .failure(error)
        } catch {
            result = .failure(.wrap(error))
        }
        return NodeCommandResult.reply(result)
    }
}
