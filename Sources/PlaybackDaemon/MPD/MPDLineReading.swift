import SystemSupport

/// MPD's request lines as the front end reads them, for the fuzz target (`playbackd-fuzz
/// mpd-line`): a line's words, then its search (the old pairs or a filter expression).
public enum MPDLineReading {
    /// Nil when the line is refused; otherwise whether its words, each written back quoted
    /// (with `\` before `"` and `\`), read as the same words. The search is read too (any
    /// outcome but a crash or a hang is fine).
    public static func readsBack(_ text: String) -> Bool? {
        guard case .success(let line) = MPDRequestLine.parse(text) else { return nil }
        _ = MPDLibraryQuery.parse(line.arguments, exact: false, roots: ["/music"])
        let quoted =
            ([line.name]
            + line.arguments.map { argument in
                "\"" + argument.substituting("\\", with: "\\\\").substituting("\"", with: "\\\"") + "\""
            }).joined(separator: " ")
        guard case .success(let again) = MPDRequestLine.parse(quoted) else { return false }
        return again.arguments == line.arguments
    }
}
