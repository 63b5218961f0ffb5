import ArgumentParser
import CaddieCore
import CaddieNode

struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create your identity: a user key and this device's key and certificate, sealed with a passphrase.")

    @OptionGroup var options: HomeOptions
    @Option(help: "Your name as the group will see it (a new user).") var name: String?
    @Option(help: "Join as an existing user: the code `caddie device add` printed on your first device.")
    var deviceCode: String?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard (name == nil) != (deviceCode == nil) else {
            throw ValidationError("give either --name NAME (a new user) or --device-code CODE (a second device)")
        }
    }

    func run() throws {
        try guarded {
            let home = try options.open()
            try home.requireNoIdentity()
            let passphrase = try Passphrase.obtain(confirm: true)
            let identity = try deviceCode.map { try home.login(deviceCode: $0, passphrase: passphrase) }
                ?? home.login(name: name ?? "", passphrase: passphrase)
            if json {
                Console.json(Views.whoami(identity))
            } else {
                Console.print("Logged in as \(identity.name) in \(home.directory.path)")
                Console.print("user   \(identity.user)\ndevice \(identity.device)")
            }
        }
    }
}

struct Whoami: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show this home's user and device.")

    @OptionGroup var options: HomeOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try guarded {
            let identity = try options.open().identity()
            if json {
                Console.json(Views.whoami(identity))
            } else {
                Console.print("\(identity.name)\nuser   \(identity.user)\ndevice \(identity.device)")
            }
        }
    }
}
