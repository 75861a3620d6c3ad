/// Why a JSON text could not be parsed, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes. Depth is bounded so hostile input cannot
/// exhaust the stack.
public struct JSONParser {
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    /// Parses one complete JSON text; trailing non-whitespace is an error.
    public static func parse(_ text: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text))
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw parser.error("unexpected trailing data") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset)
    }

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let b = peek else { throw error("unexpected end of input") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Unicode.Scalar(b))'")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        let expected = Array(literal.utf8)
        guard offset + expected.count <= bytes.count,
            bytes[offset..<offset + expected.count].elementsEqual(expected)
        else {
            throw error("invalid literal")
        }
        offset += expected.count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        offset += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") { offset += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':'") }
            offset += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; depth -= 1; return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { offset += 1; depth -= 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; depth -= 1; return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = offset
        if peek == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek, isDigit(first) else { throw error("expected a digit") }
        offset += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            offset += 1
            guard let d = peek, isDigit(d) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            guard let d = peek, isDigit(d) else { throw error("expected a digit in exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private mutating func skipDigits() { while let b = peek, isDigit(b) { offset += 1 } }

    private mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        // Built only once an escape appears: most strings have none and are made straight from
        // their bytes (a 1,000-item state file has about 20,000 strings).
        var escaped: String.UnicodeScalarView?
        var runStart = offset
        /// Invalid UTF-8 is an error, never silently replaced (a state file written by a broken
        /// disk must be set aside, not read back with U+FFFD in its paths).
        func run(to end: Int) throws(JSONParseError) -> String {
            guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                throw JSONParseError(reason: "invalid UTF-8 in string", offset: runStart)
            }
            return run
        }
        while true {
            guard let b = peek else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                let last = try run(to: offset)
                offset += 1
                guard var scalars = escaped else { return last }
                scalars.append(contentsOf: last.unicodeScalars)
                return String(scalars)
            case UInt8(ascii: "\\"):
                var scalars = escaped.take() ?? String.UnicodeScalarView()
                scalars.append(contentsOf: try run(to: offset).unicodeScalars)
                offset += 1
                scalars.append(try parseEscape())
                escaped = scalars
                runStart = offset
            case 0..<0x20:
                throw error("control character in string")
            default:
                offset += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let b = peek else { throw error("unterminated escape") }
        offset += 1
        switch b {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try parseUnicodeEscape()
        default: throw error("invalid escape '\\\(Unicode.Scalar(b))'")
        }
    }

    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            guard peek == UInt8(ascii: "\\"), offset + 1 < bytes.count,
                bytes[offset + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate") }
            offset += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
        return scalar
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[offset]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - 55
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }
}
