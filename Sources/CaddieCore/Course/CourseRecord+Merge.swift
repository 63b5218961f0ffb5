/// Merging an imported course (such as an OpenStreetMap import) into a course that is already known.
extension CourseRecord {
    /// This course with `imported` merged in, for an import that should add to a course rather than replace it.
    ///
    /// - Card data this course already has wins: name, club, city, country, source, the tees and their ratings,
    ///   and per hole name, par, stroke index and yardages. Values it lacks are filled from `imported`, and tees
    ///   it lacks are added (after its own).
    /// - Geometry from `imported` wins: for each hole where `imported` has a line, green, tee positions, hazards
    ///   or layups, those replace this course's; holes `imported` has no geometry for keep theirs. The geometry's
    ///   source, date and attribution follow the import; a different attribution already present is kept too.
    /// - The id and the hole count stay this course's, unless `imported` has more holes.
    public func merged(with imported: CourseRecord) -> CourseRecord {
        var result = self
        result.club = club ?? imported.club
        result.city = city ?? imported.city
        result.country = country ?? imported.country
        result.source = source ?? imported.source
        result.asOf = asOf ?? imported.asOf
        if latitude == nil || longitude == nil {
            result.latitude = imported.latitude
            result.longitude = imported.longitude
        }
        if imported.holes.contains(where: \.hasGeometry) {
            result.geometrySource = imported.geometrySource ?? geometrySource
            result.geometryAsOf = imported.geometryAsOf ?? geometryAsOf
        }
        result.attribution = Self.joined(attribution, imported.attribution)

        var names: [String: String] = [:]
        for tee in tees { names[tee.name.lowercased()] = tee.name }
        for tee in imported.tees {
            if let index = result.tees.firstIndex(where: { $0.name.lowercased() == tee.name.lowercased() }) {
                result.tees[index] = Self.filled(result.tees[index], from: tee)
            } else {
                result.tees.append(tee)
                names[tee.name.lowercased()] = tee.name
            }
        }
        func canonical(_ map: [String: Int]) -> [String: Int] {
            var out: [String: Int] = [:]
            for (tee, value) in map { out[names[tee.lowercased()] ?? tee] = value }
            return out
        }

        let count = max(holes.count, imported.holes.count)
        result.holes = (1...max(1, count)).map { number in
            var hole = hole(number) ?? Hole(number: number)
            guard let other = imported.hole(number) else { return hole }
            hole.name = hole.name ?? other.name
            hole.par = hole.par ?? other.par
            hole.strokeIndex = hole.strokeIndex ?? other.strokeIndex
            hole.pars.merge(canonical(other.pars)) { mine, _ in mine }
            hole.strokeIndexes.merge(canonical(other.strokeIndexes)) { mine, _ in mine }
            hole.yards.merge(canonical(other.yards)) { mine, _ in mine }
            if let line = other.line { hole.line = line }
            if !other.green.isEmpty { hole.green = other.green }
            if !other.teePositions.isEmpty { hole.teePositions = other.teePositions }
            for (tee, points) in other.teePositionsByTee {
                hole.teePositionsByTee[names[tee.lowercased()] ?? tee] = points
            }
            if !other.hazards.isEmpty { hole.hazards = other.hazards }
            if !other.layups.isEmpty { hole.layups = other.layups }
            return hole
        }
        return result
    }

    private static func filled(_ tee: Tee, from other: Tee) -> Tee {
        var tee = tee
        // Rating, slope and their provenance travel together: a rating is never paired with another source's slope.
        if tee.rating == nil, tee.slope == nil, other.rating != nil || other.slope != nil {
            tee.rating = other.rating
            tee.slope = other.slope
            tee.source = other.source
            tee.asOf = other.asOf
        }
        tee.par = tee.par ?? other.par
        tee.gender = tee.gender ?? other.gender
        tee.colour = tee.colour ?? other.colour
        tee.yards = tee.yards ?? other.yards
        tee.front = tee.front ?? other.front
        tee.back = tee.back ?? other.back
        tee.source = tee.source ?? other.source
        tee.asOf = tee.asOf ?? other.asOf
        return tee
    }

    private static func joined(_ first: String?, _ second: String?) -> String? {
        guard let first, !first.isEmpty else { return second }
        guard let second, !second.isEmpty, !first.contains(second) else { return first }
        let both = first + "; " + second
        return both.utf8.count <= 1000 ? both : first
    }
}
