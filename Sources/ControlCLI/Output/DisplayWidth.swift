/// Terminal columns a text takes: two for wide East Asian characters and emoji, none for
/// combining marks, one otherwise. Enough to fit a status into 80 columns.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        // ASCII, the common case, in bytes: no property lookups (a status line has dozens of
        // characters), and the same count as below (a control character, "\r\n" too, takes none).
        var columns = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + of($1) } }
            if byte >= 0x20 { columns += 1 }
        }
        return columns
    }

    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value < 0x20 { return 0 }
        if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// `text` cut to at most `columns` columns, ending in … when cut.
    public static func fit(_ text: String, columns: Int) -> String {
        guard of(text) > columns else { return text }
        var fitted = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            fitted.append(character)
            used += width
        }
        return fitted + "…"
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
