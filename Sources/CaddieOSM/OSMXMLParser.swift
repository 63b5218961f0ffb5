import CaddieCore

/// Reads OSM XML (`<osm><node id lat lon><tag k v/></node><way><nd ref/>…</way><relation>…</relation></osm>`), as
/// the OpenStreetMap API, JOSM and Overpass (`out geom;`, which adds `lat`/`lon` to `<nd>`) write it.
///
/// A small tolerant tokenizer rather than an XML library (FoundationXML is not linked): it understands start and
/// end tags with quoted attributes, the five predefined entities and character references, and skips comments,
/// CDATA, processing instructions, a DOCTYPE and text. Every step consumes at least one byte and every index is
/// checked, so garbage gives an error and never a crash or an endless loop.
struct OSMXMLParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    static func read(_ bytes: [UInt8]) throws(CoreError) -> OSMData {
        var parser = OSMXMLParser(bytes: bytes)
        return try parser.parse()
    }

    private enum Open {
        case none
        case node(id: Int64, tags: [String: String])
        case way(OSMElements.Way)
        case relation(OSMElements.Relation)
    }

    private mutating func parse() throws(CoreError) -> OSMData {
        var elements = OSMElements()
        var open = Open.none
        var sawRoot = false
        var closedRoot = false
        var date: String?
        while let tag = try nextTag() {
            if tag.isEnd {
                switch (tag.name, open) {
                case ("osm", _): closedRoot = true
                case ("node", .node(let id, let tags)):
                    if !tags.isEmpty, elements.nodes[id] != nil { elements.taggedNodes.append((id, tags)) }
                    open = .none
                case ("way", .way(let way)):
                    elements.ways.append(way)
                    open = .none
                case ("relation", .relation(let relation)):
                    elements.relations.append(relation)
                    open = .none
                default: break
                }
                continue
            }
            let attributes = tag.attributes
            func int(_ key: String) -> Int64? { attributes[key].flatMap { Int64($0) } }
            func point() -> CoursePoint? {
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init)
                else { return nil }
                return CoursePoint(latitude: lat, longitude: lon)
            }
            switch tag.name {
            case "osm":
                sawRoot = true
                date = date ?? OSMData.date(from: attributes["timestamp"])
            case "meta":
                date = OSMData.date(from: attributes["osm_base"]) ?? date
            case "node":
                guard let id = int("id"), let position = point() else { continue }
                elements.nodes[id] = position
                open = tag.selfClosing ? .none : .node(id: id, tags: [:])
            case "way":
                guard let id = int("id") else { continue }
                let way = OSMElements.Way(id: id, refs: [], inline: [], tags: [:])
                if tag.selfClosing { elements.ways.append(way) } else { open = .way(way) }
            case "relation":
                guard let id = int("id") else { continue }
                let relation = OSMElements.Relation(id: id, members: [], tags: [:])
                if tag.selfClosing { elements.relations.append(relation) } else { open = .relation(relation) }
            case "tag":
                guard let key = attributes["k"], let value = attributes["v"] else { continue }
                switch open {
                case .node(let id, var tags):
                    tags[key] = value
                    open = .node(id: id, tags: tags)
                case .way(var way):
                    way.tags[key] = value
                    open = .way(way)
                case .relation(var relation):
                    relation.tags[key] = value
                    open = .relation(relation)
                case .none: break
                }
            case "nd":
                switch open {
                case .way(var way):
                    if let ref = int("ref") { way.refs.append(ref) }
                    if let position = point() { way.inline.append(position) }
                    open = .way(way)
                case .relation(var relation):
                    // Overpass `out geom` lists a member way's positions as <nd lat lon/> inside <member>.
                    if let position = point(), !relation.members.isEmpty {
                        relation.members[relation.members.count - 1].inline.append(position)
                    }
                    open = .relation(relation)
                default: break
                }
            case "member":
                guard case .relation(var relation) = open, let type = attributes["type"], let ref = int("ref") else {
                    continue
                }
                relation.members.append(.init(type: type, ref: ref, role: attributes["role"] ?? "", inline: []))
                open = .relation(relation)
            default:
                break
            }
            guard elements.count <= OSMData.maxElements else {
                throw .malformed(
                    "the OSM XML has more than \(OSMData.maxElements) elements; export only the course's area"
                )
            }
        }
        guard sawRoot else {
            throw .malformed(
                "the XML file has no <osm> element, so it is not OSM XML; export the course from "
                    + "OpenStreetMap or Overpass as OSM XML"
            )
        }
        guard closedRoot else {
            throw .malformed("the OSM XML ends before </osm> (line \(line)): the file is truncated; export it again")
        }
        elements.ways = elements.ways.map { way in
            var way = way
            // Inline positions are used only when every <nd> had one; otherwise the refs are looked up.
            if way.inline.count != way.refs.count, !way.refs.isEmpty { way.inline = [] }
            way.inline = OSMData.thinned(way.inline)
            return way
        }
        return OSMData(features: elements.features(), date: date, format: "OSM XML")
    }

    // MARK: - Tokenizer

    private struct Tag {
        var name: String
        var attributes: [String: String]
        var isEnd: Bool
        var selfClosing: Bool
    }

    private func malformed(_ reason: String) -> CoreError {
        .malformed("the OSM XML is malformed at line \(line): \(reason); export the course again")
    }

    /// The next start or end tag, skipping text, comments, CDATA, declarations and processing instructions.
    private mutating func nextTag() throws(CoreError) -> Tag? {
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "<") {
                if byte == UInt8(ascii: "\n") { line += 1 }
                index += 1
                continue
            }
            if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                try skip(past: "]]>", what: "a CDATA section")
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!") {
                try skipDeclaration()
            } else {
                return try tag()
            }
        }
        return nil
    }

    private func starts(with text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    private mutating func skip(past end: String, what: String) throws(CoreError) {
        let startLine = line
        let pattern = Array(end.utf8)
        while index < bytes.count {
            if starts(with: end) {
                index += pattern.count
                return
            }
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        line = startLine
        throw malformed("\(what) is never closed with \(end)")
    }

    /// Skips `<!DOCTYPE …>` including an internal subset in brackets.
    private mutating func skipDeclaration() throws(CoreError) {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") { line += 1 }
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth = max(0, depth - 1) }
            if byte == UInt8(ascii: ">"), depth == 0 { return }
        }
        throw malformed("a <! declaration is never closed with '>'")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
    }

    private mutating func name() -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func tag() throws(CoreError) -> Tag {
        index += 1
        let isEnd = index < bytes.count && bytes[index] == UInt8(ascii: "/")
        if isEnd { index += 1 }
        let tagName = name()
        guard !tagName.isEmpty else { throw malformed("a '<' is not followed by an element name") }
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else {
                throw malformed("the tag <\(tagName.prefix(40))> is never closed with '>'")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                return Tag(name: tagName, attributes: attributes, isEnd: isEnd, selfClosing: false)
            }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") {
                index += 2
                return Tag(name: tagName, attributes: attributes, isEnd: isEnd, selfClosing: true)
            }
            let key = name()
            guard !key.isEmpty else {
                throw malformed("unexpected '\(Unicode.Scalar(byte))' in the tag <\(tagName.prefix(40))>")
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw malformed("the attribute \(key.prefix(40)) of <\(tagName.prefix(40))> has no '=' and value")
            }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw malformed("the value of \(key.prefix(40)) in <\(tagName.prefix(40))> is not quoted")
            }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            guard index < bytes.count else { throw malformed("the value of \(key.prefix(40)) is never closed") }
            attributes[key] = Self.decodeEntities(bytes[start..<index])
            index += 1
        }
    }

    /// Text with `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and `&#…;` decoded; anything else is kept as written.
    static func decodeEntities(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let byte = raw[i]
            guard byte == UInt8(ascii: "&"),
                let semicolon = raw[i..<min(raw.endIndex, i + 12)].firstIndex(of: UInt8(ascii: ";"))
            else {
                out.append(byte)
                i += 1
                continue
            }
            let entity = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch entity {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            guard let scalar else {
                out.append(byte)
                i += 1
                continue
            }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
