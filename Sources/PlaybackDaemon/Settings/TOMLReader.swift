import SystemSupport

/// A TOML 1.0 value as the settings see it. Dates and times are recognised but not read: no
/// setting takes one.
public enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    /// A table: a `[header]`, a dotted key or an inline `{ ... }`.
    case table
    case dateTime(String)
}

/// A top-level key of a TOML document, where it is assigned.
public struct TOMLEntry: Equatable, Sendable {
    public let key: String
    /// The line (from 1) of its assignment or table header.
    public let line: Int
    public let value: TOMLValue
}

/// Why a text is not TOML, and on which line (from 1).
public struct TOMLSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}

/// Reads TOML 1.0 for the settings file: every top-level key with its value and line, in file
/// order. A table (a header, a dotted key, an inline table) is reported once, by its first
/// name, as `.table`; what is inside it is checked for syntax but not returned, since every
/// setting is a top-level key. Duplicate keys are errors, as the specification says.
///
/// Written for this file rather than wrapping a C++ parser: it allocates only what it
/// returns, keeps every line number, and has nothing that an input can make it abort on.
public struct TOMLReader {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// Deeper arrays and inline tables are refused rather than recursed into.
    private static let maximumDepth = 64

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// The top-level entries of `text`, or the first syntax error.
    public static func entries(of text: String) throws(TOMLSyntaxError) -> [TOMLEntry] {
        var reader = TOMLReader(text)
        return try reader.document()
    }

    // MARK: - Document

    private mutating func document() throws(TOMLSyntaxError) -> [TOMLEntry] {
        var entries: [TOMLEntry] = []
        /// The top-level names so far: whether each is a table.
        var seen: [String: Bool] = [:]
        var insideTable = false
        var tablePaths: Set<[String]> = []
        var tableKeys: Set<[String]> = []
        var currentTable: [String] = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while true {
            skipSpaces()
            guard let byte = peek() else { break }
            let startLine = line
            if byte == UInt8(ascii: "#") || isNewlineStart(byte) {
                try endOfLine()
                continue
            }
            if byte == UInt8(ascii: "[") {
                index += 1
                let arrayOfTables = peek() == UInt8(ascii: "[")
                if arrayOfTables { index += 1 }
                skipSpaces()
                let path = try key()
                skipSpaces()
                try expect("]", "a table header ends with ]")
                if arrayOfTables { try expect("]", "an array of tables' header ends with ]]") }
                try endOfLine()
                if arrayOfTables {
                    // Each [[header]] starts a new table: its keys may repeat the last one's.
                    tableKeys = tableKeys.filter { !$0.starts(with: path) }
                } else if !tablePaths.insert(path).inserted {
                    throw fail("the table [\(path.joined(separator: "."))] is defined twice", line: startLine)
                }
                currentTable = path
                try declareTable(path[0], line: startLine, in: &entries, seen: &seen)
                insideTable = true
                continue
            }
            let path = try key()
            skipSpaces()
            try expect("=", "expected = after the key \(path.joined(separator: "."))")
            skipSpaces()
            let value = try self.value(depth: 0)
            try endOfLine()
            guard tableKeys.insert(currentTable + path).inserted else {
                throw fail("\((currentTable + path).joined(separator: ".")) is defined twice", line: startLine)
            }
            if insideTable { continue }
            if path.count == 1 {
                guard seen.updateValue(false, forKey: path[0]) == nil else {
                    throw fail("\(path[0]) is defined twice", line: startLine)
                }
                entries.append(TOMLEntry(key: path[0], line: startLine, value: value))
            } else {
                try declareTable(path[0], line: startLine, in: &entries, seen: &seen)
            }
        }
        return entries
    }

    /// Records the top-level `name` as a table the first time; a value of that name is an error.
    private func declareTable(
        _ name: String, line: Int, in entries: inout [TOMLEntry], seen: inout [String: Bool]
    ) throws(TOMLSyntaxError) {
        switch seen[name] {
        case nil:
            seen[name] = true
            entries.append(TOMLEntry(key: name, line: line, value: .table))
        case false?: throw fail("\(name) is a value and a table", line: line)
        case true?: break
        }
    }

    /// A possibly dotted key: bare, "basic" or 'literal' parts joined by dots.
    private mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            guard let byte = peek() else { throw fail("a key is missing") }
            if byte == UInt8(ascii: "\"") {
                index += 1
                parts.append(try basicString())
            } else if byte == UInt8(ascii: "'") {
                index += 1
                parts.append(try literalString())
            } else {
                let start = index
                while let byte = peek(), Self.isBareKeyByte(byte) { index += 1 }
                guard index > start else { throw fail("expected a key, found \(describe(byte))") }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            skipSpaces()
            guard peek() == UInt8(ascii: ".") else { return parts }
            index += 1
            skipSpaces()
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        guard depth < Self.maximumDepth else { throw fail("arrays or tables nested more than 64 deep") }
        guard let byte = peek(), !isNewlineStart(byte), byte != UInt8(ascii: "#") else {
            throw fail("a value is missing")
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            // A literal string ('...') takes no escapes; either kind tripled spans lines.
            let literal = byte == UInt8(ascii: "'")
            if starts(with: literal ? "'''" : "\"\"\"") {
                index += 3
                return .string(try multilineString(literal: literal))
            }
            index += 1
            return .string(try literal ? literalString() : basicString())
        case UInt8(ascii: "["):
            index += 1
            return try array(depth: depth)
        case UInt8(ascii: "{"):
            index += 1
            try inlineTable(depth: depth)
            return .table
        default:
            if starts(with: "true") && !isWordByte(at: index + 4) {
                index += 4
                return .boolean(true)
            }
            if starts(with: "false") && !isWordByte(at: index + 5) {
                index += 5
                return .boolean(false)
            }
            return try numberOrDate()
        }
    }

    private mutating func array(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        var elements: [TOMLValue] = []
        while true {
            try skipSpacesNewlinesAndComments()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            elements.append(try value(depth: depth + 1))
            try skipSpacesNewlinesAndComments()
            guard let byte = peek() else { throw fail("an array is not closed with ]") }
            if byte == UInt8(ascii: ",") {
                index += 1
            } else if byte != UInt8(ascii: "]") {
                throw fail("expected , or ] in an array, found \(describe(byte))")
            }
        }
    }

    /// `{ key = value, ... }` on one line, without a trailing comma.
    private mutating func inlineTable(depth: Int) throws(TOMLSyntaxError) {
        var keys: Set<[String]> = []
        skipSpaces()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipSpaces()
            let path = try key()
            guard keys.insert(path).inserted else {
                throw fail("\(path.joined(separator: ".")) is defined twice in an inline table")
            }
            skipSpaces()
            try expect("=", "expected = after the key \(path.joined(separator: "."))")
            skipSpaces()
            _ = try value(depth: depth + 1)
            skipSpaces()
            guard let byte = peek() else { throw fail("an inline table is not closed with }") }
            index += 1
            if byte == UInt8(ascii: "}") { return }
            guard byte == UInt8(ascii: ",") else {
                throw fail("expected , or } in an inline table, found \(describe(byte))")
            }
        }
    }

    /// After the opening quote: up to the closing one, escapes decoded.
    private mutating func basicString() throws(TOMLSyntaxError) -> String {
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek(), !isNewlineStart(byte) else { throw fail("a string is not closed with \"") }
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                scalars.append(try escape())
                continue
            }
            try checkNotControl(byte)
            scalars.append(contentsOf: try scalar().unicodeScalars)
        }
    }

    /// After the opening quote: the bytes up to the closing one, as they are.
    private mutating func literalString() throws(TOMLSyntaxError) -> String {
        let start = index
        while true {
            guard let byte = peek(), !isNewlineStart(byte) else { throw fail("a string is not closed with '") }
            if byte == UInt8(ascii: "'") {
                index += 1
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            }
            try checkNotControl(byte)
            index += 1
        }
    }

    /// After the opening `"""` or `'''`: a newline right after it is dropped, and in a basic
    /// one a backslash at the end of a line joins it to the next non-blank text.
    private mutating func multilineString(literal: Bool) throws(TOMLSyntaxError) -> String {
        let quote = literal ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        if peek() == UInt8(ascii: "\n") {
            index += 1
            line += 1
        } else if starts(with: "\r\n") {
            index += 2
            line += 1
        }
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek() else { throw fail("a multi-line string is not closed") }
            if byte == quote, index + 2 < bytes.count, bytes[index + 1] == quote, bytes[index + 2] == quote {
                // Up to two more quotes belong to the string.
                var run = 3
                while run < 5, index + run < bytes.count, bytes[index + run] == quote { run += 1 }
                for _ in 0..<(run - 3) { scalars.append(Unicode.Scalar(quote)) }
                index += run
                return String(scalars)
            }
            if byte == UInt8(ascii: "\n") || starts(with: "\r\n") {
                index += byte == UInt8(ascii: "\n") ? 1 : 2
                line += 1
                scalars.append("\n")
                continue
            }
            if byte == UInt8(ascii: "\\") && !literal {
                index += 1
                var lookahead = index
                while lookahead < bytes.count, bytes[lookahead] == 0x20 || bytes[lookahead] == 0x09 { lookahead += 1 }
                if lookahead < bytes.count, bytes[lookahead] == 0x0A || bytes[lookahead] == 0x0D {
                    index = lookahead
                    try skipSpacesNewlinesAndComments(comments: false)
                } else {
                    scalars.append(try escape())
                }
                continue
            }
            try checkNotControl(byte)
            scalars.append(contentsOf: try scalar().unicodeScalars)
        }
    }

    /// After a backslash: one escape.
    private mutating func escape() throws(TOMLSyntaxError) -> Unicode.Scalar {
        guard let byte = peek() else { throw fail("a string ends in a backslash") }
        index += 1
        if let scalar = CharacterEscape.scalar(for: byte) { return scalar }
        switch byte {
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = byte == UInt8(ascii: "u") ? 4 : 8
            guard index + digits <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<(index + digits)], as: UTF8.self), radix: 16),
                bytes[index..<(index + digits)].allSatisfy(Self.isHexDigit),
                let scalar = Unicode.Scalar(code)
            else { throw fail("\\\(Unicode.Scalar(byte)) needs \(digits) hex digits of a Unicode scalar") }
            index += digits
            return scalar
        default:
            throw fail("\\\(describe(byte)) is not an escape (\\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)")
        }
    }

    /// One UTF-8 character as it stands (the text was valid UTF-8 when it came in).
    private mutating func scalar() throws(TOMLSyntaxError) -> Substring {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let end = min(index + length, bytes.count)
        defer { index = end }
        return Substring(String(decoding: bytes[index..<end], as: UTF8.self))
    }

    /// An integer (decimal, 0x, 0o, 0b), a float (with `inf` and `nan`), or a date or time.
    private mutating func numberOrDate() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        while index < bytes.count, isWordByte(at: index) || bytes[index] == UInt8(ascii: ":") { index += 1 }
        // A local date and a time may be separated by one space.
        if index < bytes.count, bytes[index] == 0x20, index + 1 < bytes.count, Self.isDigit(bytes[index + 1]),
            isDate(bytes[start..<index])
        {
            index += 1
            while index < bytes.count, isWordByte(at: index) || bytes[index] == UInt8(ascii: ":") { index += 1 }
        }
        let token = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !token.isEmpty else { throw fail("expected a value, found \(describe(bytes[index]))") }
        if isDate(bytes[start..<index]) || token.utf8.count >= 5 && token.utf8.dropFirst(2).first == UInt8(ascii: ":") {
            return .dateTime(token)
        }
        if let integer = Self.integer(token) { return .integer(integer) }
        if let float = Self.float(token) { return .float(float) }
        throw fail("\(token) is not a TOML value (a string needs quotes)")
    }

    private func isDate(_ token: ArraySlice<UInt8>) -> Bool {
        token.count >= 10 && token.prefix(4).allSatisfy(Self.isDigit)
            && token[token.startIndex + 4] == UInt8(ascii: "-")
    }

    static func integer(_ token: String) -> Int64? {
        var text = Substring(token)
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(bytes: prefix) {
            text = text.dropFirst(2)
            guard let digits = Self.digits(text, radix: radix) else { return nil }
            return Int64(digits, radix: radix)
        }
        var sign = ""
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            text = text.dropFirst()
        }
        guard let digits = Self.digits(text, radix: 10), digits == "0" || !digits.hasPrefix(bytes: "0") else {
            return nil
        }
        return Int64(sign + digits)
    }

    static func float(_ token: String) -> Double? {
        var text = Substring(token)
        var sign = 1.0
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            text = text.dropFirst()
        }
        if text == "inf" { return sign * .infinity }
        if text == "nan" { return .nan }
        // integer part, then .fraction and/or e-exponent, each with underscores only between digits
        let exponentStart = text.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = text[..<(exponentStart ?? text.endIndex)]
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = digits(parts[0], radix: 10), whole == "0" || !whole.hasPrefix(bytes: "0") else { return nil }
        var normal = whole
        if parts.count == 2 {
            guard let fraction = digits(parts[1], radix: 10) else { return nil }
            normal += "." + fraction
        }
        if let exponentStart {
            var exponent = text[text.index(after: exponentStart)...]
            var exponentSign = ""
            if let first = exponent.first, first == "+" || first == "-" {
                exponentSign = String(first)
                exponent = exponent.dropFirst()
            }
            guard let digits = digits(exponent, radix: 10) else { return nil }
            normal += "e" + exponentSign + digits
        } else if parts.count == 1 {
            return nil
        }
        return Double(normal).map { sign * $0 }
    }

    /// `text` without its underscores, if it is digits of `radix` with single underscores
    /// only between digits.
    private static func digits(_ text: Substring, radix: Int) -> String? {
        guard let first = text.first, let last = text.last, first != "_", last != "_", !text.contains(bytes: "__")
        else { return nil }
        let digits = text.filter { $0 != "_" }
        guard digits.allSatisfy({ $0.isASCII && $0.hexDigitValue.map { $0 < radix } == true }) else { return nil }
        return String(digits)
    }

    // MARK: - Whitespace, comments, line ends

    private mutating func skipSpaces() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 { index += 1 }
    }

    /// Inside an array: spaces, newlines and comments, any number of each.
    private mutating func skipSpacesNewlinesAndComments(comments: Bool = true) throws(TOMLSyntaxError) {
        while let byte = peek() {
            if byte == 0x20 || byte == 0x09 {
                index += 1
            } else if isNewlineStart(byte) {
                try newline()
            } else if comments && byte == UInt8(ascii: "#") {
                try comment()
            } else {
                return
            }
        }
    }

    /// Optional spaces and a comment, then a newline or the end of the text.
    private mutating func endOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        if peek() == UInt8(ascii: "#") { try comment() }
        guard let byte = peek() else { return }
        guard isNewlineStart(byte) else { throw fail("unexpected \(describe(byte)) after a value (one per line)") }
        try newline()
    }

    private mutating func comment() throws(TOMLSyntaxError) {
        while let byte = peek(), !isNewlineStart(byte) {
            try checkNotControl(byte)
            index += 1
        }
    }

    private mutating func newline() throws(TOMLSyntaxError) {
        if starts(with: "\r\n") {
            index += 2
        } else if peek() == 0x0A {
            index += 1
        } else {
            throw fail("a carriage return without a line feed")
        }
        line += 1
    }

    // MARK: - Bytes

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func starts(with text: String) -> Bool { bytes[index...].starts(with: text.utf8) }

    private mutating func expect(_ character: Unicode.Scalar, _ message: String) throws(TOMLSyntaxError) {
        guard peek() == UInt8(ascii: character) else { throw fail(message) }
        index += 1
    }

    private func isNewlineStart(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    private func isWordByte(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        return Self.isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }

    private func checkNotControl(_ byte: UInt8) throws(TOMLSyntaxError) {
        if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            throw fail("control character \(describe(byte)) (write it as an escape in a basic string)")
        }
    }

    private static func isBareKeyByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte)
            ? "'\(Unicode.Scalar(byte))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func fail(_ message: String, line: Int? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(line: line ?? self.line, message: message)
    }
}
