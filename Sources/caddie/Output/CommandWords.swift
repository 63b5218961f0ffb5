import CaddieCore
import CaddieNode

/// How the CLI words an error: an input by the option a person types, a remedy by the command to run.
struct CommandWords: NodeErrorWords {
    func name(of input: NodeError.Input) -> String {
        Self.options[input] ?? "the \(input.rawValue)"
    }

    func say(_ remedy: NodeError.Remedy) -> String {
        switch remedy {
        case .list(let listing): "see `\(Self.listCommand(listing))`"
        case .restore(let game): "`caddie game restore \(game.short)` brings it back"
        case .reopen(let game, let then):
            "reopen it with `caddie game reopen \(game.short)` " + (then == .toScore ? "to change a score" : "first")
        case .addToGame(let game, let player): "add them with `caddie game add-player \(game.short) \(player.short)`"
        case .anotherTee(let game, let player): "set another with `caddie game setup \(game.short) --player-tee \(player)=TEE`"
        case .settleDisputes: "settle them with `caddie score` first"
        case .committeeCorrects(let competition, let player, let hole):
            "ask the committee: `caddie competition correct \(competition.short) \(player.short) \(hole) STROKES --reason \"...\"`"
        case .deleteByForce:
            "delete it with --force if it really was a mistake (its ops stay in the log and `caddie game restore` brings "
                + "it back)"
        case .logIn: "run `caddie login --name NAME` first"
        case .anotherHome: "use another --home for another person"
        case .givePassphrase: "set CADDIE_PASSPHRASE or run in a terminal"
        case .createOrJoinSpace: "create one with `caddie space create NAME` or join with `caddie space join INVITE`"
        case .chooseSpace: "choose one with --space ID"
        }
    }

    static func listCommand(_ listing: NodeError.Remedy.Listing) -> String {
        switch listing {
        case .games: "caddie game list"
        case .players: "caddie player list"
        case .courses: "caddie course list"
        case .competitions: "caddie competition list"
        case .invites: "caddie space invite list"
        case .spaces: "caddie space list"
        case .playersOfEachSpace: "caddie player list --space SPACE"
        }
    }

    /// Each input the node names, as typed at the CLI.
    static let options: [NodeError.Input: String] = [
        .holes: "--holes", .start: "--start", .formats: "--formats", .skins: "--skins", .stake: "--stake",
        .teams: "--teams", .entries: "--entry", .players: "--players", .clearIndex: "--clear-index", .uses: "--uses",
        .expires: "--expires", .name: "the player's name", .index: "--index", .tee: "--tee", .playerTees: "--player-tee",
        .hole: "the hole", .strokes: "the strokes", .seen: "the values seen", .device: "the device key",
        .listen: "--listen", .address: "--address", .userName: "--name", .spaceName: "the space name",
        .passphrase: "the passphrase", .certificate: "the certificate", .ops: "the op list", .query: "the search text",
        .latitude: "--lat", .longitude: "--lon", .radius: "--radius-km", .hostPort: "the address", .peer: "--peer",
        .port: "--port", .nodeID: "--node-id", .http: "--http", .https: "--https", .httpsName: "--https-name",
        .trustPage: "--trust-page", .host: "--host", .space: "--space", .wait: "--wait", .home: "--home",
        .user: "--user", .fairway: "--fairway", .markers: "--markers", .markerPairs: "the markers", .format: "--format",
        .differentials: "--differentials", .from: "--from", .to: "--to", .heading: "--heading",
        .headingSource: "--heading-source", .gpx: "--gpx", .recoveryPhrase: "the recovery phrase",
        .competitionName: "the competition's name", .games: "the games", .mark: "the mark", .order: "--order",
        .twoTees: "--two-tees", .first: "--first", .committeeAction: "the action", .reportFormat: "--format",
        .allowance: "--allowance", .checkIn: "--check-in", .countback: "--countback", .divisions: "--divisions",
        .hideLast: "--hide-last", .interval: "--interval", .reason: "--reason", .scoring: "--scoring", .size: "--size",
        .url: "--url", .access: "the access",
        .destination: "--course ID with --hole N, or --game ID with --player ID,",
        .setupChange: "one of --tee, --player-tee, --start, --holes, --formats, --skins, --validate-skins, --teams, "
            + "--stake or --entry",
        .playerChange: "one of --name, --index or --clear-index",
    ]
}

extension Console {
    /// An error in the CLI's words: a Caddie node's error with its options and commands, any other as it says itself.
    static func words(_ error: any Error) -> String {
        (error as? NodeError)?.worded(by: CommandWords()) ?? "\(error)"
    }
}
