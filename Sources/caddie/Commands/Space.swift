import ArgumentParser
import CaddieCore
import CaddieNode

struct Space: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create, join and list spaces (a group's shared games).",
        subcommands: [Create.self, Join.self, List.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a space and print its invite code.")
        @OptionGroup var options: HomeOptions
        @Argument(help: "The space's name, e.g. \"Saturday foursome\".") var name: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let invite = try options.open().createSpace(name: name, passphrase: try Passphrase.obtain())
                if json {
                    Console.json(.object([("space", .string(invite.space.hex)), ("invite", .string(invite.text))]))
                } else {
                    Console.print("Created space \(invite.name) (\(invite.space.hex))")
                    Console.print("Invite code (share it only with the group):\n\(invite.text)")
                }
            }
        }
    }

    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a space with its invite code.")
        @OptionGroup var options: HomeOptions
        @Argument(help: "The invite code.") var code: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let invite = try options.open().joinSpace(invite: code, passphrase: try Passphrase.obtain())
                if json {
                    Console.json(.object([("space", .string(invite.space.hex)), ("name", .string(invite.name))]))
                } else {
                    Console.print("Joined space \(invite.name) (\(invite.space.hex))")
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the spaces this home holds.")
        @OptionGroup var options: HomeOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try guarded {
                let spaces = try options.open().spaces()
                if json {
                    Console.json(.array(spaces.map(Views.space)))
                } else if spaces.isEmpty {
                    Console.print("No spaces yet: `caddie space create NAME` or `caddie space join INVITE`.")
                } else {
                    for space in spaces {
                        Console.print("\(space.id.hex)  \(space.name)  (\(space.members) devices, \(space.ops) ops)")
                    }
                }
            }
        }
    }
}
