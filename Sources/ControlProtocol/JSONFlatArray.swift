/// An element of a flat JSON array, as `JSONParser.readFlatArray` hands it over.
public enum JSONScalar {
    /// A string's bytes, valid UTF-8 with no escape in them; borrowed for the call only.
    case string(UnsafeBufferPointer<UInt8>)
    case number(Double)
    case null
}

extension JSONParser {
    /// Reads `bytes` as one array of strings without escapes, numbers and nulls, and hands
    /// each element to `element` in order. It builds no `JSONValue`: this is how a restart reads
    /// a state file's 100,000 item lines (a `JSONValue` a line, its array and its strings took
    /// half of that time). False when `element` returns false, and for any other text (an
    /// escape, a nested value, `true`, invalid JSON or UTF-8): `parse` reads that, or says what
    /// is wrong with it.
    public static func readFlatArray(_ bytes: UnsafeBufferPointer<UInt8>, _ element: (JSONScalar) -> Bool) -> Bool {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard parser.peek == UInt8(ascii: "[") else { return false }
        parser.offset += 1
        parser.skipWhitespace()
        if parser.peek == UInt8(ascii: "]") {
            parser.offset += 1
        } else {
            elements: while true {
                parser.skipWhitespace()
                guard let scalar = parser.flatScalar(), element(scalar) else { return false }
                parser.skipWhitespace()
                switch parser.peek {
                case UInt8(ascii: ","): parser.offset += 1
                case UInt8(ascii: "]"):
                    parser.offset += 1
                    break elements
                default: return false
                }
            }
        }
        parser.skipWhitespace()
        return parser.offset == bytes.count
    }

    /// The value at `offset` when it is a string without escapes, a number or null.
    private mutating func flatScalar() -> JSONScalar? {
        switch peek {
        case UInt8(ascii: "\"")?: return plainString().map(JSONScalar.string)
        case UInt8(ascii: "n")?: return (try? expectLiteral("null")) != nil ? .null : nil
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?:
            return (try? parseNumber()).map(JSONScalar.number)
        default: return nil
        }
    }

    /// The bytes of the string at `offset`, when it has no escape or control character and is
    /// valid UTF-8 (checked as `parse` checks it).
    private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        offset += 1
        let start = offset
        var highBits: UInt8 = 0
        while offset < bytes.count, bytes[offset] >= 0x20, bytes[offset] != UInt8(ascii: "\""),
            bytes[offset] != UInt8(ascii: "\\")
        {
            highBits |= bytes[offset]
            offset += 1
        }
        guard peek == UInt8(ascii: "\"") else { return nil }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        offset += 1
        guard highBits & 0x80 == 0 || String(validating: run, as: UTF8.self) != nil else { return nil }
        return run
    }
}
