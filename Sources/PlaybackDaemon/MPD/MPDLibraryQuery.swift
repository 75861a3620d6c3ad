import Glibc
import PlaybackModel

/// A search of MPD's protocol as a library query: the old `TYPE VALUE` pairs or a filter
/// expression (`((artist == 'X') AND (album contains 'Y'))`), then `sort TYPE` and
/// `window START:END`. Text folds case and accents as the library does, for `find` too.
struct MPDLibraryQuery {
    var query = LibraryQuery(entity: .songs)
    var window: Range<Int>?
    /// What `group` named (`list` and `count`).
    var group: MPDTag?
    /// Where `findadd` and `searchadd` insert (`position POS`, protocol 0.23), as written.
    var position: String?

    /// The songs' tag a type names, as the library's field.
    static let fields: [String: String] = [
        "artist": "artist", "album": "album", "albumartist": "albumArtist", "title": "title", "genre": "genre",
        "composer": "composer", "date": "year", "track": "trackNumber", "disc": "discNumber",
    ]

    /// Reads `arguments`; `exact` for `find` (equal values), else `search` (values contained).
    static func parse(_ arguments: [String], exact: Bool, roots: [String]) -> Result<MPDLibraryQuery, MPDError> {
        var result = MPDLibraryQuery()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("(") {
                var parser = MPDFilterExpression(text: word, roots: roots)
                switch parser.parse() {
                case .failure(let error): return .failure(error)
                case .success(let (filters, text)):
                    result.query.filters += filters
                    result.query.exclusions += parser.exclusions
                    if let text {
                        result.query.text = [result.query.text, text].compactMap { $0 }.joined(separator: " ")
                    }
                }
                index += 1
                continue
            }
            guard index + 1 < arguments.count else {
                return .failure(MPDError(.argument, "Not enough arguments"))
            }
            let value = arguments[index + 1]
            index += 2
            switch word.lowercased() {
            case "sort":
                let descending = value.hasPrefix("-")
                guard let field = fields[String(value.drop { $0 == "-" }).lowercased()] else {
                    return .failure(MPDError(.argument, "Unknown sort tag: \(value)"))
                }
                result.query.sort.append(LibraryQuery.SortKey(field, descending: descending))
            case "window":
                switch MPDArgument.range(value, count: Int.max) {
                case .failure(let error): return .failure(error)
                case .success(let range): result.window = range
                }
            case "position":
                result.position = value
            case "group":
                guard let tag = MPDTag.named(value) else {
                    return .failure(MPDError(.argument, "Unknown tag type: \(value)"))
                }
                result.group = tag
            default:
                switch filter(type: word, value: value, comparison: exact ? .equalTo : .contains, roots: roots) {
                case .failure(let error): return .failure(error)
                case .success(.filter(let filter)): result.query.filters.append(filter)
                case .success(.text(let text)):
                    result.query.text = [result.query.text, text].compactMap { $0 }.joined(separator: " ")
                }
            }
        }
        return .success(result)
    }

    /// A time as MPD reads one: ISO 8601 in UTC (`2024-05-01T12:00:00Z`, `2024-05-01`,
    /// `2024-05`) or whole seconds since the epoch (a time zone offset is not read).
    static func timeStamp(_ text: String) -> Int? {
        if let seconds = Int(text), seconds >= 0 { return seconds }
        let halves = text.split(separator: "T", omittingEmptySubsequences: false)
        let date = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count <= 2, (2...3).contains(date.count), date[0].count == 4,
            date.allSatisfy({ $0.allSatisfy(\.isASCII) }), let year = Int(date[0]), let month = Int(date[1]),
            (1...12).contains(month)
        else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = 1
        if date.count == 3 {
            guard let day = Int(date[2]), (1...31).contains(day) else { return nil }
            fields.tm_mday = Int32(day)
        }
        if halves.count == 2 {
            let clock = halves[1].hasSuffix("Z") ? halves[1].dropLast() : halves[1]
            let time = clock.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard date.count == 3 else { return nil }
            guard time.count == 3, let hour = time[0], let minute = time[1], let second = time[2],
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            (fields.tm_hour, fields.tm_min, fields.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        }
        return timegm(&fields)
    }

    enum Condition {
        case filter(LibraryQuery.Filter)
        /// `any`: words that begin a word of any text tag (the library's search).
        case text(String)
    }

    /// One condition: a tag, `file` (one file), `base` (a folder), `modified-since` (a time
    /// stamp), or `any`.
    static func filter(
        type: String, value: String, comparison: LibraryQuery.Comparison, roots: [String]
    ) -> Result<Condition, MPDError> {
        let type = type.lowercased()
        if comparison == .matches && ["any", "file", "base", "modified-since", "added-since"].contains(type) {
            return .failure(MPDError(.argument, "regular expressions apply to tags, not to '\(type)'"))
        }
        if comparison == .matches, let problem = LibraryPattern.problem(value) {
            return .failure(MPDError(.argument, "Invalid regular expression: \(problem)"))
        }
        switch type {
        case "any":
            // Any part of any tag, as MPD's search; `find any` (equal) keeps the words search.
            guard comparison == .contains else { return .success(.text(value)) }
            return .success(.filter(.init(.anyTag, .contains, value)))
        case "modified-since", "added-since":
            guard let seconds = timeStamp(value) else {
                return .failure(MPDError(.argument, "Failed to parse time stamp: \(value)"))
            }
            let field = LibraryField.named(type == "added-since" ? "dateAdded" : "modified")!
            return .success(.filter(.init(field, .atLeast, String(seconds))))
        case "file", "base":
            guard let path = MPDSongFormat.path(ofURI: value, roots: roots) else {
                return .failure(MPDError(.noExist, "No such directory"))
            }
            let field = LibraryField.named("path")!
            return .success(
                .filter(type == "file" ? .init(field, .equalTo, path) : .init(field, .startsWith, path + "/")))
        default:
            guard let name = fields[type], let field = LibraryField.named(name) else {
                return .failure(MPDError(.argument, "Unknown filter type: \(type)"))
            }
            // Numbers compare whole (`date` is its year); a pattern matches them as text.
            if comparison == .matches { return .success(.filter(.init(field, .matches, value))) }
            if name == "year" || name == "trackNumber" || name == "discNumber" {
                let digits = String(value.prefix { $0.isNumber })
                guard !digits.isEmpty else { return .failure(MPDError(.argument, "Integer expected: \(value)")) }
                return .success(.filter(.init(field, .equalTo, digits)))
            }
            return .success(.filter(.init(field, comparison, value)))
        }
    }
}

/// MPD's filter expressions (protocol 0.21): `(TAG == 'VALUE')`, `(TAG != 'VALUE')`,
/// `(TAG contains 'VALUE')`, `(TAG starts_with 'VALUE')`, `(TAG =~ 'REGEX')`, `(TAG !~ 'REGEX')`,
/// `(base 'FOLDER')`, `(modified-since 'TIME')`, `(file == 'FILE')`, `(!(A))`, and
/// `((A) AND (B))`, negated too (the query's `exclusions`); a negated group inside a negation
/// is refused.
struct MPDFilterExpression {
    private var characters: [Character]
    private var position = 0
    private let roots: [String]
    /// The negated groups of several filters read (`(!((A) AND (B)))`), for the query's
    /// `exclusions`.
    private(set) var exclusions: [[LibraryQuery.Filter]] = []

    init(text: String, roots: [String]) {
        characters = Array(text)
        self.roots = roots
    }

    mutating func parse() -> Result<([LibraryQuery.Filter], String?), MPDError> {
        var filters: [LibraryQuery.Filter] = []
        var words: [String] = []
        let result = expression(&filters, &words)
        skipSpaces()
        if case .failure(let error) = result { return .failure(error) }
        guard position == characters.count else {
            return .failure(MPDError(.argument, "Unparsed garbage after expression"))
        }
        return .success((filters, words.isEmpty ? nil : words.joined(separator: " ")))
    }

    /// Deepest nesting read: each level is a call, and a line may hold 32,000 parentheses.
    static let maximumDepth = 16

    private mutating func expression(
        _ filters: inout [LibraryQuery.Filter], _ words: inout [String], depth: Int = 0
    ) -> Result<Void, MPDError> {
        guard depth < Self.maximumDepth else { return .failure(MPDError(.argument, "expression nested too deeply")) }
        skipSpaces()
        guard take("(") else { return .failure(MPDError(.argument, "'(' expected")) }
        skipSpaces()
        if peek == "(" {
            while true {
                if case .failure(let error) = expression(&filters, &words, depth: depth + 1) { return .failure(error) }
                skipSpaces()
                if take(")") { return .success(()) }
                guard word() == "AND" else { return .failure(MPDError(.argument, "'AND' expected")) }
            }
        }
        if take("!") {
            var negated: [LibraryQuery.Filter] = []
            var negatedWords: [String] = []
            let groups = exclusions.count
            if case .failure(let error) = expression(&negated, &negatedWords, depth: depth + 1) {
                return .failure(error)
            }
            guard exclusions.count == groups else {
                return .failure(MPDError(.argument, "a negated group inside a negation is not supported"))
            }
            skipSpaces()
            guard take(")") else { return .failure(MPDError(.argument, "')' expected")) }
            guard negatedWords.isEmpty else { return .failure(MPDError(.argument, "'any' cannot be negated")) }
            if negated.count == 1 {
                negated[0].isNegated.toggle()
                filters.append(negated[0])
            } else {
                exclusions.append(negated)
            }
            return .success(())
        }
        let tag = word()
        skipSpaces()
        var comparison = LibraryQuery.Comparison.equalTo
        var isNegated = false
        if ["base", "modified-since", "added-since"].contains(tag.lowercased()) {
            comparison = .startsWith  // no operator: a folder, or a time from which on
        } else {
            switch word() {
            case "==": comparison = .equalTo
            case "!=": isNegated = true
            case "contains": comparison = .contains
            case "starts_with": comparison = .startsWith
            case "=~": comparison = .matches
            case "!~": (comparison, isNegated) = (.matches, true)
            case let other: return .failure(MPDError(.argument, "unsupported filter operator: \(other)"))
            }
        }
        skipSpaces()
        guard let value = quoted() else { return .failure(MPDError(.argument, "quoted string expected")) }
        skipSpaces()
        guard take(")") else { return .failure(MPDError(.argument, "')' expected")) }
        switch MPDLibraryQuery.filter(type: tag, value: value, comparison: comparison, roots: roots) {
        case .failure(let error): return .failure(error)
        case .success(.filter(var filter)):
            filter.isNegated = isNegated
            filters.append(filter)
        case .success(.text(let text)):
            guard !isNegated else { return .failure(MPDError(.argument, "'any' cannot be negated")) }
            words.append(text)
        }
        return .success(())
    }

    private var peek: Character? { position < characters.count ? characters[position] : nil }

    private mutating func take(_ character: Character) -> Bool {
        guard peek == character else { return false }
        position += 1
        return true
    }

    private mutating func skipSpaces() {
        while peek == " " { position += 1 }
    }

    /// Characters up to a space, a parenthesis or a quote.
    private mutating func word() -> String {
        skipSpaces()
        var word = ""
        while let character = peek, character != " ", character != "(", character != ")", character != "'",
            character != "\""
        {
            word.append(character)
            position += 1
        }
        return word
    }

    /// A value in single or double quotes, `\` escaping the next character.
    private mutating func quoted() -> String? {
        guard let quote = peek, quote == "'" || quote == "\"" else { return nil }
        position += 1
        var value = ""
        while let character = peek {
            position += 1
            if character == quote { return value }
            if character == "\\" {
                guard let escaped = peek else { return nil }
                value.append(escaped)
                position += 1
            } else {
                value.append(character)
            }
        }
        return nil
    }
}
