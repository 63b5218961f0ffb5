import CaddieCore
import Foundation

/// Reads OpenStreetMap data from JSON: a GeoJSON FeatureCollection (overpass-turbo's export, osmtogeojson) or an
/// Overpass API JSON response (`[out:json]` with `out geom;` or with the nodes included).
enum OSMJSONReader {
    static func read(_ data: Data) throws(CoreError) -> OSMData {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            let detail: String
            if case DecodingError.dataCorrupted(let context) = error {
                detail =
                    (context.underlyingError as? NSError)?.userInfo["NSDebugDescription"] as? String
                    ?? context.debugDescription
            } else {
                detail = "\(error)"
            }
            throw .malformed("the OpenStreetMap file is not valid JSON (\(detail)); export the course again as GeoJSON")
        }
        let date = OSMData.date(
            from: root["timestamp"]?.text ?? root["osm3s"]?["timestamp_osm_base"]?.text
                ?? root["source"]?["upstream_metadata"]?["fetched_at"]?.text
        )
        if let elements = root["elements"]?.array {
            return OSMData(features: try overpass(elements).features(), date: date, format: "Overpass JSON")
        }
        switch root["type"]?.text {
        case "FeatureCollection":
            guard let list = root["features"]?.array else {
                throw .malformed("the GeoJSON FeatureCollection has no \"features\" array; export the course again")
            }
            guard list.count <= OSMData.maxElements else {
                throw .malformed("the GeoJSON file has \(list.count) features; at most \(OSMData.maxElements) are read")
            }
            return OSMData(features: list.flatMap(features), date: date, format: "GeoJSON")
        case "Feature":
            return OSMData(features: features(root), date: date, format: "GeoJSON")
        default:
            throw .malformed(
                "the JSON file is neither a GeoJSON FeatureCollection nor an Overpass JSON export; "
                    + "export the course from overpass-turbo as GeoJSON"
            )
        }
    }

    // MARK: - GeoJSON

    /// The features of one GeoJSON feature: one, or several for a multi-geometry; none when it has no usable
    /// geometry.
    static func features(_ feature: JSONValue) -> [OSMFeature] {
        var tags: [String: String] = [:]
        let properties = feature["properties"]?.object ?? [:]
        for (key, value) in properties {
            if let text = value.text { tags[key] = text }
        }
        // osmtogeojson before 3.0 nested the tags.
        for (key, value) in properties["tags"]?.object ?? [:] {
            if let text = value.text { tags[key] = text }
        }
        let id =
            feature["id"]?.text ?? properties["@id"]?.text ?? properties["id"]?.text
            ?? ((properties["osm_type"]?.text).flatMap { type in properties["osm_id"]?.text.map { "\(type)/\($0)" } })
            ?? "feature"
        guard let geometry = feature["geometry"] else { return [] }
        return shapes(geometry, tags: tags).enumerated().map { index, shape in
            OSMFeature(id: index == 0 ? id : "\(id)#\(index)", tags: tags, geometry: shape)
        }
    }

    private static func shapes(_ geometry: JSONValue, tags: [String: String], depth: Int = 0) -> [OSMFeature.Geometry] {
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.text {
        case "Point":
            return coordinates.flatMap(point).map { [.point($0)] } ?? []
        case "LineString":
            let points = line(coordinates)
            return points.count >= 2 ? [OSMElements.geometry(points, tags)] : []
        case "MultiLineString":
            return (coordinates?.array ?? []).map(line).filter { $0.count >= 2 }.map { .line($0) }
        case "Polygon":
            return polygon(coordinates).map { [.polygon($0)] } ?? []
        case "MultiPolygon":
            return (coordinates?.array ?? []).compactMap(polygon).map { .polygon($0) }
        case "GeometryCollection" where depth < 4:
            return (geometry["geometries"]?.array ?? []).flatMap { shapes($0, tags: tags, depth: depth + 1) }
        default:
            return []
        }
    }

    /// A GeoJSON position: `[longitude, latitude]`, perhaps with an altitude after.
    private static func point(_ value: JSONValue) -> CoursePoint? {
        guard let pair = value.array, pair.count >= 2, let lon = pair[0].number, let lat = pair[1].number else {
            return nil
        }
        return CoursePoint(latitude: lat, longitude: lon)
    }

    private static func line(_ value: JSONValue?) -> [CoursePoint] {
        OSMData.thinned((value?.array ?? []).compactMap(point))
    }

    /// The outer ring of a polygon, without its closing corner.
    private static func polygon(_ value: JSONValue?) -> [CoursePoint]? {
        guard let outer = value?.array?.first else { return nil }
        var ring = line(outer)
        if ring.count > 1, ring.first == ring.last { ring.removeLast() }
        return ring.count >= 3 ? ring : nil
    }

    // MARK: - Overpass JSON

    private static func overpass(_ list: [JSONValue]) throws(CoreError) -> OSMElements {
        guard list.count <= OSMData.maxElements else {
            throw .malformed("the Overpass file has \(list.count) elements; at most \(OSMData.maxElements) are read")
        }
        var elements = OSMElements()
        for element in list {
            guard let id = element["id"]?.number.flatMap({ Int64(exactly: $0) }) else { continue }
            var tags: [String: String] = [:]
            for (key, value) in element["tags"]?.object ?? [:] {
                if let text = value.text { tags[key] = text }
            }
            switch element["type"]?.text {
            case "node":
                guard let lat = element["lat"]?.number, let lon = element["lon"]?.number,
                    let point = CoursePoint(latitude: lat, longitude: lon)
                else { continue }
                elements.nodes[id] = point
                if !tags.isEmpty { elements.taggedNodes.append((id, tags)) }
            case "way":
                let refs = (element["nodes"]?.array ?? []).compactMap { $0.number.flatMap { Int64(exactly: $0) } }
                elements.ways.append(.init(id: id, refs: refs, inline: geometry(element["geometry"]), tags: tags))
            case "relation":
                let members = (element["members"]?.array ?? []).compactMap { member -> OSMElements.Member? in
                    guard let type = member["type"]?.text,
                        let ref = member["ref"]?.number.flatMap({ Int64(exactly: $0) })
                    else { return nil }
                    return .init(
                        type: type,
                        ref: ref,
                        role: member["role"]?.text ?? "",
                        inline: geometry(member["geometry"])
                    )
                }
                elements.relations.append(.init(id: id, members: members, tags: tags))
            default:
                continue
            }
        }
        return elements
    }

    /// Overpass `out geom` positions: `[{"lat": …, "lon": …}, …]`.
    private static func geometry(_ value: JSONValue?) -> [CoursePoint] {
        let points = (value?.array ?? []).compactMap { item -> CoursePoint? in
            guard let lat = item["lat"]?.number, let lon = item["lon"]?.number else { return nil }
            return CoursePoint(latitude: lat, longitude: lon)
        }
        return OSMData.thinned(points)
    }
}
