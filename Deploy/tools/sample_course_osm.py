"""Geometry of the sample courses from the OpenStreetMap extracts in Data/osm (© OpenStreetMap contributors, ODbL 1.0).

`osm_course` follows Sources/CaddieOSM/OSMCourseImport.swift for a file with numbered golf=hole ways;
`pebble_course` handles the Pebble Beach extract, which has no hole ways: there the hole of each green, tee and
bunker is the label the source repository gave the feature (its `hole` property, not an OSM tag).
"""

import json

from sample_course_geometry import (
    ATTRIBUTION, BUNKER_BUFFER_M, TEE_AHEAD_FRACTION, TEE_BEHIND_M, TEE_LATERAL_M, WATER_BUFFER_M, Plane, base_name,
    centroid, chain, contains, cross, dot, front_back, green_for, hazard_kind, hole_number, is_greenside, length,
    loc, locate, pairs, points_of, shape_distance, sub, unique_names)

KIND_ORDER = ["bunker", "water", "lateralWater", "outOfBounds"]


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def mean_plane(points):
    return Plane(sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def hazard_entry(name, kind, points, is_polygon):
    entry = {"name": name, "kind": kind}
    entry["outline" if is_polygon else "points"] = pairs(points)
    return entry


def sorted_hazards(hazards):
    return sorted(hazards, key=lambda h: (KIND_ORDER.index(h["kind"]), h["name"]))


def osm_course(path, card, info):
    data = load(path)
    features = data["features"]
    meta = data.get("source", {}).get("upstream_metadata", {})
    date = (meta.get("fetched_at") or "")[:10] or None

    ways = {}
    for f in features:
        p = f["properties"]
        if p.get("golf") != "hole" or f["geometry"]["type"] != "LineString":
            continue
        number = hole_number(p)
        if number is None or not 1 <= number <= 18:
            continue
        ways.setdefault(number, []).append([(c[1], c[0]) for c in f["geometry"]["coordinates"]])
    lines = {n: chain(w) for n, w in sorted(ways.items())}
    count = 9 if max(lines) <= 9 else 18
    plane = mean_plane([p for line in lines.values() for p in line])
    projected = {n: [plane.project(p) for p in line] for n, line in lines.items()}

    green_polys = [points_of(f)[0] for f in features
                   if f["properties"].get("golf") == "green" and f["geometry"]["type"] == "Polygon"]
    greens = {n: green_for(plane, projected[n], green_polys) for n in lines}

    # Tees: the nearest first node among holes whose first segment the tee lies beside.
    tees = {}
    for f in features:
        if f["properties"].get("golf") != "tee":
            continue
        pts, is_poly = points_of(f)
        centre = plane.project(pts[0]) if not is_poly else centroid([plane.project(p) for p in pts])
        best = None
        for n, line in projected.items():
            start, seg = line[0], sub(line[1], line[0])
            seg_len = length(seg)
            along = dot(sub(centre, start), seg) / seg_len
            lateral = abs(cross(seg, sub(centre, start))) / seg_len
            if -TEE_BEHIND_M <= along <= TEE_AHEAD_FRACTION * seg_len and lateral <= TEE_LATERAL_M:
                dist = length(sub(centre, start))
                if best is None or dist < best[0]:
                    best = (dist, n)
        if best:
            tees.setdefault(best[1], []).append(centre)

    # Hazards near the line of play.
    placed = {}
    for f in features:
        kind = hazard_kind(f["properties"])
        pts, is_poly = points_of(f)
        if kind is None or not pts or (f["geometry"]["type"] == "LineString"):
            continue
        shape = [plane.project(p) for p in pts]
        buffer = BUNKER_BUFFER_M if kind == "bunker" else WATER_BUFFER_M
        near = [(n, shape_distance(shape, line)) for n, line in projected.items()]
        near = [(n, d) for n, d in near if d <= buffer]
        if kind == "bunker" and near:
            near = [min(near, key=lambda x: x[1])]
        reference = centroid(shape) if is_poly else shape[0]
        for n, _ in near:
            _, along, side = locate(reference, projected[n])
            green, ring = greens[n]
            centre = plane.project(green["centre"]) if green else None
            name = f["properties"].get("name")
            if not name or len(name.encode()) > 32 or "/" in name:
                name = base_name(kind, side, is_greenside(shape, ring, centre))
            placed.setdefault(n, []).append((name, along, kind, pts, is_poly))

    holes = []
    for number in range(1, count + 1):
        hole = {"number": number}
        if number not in lines:
            holes.append(hole)
            continue
        green, ring = greens[number]
        centre = plane.project(green["centre"]) if green else None
        positions = tees.get(number, [])
        if centre is not None:
            positions = sorted(positions, key=lambda v: -length(sub(v, centre)))
        positions = [plane.position(v) for v in positions][:32] or [lines[number][0]]
        hole["teePositions"] = [loc(p) for p in positions]
        hole["line"] = pairs(lines[number])
        if green:
            hole["green"] = {"outline": pairs(green["outline"]), "centre": loc(green["centre"])}
            for key in ("front", "back"):
                if key in green:
                    hole["green"][key] = loc(green[key])
        else:
            hole["green"] = {"centre": loc(lines[number][-1])}
        items = sorted(placed.get(number, []), key=lambda x: x[1])[:200]
        names = unique_names([(i[0], i[1]) for i in items])
        hazards = [hazard_entry(name, i[2], i[3], i[4]) for name, i in zip(names, items)]
        if hazards:
            hole["hazards"] = sorted_hazards(hazards)
        holes.append(hole)

    boundary = None
    starts = [line[0] for line in projected.values()]
    for f in features:
        if f["properties"].get("leisure") == "golf_course" and f["geometry"]["type"] == "Polygon":
            ring = [plane.project(p) for p in points_of(f)[0]]
            inside = sum(1 for s in starts if contains(ring, s))
            if inside and (boundary is None or inside > boundary[1]):
                boundary = (f, inside, ring)
    name = boundary[0]["properties"]["name"]
    location = plane.position(centroid(boundary[2]))
    country = next((f["properties"].get("iso_country") for f in features if f["properties"].get("iso_country")), None)
    extract = info.get("extract", "")
    source = ("OpenStreetMap contributors, ODbL 1.0 (Overpass, fetched %s, as extracted by %s; Caddie's copy: Data/osm/%s): %d golf=hole "
              "ways in %s; ref/par/handicap tags were stripped upstream, so pars, stroke indexes, yardages and "
              "ratings are absent" % (date, extract, path.split("/")[-1], sum(len(w) for w in ways.values()),
                                      boundary[0]["id"]))
    course = {"name": name, "club": name, "city": info.get("city"), "country": country,
              "location": loc(location), "source": source, "asOf": date, "geometrySource": source,
              "geometryAsOf": date, "attribution": ATTRIBUTION}
    course.update({k: v for k, v in card.items() if not k.startswith("_")})
    course["holes"] = holes
    return {k: v for k, v in course.items() if v is not None}


def pebble_course(path, card):
    data = load(path)
    features = data["features"]
    labelled = [f for f in features if f["properties"].get("hole")]
    plane = mean_plane([p for f in labelled for p in points_of(f)[0]])
    greens, tees, bunkers = {}, {}, {}
    for f in labelled:
        p = f["properties"]
        number = p["hole"]
        pts, _ = points_of(f)
        if p.get("golf") == "green" or p.get("source_label", "").endswith("_green"):
            greens[number] = pts
        elif p.get("golf") == "tee":
            tees.setdefault(number, []).append(centroid([plane.project(q) for q in pts]))
        elif p.get("golf") == "bunker":
            bunkers.setdefault(number, []).append(pts)

    holes = []
    for hole in card["holes"]:
        hole = dict(hole)
        number, par = hole["number"], hole.get("par")
        outline = greens.get(number)
        ring = [plane.project(q) for q in outline] if outline else None
        centre = centroid(ring) if ring else None
        positions = tees.get(number, [])
        if centre is not None:
            positions = sorted(positions, key=lambda v: -length(sub(v, centre)))
        if positions:
            hole["teePositions"] = [loc(plane.position(v)) for v in positions]
        # The line of play is known only on a par 3: from the back tee straight to the green.
        line = [positions[0], centre] if par == 3 and positions and centre is not None else None
        if ring:
            hole["green"] = {"outline": pairs(outline), "centre": loc(plane.position(centre))}
            if line:
                front, back = front_back(ring, line[:1], centre)
                if front:
                    hole["green"]["front"] = loc(plane.position(front))
                if back:
                    hole["green"]["back"] = loc(plane.position(back))
        items = []
        for pts in bunkers.get(number, []):
            shape = [plane.project(q) for q in pts]
            ref = centroid(shape)
            side = locate(ref, line)[2] if line else None
            along = locate(ref, line)[1] if line else (-length(sub(ref, centre)) if centre else 0.0)
            items.append((base_name("bunker", side, is_greenside(shape, ring, centre)), along, pts))
        items.sort(key=lambda x: x[1])
        names = unique_names([(i[0], i[1]) for i in items])
        hazards = [hazard_entry(name, "bunker", i[2], True) for name, i in zip(names, items)]
        if hazards:
            hole["hazards"] = sorted_hazards(hazards)
        holes.append(hole)
    course = {k: v for k, v in card.items() if not k.startswith("_") and k != "holes"}
    course["geometrySource"] = (
        "OpenStreetMap ways (OSM ids kept) from ahercus/golf-sim-2.0 src/courseData/PebbleData.json at commit "
        "33f3716 (2025-01-28), © OpenStreetMap contributors, ODbL 1.0 (Caddie's copy: Data/osm/pebble-beach.osm-derived.geojson). OSM has no golf=hole ways "
        "here: the hole of each green, tee and bunker is that repository's feature label, not an OSM tag. Hole 7 has "
        "no green (the source's was hand-drawn and dropped); front/back only on par 3s, along the line from the back "
        "tee")
    course["geometryAsOf"] = "2025-01-28"
    course["attribution"] = ATTRIBUTION
    course["holes"] = holes
    return course
