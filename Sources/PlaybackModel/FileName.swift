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
        var path = path
        return path.withUTF8 { bytes in
            let slash = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            return `extension`(ofName: UnsafeBufferPointer(rebasing: bytes[slash...]))
        }
    }

    /// The extension of the file name `name` (UTF-8, no `/`), as `extension` gives it. A short
    /// one is made without an allocation: a library walk asks this of every file.
    public static func `extension`(ofName name: UnsafeBufferPointer<UInt8>) -> String {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != 0 else { return "" }
        let letters = UnsafeBufferPointer(rebasing: name[(dot + 1)...])
        return String(unsafeUninitializedCapacity: letters.count) { buffer in
            _ = buffer.initialize(from: letters.lazy.map(asciiLowercase))
            return letters.count
        }
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
