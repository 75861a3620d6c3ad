/// A parsed output template: literal text and `{{field|filter|filter:argument}}` placeholders.
/// Unknown fields and filters, and filters that do not fit their value, are errors at parse
/// time, so a template that parses always renders.
public struct Template: Equatable {
    struct Placeholder: Equatable {
        let field: TemplateField
        let filters: [TemplateFilter]
        /// Whether the last filter already escaped the text (`markup`, `json`).
        var isEscaped: Bool { filters.last?.name.escapes == true }
    }

    enum Piece: Equatable {
        case literal(String)
        case placeholder(Placeholder)
    }

    let pieces: [Piece]
    public let source: String

    public init(_ source: String) throws(TemplateError) {
        var parser = TemplateParser(source)
        pieces = try parser.parse()
        self.source = source
    }

    /// Whether the text changes as the position advances (it shows elapsed, remaining or percent).
    public var followsPosition: Bool {
        pieces.contains { piece in
            if case .placeholder(let placeholder) = piece { return placeholder.field.followsPosition }
            return false
        }
    }

    /// The rendered pieces. Text from the daemon has control characters replaced by spaces
    /// before the filters run, so a tag never breaks a line; text the template adds is kept.
    func render(_ view: SnapshotView) -> [RenderedPiece] {
        pieces.map { piece in
            switch piece {
            case .literal(let text):
                return RenderedPiece(text: text, isValue: false, isEscaped: false)
            case .placeholder(let placeholder):
                var value = placeholder.field.value(in: view)
                if case .text(let text) = value { value = .text(RenderedPiece.singleLine(text)) }
                value = placeholder.filters.reduce(value) { $1.apply($0) }
                return RenderedPiece(text: value?.plainText ?? "", isValue: true, isEscaped: placeholder.isEscaped)
            }
        }
    }
}

/// Parses template source, tracking the column of every token for error messages.
struct TemplateParser {
    private let characters: [Character]
    private let source: String
    private var index = 0

    init(_ source: String) {
        self.source = source
        self.characters = Array(source)
    }

    mutating func parse() throws(TemplateError) -> [Template.Piece] {
        var pieces: [Template.Piece] = []
        var literal = ""
        while index < characters.count {
            if startsWith("{{") {
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.placeholder(try placeholder()))
            } else {
                literal.append(characters[index])
                index += 1
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    private mutating func placeholder() throws(TemplateError) -> Template.Placeholder {
        let opening = index
        index += 2
        skipSpaces()
        let fieldColumn = index
        let fieldName = word()
        guard !fieldName.isEmpty else {
            if index >= characters.count { throw error("'{{' is not closed with '}}'", at: opening) }
            throw error("expected a field name after '{{'", at: fieldColumn)
        }
        guard let field = TemplateField.named(fieldName) else {
            throw error(
                "unknown field '\(fieldName)' (fields: \(TemplateField.all.map(\.name).joined(separator: ", ")))",
                at: fieldColumn)
        }
        var kind = field.kind
        var filters: [TemplateFilter] = []
        skipSpaces()
        while index < characters.count && characters[index] == "|" {
            index += 1
            skipSpaces()
            let filterColumn = index
            if let last = filters.last, last.name.escapes {
                throw error("nothing may follow '\(last.name.rawValue)', which escapes its result", at: filterColumn)
            }
            let filter = try self.filter(field: field, kind: kind, column: filterColumn)
            filters.append(filter)
            kind = .text
            skipSpaces()
        }
        guard startsWith("}}") else {
            if index >= characters.count { throw error("'{{' is not closed with '}}'", at: opening) }
            throw error("expected '|' or '}}'", at: index)
        }
        index += 2
        return Template.Placeholder(field: field, filters: filters)
    }

    private mutating func filter(
        field: TemplateField, kind: TemplateValueKind, column: Int
    ) throws(TemplateError) -> TemplateFilter {
        let filterName = word()
        guard let name = TemplateFilterName(rawValue: filterName) else {
            let known = TemplateFilterName.allCases.map(\.rawValue).joined(separator: ", ")
            let what = filterName.isEmpty ? "expected a filter name after '|'" : "unknown filter '\(filterName)'"
            throw error("\(what) (filters: \(known))", at: column)
        }
        if let accepted = name.accepts, !accepted.contains(kind) {
            throw error(
                "filter '\(name.rawValue)' does not apply to \(kind.rawValue) ('\(field.name)')", at: column)
        }
        let hasArgument = index < characters.count && characters[index] == ":"
        switch name.argumentRule {
        case .none:
            if hasArgument { throw error("filter '\(name.rawValue)' takes no argument", at: index) }
            return TemplateFilter(name)
        case .count:
            let argumentColumn = index + 1
            guard hasArgument else {
                throw error("filter '\(name.rawValue)' needs a count, as in \(name.rawValue):20", at: index)
            }
            index += 1
            let text = try argument()
            guard let count = Int(text), count > 0 else {
                throw error("filter '\(name.rawValue)' needs a positive whole count, not '\(text)'", at: argumentColumn)
            }
            return TemplateFilter(name, count: count)
        case .text:
            guard hasArgument else {
                throw error("filter '\(name.rawValue)' needs text, as in \(name.usage)", at: index)
            }
            index += 1
            return TemplateFilter(name, argument: try argument())
        }
    }

    /// A quoted argument (`"..."` with `\"`, `\\`, `\n` and `\t`) or everything up to the next
    /// `|` or `}}`, trimmed.
    private mutating func argument() throws(TemplateError) -> String {
        if index < characters.count && characters[index] == "\"" {
            let opening = index
            index += 1
            var text = ""
            while index < characters.count {
                let character = characters[index]
                index += 1
                if character == "\"" { return text }
                if character == "\\" && index < characters.count {
                    let escaped = characters[index]
                    index += 1
                    switch escaped {
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    default: text.append(escaped)
                    }
                } else {
                    text.append(character)
                }
            }
            throw error("quoted argument is not closed", at: opening)
        }
        var text = ""
        while index < characters.count && characters[index] != "|" && !startsWith("}}") {
            text.append(characters[index])
            index += 1
        }
        return String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    private mutating func word() -> String {
        var text = ""
        while index < characters.count, characters[index].isASCII,
            characters[index].isLetter || characters[index].isNumber
        {
            text.append(characters[index])
            index += 1
        }
        return text
    }

    private mutating func skipSpaces() {
        while index < characters.count && characters[index] == " " { index += 1 }
    }

    private func startsWith(_ token: String) -> Bool {
        let tokenCharacters = Array(token)
        guard index + tokenCharacters.count <= characters.count else { return false }
        return Array(characters[index..<index + tokenCharacters.count]) == tokenCharacters
    }

    private func error(_ message: String, at position: Int) -> TemplateError {
        TemplateError(message: message, column: position + 1, template: source)
    }
}
