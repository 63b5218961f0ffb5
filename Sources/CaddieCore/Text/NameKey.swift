import Foundation
import Synchronization

/// What a name looks like to a person, as text that two names share when they could be mistaken for each other:
/// "Ana", "ANA", "Аna" (its first letter Cyrillic), "Ána" and "A\u{200B}na" (a zero-width space inside) all give
/// "ana". Names are self-asserted; wherever two users' names share a key, each is shown with its key's
/// fingerprint. The key is only ever compared, never shown.
public enum NameKey {
    /// The key of `name`: compatibility forms folded (NFKC: full-width letters, ligatures), accents, invisible and
    /// direction characters dropped, case folded, letters of other scripts that look like Latin ones read as those,
    /// and runs of spaces as one.
    public static func of(_ name: String) -> String {
        // Names repeat (a space's few hundred members, read for every row that names an author): each is worked
        // out once. The cache is emptied when it fills, so a stream of distinct names cannot grow it.
        if let known = cache.withLock({ $0[name] }) { return known }
        let key = worked(name)
        cache.withLock { cache in
            if cache.count >= 4_096 { cache.removeAll(keepingCapacity: true) }
            cache[name] = key
        }
        return key
    }

    private static let cache = Mutex<[String: String]>([:])

    static func worked(_ name: String) -> String {
        let folded = name.precomposedStringWithCompatibilityMapping.decomposedStringWithCanonicalMapping
        var key = ""
        var space = false
        for scalar in folded.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control:
                continue
            case .spaceSeparator, .lineSeparator, .paragraphSeparator:
                space = !key.isEmpty
                continue
            default:
                break
            }
            if space {
                key.append(" ")
                space = false
            }
            // A capital is read as the capital it looks like (Greek Ν is an N, though its small form looks like v).
            if let capital = latinCapital[scalar] {
                key.unicodeScalars.append(capital)
                continue
            }
            for lower in String(scalar).lowercased().unicodeScalars {
                key.unicodeScalars.append(latin[lower] ?? lower)
            }
        }
        return key
    }

    /// Capitals of the Cyrillic and Greek alphabets that a reader takes for a Latin capital, each with the small
    /// Latin letter of that capital.
    static let latinCapital: [Unicode.Scalar: Unicode.Scalar] = table([
        // Cyrillic
        (0x0410, "a"), (0x0412, "b"), (0x0415, "e"), (0x0401, "e"), (0x041A, "k"), (0x041C, "m"), (0x041D, "h"),
        (0x041E, "o"), (0x0420, "p"), (0x0421, "c"), (0x0422, "t"), (0x0423, "y"), (0x0425, "x"), (0x0406, "i"),
        (0x0408, "j"), (0x0405, "s"), (0x04C0, "l"),
        // Greek
        (0x0391, "a"), (0x0392, "b"), (0x0395, "e"), (0x0396, "z"), (0x0397, "h"), (0x0399, "i"), (0x039A, "k"),
        (0x039C, "m"), (0x039D, "n"), (0x039F, "o"), (0x03A1, "p"), (0x03A4, "t"), (0x03A5, "y"), (0x03A7, "x"),
    ])

    /// Lower-case letters of the Cyrillic and Greek alphabets (and a few other marks) that a reader takes for a
    /// Latin letter or digit at a glance, each with the Latin letter it passes for.
    static let latin: [Unicode.Scalar: Unicode.Scalar] = table([
        // Cyrillic
        (0x0430, "a"), (0x0431, "b"), (0x0432, "b"), (0x0435, "e"), (0x0451, "e"), (0x0433, "r"),
        (0x043A, "k"), (0x043C, "m"), (0x043D, "h"), (0x043E, "o"), (0x0440, "p"), (0x0441, "c"),
        (0x0442, "t"), (0x0443, "y"), (0x0445, "x"), (0x0456, "i"), (0x0457, "i"), (0x0458, "j"),
        (0x0455, "s"), (0x0501, "d"), (0x051B, "q"), (0x051D, "w"), (0x04CF, "l"), (0x0475, "v"),
        // Greek
        (0x03B1, "a"), (0x03B2, "b"), (0x03B5, "e"), (0x03B7, "n"), (0x03B9, "i"), (0x03BA, "k"),
        (0x03BD, "v"), (0x03BF, "o"), (0x03C1, "p"), (0x03C4, "t"), (0x03C5, "u"), (0x03C7, "x"),
        (0x03C9, "w"), (0x03B3, "y"), (0x03BC, "u"), (0x03C3, "o"), (0x03C2, "c"),
        // Latin look-alikes outside a-z, and digits read as letters
        (0x0131, "i"), (0x0261, "g"), (0x0269, "i"), (0x1D00, "a"), (0x0030, "o"), (0x0031, "l"),
        (0x01C0, "l"), (0x007C, "l"),
    ])

    private static func table(_ pairs: [(UInt32, Character)]) -> [Unicode.Scalar: Unicode.Scalar] {
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (code, letter) in pairs {
            if let scalar = Unicode.Scalar(code), let target = letter.unicodeScalars.first { table[scalar] = target }
        }
        return table
    }
}
