import CaddieCore
import CaddieNode

/// How the HTTP API words an error: an input by its field in the request, a remedy by the request to send (the web
/// app shows the message as it comes).
struct RequestWords: NodeErrorWords {
    func name(of input: NodeError.Input) -> String {
        Self.fields[input] ?? input.rawValue
    }

    func say(_ remedy: NodeError.Remedy) -> String {
        switch remedy {
        case .list(let listing): "GET \(Self.listPath(listing)) lists them"
        case .restore(let game): "POST /v1/spaces/{space}/games/\(game.hex)/restore brings it back"
        case .reopen(_, let then): "reopen the game " + (then == .toScore ? "to change a score" : "first")
        case .addToGame: "add them to the game first"
        case .anotherTee(_, let player): "set another tee for \(player) in the game's setup"
        case .settleDisputes: "settle the disputes first"
        case .committeeCorrects: "ask the committee to correct it"
        case .deleteByForce:
            "delete it with ?force=true if it really was a mistake (its ops stay in the log and restoring the game "
                + "brings it back)"
        case .logIn: "the node's owner logs in on the node first"
        case .anotherHome: "the node keeps one person's identity"
        case .givePassphrase: "the node's owner unlocks its keys first"
        case .createOrJoinSpace: "the node creates or joins a space first"
        case .chooseSpace: "name the space in the path: GET /v1/spaces lists them"
        }
    }

    static func listPath(_ listing: NodeError.Remedy.Listing) -> String {
        switch listing {
        case .spaces: "/v1/spaces"
        case .playersOfEachSpace: "/v1/spaces/{space}/players"
        case .games, .players, .courses, .competitions, .invites: "/v1/spaces/{space}/\(listing.rawValue)"
        }
    }

    /// Each input the node names, as a field of a request (or of its query).
    static let fields: [NodeError.Input: String] = [
        .holes: "holesPlayed", .start: "startHole", .formats: "formats", .skins: "skins", .stake: "stake",
        .teams: "teams", .entries: "entries", .players: "players", .clearIndex: "clearIndex", .uses: "uses",
        .expires: "expiresInSeconds", .name: "name", .index: "index", .tee: "tee", .playerTees: "playerTees",
        .hole: "hole", .strokes: "strokes", .seen: "seen", .device: "device", .listen: "listen", .address: "address",
        .userName: "name", .spaceName: "name", .passphrase: "passphrase", .certificate: "certificate", .ops: "ops",
        .query: "q", .latitude: "lat", .longitude: "lon", .radius: "radiusKm", .hostPort: "address", .peer: "peer",
        .port: "port", .nodeID: "nodeId", .http: "http", .https: "https", .httpsName: "httpsName",
        .trustPage: "trustPage", .host: "host", .space: "space", .wait: "wait", .home: "home", .user: "user",
        .fairway: "fairway", .markers: "markers", .markerPairs: "markers", .format: "format",
        .differentials: "differentials", .from: "from", .to: "to", .heading: "heading",
        .headingSource: "headingSource", .gpx: "gpx", .recoveryPhrase: "phrase", .competitionName: "name",
        .games: "games", .mark: "mark", .order: "order", .twoTees: "twoTees", .first: "first",
        .committeeAction: "on", .reportFormat: "format", .allowance: "allowance", .checkIn: "checkIn",
        .countback: "countback", .divisions: "divisions", .hideLast: "hideLast", .interval: "interval",
        .reason: "reason", .scoring: "scoring", .size: "size", .url: "url", .access: "public",
        .destination: "course with hole, game with player, or to {latitude, longitude}",
        .setupChange: "one of tee, playerTees, startHole, holesPlayed, formats, skins, skinsValidation, teams, stake or "
            + "entries",
        .playerChange: "one of name, index or clearIndex",
    ]
}
