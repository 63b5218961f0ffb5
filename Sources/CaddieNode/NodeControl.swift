import CaddieCore
import CaddieCrypto
import CaddieStore
import CaddieSync
import Foundation
import Logging
import Synchronization

/// What an older command hands the running node over its control socket (``ControlSocket``): this device's new ops
/// in one space, as changes the node signs and appends in one transaction. This version's commands send a
/// ``NodeCommand`` instead; the node still answers these for a command of an older version on the same home.
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
        writer.raw(device)
        writer.raw(space)
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
        device = try reader.fixed(PublicKey.self, "device")
        space = try reader.fixed(SpaceID.self, "space")
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
}

extension Home {
    /// The control socket's path in this home.
    public var controlSocketPath: String { directory.appendingPathComponent(ControlSocket.fileName).path }

    /// Appends this device's new ops in one transaction, joining the space first if this device has not. The caller
    /// is the home's writer: the running node, or a command when none runs (``run(_:unlock:)`` asks the node first).
    func appendEdits(space: SpaceID, keys: UnlockedKeys, edits: [ControlRequest.Edit]) throws(NodeError) -> [SignedOp] {
        try ensureJoined(space, keys: keys)
        do {
            return try store.appendBatch(
                space: space, signer: keys.device, edits: edits.map { ($0.changes, $0.pred) },
                now: Self.now())
        } catch {
            throw .store(error)
        }
    }

    /// Runs `body` as one unit of work, one SQLite transaction (``OpStore/transaction(_:_:failed:)``): what it checks
    /// and what it writes commit together or not at all, and no other write commits between them. Every command runs
    /// so (``execute(_:keys:)``), and the API's writes.
    public func unitOfWork<T>(_ body: () throws -> T) throws -> T {
        try store.transaction("request", body, failed: { NodeError.store($0) as any Error })
    }

    /// Makes this process the home's one writer for its life (``OpStore/claimWrites()``): from now on its own appends
    /// never go through the socket, `serveControl` answers those of commands, and no other process writes the
    /// database. A command that found no node answering and writes itself (unlocking its keys takes a second) is
    /// waited for, up to `seconds`; past that, a conflict (another node, or a command that does not end).
    public func takeWrites(waiting seconds: Double = 30) throws(NodeError) {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                try claimWrites(
                    refused: "another caddie process is writing this home (a `caddie serve`, or a command that is "
                        + "still running): stop it or wait for it to end, then start the node again")
                break
            } catch {
                // Only while the node starts, never while it serves: a short wait between tries, not a poll.
                guard case .conflict = error, Date() < deadline else { throw error }
                usleep(50_000)
            }
        }
        servesWrites.withLock { $0 = true }
    }

    /// Makes this process the home's writer for a command that runs here because no node answered: a node that
    /// holds the home and did not answer (one starting, or stuck) is named, and nothing is written.
    func takeWritesForCommand() throws(NodeError) {
        try claimWrites(
            refused: "another caddie process holds this home (a `caddie serve` whose control socket did not answer, it "
                + "may be starting, or a command still writing): nothing was changed; try again in a moment")
    }

    /// The store's claim (``OpStore/claimWrites()``), refused as a conflict with these words.
    private func claimWrites(refused: String) throws(NodeError) {
        do {
            try store.claimWrites()
        } catch .otherWriter {
            throw .conflict(refused)
        } catch {
            throw .store(error)
        }
    }

    /// Answers commands on the control socket until cancelled. Each commit reaches the node's sessions and live
    /// events through the store's observers, as every write of this process does. A node has a socket whatever its
    /// home's path (a long one is reached through the directory's descriptor); where even that fails, the node
    /// stops with the reason, since commands could not reach it.
    public func serveControl(keys: UnlockedKeys, logger: Logger, ready: @Sendable () -> Void = {}) async throws {
        do {
            try await serveControlSocket(keys: keys, logger: logger, ready: ready)
        } catch ControlSocket.Failure.pathTooLong(let path) {
            throw NodeError.badInput(
                .home,
                "makes a path too long for the node's control socket (\(path)), and /proc cannot reach it: use a "
                    + "shorter --home")
        }
    }

    private func serveControlSocket(keys: UnlockedKeys, logger: Logger, ready: @Sendable () -> Void) async throws {
        try takeWrites()
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
                let ops = try await offload {
                    try self.appendEdits(space: request.space, keys: keys, edits: request.edits)
                }
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
