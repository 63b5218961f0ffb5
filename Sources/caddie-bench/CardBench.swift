import CaddieCore
import CaddieCrypto
import CaddieNode
import CaddieStore
import Foundation

/// A card with net scores, as `caddie card` and the web app's card ask for it: four players who have each finished
/// `games` earlier rounds in the space, so each player's Handicap Index comes from those rounds. Timed two ways
/// over the same home: every player's record from one pass over the finished games (the card and standings now),
/// and one record per player, each its own pass (today's code with its course cache, so it understates what a
/// card cost before #17).
struct CardBench {
    let directory: URL
    let games: Int
    /// Where to leave the home for timing `caddie card` on it (`--card-home`); nil keeps it in the bench's directory.
    var keep: String?
    let runs = 15

    func run() throws -> [(String, Double, String)] {
        let passphrase = "bench passphrase"
        let home = try Home(path: keep ?? directory.appendingPathComponent("card-home").path)
        _ = try home.login(name: "Bench", passphrase: passphrase)
        let space = try home.spaces.createSpace(name: "Bench", passphrase: passphrase).space
        let keys = try home.unlock(passphrase: passphrase)
        guard let file = try CourseService.sampleCourseFiles().first(where: { $0.name == "haagsche.json" }) else {
            throw BenchError("the sample course haagsche.json is missing")
        }
        let imported = try home.execute(.importCourses(space: space, courses: try CourseService.read(file.data)), keys: keys)
        let course = try home.courses.course(space, try imported.importedCourses()[0].id)
        guard let tee = course.tees.first(where: { $0.rating != nil && $0.slope != nil && $0.par != nil }) else {
            throw BenchError("the sample course has no rated tee")
        }
        let players = try ["Ana", "Ben", "Cleo", "Dev"].map {
            try home.execute(.addPlayer(space: space, name: $0), keys: keys).addedPlayer()
        }
        var current: GameID?
        for number in 0...games {
            let game = try home.execute(
                .newGame(space: space, course: course.id, tee: tee.name, players: players), keys: keys
            ).startedGame()
            let edits = try players.indices.flatMap { index in
                try (1...18).map { hole in
                    (
                        changes: [
                            Change.score(
                                game: game, player: players[index], hole: hole,
                                entry: try ScoreEntry(strokes: 3 + (hole + index + number) % 4))
                        ], pred: [OpID]()
                    )
                }
            }
            _ = try home.store.appendBatch(space: space, signer: keys.device, edits: edits, now: Home.now())
            if number < games {
                _ = try home.execute(.setFinished(space: space, game: game, finished: true), keys: keys)
            } else {
                current = game
            }
        }
        guard let current else { throw BenchError("no current game") }
        let card = try home.rounds.card(space: space, game: current)
        let net = try home.handicaps.playingHandicap(card: card, space: space, allowancePercent: 95)
        guard net.count == players.count, net.values.allSatisfy({ $0.indexSource == .computed }) else {
            throw BenchError("the card's players have no computed index (\(net.count) net cards)")
        }
        var onePass: [Double] = []
        var perPlayer: [Double] = []
        for _ in 0..<runs {
            onePass.append(
                try seconds { _ = try home.handicaps.playingHandicap(card: card, space: space, allowancePercent: 95) } * 1000)
            perPlayer.append(
                try seconds {
                    for player in card.players { _ = try home.handicaps.handicapRecord(for: player, in: space) }
                } * 1000)
        }
        return [
            ("cardFinishedGames", Double(games), "games"),
            ("cardNetMedianMs", onePass.sorted()[runs / 2], "ms"),
            ("cardNetPerPlayerMedianMs", perPlayer.sorted()[runs / 2], "ms"),
        ]
    }
}
