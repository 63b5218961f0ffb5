/// The id of a game in a space. Below the CLI and the API every game is named by its id: what a person typed is
/// resolved once, at the edge (`Home.resolveGame`).
public typealias GameID = EntityID
/// The id of a player in a space (resolved from a name or id prefix at the edge: `Home.resolvePlayer`).
public typealias PlayerID = EntityID
/// The id of a course in a space (resolved at the edge: `Home.resolveCourse`).
public typealias CourseID = EntityID
