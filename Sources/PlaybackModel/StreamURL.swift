/// What playbackd makes of an `http://` or `https://` item: the only URLs it plays (a path
/// names every other item).
public enum StreamURL {
    /// Whether `text` is an HTTP(S) URL (the scheme in any case).
    public static func isStream(_ text: String) -> Bool {
        let lower = text.utf8.prefix(8).map { $0 | 0x20 }
        return lower.starts(with: "http://".utf8) || lower.starts(with: "https://".utf8)
    }

    /// Whether `text` has a scheme (`name:` before any `/`), as a URL does and a path does not.
    public static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = text.utf8[..<colon]
        return !scheme.isEmpty
            && scheme.allSatisfy { byte in
                (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || (byte >= 0x30 && byte <= 0x39)
            }
    }

    /// The URL of an item: a file's `file://` URL, a stream's own.
    public static func url(ofItem path: String) -> String { isStream(path) ? path : FileURL.from(path: path) }

    /// The item an item URL names (`url(ofItem:)` undone); nil for a URL that names none.
    public static func item(fromURL url: String) -> String? { isStream(url) ? url : FileURL.path(fromURL: url) }

    /// The URL without its credentials (`user:password@`), for logs and titles.
    public static func redacted(_ url: String) -> String {
        let bytes = Array(url.utf8)
        guard let schemeEnd = bytes.firstIndex(ofBytes: Array("://".utf8)) else { return url }
        let hostStart = schemeEnd + 3
        let authorityEnd =
            bytes[hostStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? bytes.endIndex
        guard let at = bytes[hostStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return url }
        return String(decoding: bytes[..<hostStart] + bytes[(at + 1)...], as: UTF8.self)
    }

    /// The last segment of the URL's path, percent-decoded (`episode 12.mp3`); the host when
    /// the path is empty.
    public static func lastSegment(_ url: String) -> String {
        let bytes = Array(redacted(url).utf8)
        let start = (bytes.firstIndex(ofBytes: Array("://".utf8)) ?? -3) + 3
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let path = bytes[start..<end]
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard segments.count > 1, let last = segments.last else {
            return String(decoding: segments.first ?? path, as: UTF8.self)
        }
        let text = String(decoding: last, as: UTF8.self)
        return FileURL.percentDecoded(Substring(text)) ?? text
    }

    /// The extension of the URL's last path segment, lowercased (`mp3`); empty without one.
    public static func `extension`(_ url: String) -> String {
        FileName.extension(lastSegment(url))
    }
}
