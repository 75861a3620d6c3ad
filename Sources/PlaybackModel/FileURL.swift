/// Builds `file://` URLs from absolute paths, percent-encoding what RFC 3986 requires.
public enum FileURL {
    public static func from(path: String) -> String {
        var out = Array("file://".utf8)
        out.reserveCapacity(out.count + path.utf8.count)
        for byte in path.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex(byte >> 4), hex(byte & 0xF)]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The path of a local `file://` URL (`file:///p` or `file://localhost/p`), percent-decoded;
    /// nil for another host or a malformed escape.
    public static func path(fromURL url: String) -> String? {
        var rest = Substring(url)
        guard rest.hasPrefix("file://") else { return nil }
        rest = rest.dropFirst(7)
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst(9) }
        guard rest.hasPrefix("/") else { return nil }
        return percentDecoded(rest)
    }

    /// `text` with every `%XX` escape decoded (URLs, D-Bus addresses); nil for a malformed one.
    public static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 48 + nibble : 55 + nibble
    }
}
