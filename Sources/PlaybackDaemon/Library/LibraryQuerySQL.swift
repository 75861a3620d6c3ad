import PlaybackModel
import SystemSupport

/// A `LibraryQuery` as SQL over the index (`LibrarySchema`): the `WHERE` its filters and text
/// make, the `ORDER BY` its sort makes, and the values bound to them in order.
struct LibraryQuerySQL {
    private(set) var conditions: [String] = ["s.missing = 0"]
    private(set) var values: [SQLiteValue] = []

    init(_ query: LibraryQuery) {
        for filter in query.filters { add(filter) }
        // A group left out: not all of its conditions (a song without a field does not meet
        // a condition on it).
        for group in query.exclusions {
            var excluded = LibraryQuerySQL(conditions: [])
            for filter in group { excluded.add(filter) }
            conditions.append("(NOT coalesce((\(excluded.conditions.joined(separator: " AND "))), 0))")
            values += excluded.values
        }
        if let text = query.text, let match = Self.match(text) {
            conditions.append("s.id IN (SELECT rowid FROM song_text WHERE song_text MATCH ?)")
            values.append(.text(match))
        }
    }

    private init(conditions: [String]) { self.conditions = conditions }

    var whereClause: String { "WHERE " + conditions.joined(separator: " AND ") }

    /// The expression a number field is read from.
    static func numberColumn(_ name: String) -> String {
        switch name {
        case "playCount": "u.plays"
        case "skipCount": "u.skips"
        case "lastPlayed": "coalesce(u.lastPlayed, 0)"
        case "dateAdded": "u.added"
        case "modified": "(s.mtime / 1e9)"
        case "rating": "u.rating"
        default: "s.\"\(name)\""
        }
    }

    /// The expression a song sorts by for `name`: text folded, numbers as they are.
    static func songSortColumn(_ name: String) -> String {
        guard let field = LibraryField.named(name) else { return "s.id" }
        switch (field.kind, name) {
        case (.number, _): return numberColumn(name)
        case (.text, "path"): return "s.path"
        case (.text, "artist"): return "fold(s.\"artist\")"
        case (.text, _): return "s.\"f_\(name)\""
        }
    }

    /// `ORDER BY` for songs.
    static func songOrder(_ sort: [LibraryQuery.SortKey]) -> String {
        "ORDER BY "
            + (sort.map { songSortColumn($0.field) + ($0.descending ? " DESC" : "") } + ["s.id"]).joined(
                separator: ", ")
    }

    private mutating func add(_ filter: LibraryQuery.Filter) {
        let name = filter.field.name
        if filter.field == .anyTag { return addAnyTag(filter) }
        if filter.comparison == .matches {
            // Against the value as tagged: a pattern is not folded.
            let column =
                switch name {
                case "path": "s.path"
                case "artist": "a.name"
                default: filter.field.kind == .number ? "CAST(\(Self.numberColumn(name)) AS TEXT)" : "s.\"\(name)\""
                }
            return addCondition("regexp(?, \(column))", value: .text(filter.value), for: filter)
        }
        if filter.field.kind == .number {
            let operation =
                switch filter.comparison {
                case .atLeast: ">="
                case .atMost: "<="
                default: "="
                }
            conditions.append(Self.negated("\(Self.numberColumn(name)) \(operation) ?", filter.isNegated))
            values.append(.real(Double(filter.value) ?? 0))
            return
        }
        let (column, folds) =
            switch name {
            case "path": ("s.path", false)
            case "artist": ("a.folded", true)
            default: ("s.\"f_\(name)\"", true)
            }
        let value = folds ? "fold(?)" : "?"
        let condition: String
        switch filter.comparison {
        case .contains:
            condition = "instr(\(column), \(value)) > 0"
            values.append(.text(filter.value))
        case .startsWith:
            condition = "\(column) >= \(value) AND \(column) < \(value) || char(1114111)"
            values += [.text(filter.value), .text(filter.value)]
        default:
            condition = "\(column) = \(value)"
            values.append(.text(filter.value))
        }
        addCondition(condition, for: filter)
    }

    /// Any part of any tag, folded: the trigram index finds a part of three letters or more
    /// (a phrase of its trigrams), and the songs found are looked up by id; a shorter part is
    /// looked for in each song's folded tags (the second arm, skipped whole when the part is
    /// long: its length test is a constant SQLite tests once).
    private mutating func addAnyTag(_ filter: LibraryQuery.Filter) {
        let parts = LibrarySchema.parts(of: "p").map { "instr(coalesce(\($0), ''), fold(?)) > 0" }
        let condition = """
            s.id IN (SELECT rowid FROM song_parts WHERE song_parts MATCH '"' || fold(?) || '"'
                UNION ALL SELECT p.id FROM songs p WHERE length(fold(?)) < 3 AND (\(parts.joined(separator: " OR "))))
            """
        conditions.append(Self.negated(condition, filter.isNegated))
        values += Array(repeating: .text(filter.value), count: 2 + parts.count)
    }

    /// Adds `condition` on `filter`'s field (with `value`, when given, for its placeholder).
    /// The songs of an artist come from the artists' index, not from a look at every song.
    private mutating func addCondition(_ condition: String, value: SQLiteValue? = nil, for filter: LibraryQuery.Filter)
    {
        if let value { values.append(value) }
        if filter.field.name == "artist" {
            let membership = filter.isNegated ? "NOT IN" : "IN"
            conditions.append("s.id \(membership) (SELECT a.song FROM song_artists a WHERE \(condition))")
        } else {
            conditions.append(Self.negated(condition, filter.isNegated))
        }
    }

    /// `condition`, or when `negated` its opposite, in which a missing value (NULL) meets it.
    private static func negated(_ condition: String, _ negated: Bool) -> String {
        negated ? "(NOT coalesce((\(condition)), 0))" : "(\(condition))"
    }

    /// FTS5's query for free text: each word as a quoted prefix, all of them required; nil when
    /// no word is left.
    static func match(_ text: String) -> String? {
        // A word of punctuation alone is no word to the tokenizer either.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            .filter { $0.contains { $0.isLetter || $0.isNumber } }
            .map { "\"" + String($0).substituting("\"", with: "\"\"") + "\"*" }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
