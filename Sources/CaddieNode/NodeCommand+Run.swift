import CaddieCodes
import CaddieCore
import CaddieCrypto
import CaddieServices
import CaddieSync
import Foundation
import Logging

extension Home {
    /// Runs a command here, with these keys: the feature's checks, then its append.
    public func execute(_ command: NodeCommand, keys: UnlockedKeys) throws(NodeError) -> NodeCommandResult {
        // One unit of work, one SQLite transaction: the command's checks and its append commit together or not at
        // all, with no other write between them (a peer's batch, another command, a phone's ops, another process).
        try store.transaction(
            "command", { () throws(NodeError) in try executeHeld(command, keys: keys) }, failed: NodeError.store)
    }

    private func executeHeld(_ command: NodeCommand, keys: UnlockedKeys) throws(NodeError) -> NodeCommandResult {
        switch command {
        case .score(let space, let game, let player, let hole, let entry, let seen):
            let made = try rounds.score(
                space: space, keys: keys, game: game, player: player, hole: hole, entry: entry, seen: seen)
            return made.replay ? .replayed(made.op) : .op(made.op)
        case .attest(let space, let game, let player):
            let (op, card) = try rounds.attestWithOp(space: space, keys: keys, game: game, player: player)
            return .attested(op, card: card)
        case .setFinished(let space, let game, let finished):
            return try rounds.setFinished(space: space, keys: keys, game: game, finished: finished).map { .op($0) } ?? .unchanged
        case .setInRoster(let space, let game, let player, let inRoster):
            let op =
                inRoster
                ? try rounds.addToRoster(space: space, keys: keys, game: game, player: player)
                : try rounds.removeFromRoster(space: space, keys: keys, game: game, player: player)
            return op.map { .op($0) } ?? .unchanged
        case .addPlayer(let space, let name, let user, let handicapIndex):
            return .player(try rounds.addPlayer(space: space, keys: keys, name: name, user: user, handicapIndex: handicapIndex))
        case .newGame(let space, let course, let tee, let players, let markers, let setup):
            return .game(
                try rounds.newGame(
                    space: space, keys: keys, course: course, tee: tee, players: players,
                    markers: markers.map { ($0.player, $0.marker) }, setup: setup))
        case .setup(let space, let game, let setup):
            return .op(try rounds.setupGame(space: space, keys: keys, game: game, setup: setup))
        case .editPlayer(let space, let player, let name, let handicapIndex, let clearIndex):
            let (_, op) = try rounds.editPlayerWithOp(
                space: space, keys: keys, player: player, name: name, handicapIndex: handicapIndex, clearIndex: clearIndex)
            return op.map { .op($0) } ?? .unchanged
        case .setDeleted(let space, let game, let deleted, let force):
            return .op(try rounds.deleteGame(space: space, keys: keys, game: game, force: force, restore: !deleted))
        case .newCompetition, .setCompetitionGroups, .importEntries, .draw, .setCompetitionClosed, .setBoardAccess,
            .setCommittee, .correctScore, .setCompetitionStatus:
            return try executeCompetition(command, keys: keys)
        case .setMarker(let space, let game, let pair):
            return .op(try rounds.setMarker(space: space, keys: keys, game: game, player: pair.player, marker: pair.marker))
        case .importCourses(let space, let read):
            return .courses(try courses.importCourses(space: space, keys: keys, read))
        case .revokeDevice(let device):
            return .revoked(spaces: try devices.revokeDevice(device, keys: keys), devices: [device])
        case .revokeLostDevices:
            guard try identity().recoveredAt != nil else {
                throw .refused(
                    "--lost is for a home made with `caddie login --recover`; revoke a device by its key instead "
                        + "(`caddie device list`)")
            }
            return .revoked(spaces: [], devices: try devices.revokeLostDevices(keys: keys))
        case .mark(let space, let game, let player, let point, let shot):
            let mark = try guidance.mark(
                space: space, keys: keys, game: game, player: player, point: point, kind: shot ? .shot : .fix)
            return .marked(hole: mark.hole)
        case .createInvite(let space, let uses, let seconds):
            return .invite(try spaces.createInvite(space: space, uses: uses, seconds: seconds, keys: keys).text)
        case .sharedKeyInvite(let space):
            return .invite(try spaces.sharedKeyInvite(space: space, keys: keys).text)
        case .revokeInvite(let text, let space):
            return .inviteRevoked(try spaces.revokeInvite(text, space: space, keys: keys))
        case .removeMember(let space, let member):
            let outcome = try spaces.removeMember(space: space, user: member, keys: keys)
            // The removed user's sessions end at their next request (WebAccess.personEnded); a partner's guest
            // session, not yet anyone's device, could still become one: it ends now.
            try WebAccess(home: self).end { !$0.isOwner && $0.device == nil }
            return .removed(outcome)
        case .rotateKey(let space):
            let rotation = try spaces.rotateKey(space: space, keys: keys)
            return .rotated(epoch: rotation.epoch, sealedTo: rotation.sealed.count)
        case .importBundle(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .file("cannot read \(path): check the path")
            }
            let report = try rounds.importBundle(keys: keys, bytes: [UInt8](data))
            return .imported(applied: report.applied.count, duplicates: report.duplicates)
        case .sync, .joinSpace:
            throw .refused("a sync or a join runs asynchronously: `executeAsync` runs it")
        case .createSpace(let name):
            let invite = try spaces.createSpace(name: name, keys: keys)
            return .createdSpace(space: invite.space, name: invite.name)
        case .readDeviceRequest(let space, let code):
            return Self.shown(try deviceRequest(space: space, code: code))
        case .approveDeviceRequest(let space, let code):
            guard let user = keys.user else {
                throw .refused(
                    "this device does not hold your user key, so it cannot add a device of yours: add the phone from "
                        + "the device you made your user on, or type your recovery words on the phone")
            }
            let asked = try deviceRequest(space: space, code: code)
            let certifiedAt = Home.now()
            return Self.shown(
                try approveDeviceRequest(
                    space: space, code: code, user: user.publicKey, certifiedAt: certifiedAt,
                    certificate: Membership.certify(device: asked.device, by: user, at: certifiedAt)))
        }
    }

    /// A competition's command (the committee's): its field, draw, board, corrections and close.
    private func executeCompetition(_ command: NodeCommand, keys: UnlockedKeys) throws(NodeError) -> NodeCommandResult {
        switch command {
        case .newCompetition(let space, let name, let settings):
            return .competition(try competitions.newCompetition(space: space, keys: keys, name: name, settings: settings))
        case .setCompetitionGroups(let space, let competition, let games, let add):
            return .op(
                try competitions.setGroups(space: space, keys: keys, competition: competition, games: games, add: add))
        case .importEntries(let space, let competition, let list):
            return .op(try competitions.importEntries(space: space, keys: keys, competition: competition, list: list).op)
        case .draw(let space, let competition, let course, let size, let start, let shuffled):
            return .op(
                try competitions.draw(
                    space: space, keys: keys, competition: competition, course: course, size: size, start: start,
                    shuffled: shuffled
                ).op)
        case .setCompetitionClosed(let space, let competition, let closed):
            return .op(try competitions.setClosed(space: space, keys: keys, competition: competition, closed: closed))
        case .setBoardAccess(let space, let competition, let isPublic, let hiddenHoles):
            return .op(
                try competitions.setBoardAccess(
                    space: space, keys: keys, competition: competition, isPublic: isPublic, hiddenHoles: hiddenHoles))
        case .setCommittee(let space, let competition, let user, let on):
            return .op(try competitions.setCommittee(space: space, keys: keys, competition: competition, user: user, on: on))
        case .correctScore(let space, let competition, let player, let hole, let entry, let reason):
            return .op(
                try competitions.correct(
                    space: space, keys: keys, competition: competition, player: player, hole: hole, entry: entry,
                    reason: reason))
        case .setCompetitionStatus(let space, let competition, let player, let status):
            return .op(
                try competitions.setStatus(
                    space: space, keys: keys, competition: competition, player: player, status: status))
        default:
            throw .refused("\(command) is not a competition's command")
        }
    }

    /// A device request as a command's answer.
    static func shown(_ request: DeviceRequests.Request) -> NodeCommandResult {
        .deviceRequest(device: request.device, expires: request.expires, approvedBy: request.approval?.name)
    }

    /// Runs a command in the node running on this home, if one answers; else here, with the keys `unlock` opens
    /// (the passphrase and Argon2id are paid only then).
    public func run(_ command: NodeCommand, unlock: () throws -> UnlockedKeys) async throws -> NodeCommandResult {
        if let answered = try await askNode(command) { return answered }
        try takeWritesForCommand()
        return try execute(command, keys: try unlock())
    }

    /// As ``run(_:unlock:)``, for a command that may run asynchronously here (a sync).
    public func runAsync(
        _ command: NodeCommand, logger: Logger, unlock: () throws -> UnlockedKeys
    ) async throws -> NodeCommandResult {
        if let answered = try await askNode(command) { return answered }
        try takeWritesForCommand()
        return try await executeAsync(command, keys: try unlock(), logger: logger)
    }

    /// The running node's answer to a command; nil when no node runs on this home. An older node that does not run
    /// commands (it took edits only) is asked to be restarted: while it runs it is the home's one writer.
    private func askNode(_ command: NodeCommand) async throws -> NodeCommandResult? {
        guard !servesWrites.withLock({ $0 }) else { return nil }
        let reply: [UInt8]?
        do {
            guard let device = try identity().deviceKey else {
                throw NodeError.file("identity.json names no valid device key: log in again in a new home")
            }
            reply = try await ControlSocket.request(
                path: controlSocketPath, command.encoded(device: device), replyTimeout: command.replyTimeoutSeconds)
        } catch let error as NodeError {
            throw error
        } catch ControlSocket.Failure.tooLarge(let bytes) {
            throw NodeError.conflict(
                "the command is \(bytes) bytes, more than one message to the running node carries (1 MiB); nothing "
                    + "was sent or changed: split it (fewer courses in one file, say)")
        } catch {
            // The node took the command and did not answer (ControlSocket.Failure.noAnswer).
            throw NodeError.unreachable("\(error)")
        }
        guard let reply else { return nil }
        if Self.isLegacyRefusal(reply) {
            throw NodeError.conflict(
                "the `caddie serve` running on this home is an older version that does not take this command; nothing "
                    + "was changed: restart it with this version, then run the command again")
        }
        return try NodeCommandResult.result(fromReply: reply)
    }

    /// Runs a command here: a sync on the network, any other as ``execute(_:keys:)`` does, off the caller's thread.
    public func executeAsync(_ command: NodeCommand, keys: UnlockedKeys, logger: Logger) async throws -> NodeCommandResult {
        switch command {
        case .sync(let space, let host, let port):
            return try await syncOnce(space: space, host: host, port: port, keys: keys, logger: logger)
        case .joinSpace(let code, let peer, let wait):
            switch try NodeError.reading({ () throws(CodeError) in try Invitation(parsing: code) }) {
            case .sharedKey:
                let invite = try await offload {
                    try self.unitOfWork { try self.spaces.joinSpace(invite: code, keys: keys) }
                }
                return .joined(
                    JoinOutcome(
                        space: invite.space, name: invite.name, invitedBy: nil, inviter: nil, firstSyncReceived: nil,
                        firstSyncFailure: nil))
            case .ticket(let ticket):
                guard (1...600).contains(wait) else { throw NodeError.badInput(.wait, "must be 1...600 seconds") }
                return .joined(
                    try await spaces.join(ticket: ticket, at: peer, searchSeconds: wait, keys: keys, logger: logger))
            }
        default:
            return try await offload { try self.execute(command, keys: keys) }
        }
    }

    /// What a node does as it starts, before it serves: on the owner's devices, each space key that reached a removed
    /// member is replaced (`SpaceService.renewExposedKey`), one unit of work a space. Returns each space renewed and
    /// its new epoch.
    public func renewExposedKeys(keys: UnlockedKeys) throws(NodeError) -> [(space: SpaceID, epoch: UInt32)] {
        var renewed: [(space: SpaceID, epoch: UInt32)] = []
        for space in try spaces.list() {
            let epoch = try store.transaction(
                "renewal", { () throws(NodeError) in try spaces.renewExposedKey(space: space.id, keys: keys) },
                failed: NodeError.store)
            if let epoch { renewed.append((space.id, epoch)) }
        }
        return renewed
    }

    /// Syncs one space with one peer once, both ways. A recovered user's devices from before the recovery are then
    /// revoked (this home now holds what the group holds of them), and on the owner's devices a key that reached a
    /// removed member is replaced; either goes back to the peer at once.
    func syncOnce(space: SpaceID, host: String, port: Int, keys: UnlockedKeys, logger: Logger) async throws -> NodeCommandResult {
        let address = "\(host):\(port)"
        let node = try syncNode(keys: keys, logger: logger)
        let report = try await node.syncOnce(host: host, port: port, space: space)
        guard report.completed else {
            let text = "sync with \(address) failed: \(report.failure ?? "the session ended early")"
            throw report.refused ? NodeError.refused(text) : NodeError.unreachable(text)
        }
        let lost = try devices.revokeLostDevices(keys: keys, only: [space])
        let renewed = try spaces.renewExposedKey(space: space, keys: keys)
        var sent = report.sent
        if !lost.isEmpty || renewed != nil {
            let again = try await node.syncOnce(host: host, port: port, space: space)
            guard again.completed else {
                let text =
                    "the lost devices were revoked here, but sending that to \(address) failed: "
                    + "\(again.failure ?? "the session ended early"); run `caddie sync` again"
                throw again.refused ? NodeError.refused(text) : NodeError.unreachable(text)
            }
            sent += again.sent
        }
        return .synced(sent: sent, received: report.received, stateHash: try stateHash(space), revokedLost: lost)
    }

    /// Whether a reply is an older node's refusal of a command it does not read: one that takes edits only (CTL1),
    /// one whose commands were not yet data (it reads `CMD1` requests only), or one that runs commands but not this
    /// one (a command added since, or fields it cannot read or lacks, named since). The command then stops, asking
    /// for the node to be restarted with this version.
    static func isLegacyRefusal(_ reply: [UInt8]) -> Bool {
        guard reply.first == 1 else { return false }
        let text = String(decoding: reply.dropFirst(), as: UTF8.self)
        return [
            "does not start with CTL1", "must start with CMD1", "is not a command this node runs",
            "the command's JSON does not read", "command needs '", "this node reads version",
        ].contains { text.contains($0) }
    }
}
