/// A small XML tokenizer for the subset of XML that GPX files use: elements with quoted attributes, text, the five
/// predefined entities and character references, comments, CDATA, processing instructions and a DOCTYPE (skipped,
/// and its entities never expanded).
///
/// Every call to `next()` either consumes at least one byte or reports the end, so it cannot loop forever, and
/// every index is checked, so garbage gives an error and never a crash.
struct GPXTokenizer {
    /// One piece of the document.
    enum Token: Equatable {
        /// `<name a="1">` or `<name a="1"/>`; names keep their prefix.
        case startTag(name: String, attributes: [Attribute], selfClosing: Bool, line: Int)
        /// `</name>`.
        case endTag(name: String, line: Int)
        /// Character data with entities decoded (CDATA included).
        case text(String, line: Int)
    }

    /// One attribute of a start tag.
    struct Attribute: Equatable {
        var name: String
        var value: String
    }

    private let bytes: [UInt8]
    private var index: Int
    /// The 1-based line of the byte at `index`.
    private(set) var line = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed before the XML declaration.
        self.index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The next token, or nil at the end of the document.
    mutating func next() throws(GuidanceError) -> Token? {
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                return try text()
            }
            if matches("<!--") {
                try skip(past: "-->", what: "comment")
            } else if matches("<![CDATA[") {
                let startLine = line
                advance(by: 9)
                let start = index
                guard let end = find("]]>") else {
                    throw .gpxMalformed(line: startLine, reason: "a CDATA section is never closed with ]]>")
                }
                let content = String(decoding: bytes[start..<end], as: UTF8.self)
                advance(to: end + 3)
                return .text(content, line: startLine)
            } else if matches("<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if matches("<!") {
                try skipDeclaration()
            } else if matches("</") {
                return try endTag()
            } else {
                return try startTag()
            }
        }
        return nil
    }

    // MARK: - Tags

    /// Steps over `opener` (`<` or `</`) and reads the element name after it, with the line the tag starts on.
    private mutating func tagName(after opener: String) throws(GuidanceError) -> (name: String, line: Int) {
        let startLine = line
        advance(by: opener.utf8.count)
        let name = readName()
        guard !name.isEmpty else {
            throw .gpxMalformed(line: startLine, reason: "a '\(opener)' is not followed by an element name")
        }
        return (name, startLine)
    }

    private mutating func startTag() throws(GuidanceError) -> Token {
        let (name, startLine) = try tagName(after: "<")
        var attributes: [Attribute] = []
        while true {
            let hadSpace = skipWhitespace()
            guard index < bytes.count else {
                throw .gpxMalformed(line: startLine, reason: "the tag <\(name.clipped)> is never closed with '>'")
            }
            if bytes[index] == UInt8(ascii: ">") {
                advance(by: 1)
                return .startTag(name: name, attributes: attributes, selfClosing: false, line: startLine)
            }
            if matches("/>") {
                advance(by: 2)
                return .startTag(name: name, attributes: attributes, selfClosing: true, line: startLine)
            }
            guard hadSpace else {
                throw .gpxMalformed(line: line, reason: "unexpected character in the tag <\(name.clipped)>")
            }
            attributes.append(try attribute(in: name))
        }
    }

    private mutating func attribute(in element: String) throws(GuidanceError) -> Attribute {
        let name = readName()
        guard !name.isEmpty else {
            throw .gpxMalformed(line: line, reason: "unexpected character in the tag <\(element.clipped)>")
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw .gpxMalformed(
                line: line,
                reason: "attribute \(name.clipped) of <\(element.clipped)> has no '=' and value"
            )
        }
        advance(by: 1)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw .gpxMalformed(
                line: line,
                reason: "the value of attribute \(name.clipped) of <\(element.clipped)> is not quoted"
            )
        }
        let quote = bytes[index]
        let startLine = line
        advance(by: 1)
        let start = index
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "<") {
                throw .gpxMalformed(
                    line: line,
                    reason: "attribute \(name.clipped) of <\(element.clipped)> contains '<'"
                )
            }
            advance(by: 1)
        }
        guard index < bytes.count else {
            throw .gpxMalformed(line: startLine, reason: "the value of attribute \(name.clipped) is never closed")
        }
        let value = Self.decodeEntities(bytes[start..<index])
        advance(by: 1)
        return Attribute(name: name, value: value)
    }

    private mutating func endTag() throws(GuidanceError) -> Token {
        let (name, startLine) = try tagName(after: "</")
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw .gpxMalformed(line: startLine, reason: "the end tag </\(name.clipped)> is never closed with '>'")
        }
        advance(by: 1)
        return .endTag(name: name, line: startLine)
    }

    private mutating func text() throws(GuidanceError) -> Token {
        let startLine = line
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            advance(by: 1)
        }
        return .text(Self.decodeEntities(bytes[start..<index]), line: startLine)
    }

    /// Skips `<!DOCTYPE ...>` including an internal subset in brackets.
    private mutating func skipDeclaration() throws(GuidanceError) {
        let startLine = line
        advance(by: 2)
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            advance(by: 1)
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">"), depth == 0 {
                return
            }
        }
        throw .gpxMalformed(line: startLine, reason: "a <! declaration is never closed with '>'")
    }

    // MARK: - Bytes

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return literal.withUTF8Buffer { pattern in
            for offset in 0..<count where bytes[index + offset] != pattern[offset] {
                return false
            }
            return true
        }
    }

    /// The index where `literal` next starts, at or after `index`, or nil.
    private func find(_ literal: StaticString) -> Int? {
        let count = literal.utf8CodeUnitCount
        return literal.withUTF8Buffer { pattern -> Int? in
            var position = index
            while position + count <= bytes.count {
                var found = true
                for offset in 0..<count where bytes[position + offset] != pattern[offset] {
                    found = false
                    break
                }
                if found { return position }
                position += 1
            }
            return nil
        }
    }

    private mutating func skip(past literal: StaticString, what: String) throws(GuidanceError) {
        let startLine = line
        advance(by: 2)
        guard let end = find(literal) else {
            throw .gpxMalformed(line: startLine, reason: "a \(what) is never closed with \(literal)")
        }
        advance(to: end + literal.utf8CodeUnitCount)
    }

    private mutating func advance(by count: Int) {
        advance(to: min(bytes.count, index + count))
    }

    private mutating func advance(to target: Int) {
        let end = min(bytes.count, target)
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count, Self.isWhitespace(bytes[index]) {
            advance(by: 1)
        }
        return index > start
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="),
            UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "&"), UInt8(ascii: "!"), UInt8(ascii: "?"):
            return false
        default:
            return true
        }
    }

    /// Decodes `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#n;` `&#xh;`; anything else is kept as written.
    static func decodeEntities(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(UInt8(ascii: "&")) else {
            return String(decoding: slice, as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(slice.count)
        var position = slice.startIndex
        while position < slice.endIndex {
            let byte = slice[position]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                position += 1
                continue
            }
            // An entity is at most a few characters long; look for its ';' nearby only.
            let limit = min(slice.endIndex, position + 12)
            guard let semicolon = slice[position..<limit].firstIndex(of: UInt8(ascii: ";")) else {
                output.append(byte)
                position += 1
                continue
            }
            let name = String(decoding: slice[(position + 1)..<semicolon], as: UTF8.self)
            if let replacement = entity(named: name) {
                output.append(contentsOf: replacement.utf8)
                position = semicolon + 1
            } else {
                output.append(byte)
                position += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func entity(named name: String) -> String? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { return nil }
            digits.removeFirst()
            var radix = 10
            if digits.first == "x" || digits.first == "X" {
                digits.removeFirst()
                radix = 16
            }
            guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: radix),
                let scalar = Unicode.Scalar(value), value != 0
            else { return nil }
            return String(Character(scalar))
        }
    }
}
