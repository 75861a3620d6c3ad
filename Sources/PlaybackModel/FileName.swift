/// The parts of a path's last component. Paths are bytes: `/` and `.` are found in the UTF-8
/// (never part of a multi-byte sequence), with no Unicode segmentation.
public enum FileName {
    /// The last component without its extension: the title of an untagged file.
    public static func stem(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = extensionDot(name) else { return String(decoding: name, as: UTF8.self) }
        return String(decoding: name[..<dot], as: UTF8.self)
    }

    /// The extension, its ASCII letters lowercased, without the dot; empty when there is none.
    public static func `extension`(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = extensionDot(name) else { return "" }
        return String(decoding: name[name.index(after: dot)...].map(asciiLowercase), as: UTF8.self)
    }

    private static func lastComponent(_ path: String) -> Substring.UTF8View {
        let bytes = path.utf8
        return bytes[(bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex)...]
    }

    /// The last dot, unless it starts the name (`.hidden` has no extension).
    private static func extensionDot(_ name: Substring.UTF8View) -> String.Index? {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return nil }
        return dot
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
