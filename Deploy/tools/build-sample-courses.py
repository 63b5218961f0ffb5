#!/usr/bin/env python3
"""Builds the sample courses that ship with Caddie (Sources/CaddieNode/Resources/SampleCourses/*.json).

Usage:  Deploy/tools/build-sample-courses.py [OSM_DIR] [OUT_DIR]

OSM_DIR defaults to Data/osm (the OpenStreetMap extracts described in its README.md); OUT_DIR to Sources/CaddieNode/Resources/SampleCourses. The output is deterministic: running the script
again on the same input gives the same files.

Card data (names, pars, yardages, ratings) is copied from the sources cited in sample_course_cards.py and
carried in each file's `source` / tee `source` fields. Geometry comes from OpenStreetMap (ODbL 1.0) and is derived
with the rules of Sources/CaddieOSM/OSMCourseGeometry.swift (same constants, same projection), so a Swift
import of the same GeoJSON gives the same greens. A value no source gives is left out, never guessed.

If the `jsonschema` package is installed, every file is checked against Protocol/course.schema.json.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sample_course_cards import CARDS  # noqa: E402
from sample_course_osm import osm_course, pebble_course  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------------------------------------------------------
# Output

def dump(course):
    text = json.dumps(course, indent=2, ensure_ascii=False)
    # One [lat, lon] pair per line keeps the files readable.
    return re.sub(r"\[\s+(-?[\d.]+),\s+(-?[\d.]+)\s+\]", r"[\1, \2]", text) + "\n"


def main():
    osm_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "Data", "osm")
    out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "Sources", "CaddieNode", "Resources",
                                                                  "SampleCourses")
    os.makedirs(out_dir, exist_ok=True)
    courses = {}
    for slug, card in CARDS.items():
        card = dict(card)
        osm = card.pop("_osm", None)
        copy = card.pop("_copy", None)
        if copy is not None:
            with open(os.path.join(REPO, copy), encoding="utf-8") as handle:
                course = json.load(handle)
            # The example file's ratings come from its course-level source; say so on each rated tee.
            for tee in course.get("tees", []):
                if "rating" in tee or "slope" in tee:
                    tee.setdefault("source", course.get("source"))
                    tee.setdefault("asOf", course.get("asOf"))
            courses[slug] = course
        elif osm is None:
            courses[slug] = card
        elif osm["kind"] == "pebble":
            courses[slug] = pebble_course(os.path.join(osm_dir, osm["file"]), card)
        else:
            courses[slug] = osm_course(os.path.join(osm_dir, osm["file"]), card, osm)
    try:
        import jsonschema
        with open(os.path.join(REPO, "Protocol", "course.schema.json"), encoding="utf-8") as handle:
            schema = json.load(handle)
    except ImportError:
        schema = None
    for slug, course in courses.items():
        if schema is not None:
            jsonschema.validate(course, schema)
        path = os.path.join(out_dir, slug + ".json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(dump(course))
        print("wrote", os.path.relpath(path, REPO), "(%d holes, %d tees)" % (len(course["holes"]), len(course["tees"])))


if __name__ == "__main__":
    main()
