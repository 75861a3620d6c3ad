import SystemSupport

/// How a bar reads text: as it is, or as Pango markup.
public enum TextEscaping: Sendable {
    case none
    /// Values are escaped for Pango unless an escaping filter already did it; literal template
    /// text is markup the user wrote, and stays as it is.
    case pango
    /// Values have `%{` doubled to `%%{`, so a title cannot open a polybar formatting tag.
    case polybar

    func escape(_ text: String) -> String {
        switch self {
        case .none: text
        case .pango: TemplateFilter.pangoEscaped(text)
        case .polybar: text.substituting("%{", with: "%%{")
        }
    }
}

/// A piece of a rendered template.
struct RenderedPiece: Equatable {
    var text: String
    /// From a placeholder (escaped for the output), not literal template text.
    var isValue: Bool
    var isEscaped: Bool

    /// Newlines, tabs and other control characters become spaces.
    static func singleLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var cleaned = ""
        for scalar in text.unicodeScalars { cleaned.unicodeScalars.append(isControl(scalar) ? " " : scalar) }
        return cleaned
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
            || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

extension Template {
    /// The template's text for `view`: at most `maxWidth` user-perceived characters of visible
    /// text (ending in … when cut), then values escaped as `escaping` says.
    public func line(_ view: SnapshotView, maxWidth: Int? = nil, escaping: TextEscaping = .none) -> String {
        var pieces = render(view)
        if let maxWidth { pieces = Self.truncated(pieces, to: maxWidth) }
        return pieces.map { piece in
            guard piece.isValue, !piece.isEscaped else { return piece.text }
            return escaping.escape(piece.text)
        }.joined()
    }

    /// Cuts the pieces so that their text has at most `width` characters, the last one `…`.
    /// Escaped pieces are never cut inside (an entity or a JSON literal would break): they are
    /// kept whole or dropped.
    static func truncated(_ pieces: [RenderedPiece], to width: Int) -> [RenderedPiece] {
        let total = pieces.reduce(0) { $0 + $1.text.count }
        guard total > width else { return pieces }
        var budget = max(0, width - 1)
        var kept: [RenderedPiece] = []
        for var piece in pieces {
            let count = piece.text.count
            if count <= budget {
                kept.append(piece)
                budget -= count
                continue
            }
            if !piece.isEscaped && budget > 0 {
                piece.text = String(piece.text.prefix(budget))
                kept.append(piece)
            }
            break
        }
        kept.append(RenderedPiece(text: "…", isValue: false, isEscaped: false))
        return kept
    }
}
