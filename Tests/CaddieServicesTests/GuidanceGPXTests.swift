import Foundation
import Testing

@testable import CaddieServices

@Suite("Guidance: GPX track parsing")
struct GuidanceGPXTests {
    /// A GPX 1.1 track in the shape Soundscape records (Garmin TrackPointExtension v2 plus its own extension),
    /// with the XML features real files use: declaration, comment, namespaces, entities, CDATA, self-closing points.
    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- recorded on the 1st -->
        <gpx version="1.1" creator="Caddie &amp; tests" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
          <metadata><time>2020-01-01T00:00:00Z</time></metadata>
          <trk><name><![CDATA[Hole 1 <front>]]></name>
            <trkseg>
              <trkpt lat="56.3430" lon="-2.8030">
                <ele>12.5</ele>
                <time>2024-05-01T08:30:00Z</time>
                <extensions>
                  <gpxtpx:TrackPointExtension>
                    <gpxtpx:speed>1.4</gpxtpx:speed>
                    <gpxtpx:course>47.9</gpxtpx:course>
                  </gpxtpx:TrackPointExtension>
                  <soundscape:deviceHeading>50.5</soundscape:deviceHeading>
                </extensions>
              </trkpt>
              <trkpt lat='56.3431' lon='-2.8028'>
                <time>2024-05-01T09:30:01.5+01:00</time>
                <extensions><gpxtpx:course>-1</gpxtpx:course></extensions>
              </trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="56.3432" lon="-2.8026"/>
              <trkpt lat=" 56.3433 " lon="-2.8024"><time>1970-01-01T00:00:00Z</time><ele/></trkpt>
            </trkseg>
          </trk>
        </gpx>
        """

    @Test("reads every track point with position, time, elevation, course, speed and compass heading")
    func parsesSample() throws {
        let points = try GPXParser.parse(Self.sample)
        #expect(points.count == 4)
        #expect(
            points.map(\.point) == [
                try GeodesyFixtures.point(56.3430, -2.8030), try GeodesyFixtures.point(56.3431, -2.8028),
                try GeodesyFixtures.point(56.3432, -2.8026), try GeodesyFixtures.point(56.3433, -2.8024),
            ]
        )
        // 2024-05-01T08:30:00Z is 1,714,552,200 s after the Unix epoch (19,844 days and 8.5 hours).
        #expect(points[0].time == Date(timeIntervalSince1970: 1_714_552_200))
        #expect(points[0].elevation == 12.5)
        #expect(points[0].speed == 1.4)
        #expect(points[0].course == 47.9)
        #expect(points[0].deviceHeading == 50.5)
        #expect(points[0].headings.map(\.source) == [.compass, .courseOverGround])
        // +01:00 is an hour ahead of UTC; fractional seconds are kept.
        #expect(points[1].time == Date(timeIntervalSince1970: 1_714_552_201.5))
        // CoreLocation writes -1 for an invalid course.
        #expect(points[1].course == nil)
        #expect(points[2].time == nil && points[2].elevation == nil)
        // Soundscape writes a missing time as the epoch; an empty <ele/> says nothing.
        #expect(points[3].time == nil && points[3].elevation == nil)
    }

    @Test("bytes with a UTF-8 byte order mark parse like the string")
    func parsesData() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(Self.sample.utf8)
        #expect(try GPXParser.parse(data) == GPXParser.parse(Self.sample))
    }

    @Test(
        "malformed documents give the error that names the problem and its line",
        arguments: [
            ("", GuidanceError.gpxMalformed(line: 1, reason: "the document has no elements")),
            ("<kml/>", .gpxNotGPX(rootElement: "kml")),
            ("<gpx></gpx>", .gpxNoTrackPoints),
            (
                "<gpx>\n<trk>\n<trkpt lat='1'/></trk></gpx>",
                .gpxMissingAttribute(element: "trkpt", attribute: "lon", line: 3)
            ),
            ("<gpx><trkpt lon='1'/></gpx>", .gpxMissingAttribute(element: "trkpt", attribute: "lat", line: 1)),
            ("<gpx>\n<trkpt lat='91' lon='0'/></gpx>", .gpxValueOutOfRange(field: "lat", value: 91, line: 2)),
            ("<gpx><trkpt lat='0' lon='-180.5'/></gpx>", .gpxValueOutOfRange(field: "lon", value: -180.5, line: 1)),
            ("<gpx><trkpt lat='abc' lon='0'/></gpx>", .gpxInvalidNumber(field: "lat", text: "abc", line: 1)),
            ("<gpx><trkpt lat='nan' lon='0'/></gpx>", .gpxInvalidNumber(field: "lat", text: "nan", line: 1)),
            ("<gpx><trkpt lat='0x10' lon='0'/></gpx>", .gpxInvalidNumber(field: "lat", text: "0x10", line: 1)),
            (
                "<gpx><trkpt lat='1' lon='2'><ele>high</ele></trkpt></gpx>",
                .gpxInvalidNumber(field: "ele", text: "high", line: 1)
            ),
            (
                "<gpx><trkpt lat='1' lon='2'>\n<time>noon</time></trkpt></gpx>",
                .gpxInvalidTime(text: "noon", line: 2)
            ),
            (
                "<gpx><trkpt lat='1' lon='2'><time>2024-02-30T00:00:00Z</time></trkpt></gpx>",
                .gpxInvalidTime(text: "2024-02-30T00:00:00Z", line: 1)
            ),
            ("<gpx><trk></gpx>", .gpxMalformed(line: 1, reason: "the end tag </gpx> does not close <trk>")),
            (
                "<gpx><trk>\n<trkseg>",
                .gpxMalformed(
                    line: 2,
                    reason: "the document ends inside <trkseg>; the file may be cut short"
                )
            ),
            (
                "<gpx><trkpt lat=1 lon=2/></gpx>",
                .gpxMalformed(
                    line: 1,
                    reason: "the value of attribute lat of <trkpt> is not quoted"
                )
            ),
            ("<gpx><!-- never closed </gpx>", .gpxMalformed(line: 1, reason: "a comment is never closed with -->")),
            ("<gpx/>trailing", .gpxMalformed(line: 1, reason: "text appears outside the root element")),
            ("<gpx/><gpx/>", .gpxMalformed(line: 1, reason: "an element <gpx> follows the root element")),
            ("< gpx/>", .gpxMalformed(line: 1, reason: "a '<' is not followed by an element name")),
            (
                "<gpx><trkpt lat='1' lon='2'><trkpt lat='1' lon='2'/></trkpt></gpx>",
                .gpxMalformed(line: 1, reason: "a <trkpt> starts inside another <trkpt>")
            ),
        ]
    )
    func malformed(document: String, expected: GuidanceError) {
        #expect(throws: expected) { try GPXParser.parse(document) }
    }

    @Test("UTF-16 is refused with a clear error")
    func utf16() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<gpx/>".utf16 {
            bytes.append(UInt8(unit & 0xFF))
            bytes.append(UInt8(unit >> 8))
        }
        #expect(throws: GuidanceError.gpxNotUTF8) { try GPXParser.parse(Data(bytes)) }
    }

    @Test("size and depth limits stop hostile input")
    func limits() {
        let huge = Data(count: GPXParser.maximumDocumentSize + 1)
        #expect(throws: GuidanceError.gpxTooLarge(byteCount: huge.count, limit: GPXParser.maximumDocumentSize)) {
            try GPXParser.parse(huge)
        }
        let deep = "<gpx>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</gpx>"
        #expect(throws: GuidanceError.gpxTooDeep(line: 1, limit: GPXParser.maximumDepth)) {
            try GPXParser.parse(deep)
        }
    }

    @Test("DOCTYPE entities are never expanded")
    func doctypeEntities() throws {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
            <gpx><trk><name>&lol2;</name><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>
            """
        let points = try GPXParser.parse(document)
        #expect(points.count == 1)
    }

    @Test("mutated and random documents end in points or an error, never a crash or a hang")
    func garbageIsSafe() throws {
        let original = Array(Self.sample.utf8)
        // A fixed linear congruential generator (Knuth's MMIX constants) keeps the test repeatable.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }
        let specials = Array("<>/=\"'&;![]?-:".utf8)
        var parsed = 0
        var refused = 0
        for round in 0..<3_000 {
            var bytes = original
            if round % 10 == 0 {
                bytes = (0..<next(300)).map { _ in UInt8(next(256)) }
            } else {
                for _ in 0...next(5) {
                    switch next(4) {
                    case 0: if !bytes.isEmpty { bytes[next(bytes.count)] = UInt8(next(256)) }
                    case 1: if !bytes.isEmpty { bytes.remove(at: next(bytes.count)) }
                    case 2: bytes.insert(specials[next(specials.count)], at: next(bytes.count + 1))
                    default:
                        if bytes.count > 1 {
                            let start = next(bytes.count)
                            bytes.removeSubrange(start..<min(bytes.count, start + 1 + next(30)))
                        }
                    }
                }
            }
            do {
                let points = try GPXParser.parse(Data(bytes))
                #expect(!points.isEmpty)
                #expect(points.allSatisfy { abs($0.point.latitude) <= 90 && abs($0.point.longitude) <= 180 })
                parsed += 1
            } catch {
                #expect(!error.description.isEmpty && !error.description.contains("\n"))
                refused += 1
            }
        }
        #expect(parsed + refused == 3_000)
        #expect(parsed > 0 && refused > 0)
    }

    @Test("ISO 8601 timestamps: offsets, fractions, calendar checks")
    func timestamps() {
        #expect(ISO8601Timestamp.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(ISO8601Timestamp.parse("2000-02-29T12:00:00Z") == Date(timeIntervalSince1970: 951_825_600))
        #expect(ISO8601Timestamp.parse("2024-05-01T08:30:00") == Date(timeIntervalSince1970: 1_714_552_200))
        #expect(ISO8601Timestamp.parse("2024-05-01T03:30:00-05:00") == Date(timeIntervalSince1970: 1_714_552_200))
        #expect(ISO8601Timestamp.parse("2024-05-01T08:30:00.250Z") == Date(timeIntervalSince1970: 1_714_552_200.25))
        #expect(ISO8601Timestamp.parse("1900-02-29T00:00:00Z") == nil)
        #expect(ISO8601Timestamp.parse("2024-13-01T00:00:00Z") == nil)
        #expect(ISO8601Timestamp.parse("2024-05-01 08:30:00Z") == nil)
        #expect(ISO8601Timestamp.parse("2024-05-01T08:30:00Zjunk") == nil)
        #expect(ISO8601Timestamp.parse("2024-05-01T08:30:00.Z") == nil)
    }

    @Test("a parsed track replays into callouts")
    func replayFromGPX() throws {
        let points = try GPXParser.parse(Self.sample)
        let target = GuidanceTarget(kind: .greenCentre, point: try GeodesyFixtures.point(56.3440, -2.8010))
        let callouts = CalloutThrottle.replay(points, to: target)
        // The first fix has a compass heading of 50.5° and the green bears 48.0°: ahead, 166.42 m = 182 yd.
        #expect(callouts.first?.text == "Green, 182 yards, ahead.")
        #expect(callouts.first?.time == Date(timeIntervalSince1970: 1_714_552_200))
        // The third fix has no time and is 33.3 m on (25 m needed); its course from the second points at the green.
        #expect(callouts.map(\.fixIndex) == [0, 2])
        #expect(callouts.last?.text == "Green, 146 yards, ahead.")
    }
}
