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
