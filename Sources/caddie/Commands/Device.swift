import ArgumentParser
import CaddieCodes
import CaddieCore
import CaddieNode
import Foundation

struct Device: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Add a second device of yours, list your devices, revoke a lost one.",
        subcommands: [Add.self, Approve.self, List.self, Revoke.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Print a one-time code and wait on the LAN for your new device to pair with it.",
            discussion: "On the new device run `caddie login --device-code CODE`. The code carries this device's "
                + "address and a secret; the new device gets its own key certified and the keys of your spaces.")
        @OptionGroup var options: HomeOptions
        @Option(help: "Address and port to wait on (port 0 picks a free one).") var listen = "0.0.0.0:7401"
        @Option(help: "The IPv4 address the new device should dial (default: this machine's LAN address).")
        var address: String?
        @Option(parsing: .unconditional, help: "Seconds to wait.", transform: decimal) var timeout: Double = 300

        func run() async throws {
            try await guarded {
                let parts = listen.split(separator: ":")
                guard parts.count == 2, let port = UInt16(parts[1]) else {
                    throw NodeError.badInput(.listen, "must be HOST:PORT, e.g. 0.0.0.0:7401")
                }
                let home = try options.open()
                let device = try await home.devices.addDevice(
                    listen: String(parts[0]), port: port, advertise: address, timeout: timeout,
                    passphrase: try Passphrase.obtain()
                ) { code in
                    Console.print(code.text)
                    FileHandle.standardError.write(Data("On the new device: caddie login --device-code \(code.text)\n".utf8))
                }
                Console.print("Paired device \(device.hex)")
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "approve",
            abstract: "Add a phone as another device of yours, by the code it shows.",
            discussion: "On the phone, signed in to this home's `caddie serve`: Devices, \"I have Caddie on another phone\", "
                + "\"Show a code\". The running node signs the phone's certificate with your user key; the phone then "
                + "asks whether it is yours, and joins as your device. Nothing is asked of the passphrase: the node holds "
                + "the key while it runs.")
        @OptionGroup var options: HomeOptions
        @Argument(help: "The code the phone shows, e.g. K7QM-3XRD (any case, the dash optional).") var code: String
        @Option(help: "The space the phone joins (id, id prefix or name); needed when the home holds several.")
        var space: String?
        @Flag(help: "Add it without asking to compare the device's digits with the phone's.") var yes = false

        func run() async throws {
            try await options.read { home in
                let spaceID = try home.spaces.resolveSpace(space)
                // The code lives in the running node, which the phone asked: without one there is nothing to answer.
                let noNode: () throws -> UnlockedKeys = {
                    throw NodeError.conflict(
                        "no `caddie serve` runs on this home, and a phone's code lives in the node it asked: start "
                            + "`caddie serve` here, show a new code on the phone, then run this again")
                }
                guard
                    case .deviceRequest(let device, _, let answered) = try await home.run(
                        .readDeviceRequest(space: spaceID, code: code), unlock: noNode)
                else { throw NodeError.conflict("the running node gave no device for that code: restart it with this version") }
                if let answered {
                    throw NodeError.conflict("\(answered) has answered that code already: the phone asks to be confirmed")
                }
                Console.print("Code \(code.uppercased()) is asked by device \(device.short): the phone shows the same 8 digits.")
                if !yes {
                    Swift.print("Add it as a device of yours? [y/N] ", terminator: "")
                    let typed = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                    guard typed == "y" || typed == "yes" else {
                        throw NodeError.conflict("nothing added: run this again with the phone's code when the digits match")
                    }
                }
                guard
                    case .deviceRequest(_, _, let name?) = try await home.run(
                        .approveDeviceRequest(space: spaceID, code: code), unlock: noNode)
                else { throw NodeError.conflict("the running node did not record the approval: restart it with this version") }
                Console.print(
                    "Added device \(device.short) as \(name)'s: on the phone, say it is you; it then joins the space.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Your devices in the spaces this home holds.")
        @OptionGroup var options: Reporting<HomeOptions>

        func run() async throws {
            try await options.list(
                { try $0.devices.list() },
                item: {
                    .object([
                        ("device", .string($0.device.hex)), ("this", .bool($0.isThisDevice)),
                        ("spaces", .array($0.spaces.map { .string($0) })),
                        ("revokedAfter", .optional($0.revokedAfter.map { Int($0) })),
                    ])
                }
            ) { device in
                "\(device.device.hex)\(device.isThisDevice ? " (this device)" : "")"
                    + (device.revokedAfter.map { " revoked after op \($0)" } ?? "")
                    + "  in " + device.spaces.joined(separator: ", ")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke one of your devices: its later ops are rejected everywhere the revocation reaches.")
        @OptionGroup var options: HomeOptions
        @Argument(help: "The device key (hex).") var device: String?
        @Flag(help: "After `caddie login --recover`: revoke every device you had before the recovery.") var lost = false

        func validate() throws {
            guard (device == nil) == lost else { throw ValidationError("give a device key, or --lost, not both") }
        }

        func run() async throws {
            try await options.read { home in
                let unlock = Passphrase.unlock(home)
                guard let device else {
                    let revoked = try await home.run(.revokeLostDevices, unlock: unlock).revocation().devices
                    Console.print(
                        revoked.isEmpty
                            ? "Nothing to revoke: every device from before the recovery that this home knows is revoked "
                                + "(none is known until you sync with a member; `caddie device list` shows them)"
                            : "Revoked " + revoked.map(\.short).joined(separator: ", "))
                    return
                }
                guard let key = PublicKey(hex: device.lowercased()) else {
                    throw NodeError.badInput(.device, "takes the device's full key, 64 hex digits (see `caddie device list`)")
                }
                let spaces = try await home.run(.revokeDevice(key), unlock: unlock).revocation().spaces
                Console.print("Revoked \(device.prefix(8)) in " + spaces.joined(separator: ", "))
            }
        }
    }
}
