import CQRencode

/// QR codes, by libqrencode: drawn in a terminal, or as an SVG image for the web app.
public enum QRCode {
    /// The code of `text` as rows of Unicode half blocks (two modules a character cell), dark on light with a
    /// quiet zone, or nil if libqrencode cannot encode it.
    public static func terminal(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let quiet = 2
        let size = width + 2 * quiet
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (cx, cy) = (x - quiet, y - quiet)
            guard cx >= 0, cy >= 0, cx < width, cy < width else { return false }
            return code.pointee.data[cy * width + cx] & 1 == 1
        }
        var lines: [String] = []
        for y in stride(from: 0, to: size, by: 2) {
            var line = ""
            for x in 0..<size {
                // Light modules are drawn as blocks, so the code reads on a dark terminal background.
                switch (!dark(x, y), y + 1 < size ? !dark(x, y + 1) : true) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The code of `text` as an SVG document: one path of dark modules on a white square with a quiet zone of
    /// four modules, scaled by the viewer. Nil if libqrencode cannot encode it.
    public static func svg(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let size = width + 8
        var path = ""
        for y in 0..<width {
            for x in 0..<width where code.pointee.data[y * width + x] & 1 == 1 {
                path += "M\(x + 4) \(y + 4)h1v1h-1z"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(size) \(size)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(size)\" height=\"\(size)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
