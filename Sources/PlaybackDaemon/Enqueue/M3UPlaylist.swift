import PlaybackModel
import SystemSupport

/// An M3U or M3U8 playlist's entries, read from its bytes: UTF-8 (a byte-order mark is
/// dropped), else Latin-1 as old `.m3u` files are; one entry per line that is not blank or a
/// comment, with the title of the `#EXTINF` line before it. Lines may end in LF, CRLF or CR.
/// Reading never fails: what an entry names is judged by whoever opens it.
public struct M3UPlaylist: Equatable, Sendable {
    /// One line naming something to play.
    public struct Entry: Equatable, Sendable {
        /// The line as written, spaces and tabs around it removed: a path or a URL.
        public var location: String
        /// The `#EXTINF:…,TITLE` that came before it, if any.
        public var title: String?
    }

    public private(set) var entries: [Entry] = []

    /// Reads `bytes`, the whole playlist file.
    public init(bytes: [UInt8]) {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
        var title: String?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingSpaces
            if line.isEmpty { continue }
            if line.hasPrefix(bytes: "#") {
                if line.hasPrefix(bytes: "#EXTINF:"), let comma = line.firstIndex(of: ",") {
                    let name = line[line.index(after: comma)...].trimmingSpaces
                    title = name.isEmpty ? nil : name
                }
                continue
            }
            entries.append(Entry(location: line, title: title))
            title = nil
        }
    }

    /// An entry as an absolute path: `file://` URLs decoded, relative paths against `base`,
    /// the playlist's directory; an HTTP(S) URL as it is. Nil for other URLs (`ftp://`).
    public static func path(of location: String, base: String) -> String? {
        if location.hasPrefix(bytes: "file://") || StreamURL.isStream(location) {
            return StreamURL.item(fromURL: location)
        }
        if let colon = location.firstIndex(of: ":"), location[..<colon].allSatisfy({ $0.isLetter }),
            location[colon...].hasPrefix(bytes: "://")
        {
            return nil
        }
        return location.hasPrefix(bytes: "/") ? location : base + "/" + location
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
