extension JSONValue {
    /// Compact JSON text (no newlines), the form written on the wire.
    public var serialized: String { String(decoding: serializedBytes, as: UTF8.self) }

    /// The same as UTF-8 bytes. Writing bytes rather than appending to a `String` keeps a
    /// now-playing reply at a few thousand instructions.
    public var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(to: &out)
        return out
    }

    /// Appends the compact text to `out` (a file of many values written into one buffer).
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Self.nullBytes
        case .bool(let b): out += b ? Self.trueBytes : Self.falseBytes
        case .number(let n):
            if let integer = Self.exactInteger(n) {
                Self.appendDecimal(integer, to: &out)
            } else if n.isFinite {
                out += n.description.utf8
            } else {
                // JSON has no NaN or infinity (`nan` would make the whole line invalid): a value
                // that is not a number is written as none.
                out += Self.nullBytes
            }
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .encoded(let text): out += text
        }
    }

    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// Integral values within 2^53 are written without a fraction, so ids echo as sent.
    static func format(_ n: Double) -> String {
        if let integer = exactInteger(n) { return String(integer) }
        return n.description
    }

    private static func exactInteger(_ n: Double) -> Int64? {
        n.rounded() == n && abs(n) < 9_007_199_254_740_992 ? Int64(n) : nil
    }

    /// Appends the decimal digits of `value` without making a `String` (a reply can hold
    /// thousands of ids).
    private static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// Appends `s` quoted and escaped. A string with nothing to escape (the common case: a
    /// title, a path) is copied in one go.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            if !bytes.contains(where: needsEscape) {
                out.append(contentsOf: bytes)
            } else {
                appendEscaped(bytes, to: &out)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Control characters, quote, backslash, and the lead byte of U+2028/U+2029.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20: out += Array("\\u00".utf8) + [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            case 0xE2
            where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                // U+2028/U+2029 are valid JSON but end lines in JavaScript.
                out += Array("\\u202".utf8) + [bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")]
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 48 + nibble : 87 + nibble }
}
