import PlaybackModel
import SystemSupport

/// A PLS playlist's entries (Shoutcast's format: `[playlist]`, `File1=…`, `Title1=…`), in the
/// order of their numbers; read from its bytes as UTF-8, else Latin-1. Reading never fails:
/// lines that are no entry are passed over.
public struct PLSPlaylist: Equatable, Sendable {
    public private(set) var entries: [M3UPlaylist.Entry] = []

    /// Reads `bytes`, the whole playlist.
    public init(bytes: [UInt8]) {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
        var files: [Int: String] = [:]
        var titles: [Int: String] = [:]
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingSpacesAndTabs
            for (prefix, isFile) in [("file", true), ("title", false)] where key.hasPrefix(bytes: prefix) {
                guard let number = Int(key.dropFirst(prefix.count)), !value.isEmpty else { continue }
                if isFile { files[number] = value } else { titles[number] = value }
            }
        }
        entries = files.keys.sorted().map { M3UPlaylist.Entry(location: files[$0]!, title: titles[$0]) }
    }
}

extension String {
    fileprivate var trimmingSpacesAndTabs: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
