"""Card data of the sample courses, copied from the sources cited on each card below.

Every value here is as a cited source gives it; what no source gives is absent. `asOf` is the date the source
states (a scorecard's year, an article's date), else "2026-11", the month the sources were read.
`_osm` names the OpenStreetMap extract in Data/osm that supplies the geometry; `_copy` a file in the
repository to ship as it is.
"""

READ = "2026-11"

PEBBLE_PAR = [4, 5, 4, 4, 3, 5, 3, 4, 4, 4, 4, 3, 4, 5, 4, 4, 3, 5]
PEBBLE_YARDS = [380, 502, 404, 331, 195, 523, 109, 428, 505, 495, 390, 202, 445, 580, 397, 403, 208, 543]
TIGER = ("2013 Pebble Beach scorecard as reported by tigergolftraveler.com, 2014-07-28 "
         "(https://tigergolftraveler.com/2014/07/28/pebble-beach-golf-links/)")
SOKOL = "Championship card at http://www.golfwithphilsokol.com/pebble-beach-gl"

OLD_COURSE = [  # name, par, yards (None where the sources conflict)
    ("Burn", 4, 376), ("Dyke", 4, 453), ("Cartgate (Out)", 4, 397), ("Ginger Beer", 4, 480),
    ("Hole O'Cross (Out)", 5, 568), ("Heathery (Out)", 4, 412), ("High (Out)", 4, 371), ("Short", 3, 175),
    ("End", 4, 352), ("Bobby Jones", 4, None), ("High (In)", 3, None), ("Heathery (In)", 4, 348),
    ("Hole O'Cross (In)", 4, 465), ("Long", 5, 618), ("Cartgate (In)", 4, 455), ("Corner of the Dyke", 4, 423),
    ("Road", 4, 495), ("Tom Morris", 4, 357),
]

CARDS = {
    "haagsche": {"_copy": "docs/examples/course.json"},
    "pebble-beach": {
        "_osm": {"kind": "pebble", "file": "pebble-beach.osm-derived.geojson"},
        "name": "Pebble Beach Golf Links",
        "city": "Pebble Beach",
        "country": "US",
        "location": {"lat": 36.5696553, "lon": -121.9497555},
        "source": ("Location: GHIN-style course record in a public repository (reliability C), inside the "
                   "OpenStreetMap extent of the course; hole pars and Championship yards: " + SOKOL
                   + "; tee ratings: see each tee. Stroke indexes: no reliable source found, so absent."),
        "asOf": READ,
        "tees": [
            {"name": "Championship", "rating": 76.3, "slope": 149, "par": 72, "yards": 7040,
             "source": SOKOL, "asOf": READ},
            {"name": "Blue", "colour": "blue", "rating": 74.7, "slope": 143, "yards": 6828, "source": TIGER,
             "asOf": "2013"},
            {"name": "Gold", "colour": "gold", "rating": 72.6, "slope": 136, "yards": 6445, "source": TIGER,
             "asOf": "2013"},
            {"name": "White", "colour": "white", "rating": 71.3, "slope": 132, "yards": 6116, "source": TIGER,
             "asOf": "2013"},
            {"name": "Red", "colour": "red", "gender": "F", "rating": 71.8, "slope": 129, "yards": 5249,
             "source": TIGER + "; the women's rating", "asOf": "2013"},
        ],
        "holes": [{"number": n + 1, "par": PEBBLE_PAR[n], "yards": {"Championship": PEBBLE_YARDS[n]}}
                  for n in range(18)],
    },
    "old-course-st-andrews": {
        "name": "The Old Course",
        "club": "St Andrews Links Trust",
        "city": "St Andrews",
        "country": "GB",
        "location": {"lat": 56.343, "lon": -2.803},
        "source": ("Location, length and operator: https://en.wikipedia.org/wiki/Old_Course_at_St_Andrews; hole "
                   "names, pars and Open Championship yards: Irish Times 2010 Open card (holes 1-9, "
                   "https://www.irishtimes.com/sport/139th-british-open-old-course-card-1.622092), "
                   "golfblogger.co.uk 2015 (hole 12), hookedongolfblog.com 2015 (holes 13-18). Yards of holes 10 and "
                   "11 are absent because the sources conflict (340 or 386; 179 or 174). Stroke indexes: not found."),
        "asOf": READ,
        "tees": [
            {"name": "Championship", "par": 72, "yards": 7305,
             "source": "Open Championship length per https://en.wikipedia.org/wiki/Old_Course_at_St_Andrews; "
                       "hole yards from the 2010 Open card (see the course source)",
             "asOf": "2010"},
            {"name": "Tips", "rating": 73.1, "slope": 132, "yards": 6721,
             "source": "\"From the tips: 6,721 yards, Rating 73.1, Slope 132\", "
                       "https://si.com/golf/travel/feature-2017-12-18-st-andrews-the-old-course-9-9-score",
             "asOf": "2017-12-18"},
        ],
        "holes": [dict({"number": n + 1, "name": name, "par": par},
                       **({"yards": {"Championship": yards}} if yards else {}))
                  for n, (name, par, yards) in enumerate(OLD_COURSE)],
    },
    "torrey-pines-south": {
        "name": "South Course",
        "club": "Torrey Pines Golf Course",
        "city": "San Diego",
        "country": "US",
        "location": {"lat": 32.9045, "lon": -117.2454},
        "source": ("Owner, location, par 72 (36/36): Wikipedia, Torrey Pines South Course (2023-10 mirror, "
                   "https://iiab.me/kiwix/content/wikipedia_en_all_maxi_2023-10/A/Torrey_Pines_South_Course). "
                   "Hole-by-hole par, stroke index and yards: no reliable source found, so absent."),
        "asOf": READ,
        "tees": [
            {"name": "Black", "colour": "black", "rating": 78.8, "slope": 148, "par": 72, "yards": 7802,
             "front": {"par": 36}, "back": {"par": 36},
             "source": "Wikipedia, Torrey Pines South Course, citing the USGA Course Rating and Slope Database "
                       "(accessed 2018)",
             "asOf": "2018"},
            {"name": "White", "colour": "white", "rating": 73.1, "slope": 133, "par": 72, "yards": 6623,
             "front": {"par": 36}, "back": {"par": 36},
             "source": "https://amateurgolf.com/golf-course-reviews/3816/Torrey-Pines-South-Course-Review",
             "asOf": READ},
        ],
        "holes": [{"number": n + 1} for n in range(18)],
    },
    "royal-zoute": {
        "_osm": {"kind": "holes", "file": "royal-zoute.osm.geojson", "city": "Knokke-Heist",
                 "extract": "sirmmo/opengolfmap web/public/data/features/BE.geojson at commit 6305494"},
        "tees": [],
    },
    "praia-del-rey": {
        "_osm": {"kind": "holes", "file": "praia-del-rey.osm.geojson", "city": "Óbidos",
                 "extract": "sirmmo/opengolfmap web/public/data/features/PT.geojson at commit 6305494"},
        "tees": [],
    },
}
