/// A course record written back as the course file format, for `caddie course export` and for moving a course
/// between homes.
extension RawCourse {
    init(_ course: CourseRecord, includeID: Bool) {
        func pairs(_ points: [CoursePoint]) -> [[Double]] { points.map { [$0.latitude, $0.longitude] } }
        func position(_ point: CoursePoint?) -> Location? {
            point.map { Location(lat: $0.latitude, lon: $0.longitude) }
        }
        func nine(_ rating: CourseRecord.Rating?) -> Nine? {
            rating.map { Nine(rating: $0.rating, slope: $0.slope, par: $0.par) }
        }
        func nonEmpty<T>(_ map: [String: T]) -> [String: T]? { map.isEmpty ? nil : map }
        func nonEmpty<T>(_ list: [T]) -> [T]? { list.isEmpty ? nil : list }

        id = includeID ? course.id.hex : nil
        name = course.name
        club = course.club
        city = course.city
        country = course.country
        if let lat = course.latitude, let lon = course.longitude { location = Location(lat: lat, lon: lon) }
        source = course.source
        asOf = course.asOf
        geometrySource = course.geometrySource
        geometryAsOf = course.geometryAsOf
        attribution = course.attribution
        tees = course.tees.map { tee in
            Tee(
                name: tee.name,
                colour: tee.colour,
                gender: tee.gender,
                rating: tee.rating,
                slope: tee.slope,
                par: tee.par,
                yards: tee.yards,
                front: nine(tee.front),
                back: nine(tee.back),
                source: tee.source,
                asOf: tee.asOf
            )
        }
        let teeOrder = course.tees.map(\.name)
        holes = course.holes.map { hole in
            var positions = hole.teePositions.map { TeePosition(tee: nil, lat: $0.latitude, lon: $0.longitude) }
            let named = hole.teePositionsByTee.keys.sorted {
                (teeOrder.firstIndex(of: $0) ?? Int.max, $0) < (teeOrder.firstIndex(of: $1) ?? Int.max, $1)
            }
            for tee in named {
                for point in hole.teePositionsByTee[tee] ?? [] {
                    positions.append(TeePosition(tee: tee, lat: point.latitude, lon: point.longitude))
                }
            }
            let green =
                hole.green.isEmpty
                ? nil
                : Green(
                    outline: hole.green.outline.map { pairs($0.points) },
                    front: position(hole.green.front),
                    centre: position(hole.green.centre),
                    back: position(hole.green.back)
                )
            let hazards = hole.hazards.map { hazard in
                Hazard(
                    name: hazard.name,
                    kind: hazard.kind.rawValue,
                    outline: hazard.shape.kind == .polygon ? pairs(hazard.shape.points) : nil,
                    points: hazard.shape.kind == .polygon ? nil : pairs(hazard.shape.points)
                )
            }
            return Hole(
                number: hole.number,
                name: hole.name,
                par: hole.par,
                strokeIndex: hole.strokeIndex,
                yards: nonEmpty(hole.yards),
                pars: nonEmpty(hole.pars),
                strokeIndexes: nonEmpty(hole.strokeIndexes),
                teePositions: nonEmpty(positions),
                line: hole.line.map { pairs($0.points) },
                green: green,
                hazards: nonEmpty(hazards),
                layups: nonEmpty(
                    hole.layups.map { Layup(name: $0.name, lat: $0.point.latitude, lon: $0.point.longitude) }
                )
            )
        }
    }
}
