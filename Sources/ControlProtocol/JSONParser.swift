import SystemSupport

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

    /// The text, borrowed for the length of `parse`.
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    private var depth = 0

    /// Parses one complete JSON text; trailing non-whitespace is an error.
    ///
    /// Inlinable, so that each caller gets it for its own type: called generically, reaching
    /// the bytes of a `String.UTF8View` goes through the runtime's generic witnesses.
    @inlinable
    public static func parse(_ text: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        // Contiguous bytes (an array, a slice of one) are read in place; others are copied once.
        // (The error is carried out in a variable: a `Result` here needs a runtime conformance
        // lookup, the costliest step of a short command.)
        var failure: JSONParseError?
        func parseCatching(_ buffer: UnsafeBufferPointer<UInt8>) -> JSONValue? {
            do { return try parse(buffer: buffer) } catch {
                failure = error
                return nil
            }
        }
        let parsed =
            text.withContiguousStorageIfAvailable(parseCatching) ?? Array(text).withUnsafeBufferPointer(parseCatching)
        if let failure { throw failure }
        return parsed!
    }

    @usableFromInline
    static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw parser.error("unexpected trailing data") }
        return value
    }

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset)
    }

    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
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

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard offset + expected.count <= bytes.count,
            bytes[offset..<offset + expected.count].elementsEqual(expected)
        else {
            throw error("invalid literal")
        }
        offset += expected.count
    }

    /// Steps into an object or array at its opening byte: true when `closer` follows at once
    /// (an empty container, already left).
    private mutating func open(closedBy closer: UInt8) throws(JSONParseError) -> Bool {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        offset += 1
        skipWhitespace()
        return peek == closer && close()
    }

    /// After a member or element: true after a comma (another follows), false at `closer`
    /// (the container is left).
    private mutating func continues(closedBy closer: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: ","): offset += 1; return true
        case closer: return !close()
        default: throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
        }
    }

    /// Leaves a container at its closing byte; always true.
    private mutating func close() -> Bool {
        offset += 1
        depth -= 1
        return true
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if try open(closedBy: UInt8(ascii: "}")) { return .object(members) }
        // Room for a typical object's members at once, rather than growing through 1, 2, 4, 8.
        members.reserveCapacity(8)
        repeat {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':'") }
            offset += 1
            skipWhitespace()
            members.append((key, try parseValue()))
        } while try continues(closedBy: UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        if try open(closedBy: UInt8(ascii: "]")) { return .array(elements) }
        // Room for a state file's item line (a path and up to 20 values) at once: grown through
        // 1, 2, 4, 8 and 16, each line of a 100,000-item file took four allocations more.
        elements.reserveCapacity(16)
        repeat {
            skipWhitespace()
            elements.append(try parseValue())
        } while try continues(closedBy: UInt8(ascii: "]"))
        return .array(elements)
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = offset
        let isNegative = peek == UInt8(ascii: "-")
        if isNegative { offset += 1 }
        guard let first = peek, isDigit(first) else { throw error("expected a digit") }
        // The digits are gathered as a whole number as they are checked (`significand`, up to
        // 19 digits), with the power of ten they are scaled by (`scale`).
        var significand: UInt64 = 0
        var isExact = true
        var scale = 0
        func gather(_ digit: UInt8) {
            guard significand < 1_000_000_000_000_000_000 else { isExact = false; return }
            significand = significand * 10 + UInt64(digit - 0x30)
        }
        offset += 1
        gather(first)
        if first != UInt8(ascii: "0") {
            while let b = peek, isDigit(b) { gather(b); offset += 1 }
        }
        if peek == UInt8(ascii: ".") {
            offset += 1
            guard let d = peek, isDigit(d) else { throw error("expected a digit after '.'") }
            while let b = peek, isDigit(b) { gather(b); scale -= 1; offset += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            let isNegativeExponent = peek == UInt8(ascii: "-")
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            guard let d = peek, isDigit(d) else { throw error("expected a digit in exponent") }
            var exponent = 0
            while let b = peek, isDigit(b) {
                exponent = min(exponent * 10 + Int(b - 0x30), 100_000)
                offset += 1
            }
            scale += isNegativeExponent ? -exponent : exponent
        }
        // Clinger's fast path: a significand and a power of ten that are both exact doubles give
        // the correctly rounded value in one multiplication or division, as strtod would.
        if isExact, significand <= 1 << 53, (-22...22).contains(scale) {
            let magnitude =
                scale < 0
                ? Double(significand) / Self.powersOfTen[-scale] : Double(significand) * Self.powersOfTen[scale]
            return isNegative ? -magnitude : magnitude
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return value
    }

    /// 10^0 through 10^22, each exact as a double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        // Built only once an escape appears: most strings have none and are made straight from
        // their bytes (a 1,000-item state file has about 20,000 strings).
        var escaped: String.UnicodeScalarView?
        var runStart = offset
        /// Any byte of the run from 0x80 up sets this bit.
        var highBits: UInt8 = 0
        /// Invalid UTF-8 is an error, never silently replaced (a state file written by a broken
        /// disk must be set aside, not read back with U+FFFD in its paths).
        func run(to end: Int) throws(JSONParseError) -> String {
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
            // ASCII is valid UTF-8 as it is; `String(validating:)` costs the runtime a generic
            // lookup or two a call, a third of reading a state file when every string took it.
            if highBits & 0x80 == 0 { return String(decoding: run, as: UTF8.self) }
            guard let valid = String(validating: run, as: UTF8.self) else {
                throw JSONParseError(reason: "invalid UTF-8 in string", offset: runStart)
            }
            return valid
        }
        while true {
            // Most bytes are none of the three kinds that end a run.
            while offset < bytes.count, bytes[offset] >= 0x20, bytes[offset] != UInt8(ascii: "\""),
                bytes[offset] != UInt8(ascii: "\\")
            {
                highBits |= bytes[offset]
                offset += 1
            }
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
                highBits = 0
            default:  // below 0x20
                throw error("control character in string")
            }
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let b = peek else { throw error("unterminated escape") }
        offset += 1
        if let scalar = CharacterEscape.scalar(for: b) { return scalar }
        switch b {
        case UInt8(ascii: "/"): return "/"
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
