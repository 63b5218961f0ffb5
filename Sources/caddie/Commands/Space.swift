import ArgumentParser
import CaddieAPI
import CaddieCodes
import CaddieCore
import CaddieNode
import Foundation
import Logging

struct Space: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "space",
        abstract: "Create, join and list spaces (a group's shared games).",
        subcommands: [Create.self, Invite.self, Join.self, List.self, Remove.self, Rotate.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a space.")
        @OptionGroup var options: Reporting<HomeOptions>
        @Argument(help: "The space's name, e.g. \"Saturday foursome\".") var name: String

        func run() async throws {
            try await options.read { home in
                // A running node creates it with its own keys and serves it at once; with none, this process asks
                // for the passphrase.
                let (space, created) = try await home.run(.createSpace(name: name), unlock: Passphrase.unlock(home))
                    .expect("the space it created") {
                        if case .createdSpace(let space, let name) = $0 { (space, name) } else { nil }
                    }
                if options.json { return Console.json(.object([("space", .string(space.hex)), ("name", .string(created))])) }
                Console.print(
                    "Created space \(created) (\(space.hex))\n"
                        + "Invite the group with `caddie space invite` (a code for one device, for 24 hours).")
            }
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "join",
            abstract: "Join a space with an invite code.",
            discussion: """
                A CADDIE2 code (from `caddie space invite`) is redeemed at the device that made it, which must be \
                running `caddie serve`: on the same network it is found over mDNS, or give its address with \
                --peer. That device checks the invite (not used up, \
                not expired, not revoked), records whom it admitted, and sends the space key; this home then joins \
                and syncs once with it. A CADDIE1 code (`caddie space invite --shared-key`) carries the space key \
                itself and joins offline.
                """)
        @OptionGroup var options: Reporting<HomeOptions>
        @Argument(help: "The invite code.") var code: String
        @Option(
            help:
                "The inviting device, HOST:PORT (its `caddie serve --listen` port, 7400 by default); without it, the device is looked for over mDNS."
        )
        var peer: String?
        @Option(help: "How long to look for the inviting device over mDNS, in seconds.") var wait = 30

        func run() async throws {
            try await options.read { home in
                // The code and the options are checked before anything is asked or sent.
                let invitation = try NodeError.reading({ () throws(CodeError) in try Invitation(parsing: code) })
                guard (1...600).contains(wait) else { throw NodeError.badInput(.wait, "must be 1...600 seconds") }
                let address = try peer.map { try HostPort(parsing: $0, input: .peer) }
                var logger = makeLogger("caddie.join")
                if ProcessInfo.processInfo.environment["CADDIE_LOG"] == nil { logger.logLevel = .warning }
                if case .ticket(let ticket) = invitation, address == nil, !options.json {
                    Console.print("Looking for \(ticket.inviterName)'s device on this network (up to \(wait) s)...")
                }
                // A running node joins with its own keys and serves the space at once; with none, this process asks
                // for the passphrase and joins itself.
                let outcome = try await home.runAsync(
                    .joinSpace(code: code, peer: address, wait: wait), logger: logger, unlock: Passphrase.unlock(home)
                ).expect("the space it joined") { if case .joined(let outcome) = $0 { outcome } else { nil } }
                guard let inviter = outcome.inviter else {
                    return options.show(
                        .object([("space", .string(outcome.space.hex)), ("name", .string(outcome.name))]),
                        text: "Joined space \(outcome.name) (\(outcome.space.hex))")
                }
                if options.json {
                    return Console.json(
                        .object([
                            ("space", .string(outcome.space.hex)), ("name", .string(outcome.name)),
                            ("invitedBy", .string(outcome.invitedBy ?? "")),
                            ("inviter", .string(inviter.description)),
                            ("received", .int(outcome.firstSyncReceived ?? 0)),
                            ("firstSyncFailure", outcome.firstSyncFailure.map { .string($0) } ?? .null),
                        ]))
                }
                Console.print("Joined space \(outcome.name) (\(outcome.space.hex)), invited by \(outcome.invitedBy ?? "?")")
                if let failure = outcome.firstSyncFailure {
                    Console.print(
                        "The first sync did not finish (\(failure)); `caddie sync --peer \(inviter)` brings the space's games.")
                } else {
                    Console.print("Synced with \(inviter): received \(outcome.firstSyncReceived ?? 0) ops")
                }
                if let note = home.spaces.nameNote(outcome.space) { Console.print(note) }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a member from a space (its owner only) and give the others a new space key.",
            discussion: """
                Only the user who created the space may remove members. The removal and a new space key, sealed to \
                each remaining member device, go into the log as one op: every device that has it refuses the \
                removed user's devices, rejects anything they sign after their ops known here, and admits no \
                newcomer holding the old key (such as an old CADDIE1 code). Their ops up to now stay, and stay \
                auditable. Sync afterwards so that the removal reaches the others.
                """)
        @OptionGroup var options: Reporting<SpaceOptions>
        @Argument(help: "The member: their name, or the start of their user key.") var user: String

        func run() async throws {
            try await options.read { home, space in
                // Whom the text names, and whether this user may remove them, before the passphrase is asked for.
                _ = try home.spaces.removableMember(space: space, user)
                let outcome = try await home.run(.removeMember(space: space, member: user), unlock: Passphrase.unlock(home))
                    .expect("the member it removed") { if case .removed(let outcome) = $0 { outcome } else { nil } }
                if options.json {
                    Console.json(
                        .object([
                            ("removed", .string(outcome.user.hex)), ("name", .string(outcome.name)),
                            ("devices", .int(outcome.devices)),
                            ("epoch", .int(Int(outcome.epoch))), ("sealedTo", .int(outcome.sealedTo)),
                        ]))
                } else {
                    Console.print(
                        "Removed \(outcome.name) (user \(outcome.user.short)) and their "
                            + "\(outcome.devices == 1 ? "device" : "\(outcome.devices) devices"); a new space key "
                            + "(epoch \(outcome.epoch)) went to \(outcome.sealedTo) member devices.")
                    Console.print("Every device that syncs this refuses theirs from now on: sync with the group.")
                }
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Give a space a new key (its owner only), after a member's phone was lost or stolen.",
            discussion: """
                The new key is sealed to every member device that is neither removed nor revoked (revoke the lost \
                device first: `caddie device revoke`). Where it has arrived, the old key admits no newcomer. Sync \
                afterwards so that it reaches the others.
                """)
        @OptionGroup var options: Reporting<SpaceOptions>

        func run() async throws {
            try await options.read { home, space in
                try home.spaces.rotationOwner(space)  // before the passphrase is asked for
                let (epoch, sealedTo) = try await home.run(.rotateKey(space: space), unlock: Passphrase.unlock(home))
                    .expect("the space's new key") { if case .rotated(let epoch, let count) = $0 { (epoch, count) } else { nil } }
                if options.json {
                    Console.json(.object([("epoch", .int(Int(epoch))), ("sealedTo", .int(sealedTo))]))
                } else {
                    Console.print(
                        "New space key (epoch \(epoch)) sealed to \(sealedTo) member devices; "
                            + "sync with the group so that it reaches them.")
                }
            }
        }
    }

    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite",
            abstract: "Invite a device to a space, list the invites made here, or revoke one.",
            subcommands: [New.self, ListInvites.self, Revoke.self], defaultSubcommand: New.self)

        struct New: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "new",
                abstract: "Make an invite code (the default: `caddie space invite`).",
                discussion: """
                    The code admits --uses devices (one by default) until it expires (24 hours by default), and only \
                    at this device: keep `caddie serve` running here while the group joins. Every admission is \
                    recorded in the space's log (who invited whom). --shared-key prints the older CADDIE1 code \
                    instead: it carries the space key itself, joins offline, and works for anyone who ever sees it.
                    """)
            @OptionGroup var options: SpaceOptions
            @Option(help: "How many devices the code may admit (1...100).") var uses = 1
            @Option(help: "How long the code works: 90m, 2h, 1d... (at most 30d).") var expires = "24h"
            @Flag(help: "Print the CADDIE1 code that carries the space key itself (works offline, for anyone, for ever).")
            var sharedKey = false
            @Flag(help: "Print JSON and no QR code.") var json = false

            func run() async throws {
                try await options.read { home, space in
                    if sharedKey {
                        let code = try InviteCode(
                            parsing: try await home.run(.sharedKeyInvite(space: space), unlock: Passphrase.unlock(home))
                                .madeInvite())
                        if json {
                            Console.json(.object([("space", .string(space.hex)), ("invite", .string(code.text))]))
                        } else {
                            Console.print(code.text)
                            Console.print(
                                "This code carries the space key: anyone who sees it can join, for ever (until "
                                    + "the space is recreated). Share it only with the group.")
                        }
                        return
                    }
                    let seconds = try Self.seconds(expires)
                    try SpaceService.checkInvite(uses: uses, seconds: seconds)  // before the passphrase is asked for
                    let ticket = try InviteTicket(
                        parsing: try await home.run(
                            .createInvite(space: space, uses: uses, seconds: seconds), unlock: Passphrase.unlock(home)
                        ).madeInvite())
                    if json {
                        Console.json(
                            .object([
                                ("space", .string(space.hex)), ("invite", .string(ticket.text)), ("id", .string(ticket.id.hex)),
                                ("uses", .int(uses)), ("expiresAt", .int(Int(ticket.expiresAt))),
                            ]))
                        return
                    }
                    if isatty(STDOUT_FILENO) == 1, let code = QRCode.terminal(ticket.text) { Console.print(code) }
                    Console.print(ticket.text)
                    Console.print(
                        "Invite \(ticket.id.hex) to \(ticket.spaceName): admits \(uses == 1 ? "one device" : "\(uses) devices") "
                            + "until \(Self.local(ticket.expiresAt)), at this device only.")
                    Console.print(
                        "Keep `caddie serve` running here; on the same Wi-Fi the new player runs "
                            + "`caddie space join CODE` (it finds this device over mDNS; or add --peer ADDRESS:7400).")
                }
            }

            /// `90m`, `2h`, `1d`, `45s` or a bare number of seconds.
            static func seconds(_ text: String) throws(NodeError) -> Int {
                let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
                let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
                let (digits, unit) = trimmed.last.flatMap { units[$0] }.map { (String(trimmed.dropLast()), $0) } ?? (trimmed, 1)
                guard let value = Int(digits), value > 0, value <= Int(Int32.max) else {
                    throw .badInput(.expires, "'\(text)' is not a duration: use e.g. 90m, 2h or 1d")
                }
                return value * unit
            }

            static func local(_ ms: UInt64) -> String {
                Date(timeIntervalSince1970: Double(ms) / 1000).formatted(date: .abbreviated, time: .shortened)
            }
        }

        struct ListInvites: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the invites made here.")
            @OptionGroup var options: Reporting<HomeOptions>
            @Option(help: "Only this space's (id, id prefix or name).") var space: String?

            func run() async throws {
                try await options.list(
                    { home in try home.spaces.invites(space: try space.map { try home.spaces.resolveSpace($0) }) },
                    empty: "No invites made here: `caddie space invite` makes one.",
                    item: { summary in
                        .object([
                            ("id", .string(summary.id.hex)), ("space", .string(summary.space.hex)),
                            ("uses", .int(summary.uses)), ("used", .int(summary.used)),
                            ("expiresAt", .int(Int(summary.expiresAt))), ("state", .string(summary.state)),
                            ("admitted", .array(summary.admitted.map { .string($0) })),
                        ])
                    }
                ) { summary in
                    let admitted = summary.admitted.isEmpty ? "" : "; admitted \(summary.admitted.joined(separator: ", "))"
                    return "\(summary.id.hex)  \(summary.state)  \(summary.used)/\(summary.uses) used, "
                        + "expires \(New.local(summary.expiresAt))\(admitted)"
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke", abstract: "Revoke an invite made here, so it admits nobody.")
            @OptionGroup var options: Reporting<HomeOptions>
            @Argument(help: "The invite's id, or the start of it (see `caddie space invite list`).") var id: String

            func run() async throws {
                try await options.show { home in
                    try await home.run(.revokeInvite(id), unlock: Passphrase.unlock(home)).revokedInvite()
                } json: { invite in
                    .object([("revoked", .string(invite.hex))])
                } text: { invite in
                    "Revoked invite \(invite.hex): it admits nobody from now on."
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the spaces this home holds.")
        @OptionGroup var options: Reporting<HomeOptions>

        func run() async throws {
            try await options.list(
                { try $0.spaces.list() },
                empty: "No spaces yet: `caddie space create NAME` or `caddie space join INVITE`.", item: Views.space
            ) { space in
                "\(space.id.hex)  \(space.name)  (\(space.members) devices, \(space.ops) ops"
                    + "\(space.keyEpoch > 0 ? ", key epoch \(space.keyEpoch)" : ""))"
            }
        }
    }
}
