"""Geometry shared by the sample-course build: the rules of Sources/CaddieOSM/LocalPlane.swift and
OSMCourseGeometry.swift (same constants, same projection), in Python."""

import math
import re

ATTRIBUTION = "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)"

# The constants of OSMCourseGeometry.swift.
GREEN_SEARCH_M = 40.0
EDGE_M = 2.0
TEE_LATERAL_M = 40.0
TEE_BEHIND_M = 100.0
TEE_AHEAD_FRACTION = 0.6
BUNKER_BUFFER_M = 35.0
WATER_BUFFER_M = 40.0
SIDE_M = 5.0
GREENSIDE_M = 10.0


def e7(value):
    """Rounds to 1e-7 degree, half away from zero, as CoursePoint does."""
    scaled = abs(value) * 1e7
    return math.copysign(math.floor(scaled + 0.5), value) / 1e7


class Plane:
    """LocalPlane.swift: metres east/north of an origin with the WGS84 radii of curvature there."""

    def __init__(self, lat0, lon0):
        a = 6378137.0
        f = 1 / 298.257223563
        e2 = f * (2 - f)
        phi = math.radians(lat0)
        w = math.sqrt(1 - e2 * math.sin(phi) ** 2)
        self.lat0, self.lon0 = lat0, lon0
        self.north = a * (1 - e2) / w ** 3 * math.pi / 180
        self.east = max(1e-6, a / w * math.cos(phi) * math.pi / 180)

    def project(self, p):
        lat, lon = p
        return ((lon - self.lon0) * self.east, (lat - self.lat0) * self.north)

    def position(self, v):
        return (e7(self.lat0 + v[1] / self.north), e7(self.lon0 + v[0] / self.east))


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def length(a):
    return math.hypot(a[0], a[1])


def contains(ring, p):
    if len(ring) < 3:
        return False
    inside = False
    prev = ring[-1]
    for cur in ring:
        if (cur[1] > p[1]) != (prev[1] > p[1]):
            x = cur[0] + (p[1] - cur[1]) * (prev[0] - cur[0]) / (prev[1] - cur[1])
            if x > p[0]:
                inside = not inside
        prev = cur
    return inside


def nearest(p, a, b):
    d = sub(b, a)
    l2 = dot(d, d)
    t = min(1.0, max(0.0, dot(sub(p, a), d) / l2)) if l2 > 0 else 0.0
    return length(sub((a[0] + d[0] * t, a[1] + d[1] * t), p)), t


def locate(p, line):
    """(distance, along, side) of p relative to a polyline; side > 0 is left of the direction of travel."""
    if not line:
        return (math.inf, 0.0, 0.0)
    if len(line) < 2:
        return (length(sub(p, line[0])), 0.0, 0.0)
    best = (math.inf, 0.0, 0.0)
    travelled = 0.0
    for a, b in zip(line, line[1:]):
        seg = sub(b, a)
        dist, t = nearest(p, a, b)
        if dist < best[0]:
            seg_len = length(seg)
            side = cross(seg, sub(p, a)) / seg_len if seg_len > 0 else 0.0
            best = (dist, travelled + t * seg_len, side)
        travelled += length(seg)
    return best


def shape_distance(shape, line):
    if not shape or not line:
        return math.inf
    if len(shape) >= 3 and any(contains(shape, p) for p in line):
        return 0.0
    best = min(locate(p, line)[0] for p in shape)
    if len(shape) >= 2:
        ring = shape + [shape[0]] if len(shape) >= 3 else shape
        best = min(best, min(locate(p, ring)[0] for p in line))
    return best


def centroid(ring):
    if not ring:
        return (0.0, 0.0)
    base = ring[0]
    area = cx = cy = 0.0
    prev = sub(ring[-1], base)
    for corner in ring:
        cur = sub(corner, base)
        step = cross(prev, cur)
        area += step
        cx += (prev[0] + cur[0]) * step
        cy += (prev[1] + cur[1]) * step
        prev = cur
    if abs(area) < 1e-9:
        return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))
    return (base[0] + cx / (3 * area), base[1] + cy / (3 * area))


def crossings(ring, start, through):
    d = sub(through, start)
    if length(d) == 0 or len(ring) < 3:
        return []
    out = []
    prev = ring[-1]
    for cur in ring:
        edge = sub(cur, prev)
        den = cross(d, edge)
        if abs(den) > 1e-12:
            off = sub(prev, start)
            t = cross(off, edge) / den
            u = cross(off, d) / den
            if 0 <= u <= 1:
                out.append(t)
        prev = cur
    return sorted(out)


# ---------------------------------------------------------------------------------------------------------------
# Reading the GeoJSON extracts

def ring_of(geometry):
    """The outer ring of a Polygon as (lat, lon) pairs without the closing corner."""
    ring = [(c[1], c[0]) for c in geometry["coordinates"][0]]
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    return ring


def points_of(feature):
    g = feature["geometry"]
    if g["type"] == "Point":
        return [(g["coordinates"][1], g["coordinates"][0])], False
    if g["type"] == "LineString":
        return [(c[1], c[0]) for c in g["coordinates"]], False
    if g["type"] == "Polygon":
        return ring_of(g), True
    return [], False


def hole_number(props):
    name = (props.get("name") or "").strip().lower()
    ref = props.get("ref")
    if ref is not None and re.match(r"\s*\d{1,4}", str(ref)):
        return int(re.match(r"\s*(\d{1,4})", str(ref)).group(1))
    m = re.fullmatch(r"(?:hole\s*|no\.\s*|#\s*)?(\d{1,2})(st|nd|rd|th)?", name)
    return int(m.group(1)) if m else None


def chain(ways):
    if len(ways) == 1:
        return ways[0]

    def meets(a, b):
        return abs(a[0] - b[0]) < 1e-5 and abs(a[1] - b[1]) < 1e-5

    for start in range(len(ways)):
        if any(i != start and meets(ways[i][-1], ways[start][0]) for i in range(len(ways))):
            continue
        unused = [i for i in range(len(ways)) if i != start]
        joined = list(ways[start])
        while True:
            nxt = next((i for i in unused if meets(joined[-1], ways[i][0])), None)
            if nxt is None:
                break
            unused.remove(nxt)
            joined += ways[nxt][1:]
        if not unused:
            return joined
        break
    return max(ways, key=len)


def green_for(plane, line, polygons):
    """OSMCourseGeometry.green(for:polygons:points:) for polygon greens."""
    end = line[-1]
    best = None
    for index, poly in enumerate(polygons):
        ring = [plane.project(p) for p in poly]
        dist = 0.0 if contains(ring, end) else locate(end, ring + [ring[0]])[0]
        if dist <= GREEN_SEARCH_M and (best is None or dist < best[0]):
            best = (dist, index)
    if best is None:
        return None, None
    poly = polygons[best[1]]
    ring = [plane.project(p) for p in poly]
    centre = centroid(ring)
    if not contains(ring, centre) and contains(ring, end):
        centre = end
    green = {"outline": poly, "centre": plane.position(centre)}
    front, back = front_back(ring, line[:-1], centre)
    if front:
        green["front"] = plane.position(front)
    if back:
        green["back"] = plane.position(back)
    return green, ring


def front_back(ring, approach, centre):
    """Where the line from the last approach point outside the green through the centre enters and leaves it."""
    closed = ring + [ring[0]]

    def on_or_inside(p):
        return contains(ring, p) or locate(p, closed)[0] < EDGE_M

    index = len(approach) - 1
    while index > 0 and on_or_inside(approach[index]):
        index -= 1
    start = approach[index]
    ts = [t for t in crossings(ring, start, centre) if t > 1e-9]
    d = sub(centre, start)
    at = lambda t: (start[0] + d[0] * t, start[1] + d[1] * t)
    if contains(ring, start):
        return None, (at(ts[-1]) if ts else None)
    if len(ts) >= 1 and ts[0] < ts[-1]:
        return at(ts[0]), at(ts[-1])
    return None, None


def base_name(kind, side, greenside):
    name = {"bunker": "bunker", "water": "water", "lateralWater": "lateral water", "outOfBounds": "out of bounds"}[kind]
    if side is not None:
        if side > SIDE_M:
            name += " left"
        elif side < -SIDE_M:
            name += " right"
    if greenside:
        name = "greenside " + name
    return name[0].upper() + name[1:]


def fitted(base, suffix):
    head = base
    while head and len((head + suffix).encode()) > 32:
        head = head[:-1]
    return head + suffix


def unique_names(items):
    """OSMCourseGeometry.uniqueNames: items are (base, along) in play order."""
    counts = {}
    for base, _ in items:
        counts[base.lower()] = counts.get(base.lower(), 0) + 1
    seen, taken, names = {}, set(), []
    for base, _ in items:
        key = base.lower()
        name = base
        if counts[key] > 1:
            seen[key] = seen.get(key, 0) + 1
            name = fitted(base, " %d" % seen[key])
        attempt = 2
        while name.lower() in taken and attempt <= len(items) + 2:
            name = fitted(base, " %d" % attempt)
            attempt += 1
        taken.add(name.lower())
        names.append(name)
    return names


def hazard_kind(props):
    golf = props.get("golf")
    return {"bunker": "bunker", "water_hazard": "water", "lateral_water_hazard": "lateralWater",
            "out_of_bounds": "outOfBounds"}.get(golf) or ("water" if props.get("natural") == "water" else None)


def is_greenside(shape, green_ring, centre):
    if green_ring:
        closed = green_ring + [green_ring[0]]
        return shape_distance(shape, closed) <= GREENSIDE_M or any(contains(green_ring, p) for p in shape)
    if centre:
        return any(length(sub(p, centre)) <= 30 for p in shape)
    return False


def pairs(points):
    return [[lat, lon] for lat, lon in points]


def loc(point):
    return {"lat": point[0], "lon": point[1]}
