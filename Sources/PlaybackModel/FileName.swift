/// The parts of a path's last component.
public enum FileName {
    /// The last component without its extension: the title of an untagged file.
    public static func stem(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return String(name) }
        return String(name[..<dot])
    }

    /// The extension, lowercased, without the dot; empty when there is none.
    public static func `extension`(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    private static func lastComponent(_ path: String) -> Substring {
        path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
    }
}
