import Foundation
import Testing

@testable import CaddieCore

@Suite("Course geometry encoding")
struct CourseShapeTests {
    static func point(_ lat: Double, _ lon: Double) -> CoursePoint {
        CoursePoint(latitude: lat, longitude: lon) ?? CoursePoint(e7Latitude: 0, e7Longitude: 0)
    }

    @Test("one point encodes to the documented bytes (golden vector)")
    func goldenPoint() {
        let shape = CourseShape(point: Self.point(52.1, 4.38))
        #expect(Hex.encode(shape.encoded) == "0101" + "80d1eef003" + "80d7e229")
        #expect(CourseShape(encoded: shape.encoded) == shape)
    }

    @Test("a line stores the second point as a small difference from the first")
    func goldenLine() throws {
        let shape = try #require(
            CourseShape(kind: .line, points: [Self.point(52.1, 4.38), Self.point(52.100001, 4.379999)])
        )
        #expect(Hex.encode(shape.encoded) == "0202" + "80d1eef003" + "80d7e229" + "14" + "13")
    }

    @Test("shapes of every kind survive encoding, including extreme coordinates")
    func roundTrip() throws {
        let corners = [Self.point(-90, -180), Self.point(90, 180), Self.point(0, 0), Self.point(51.3452536, 3.3103639)]
        for kind in CourseShape.Kind.allCases {
            let shape = try #require(CourseShape(kind: kind, points: corners))
            #expect(CourseShape(encoded: shape.encoded) == shape)
        }
    }

    @Test("a polygon drops its closing corner and needs three distinct corners")
    func polygonRules() {
        let a = Self.point(1, 1)
        let b = Self.point(1, 2)
        let c = Self.point(2, 2)
        #expect(CourseShape(kind: .polygon, points: [a, b, c, a])?.points == [a, b, c])
        #expect(CourseShape(kind: .polygon, points: [a, b, a]) == nil)
        #expect(CourseShape(kind: .polygon, points: [a, a, a, b]) == nil)
        #expect(CourseShape(kind: .line, points: [a]) == nil)
        #expect(CourseShape(kind: .points, points: []) == nil)
        #expect(CourseShape(kind: .points, points: Array(repeating: a, count: CourseShape.maxPoints + 1)) == nil)
    }

    @Test("positions are kept to 1e-7 degree, so a point read back equals the point written")
    func rounding() {
        let point = Self.point(52.123456789, 4.987654321)
        #expect(point.latitude == 52.1234568)
        #expect(point.longitude == 4.9876543)
        #expect(CoursePoint(latitude: .nan, longitude: 0) == nil)
        #expect(CoursePoint(latitude: 91, longitude: 0) == nil)
        #expect(CoursePoint(latitude: 0, longitude: -180.5) == nil)
    }

    @Test(
        "bad bytes decode to nothing",
        arguments: [
            "",  // empty
            "04 01 00 00",  // unknown kind
            "01 01 80",  // truncated varint
            "01 02 00 00",  // count says two, one given
            "01 01 00 00 00",  // trailing byte
            "01 01 ffffffffffffffffff7f 00",  // varint longer than 64 bits
            "01 01 8080808010 00",  // latitude 2^31 units = 214 degrees
            "03 03 00 00 00 00 00 00",  // polygon of one repeated corner
            "01 ffffffff0f",  // a count over the limit
        ]
    )
    func refused(hex: String) throws {
        // A mistyped case in the list above fails here instead of testing some other bytes.
        let bytes = try #require(Hex.decode(hex.replacingOccurrences(of: " ", with: "")), "\(hex) is not hex")
        #expect(CourseShape(encoded: bytes) == nil)
    }

    @Test("random bytes never crash the decoder")
    func garbage() {
        var generator = SplitMix(seed: 42)
        var decoded = 0
        for _ in 0..<5000 {
            let length = Int(generator.next() % 40)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if !bytes.isEmpty { bytes[0] = UInt8(1 + generator.next() % 3) }
            if let shape = CourseShape(encoded: bytes) {
                decoded += 1
                #expect(CourseShape(encoded: shape.encoded) == shape)
            }
        }
        #expect(decoded < 5000)
    }
}

/// A small deterministic generator, so the garbage tests repeat exactly.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
